import { HIDDEN_PAGE_DISCONNECT_MS } from '../../domain/constants.ts'
import {
  PROTOCOL_VERSION,
  delayForAttempt,
  heartbeatIntervalMs,
  parseLiveServerFrame,
  shouldReconnect,
  type ConnectionToastState,
  type LiveClientFrame,
  type LiveServerFrame,
} from '../../domain/liveProtocol.ts'

/** The part of the browser's WebSocket the connection uses (a fake in tests). */
export interface SocketLike {
  readyState: number
  send(text: string): void
  close(code?: number, reason?: string): void
  onopen: ((event: unknown) => void) | null
  onmessage: ((event: { data: unknown }) => void) | null
  onclose: ((event: { code: number }) => void) | null
  onerror: ((event: unknown) => void) | null
}

export interface LiveConnectionOptions {
  /** ws(s)://host/ws/live */
  url: string
  createSocket: (url: string) => SocketLike
  /** The current access token, or null when logged out (then no connection is made). */
  readToken: () => string | null
  onFrame: (frame: LiveServerFrame) => void
  /** connected (first open), reconnecting (an open connection dropped), reconnected. */
  onConnectionChange?: (state: ConnectionToastState) => void
  /** Frames that are not understood are logged as unexpected. */
  onUnexpected?: (reason: string) => void
  /**
   * The server refused the token or ended its session (close 4001: logout elsewhere, expiry,
   * revocation): a chance to refresh the tokens before the next try.
   */
  onUnauthorized?: () => void
  setTimer?: (callback: () => void, ms: number) => unknown
  clearTimer?: (timer: unknown) => void
}

const OPEN = 1
/** The server's close code for a refused token or an ended session (server/live/liveChannel.ts). */
export const LIVE_UNAUTHORIZED_CLOSE = 4001
/** Our own close: logged out or the page was hidden too long (no reconnect). */
const CLEAN_CLOSE = 1000

/**
 * The app's live channel: one websocket that says Hello with the access token, follows the
 * subscribed simulations (re-subscribing after a reconnect), sends heartbeats (0.5 s, or 10 s
 * with a workload connected) and reconnects with backoff (1 s doubling to 30 s, 50 attempts)
 * unless closed cleanly. A page hidden for 300 s disconnects and reconnects on return.
 */
export class LiveConnection {
  #options: LiveConnectionOptions
  #socket: SocketLike | null = null
  #subscriptions = new Map<number, number>()
  #attempts = 0
  #hadOpen = false
  #dropped = false
  #stopped = true
  #workloadConnected = false
  #heartbeatTimer: unknown = null
  #reconnectTimer: unknown = null
  #hiddenTimer: unknown = null
  #lastUpdateId = 0

  constructor(options: LiveConnectionOptions) {
    this.#options = options
  }

  #setTimer(callback: () => void, ms: number): unknown {
    return (this.#options.setTimer ?? ((cb, t) => setTimeout(cb, t)))(callback, ms)
  }

  #clearTimer(timer: unknown): void {
    if (timer === null) return
    ;(this.#options.clearTimer ?? ((t) => clearTimeout(t as ReturnType<typeof setTimeout>)))(timer)
  }

  /** Connects (if a token exists) and keeps the connection up. */
  start(): void {
    if (!this.#stopped) return
    this.#stopped = false
    this.#open()
  }

  /** Closes cleanly and stops reconnecting. */
  stop(): void {
    this.#stopped = true
    this.#clearTimer(this.#reconnectTimer)
    this.#clearTimer(this.#heartbeatTimer)
    this.#reconnectTimer = null
    this.#heartbeatTimer = null
    const socket = this.#socket
    this.#socket = null
    socket?.close(CLEAN_CLOSE, 'closed')
  }

  /** Follows a simulation; the returned function stops following it. Counted per caller. */
  subscribe(simulationId: number): () => void {
    const count = this.#subscriptions.get(simulationId) ?? 0
    this.#subscriptions.set(simulationId, count + 1)
    if (count === 0) this.#send({ type: 'Subscribe', simulationId })
    return () => {
      const left = (this.#subscriptions.get(simulationId) ?? 1) - 1
      if (left > 0) {
        this.#subscriptions.set(simulationId, left)
        return
      }
      this.#subscriptions.delete(simulationId)
      this.#send({ type: 'Unsubscribe', simulationId })
    }
  }

  /** The updateId of the last store update applied (0 before any). */
  lastUpdateId(): number {
    return this.#lastUpdateId
  }

  /** The page became hidden or visible again (document.visibilityState). */
  setPageHidden(hidden: boolean): void {
    this.#clearTimer(this.#hiddenTimer)
    this.#hiddenTimer = null
    if (hidden) {
      this.#hiddenTimer = this.#setTimer(() => this.stop(), HIDDEN_PAGE_DISCONNECT_MS)
      return
    }
    if (this.#stopped) this.start()
  }

  #send(frame: LiveClientFrame): void {
    if (this.#socket?.readyState === OPEN) this.#socket.send(JSON.stringify(frame))
  }

  #open(): void {
    const token = this.#options.readToken()
    if (this.#stopped || token === null) return
    const socket = this.#options.createSocket(this.#options.url)
    this.#socket = socket
    socket.onopen = () => {
      socket.send(
        JSON.stringify({ type: 'Hello', protocolVersion: PROTOCOL_VERSION, accessToken: token }),
      )
    }
    socket.onmessage = (event) => this.#receive(String(event.data))
    socket.onclose = (event) => {
      if (this.#socket !== socket) return
      this.#socket = null
      this.#clearTimer(this.#heartbeatTimer)
      this.#heartbeatTimer = null
      if (this.#hadOpen && !this.#dropped) {
        this.#dropped = true
        this.#options.onConnectionChange?.('reconnecting')
      }
      if (event.code === LIVE_UNAUTHORIZED_CLOSE) this.#options.onUnauthorized?.()
      if (this.#stopped || !shouldReconnect(event.code, this.#attempts)) return
      const delayMs = delayForAttempt(this.#attempts)
      this.#attempts += 1
      this.#reconnectTimer = this.#setTimer(() => {
        this.#reconnectTimer = null
        this.#open()
      }, delayMs)
    }
    socket.onerror = () => undefined
  }

  #receive(text: string): void {
    const parsed = parseLiveServerFrame(text)
    if (!parsed.ok) {
      this.#options.onUnexpected?.(parsed.reason)
      return
    }
    const frame = parsed.frame
    if (frame.type === 'Welcome') {
      this.#attempts = 0
      this.#lastUpdateId = frame.lastUpdateId
      this.#options.onConnectionChange?.(this.#dropped ? 'reconnected' : 'connected')
      this.#hadOpen = true
      this.#dropped = false
      for (const simulationId of this.#subscriptions.keys())
        this.#send({ type: 'Subscribe', simulationId })
      this.#scheduleHeartbeat()
    }
    if (frame.type === 'StoreUpdate') {
      // Issue 13: an older or repeated update (a stale 'failed' after 'completed') is dropped.
      // Ids grow per connection; the Welcome of a new connection resets the count.
      if (frame.updateId <= this.#lastUpdateId) {
        this.#options.onUnexpected?.(
          `Store update ${frame.updateId} dropped: update ${this.#lastUpdateId} was already applied`,
        )
        return
      }
      this.#lastUpdateId = frame.updateId
    }
    if (frame.type === 'WorkloadHeartbeat') this.#workloadConnected = frame.workloadConnected
    this.#options.onFrame(frame)
  }

  #scheduleHeartbeat(): void {
    this.#clearTimer(this.#heartbeatTimer)
    this.#heartbeatTimer = this.#setTimer(() => {
      this.#send({ type: 'Heartbeat' })
      this.#scheduleHeartbeat()
    }, heartbeatIntervalMs(this.#workloadConnected))
  }
}
