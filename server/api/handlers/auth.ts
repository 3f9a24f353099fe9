import { LOGIN_BUSY_MESSAGE, WRONG_CREDENTIALS_MESSAGE } from '../../../domain/auth.ts'
import {
  PasswordCheckBusyError,
  UNUSABLE_PASSWORD_HASH,
  verifyPassword,
} from '../../auth/passwords.ts'
import {
  createSession,
  deleteExpiredSessions,
  revokeSession,
  rotateSession,
} from '../../auth/sessions.ts'
import { checkLoginCode } from '../../account/securityHandlers.ts'
import { ApiError } from '../apiError.ts'
import type { RouteHandlers } from '../context.ts'

export const login: RouteHandlers['login'] = async ({ body }, { db, clock }) => {
  const user = await db
    .selectFrom('users')
    .select(['id', 'password_hash', 'active'])
    .where('email', '=', body.email)
    .executeTakeFirst()
  // An unknown e-mail costs the same scrypt as a wrong password and gets the same answer.
  const matches = await verifyPassword(
    body.password,
    user?.password_hash ?? UNUSABLE_PASSWORD_HASH,
  ).catch((error: unknown) => {
    if (error instanceof PasswordCheckBusyError)
      throw new ApiError('too_many_requests', LOGIN_BUSY_MESSAGE)
    throw error
  })
  if (!user || !matches || user.active !== 1)
    throw new ApiError('authentication_failed', WRONG_CREDENTIALS_MESSAGE)
  await checkLoginCode({ db, clock }, user.id, body.code)
  await deleteExpiredSessions(db, clock)
  return createSession(db, clock, user.id)
}

export const refresh: RouteHandlers['refresh'] = async ({ body }, { db, clock }) => {
  if (body.refreshToken === '') throw missingRefreshToken()
  return rotateSession(db, clock, body.refreshToken)
}

export function missingRefreshToken(): ApiError {
  return new ApiError('missing_refresh_token', 'A refresh token is required')
}

export const logout: RouteHandlers['logout'] = async ({ body }, { db, clock, sessionId, user }) => {
  await revokeSession(db, clock, sessionId, user.id, body.refreshToken)
  return { ok: true }
}
