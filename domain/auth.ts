import * as v from 'valibot'

export const LoginRequestSchema = v.strictObject({
  email: v.pipe(
    v.string(),
    v.trim(),
    v.toLowerCase(),
    v.email('Enter a valid e-mail address'),
    v.maxLength(254),
  ),
  password: v.pipe(v.string(), v.minLength(1, 'Password is required'), v.maxLength(1000)),
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
