import type { FastifyInstance } from 'fastify'
import { LOGIN_THROTTLE, tooManyLoginAttemptsMessage } from '../../domain/auth.ts'
import { API_PREFIX, ROUTES } from '../../domain/rest.ts'
import { toErrorBody } from '../api/apiError.ts'
import type { Clock } from '../clock.ts'

/** Most keys one counter keeps; beyond it the stalest are dropped (a flood of new e-mails). */
const MAX_KEYS = 50_000

/** Failure times per key within a sliding window, with a cap on the keys it remembers. */
class FailureCounter {
  readonly #limit: number
  readonly #windowMs: number
  readonly #failures = new Map<string, number[]>()

  constructor(limit: number, windowMs: number) {
    this.#limit = limit
    this.#windowMs = windowMs
  }

  #recent(key: string, nowMs: number): number[] {
    const times = (this.#failures.get(key) ?? []).filter((t) => t > nowMs - this.#windowMs)
    if (times.length === 0) this.#failures.delete(key)
    else this.#failures.set(key, times)
    return times
  }

  /** Seconds until the key may try again; 0 when it may now. */
  retryAfterS(key: string, nowMs: number): number {
    const times = this.#recent(key, nowMs)
    if (times.length < this.#limit) return 0
    const oldest = times[times.length - this.#limit] ?? nowMs
    return Math.max(1, Math.ceil((oldest + this.#windowMs - nowMs) / 1000))
  }

  record(key: string, nowMs: number): void {
    const times = this.#recent(key, nowMs)
    times.push(nowMs)
    // Only the newest `limit` times decide anything.
    this.#failures.delete(key)
    this.#failures.set(key, times.slice(-this.#limit))
    if (this.#failures.size > MAX_KEYS) {
      const oldestKey = this.#failures.keys().next().value
      if (oldestKey !== undefined) this.#failures.delete(oldestKey)
    }
  }

  /** Takes back one recorded time (an attempt that turned out not to be a failure). */
  release(key: string, timeMs: number): void {
    const times = this.#failures.get(key)
    const index = times?.indexOf(timeMs) ?? -1
    if (!times || index < 0) return
    times.splice(index, 1)
    if (times.length === 0) this.#failures.delete(key)
  }

  clear(key: string): void {
    this.#failures.delete(key)
  }
}

/** How a checked login ended: wrong credentials, logged in, or neither (refused, failed). */
export type LoginOutcome = 'failed' | 'succeeded' | 'other'

/**
 * Per-account and per-address login throttling of one server (LOGIN_THROTTLE of domain/auth.ts).
 * Kept in memory: a restart forgets the counts, and servers behind one balancer count apart.
 */
export class LoginThrottle {
  readonly #clock: Clock
  readonly #accounts = new FailureCounter(LOGIN_THROTTLE.accountFailures, LOGIN_THROTTLE.windowMs)
  readonly #addresses = new FailureCounter(LOGIN_THROTTLE.addressFailures, LOGIN_THROTTLE.windowMs)

  constructor(clock: Clock) {
    this.#clock = clock
  }

  /** Seconds the attempt must wait (0: it may go ahead and be checked). */
  retryAfterS(email: string, address: string): number {
    const nowMs = this.#clock.nowMs()
    return Math.max(
      this.#accounts.retryAfterS(email, nowMs),
      this.#addresses.retryAfterS(address, nowMs),
    )
  }

  /**
   * Counts an attempt as failed as soon as it starts, so concurrent guesses cannot all slip in
   * before the first is counted; returns its time for {@link settle}.
   */
  begin(email: string, address: string): number {
    const nowMs = this.#clock.nowMs()
    this.#accounts.record(email, nowMs)
    this.#addresses.record(address, nowMs)
    return nowMs
  }

  /** The outcome of an attempt begun at `startedMs`: a failure stays counted. */
  settle(email: string, address: string, startedMs: number, outcome: LoginOutcome): void {
    if (outcome === 'failed') return
    this.#accounts.release(email, startedMs)
    this.#addresses.release(address, startedMs)
    if (outcome === 'succeeded') this.#accounts.clear(email)
  }
}

/** The account key of a login body: the e-mail as the login schema normalizes it. */
function accountKey(body: unknown): string | null {
  if (typeof body !== 'object' || body === null || !('email' in body)) return null
  const email = body.email
  return typeof email === 'string' ? email.trim().toLowerCase() : null
}

/**
 * Throttles POST /api/auth/login: a throttled attempt answers 429 `too_many_requests` with
 * Retry-After before its handler (and scrypt) runs; an attempt counts against the account and the
 * address while it runs and stays counted when it answers 401; a 200 clears the account.
 */
export function registerLoginThrottle(app: FastifyInstance, clock: Clock): LoginThrottle {
  const throttle = new LoginThrottle(clock)
  const loginUrl = API_PREFIX + ROUTES.login.path
  const attempts = new WeakMap<object, { email: string; startedMs: number }>()
  app.addHook('preHandler', async (request, reply) => {
    if (request.method !== 'POST' || request.routeOptions.url !== loginUrl) return
    const email = accountKey(request.body)
    if (email === null) return
    const retryAfterS = throttle.retryAfterS(email, request.ip)
    if (retryAfterS > 0) {
      return reply
        .code(429)
        .header('Retry-After', String(retryAfterS))
        .send(toErrorBody('too_many_requests', tooManyLoginAttemptsMessage(retryAfterS)))
    }
    attempts.set(request, { email, startedMs: throttle.begin(email, request.ip) })
  })
  app.addHook('onResponse', async (request, reply) => {
    const attempt = attempts.get(request)
    if (attempt === undefined) return
    const status = reply.statusCode
    const outcome = status === 401 ? 'failed' : status === 200 ? 'succeeded' : 'other'
    throttle.settle(attempt.email, request.ip, attempt.startedMs, outcome)
  })
  return throttle
}
