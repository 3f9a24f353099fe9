/**
 * The results session's heartbeat (engine/results/ResultsSession.ts): sys.heartbeat every 10 s
 * while answers come, every 0.5 s once one is overdue (domain/liveProtocol.ts); after
 * HEARTBEAT_MAX_MISSED unanswered beats the socket counts as dead. Only a server that has answered
 * a heartbeat on this socket is judged by them (older ones never answer).
 */
import { heartbeatIntervalMs } from '../../domain/liveProtocol.ts'
import { HEARTBEAT_MAX_MISSED, type SessionTimers } from './sessionTypes.ts'

/** What the heartbeat needs of the session. */
export interface HeartbeatHooks {
  /** The session is open on a socket (beats are sent only then). */
  isOpen(): boolean
  /** Sends one sys.heartbeat (when the socket can take it). */
  send(): void
  /** The socket said nothing for too long: replace it. */
  dead(): void
}

/** One socket's heartbeat; `start` again for the next socket. */
export class SessionHeartbeat {
  readonly #timers: SessionTimers
  readonly #hooks: HeartbeatHooks
  #timer: unknown = null
  #heardSinceBeat = true
  #beatOutstanding = false
  #missedBeats = 0
  /** Set once this socket answered a heartbeat: only then does silence count as death. */
  #answered = false

  constructor(timers: SessionTimers, hooks: HeartbeatHooks) {
    this.#timers = timers
    this.#hooks = hooks
  }

  /** The session opened on a new socket: count afresh and beat in 10 s. */
  start(): void {
    this.#heardSinceBeat = true
    this.#beatOutstanding = false
    this.#missedBeats = 0
    this.#answered = false
    this.#schedule(heartbeatIntervalMs(true))
  }

  stop(): void {
    if (this.#timer !== null) this.#timers.clearTimeout(this.#timer)
    this.#timer = null
  }

  /** Any frame came: the socket lives. */
  heard(): void {
    this.#heardSinceBeat = true
  }

  /** A sys.heartbeat.resp came. */
  answered(): void {
    this.#answered = true
  }

  #schedule(delayMs: number): void {
    this.stop()
    this.#timer = this.#timers.setTimeout(() => {
      this.#timer = null
      this.#beat()
    }, delayMs)
  }

  #beat(): void {
    if (!this.#hooks.isOpen()) return
    // A server that never answers heartbeats (older ones) is not judged by them.
    const overdue = this.#beatOutstanding && !this.#heardSinceBeat && this.#answered
    this.#missedBeats = overdue ? this.#missedBeats + 1 : 0
    if (this.#missedBeats > HEARTBEAT_MAX_MISSED) {
      this.#hooks.dead()
      return
    }
    // Flags first: an answer may arrive before send() returns (tests, same-thread servers).
    this.#beatOutstanding = true
    this.#heardSinceBeat = false
    this.#hooks.send()
    this.#schedule(heartbeatIntervalMs(this.#missedBeats === 0))
  }
}
