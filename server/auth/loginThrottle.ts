import { createHash } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import type { Kysely } from 'kysely'
import { LOGIN_THROTTLE, tooManyLoginAttemptsMessage } from '../../domain/auth.ts'
import { API_PREFIX, ROUTES } from '../../domain/rest.ts'
import { toErrorBody } from '../api/apiError.ts'
import type { Clock } from '../clock.ts'
import type { Database } from '../db/schema.ts'

/*
 * Per-account and per-address login throttling (LOGIN_THROTTLE of domain/auth.ts) kept in the
 * database (login_failures, server/auth/tables.ts): a restart keeps the counts and every server
 * process on the database shares them. A key owns `limit` slots; an attempt claims a free slot
 * (none yet, or one whose time left the window) with one atomic upsert before it is checked, so
 * concurrent guesses, here or in another process, cannot all slip in. No free slot: 429 before
 * the handler, and scrypt, ever run.
 */

type Db = Kysely<Database>
type Scope = 'account' | 'address'

/** How often rows that left the window are deleted while the server runs (and once at start). */
export const LOGIN_FAILURE_SWEEP_INTERVAL_MS = 10 * 60 * 1000

/** How a checked login ended: wrong credentials, logged in, or neither (refused, failed). */
export type LoginOutcome = 'failed' | 'succeeded' | 'other'

/** A slot an attempt holds while it is checked; it stays as a failure unless released. */
interface Claim {
  scope: Scope
  key: string
  slot: number
  failedAt: string
}

/** An attempt that may go ahead (its claims) or must wait (seconds). */
export type LoginAttempt = { claims: Claim[] } | { retryAfterS: number }

const LIMITS: Record<Scope, number> = {
  account: LOGIN_THROTTLE.accountFailures,
  address: LOGIN_THROTTLE.addressFailures,
}

/** The account's key: a hash of the normalized e-mail (fixed length, no address stored). */
function accountKeyOf(email: string): string {
  return createHash('sha256').update(email).digest('hex')
}

/** Throttling of the logins of one database, shared by every process on it. */
export class LoginThrottle {
  readonly #db: Db
  readonly #clock: Clock

  constructor(db: Db, clock: Clock) {
    this.#db = db
    this.#clock = clock
  }

  /**
   * Claims a slot of the account and one of the address as the attempt starts (counted as a
   * failure until {@link settle} says otherwise), or answers how many seconds it must wait.
   */
  async begin(email: string, address: string): Promise<LoginAttempt> {
    const nowMs = this.#clock.nowMs()
    const account = await this.#claim('account', accountKeyOf(email), nowMs)
    if (typeof account === 'number') return { retryAfterS: account }
    const fromAddress = await this.#claim('address', address, nowMs)
    if (typeof fromAddress === 'number') {
      await this.#release([account])
      return { retryAfterS: fromAddress }
    }
    return { claims: [account, fromAddress] }
  }

  /** The outcome of an attempt: a failure keeps its slots, a success clears the account. */
  async settle(claims: readonly Claim[], outcome: LoginOutcome): Promise<void> {
    if (outcome === 'failed') return
    await this.#release(claims)
    if (outcome !== 'succeeded') return
    for (const claim of claims)
      if (claim.scope === 'account')
        await this.#db
          .deleteFrom('login_failures')
          .where('scope', '=', 'account')
          .where('key', '=', claim.key)
          .execute()
  }

  /** Deletes the slots whose time left the window. */
  async sweep(): Promise<void> {
    await this.#db
      .deleteFrom('login_failures')
      .where('failed_at', '<=', this.#windowStart(this.#clock.nowMs()))
      .execute()
  }

  #windowStart(nowMs: number): string {
    return new Date(nowMs - LOGIN_THROTTLE.windowMs).toISOString()
  }

  /** A claimed slot of the key, or the seconds until one is free. */
  async #claim(scope: Scope, key: string, nowMs: number): Promise<Claim | number> {
    const failedAt = new Date(nowMs).toISOString()
    const windowStart = this.#windowStart(nowMs)
    for (let pass = 0; pass < 2; pass++) {
      const rows = await this.#db
        .selectFrom('login_failures')
        .select(['slot', 'failed_at'])
        .where('scope', '=', scope)
        .where('key', '=', key)
        .execute()
      const recent = rows.filter((row) => row.failed_at > windowStart)
      const taken = new Set(recent.map((row) => row.slot))
      const free = Array.from({ length: LIMITS[scope] }, (_, slot) => slot).filter(
        (slot) => !taken.has(slot),
      )
      if (free.length === 0) {
        const oldestMs = Math.min(...recent.map((row) => Date.parse(row.failed_at)))
        return Math.max(1, Math.ceil((oldestMs + LOGIN_THROTTLE.windowMs - nowMs) / 1000))
      }
      for (const slot of free) {
        // Inserted, or taken over once its time left the window: atomic on both databases.
        const claimed = await this.#db
          .insertInto('login_failures')
          .values({ scope, key, slot, failed_at: failedAt })
          .onConflict((conflict) =>
            conflict
              .columns(['scope', 'key', 'slot'])
              .doUpdateSet({ failed_at: failedAt })
              .where('login_failures.failed_at', '<=', windowStart),
          )
          .returning('slot')
          .executeTakeFirst()
        if (claimed) return { scope, key, slot, failedAt }
      }
    }
    // Every free slot went to a concurrent attempt twice over: the key is at its limit now.
    return 1
  }

  /** Takes back slots still holding these attempts' times. */
  async #release(claims: readonly Claim[]): Promise<void> {
    for (const claim of claims)
      await this.#db
        .deleteFrom('login_failures')
        .where('scope', '=', claim.scope)
        .where('key', '=', claim.key)
        .where('slot', '=', claim.slot)
        .where('failed_at', '=', claim.failedAt)
        .execute()
  }
}

/** The account key of a login body: the e-mail as the login schema normalizes it. */
function accountEmail(body: unknown): string | null {
  if (typeof body !== 'object' || body === null || !('email' in body)) return null
  const email = body.email
  return typeof email === 'string' ? email.trim().toLowerCase() : null
}

/**
 * Throttles POST /api/auth/login: a throttled attempt answers 429 `too_many_requests` with
 * Retry-After before its handler (and scrypt) runs; an attempt counts against the account and the
 * address while it runs and stays counted when it answers 401; a 200 clears the account. Slots
 * that left the window are swept at start and every LOGIN_FAILURE_SWEEP_INTERVAL_MS.
 */
export async function registerLoginThrottle(
  app: FastifyInstance,
  db: Db,
  clock: Clock,
): Promise<LoginThrottle> {
  const throttle = new LoginThrottle(db, clock)
  const loginUrl = API_PREFIX + ROUTES.login.path
  const attempts = new WeakMap<object, Claim[]>()
  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'POST' || request.routeOptions.url !== loginUrl) return
    const email = accountEmail(request.body)
    if (email === null) return
    const attempt = await throttle.begin(email, request.ip)
    if ('retryAfterS' in attempt) {
      return reply
        .code(429)
        .header('Retry-After', String(attempt.retryAfterS))
        .send(toErrorBody('too_many_requests', tooManyLoginAttemptsMessage(attempt.retryAfterS)))
    }
    attempts.set(request, attempt.claims)
  })
  app.addHook('onResponse', async (request, reply) => {
    const claims = attempts.get(request)
    if (claims === undefined) return
    const status = reply.statusCode
    const outcome = status === 401 ? 'failed' : status === 200 ? 'succeeded' : 'other'
    await throttle
      .settle(claims, outcome)
      .catch((error: unknown) => request.log.error({ error }, 'Settling a login attempt failed'))
  })
  const sweep = () => {
    throttle
      .sweep()
      .catch((error: unknown) => app.log.error({ error }, 'Sweeping login failures failed'))
  }
  await throttle.sweep()
  const timer = setInterval(sweep, LOGIN_FAILURE_SWEEP_INTERVAL_MS)
  timer.unref()
  app.addHook('onClose', (_instance, done) => {
    clearInterval(timer)
    done()
  })
  return throttle
}
