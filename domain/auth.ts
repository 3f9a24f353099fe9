import * as v from 'valibot'
import { formatNumber } from './units.ts'

export const LoginRequestSchema = v.strictObject({
  email: v.pipe(
    v.string(),
    v.trim(),
    v.toLowerCase(),
    v.email('Enter a valid e-mail address'),
    v.maxLength(254),
  ),
  password: v.pipe(v.string(), v.minLength(1, 'Password is required'), v.maxLength(1000)),
  /** The authenticator app's code, once two-factor sign-in is enabled (issue 15). */
  code: v.optional(v.pipe(v.string(), v.maxLength(20))),
})
export type LoginRequest = v.InferOutput<typeof LoginRequestSchema>

export const RefreshRequestSchema = v.strictObject({
  refreshToken: v.pipe(v.string(), v.maxLength(200)),
})
export const LogoutRequestSchema = v.strictObject({
  refreshToken: v.optional(v.pipe(v.string(), v.maxLength(200))),
})

/** Bearer tokens: `expiresIn` is the access token's life in seconds. */
export const TokenResponseSchema = v.object({
  accessToken: v.string(),
  refreshToken: v.string(),
  expiresIn: v.number(),
})
export type TokenResponse = v.InferOutput<typeof TokenResponseSchema>

/** Access tokens are short-lived; a refresh token lives a month and is rotated on every use. */
export const ACCESS_TOKEN_TTL_S = 15 * 60
export const REFRESH_TOKEN_TTL_S = 30 * 24 * 3600

export const AUTH_FAILED_TITLE = 'Authentication Failed'
export const LOGIN_FAILED_MESSAGE = 'Something went wrong while trying to log you in!'
export const WRONG_CREDENTIALS_MESSAGE = 'Wrong e-mail or password.'

/**
 * Login throttling (issue 13). Failed attempts are counted per account (e-mail) and per client
 * address over a sliding window; past the limit an attempt is refused with 429 before its password
 * is hashed, until the oldest failure of the window ages out. A successful login clears the
 * account's count (not the address's). The spec has no wording for this; the message is ours.
 */
export const LOGIN_THROTTLE = {
  windowMs: 15 * 60 * 1000,
  /** Failed attempts on one account within the window before further attempts are refused. */
  accountFailures: 5,
  /** Failed attempts from one address within the window (any accounts) before it is refused. */
  addressFailures: 20,
} as const

/** The refusal of a throttled login, rounding the wait up to whole minutes. */
export function tooManyLoginAttemptsMessage(retryAfterS: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterS / 60))
  return `Too many failed log-in attempts. Try again in ${formatNumber(minutes)} ${minutes === 1 ? 'minute' : 'minutes'}.`
}

/** The refusal when the server already checks as many passwords as it allows at once. */
export const LOGIN_BUSY_MESSAGE =
  'The server is busy checking other log-ins. Try again in a moment.'
