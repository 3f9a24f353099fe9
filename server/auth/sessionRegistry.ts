import type { Kysely } from 'kysely'
import type { Clock } from '../clock.ts'
import type { Database } from '../db/schema.ts'

/** Why a watched session ended: logged out, access token expired, revoked (token reuse, user gone). */
export type SessionEndReason = 'logout' | 'expired' | 'revoked'

/** Something that lives as long as a session (an open websocket) and is told when it ends. */
interface SessionWatcher {
  sessionId: number
  expiresAtMs: number
  onEnd: (reason: SessionEndReason) => void
}

/** How often expiries are checked against the clock (no database involved). */
export const SESSION_EXPIRY_CHECK_MS = 1000

/**
 * The sessions open websockets were authenticated with, so a socket ends with its session without
 * a query per message: logout and revocation call {@link end}, a refresh moves the watchers to the
 * new session with {@link rotate}, and a timer ends those whose access token expired (checked
 * every second against the server's clock, so a test clock moves it too).
 */
export class SessionRegistry {
  readonly #clock: Clock
  readonly #watchers = new Set<SessionWatcher>()
  #timer: NodeJS.Timeout | undefined

  constructor(clock: Clock) {
    this.#clock = clock
  }

  /** Watches a session until `expiresAtMs`; the returned function stops watching. */
  watch(
    sessionId: number,
    expiresAtMs: number,
    onEnd: (reason: SessionEndReason) => void,
  ): () => void {
    const watcher: SessionWatcher = { sessionId, expiresAtMs, onEnd }
    this.#watchers.add(watcher)
    this.#startTimer()
    if (expiresAtMs <= this.#clock.nowMs()) this.#finish(watcher, 'expired')
    return () => {
      this.#watchers.delete(watcher)
      this.#stopTimerIfIdle()
    }
  }

  /** Ends every watcher of these sessions. */
  end(sessionIds: readonly number[], reason: SessionEndReason): void {
    const ids = new Set(sessionIds)
    for (const watcher of [...this.#watchers])
      if (ids.has(watcher.sessionId)) this.#finish(watcher, reason)
  }

  /** A refresh replaced a session: its watchers now live as long as the new one. */
  rotate(oldSessionId: number, newSessionId: number, newExpiresAtMs: number): void {
    for (const watcher of this.#watchers)
      if (watcher.sessionId === oldSessionId) {
        watcher.sessionId = newSessionId
        watcher.expiresAtMs = newExpiresAtMs
      }
  }

  /** Ends watchers whose access token has expired. */
  checkExpiries(): void {
    const nowMs = this.#clock.nowMs()
    for (const watcher of [...this.#watchers])
      if (watcher.expiresAtMs <= nowMs) this.#finish(watcher, 'expired')
  }

  /** Open watchers (tests, diagnostics). */
  size(): number {
    return this.#watchers.size
  }

  #finish(watcher: SessionWatcher, reason: SessionEndReason): void {
    if (!this.#watchers.delete(watcher)) return
    this.#stopTimerIfIdle()
    try {
      watcher.onEnd(reason)
    } catch (error) {
      console.error('Ending a session watcher failed', error)
    }
  }

  #startTimer(): void {
    if (this.#timer) return
    this.#timer = setInterval(() => this.checkExpiries(), SESSION_EXPIRY_CHECK_MS)
    this.#timer.unref()
  }

  #stopTimerIfIdle(): void {
    if (this.#watchers.size > 0 || !this.#timer) return
    clearInterval(this.#timer)
    this.#timer = undefined
  }
}

const REGISTRIES = new WeakMap<Kysely<Database>, SessionRegistry>()

/**
 * The registry of a database's server: the auth handlers and the websocket channels of one app
 * share it (the first caller's clock is the app's clock).
 */
export function sessionRegistryFor(db: Kysely<Database>, clock: Clock): SessionRegistry {
  let registry = REGISTRIES.get(db)
  if (!registry) {
    registry = new SessionRegistry(clock)
    REGISTRIES.set(db, registry)
  }
  return registry
}
