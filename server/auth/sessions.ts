import type { Kysely } from 'kysely'
import { ROLES, hasPermission, type Role } from '../../domain/account.ts'
import { ACCESS_TOKEN_TTL_S, REFRESH_TOKEN_TTL_S, type TokenResponse } from '../../domain/auth.ts'
import { ApiError } from '../api/apiError.ts'
import type { SessionUser } from '../api/context.ts'
import type { Clock } from '../clock.ts'
import type { Database, UserRow } from '../db/schema.ts'
import { sessionRegistryFor } from './sessionRegistry.ts'
import { createToken, hashToken } from './tokens.ts'

type Db = Kysely<Database>

function toSessionUser(row: UserRow): SessionUser {
  const role: Role = ROLES.find((r) => r === row.role) ?? 'contributor'
  return { ...row, role }
}

/** A new session: its row id, its tokens and when its access token expires. */
interface NewSession {
  id: number
  tokens: TokenResponse
  accessExpiresAtMs: number
}

async function insertSession(
  db: Db,
  clock: Clock,
  userId: number,
  familyId: number | null = null,
): Promise<NewSession> {
  const accessToken = createToken()
  const refreshToken = createToken()
  const nowMs = clock.nowMs()
  const accessExpiresAtMs = nowMs + ACCESS_TOKEN_TTL_S * 1000
  const row = await db
    .insertInto('sessions')
    .values({
      user_id: userId,
      access_token_hash: hashToken(accessToken),
      refresh_token_hash: hashToken(refreshToken),
      access_expires_at: new Date(accessExpiresAtMs).toISOString(),
      refresh_expires_at: new Date(nowMs + REFRESH_TOKEN_TTL_S * 1000).toISOString(),
      created_at: new Date(nowMs).toISOString(),
      family_id: familyId,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return {
    id: row.id,
    tokens: { accessToken, refreshToken, expiresIn: ACCESS_TOKEN_TTL_S },
    accessExpiresAtMs,
  }
}

/** Starts a session: a fresh access and refresh token pair. */
export async function createSession(db: Db, clock: Clock, userId: number): Promise<TokenResponse> {
  return (await insertSession(db, clock, userId)).tokens
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
): Promise<{ user: SessionUser; sessionId: number; accessExpiresAtMs: number }> {
  if (!accessToken || accessToken.length > 200)
    throw new ApiError('unauthorized', 'A valid access token is required')
  const row = await db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .select(['sessions.id as session_id', 'sessions.access_expires_at as access_expires_at'])
    .where('sessions.access_token_hash', '=', hashToken(accessToken))
    .where('sessions.revoked_at', 'is', null)
    .where('sessions.access_expires_at', '>', new Date(clock.nowMs()).toISOString())
    .where('users.active', '=', 1)
    .executeTakeFirst()
  if (!row) throw new ApiError('unauthorized', 'The access token is invalid or has expired')
  const { session_id, access_expires_at, ...user } = row
  return {
    user: await actingUser(db, clock, toSessionUser(user)),
    sessionId: session_id,
    accessExpiresAtMs: Date.parse(access_expires_at),
  }
}

/**
 * The user as they act on this request (spec/account.md §4): a provider member who chose an access
 * grant acts in the grant's organization while the grant is theirs, active and unexpired and
 * their role still has ACCESS_GRANT_SELECTION; otherwise (revoked, expired, none) in their own,
 * and activeAccessGrantId reads null.
 */
export async function actingUser(db: Db, clock: Clock, user: SessionUser): Promise<SessionUser> {
  if (user.active_access_grant_id === null) return user
  const own = { ...user, active_access_grant_id: null }
  if (!hasPermission(user.role, 'ACCESS_GRANT_SELECTION')) return own
  const grant = await findUsableAccessGrant(db, clock, user.id, user.active_access_grant_id)
  return grant ? { ...user, organization_id: grant.organization_id } : own
}

/** The caller's grant `grantId` if it is active and unexpired now, else undefined. */
export async function findUsableAccessGrant(
  db: Db,
  clock: Clock,
  userId: number,
  grantId: number,
): Promise<{ id: number; organization_id: number } | undefined> {
  return db
    .selectFrom('access_grants')
    .select(['id', 'organization_id'])
    .where('id', '=', grantId)
    .where('requester_id', '=', userId)
    .where('state', '=', 'active')
    .where('expiry', '>', clock.nowIso())
    .executeTakeFirst()
}

/** What a refresh found: a live session to rotate, or a rotated token used again. */
type RefreshOutcome =
  { kind: 'rotated'; oldId: number; next: NewSession } | { kind: 'reused'; revokedIds: number[] }

const invalidGrant = () =>
  new ApiError('invalid_grant', 'The refresh token is invalid or has expired')

/**
 * Trades a refresh token for a new pair and revokes the old session, so each refresh token works
 * once: a second use (or an expired, unknown or revoked token) is 401 invalid_grant. A second use
 * of a token that was rotated or logged out also revokes every live session of its login (the
 * family): whoever holds the stolen copy or the legitimate one, both must log in again.
 */
export async function rotateSession(
  db: Db,
  clock: Clock,
  refreshToken: string,
): Promise<TokenResponse> {
  const outcome = await db.transaction().execute(async (trx): Promise<RefreshOutcome> => {
    const nowIso = clock.nowIso()
    const session = await trx
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select([
        'sessions.id',
        'sessions.user_id',
        'sessions.refresh_expires_at',
        'sessions.revoked_at',
        'sessions.family_id',
        'users.active',
      ])
      .where('sessions.refresh_token_hash', '=', hashToken(refreshToken))
      .executeTakeFirst()
    if (!session || session.refresh_expires_at <= nowIso) throw invalidGrant()
    const familyId = session.family_id ?? session.id
    if (session.revoked_at !== null) {
      const revoked = await trx
        .updateTable('sessions')
        .set({ revoked_at: nowIso })
        .where('revoked_at', 'is', null)
        .where((eb) => eb.or([eb('family_id', '=', familyId), eb('id', '=', familyId)]))
        .returning('id')
        .execute()
      return { kind: 'reused', revokedIds: revoked.map((row) => row.id) }
    }
    if (session.active !== 1) throw invalidGrant()
    // Conditional on revoked_at so two concurrent refreshes cannot both win.
    const revoked = await trx
      .updateTable('sessions')
      .set({ revoked_at: nowIso })
      .where('id', '=', session.id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst()
    if (Number(revoked.numUpdatedRows) !== 1) throw invalidGrant()
    const next = await insertSession(trx, clock, session.user_id, familyId)
    return { kind: 'rotated', oldId: session.id, next }
  })
  const registry = sessionRegistryFor(db, clock)
  if (outcome.kind === 'reused') {
    registry.end(outcome.revokedIds, 'revoked')
    throw invalidGrant()
  }
  // Sockets opened with the old pair carry on with the new one (same login, new expiry).
  registry.rotate(outcome.oldId, outcome.next.id, outcome.next.accessExpiresAtMs)
  return outcome.next.tokens
}

/**
 * Ends a session (and the one of a refresh token of the same user, if given); websockets opened
 * with it close (SessionRegistry).
 */
export async function revokeSession(
  db: Db,
  clock: Clock,
  sessionId: number,
  userId: number,
  refreshToken?: string,
): Promise<void> {
  const nowIso = clock.nowIso()
  const ended = await db
    .updateTable('sessions')
    .set({ revoked_at: nowIso })
    .where('revoked_at', 'is', null)
    .where('user_id', '=', userId)
    .where((eb) =>
      refreshToken
        ? eb.or([eb('id', '=', sessionId), eb('refresh_token_hash', '=', hashToken(refreshToken))])
        : eb('id', '=', sessionId),
    )
    .returning('id')
    .execute()
  sessionRegistryFor(db, clock).end([sessionId, ...ended.map((row) => row.id)], 'logout')
}

/** Drops sessions that can no longer be refreshed. */
export async function deleteExpiredSessions(db: Db, clock: Clock): Promise<void> {
  await db.deleteFrom('sessions').where('refresh_expires_at', '<', clock.nowIso()).execute()
}

/** How often expired sessions are deleted while the server runs. */
export const SESSION_SWEEP_INTERVAL_MS = 60 * 60 * 1000

/**
 * Deletes expired sessions now and then every `intervalMs` until the returned function is called
 * (a failed sweep is logged and the next one tries again).
 */
export function startSessionSweep(
  db: Db,
  clock: Clock,
  intervalMs: number = SESSION_SWEEP_INTERVAL_MS,
): () => void {
  const sweep = () => {
    deleteExpiredSessions(db, clock).catch((error: unknown) =>
      console.error('Deleting expired sessions failed', error),
    )
  }
  sweep()
  const timer = setInterval(sweep, intervalMs)
  timer.unref()
  return () => clearInterval(timer)
}
