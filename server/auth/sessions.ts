import type { Kysely } from 'kysely'
import { ROLES, type Role } from '../../domain/account.ts'
import { ACCESS_TOKEN_TTL_S, REFRESH_TOKEN_TTL_S, type TokenResponse } from '../../domain/auth.ts'
import { ApiError } from '../api/apiError.ts'
import type { SessionUser } from '../api/context.ts'
import type { Clock } from '../clock.ts'
import type { Database, UserRow } from '../db/schema.ts'
import { createToken, hashToken } from './tokens.ts'

type Db = Kysely<Database>

function toSessionUser(row: UserRow): SessionUser {
  const role: Role = ROLES.find((r) => r === row.role) ?? 'contributor'
  return { ...row, role }
}

/** Starts a session: a fresh access and refresh token pair. */
export async function createSession(db: Db, clock: Clock, userId: number): Promise<TokenResponse> {
  const accessToken = createToken()
  const refreshToken = createToken()
  const nowMs = clock.nowMs()
  await db
    .insertInto('sessions')
    .values({
      user_id: userId,
      access_token_hash: hashToken(accessToken),
      refresh_token_hash: hashToken(refreshToken),
      access_expires_at: new Date(nowMs + ACCESS_TOKEN_TTL_S * 1000).toISOString(),
      refresh_expires_at: new Date(nowMs + REFRESH_TOKEN_TTL_S * 1000).toISOString(),
      created_at: new Date(nowMs).toISOString(),
    })
    .execute()
  return { accessToken, refreshToken, expiresIn: ACCESS_TOKEN_TTL_S }
}

/** The bearer token of an Authorization header, or undefined. */
export function readBearerToken(header: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')
  return match?.[1]
}

/** The user behind a live access token; anything else is 401 unauthorized. */
export async function authenticateAccessToken(
  db: Db,
  clock: Clock,
  accessToken: string | undefined,
): Promise<{ user: SessionUser; sessionId: number }> {
  if (!accessToken || accessToken.length > 200)
    throw new ApiError('unauthorized', 'A valid access token is required')
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .select(['sessions.id as session_id'])
    .where('sessions.access_token_hash', '=', hashToken(accessToken))
    .where('sessions.revoked_at', 'is', null)
    .where('sessions.access_expires_at', '>', new Date(clock.nowMs()).toISOString())
    .where('users.active', '=', 1)
    .executeTakeFirst()
  if (!row) throw new ApiError('unauthorized', 'The access token is invalid or has expired')
  const { session_id, ...user } = row
  return { user: toSessionUser(user), sessionId: session_id }
}

/**
 * Trades a refresh token for a new pair and revokes the old session, so each refresh token works
 * once: a second use (or an expired, unknown or revoked token) is 401 invalid_grant.
 */
export async function rotateSession(
  db: Db,
  clock: Clock,
  refreshToken: string,
): Promise<TokenResponse> {
  return db.transaction().execute(async (trx) => {
    const nowIso = clock.nowIso()
    const session = await trx
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select(['sessions.id', 'sessions.user_id', 'sessions.refresh_expires_at', 'users.active'])
      .where('sessions.refresh_token_hash', '=', hashToken(refreshToken))
      .where('sessions.revoked_at', 'is', null)
      .executeTakeFirst()
    if (!session || session.refresh_expires_at <= nowIso || session.active !== 1)
      throw new ApiError('invalid_grant', 'The refresh token is invalid or has expired')
    // Conditional on revoked_at so two concurrent refreshes cannot both win.
    const revoked = await trx
      .updateTable('sessions')
      .set({ revoked_at: nowIso })
      .where('id', '=', session.id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst()
    if (Number(revoked.numUpdatedRows) !== 1)
      throw new ApiError('invalid_grant', 'The refresh token is invalid or has expired')
    return createSession(trx, clock, session.user_id)
  })
}

/** Ends a session (and the one of a refresh token of the same user, if given). */
export async function revokeSession(
  db: Db,
  clock: Clock,
  sessionId: number,
  userId: number,
  refreshToken?: string,
): Promise<void> {
  const nowIso = clock.nowIso()
  await db
    .updateTable('sessions')
    .set({ revoked_at: nowIso })
    .where('revoked_at', 'is', null)
    .where('user_id', '=', userId)
    .where((eb) =>
      refreshToken
        ? eb.or([eb('id', '=', sessionId), eb('refresh_token_hash', '=', hashToken(refreshToken))])
        : eb('id', '=', sessionId),
    )
    .execute()
}

/** Drops sessions that can no longer be refreshed. */
export async function deleteExpiredSessions(db: Db, clock: Clock): Promise<void> {
  await db.deleteFrom('sessions').where('refresh_expires_at', '<', clock.nowIso()).execute()
}
