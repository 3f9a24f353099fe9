/**
 * The client of the results-server session (websocket /ws/results; spec/results.md §7 "Realtime
 * channels", frames in domain/resultsProtocol.ts). Pure TS: the socket, the clock and the page
 * visibility come from outside, so it runs the same in the browser, a worker and Node tests.
 *
 * - Opens with sys.hello and the access token; requests wait in a queue until the session is open.
 * - Replies are matched to requests by requestId; streams (stats.calc, fetch.data) deliver every
 *   frame to a callback until their terminal frame, and can be cancelled.
 * - A dropped socket fails every request in flight with {@link ResultsSessionError} and reconnects
 *   with backoff (1 s doubling to 30 s, 50 attempts; close codes 1000 and 3000 end the session).
 * - Heartbeat (sys.heartbeat) every 10 s while answers come, every 0.5 s once one is overdue;
 *   after {@link HEARTBEAT_MAX_MISSED} unanswered beats the socket counts as dead and is replaced
 *   (only once the server has answered a heartbeat: one that never does is not judged by them).
 * - A page hidden for 300 s closes the session; it reconnects when the page is shown again.
 */
import { HIDDEN_PAGE_DISCONNECT_MS } from '../../domain/constants.ts'
import {
  delayForAttempt,
  heartbeatIntervalMs,
  shouldReconnect,
  type ConnectionToastState,
} from '../../domain/liveProtocol.ts'
import type { OutputInfo } from '../../domain/results.ts'
import {
  RESULTS_PROTOCOL_VERSION,
  decodeBinaryFrame,
  parseResultsServerFrame,
  type DataRequestItem,
  type DecodedBinaryFrame,
  type ResultsClientFrame,
  type ResultsServerFrame,
  type StatsCalcRequest,
} from '../../domain/resultsProtocol.ts'

/** The part of a WebSocket the session uses (the browser's, or the `ws` package's in Node). */
export interface ResultsSocketLike {
  readyState: number
  binaryType: string
  send(data: string): void
  close(code?: number, reason?: string): void
  onopen: ((event: unknown) => void) | null
  onmessage: ((event: { data: unknown }) => void) | null
  onclose: ((event: { code: number }) => void) | null
  onerror: ((event: unknown) => void) | null
}

/** Timers the session uses; tests pass fake ones. */
export interface SessionTimers {
  setTimeout(callback: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

/** Where the session is: not started, opening, open, waiting to reconnect, closed, given up. */
export const SESSION_STATUSES = [
  'idle',
  'connecting',
  'open',
  'reconnecting',
  'closed',
  'failed',
] as const
/** One session status. */
export type SessionStatus = (typeof SESSION_STATUSES)[number]

/** What the UI reads about the connection. */
export interface SessionSnapshot {
  status: SessionStatus
  /** Reconnect attempts made since the session was last open. */
  attempts: number
  /** How many times the session has opened (grows on every reconnect). */
  opens: number
  /** The latest connection toast event; `seq` grows with each, so equal events still show. */
  toast: { state: ConnectionToastState; seq: number } | null
}

/** Options of {@link ResultsSession}. */
export interface ResultsSessionOptions {
  /** ws(s)://host/ws/results */
  url: string
  createSocket: (url: string) => ResultsSocketLike
  /** The current access token; null keeps the session closed (logged out). */
  readToken: () => string | null
  timers?: SessionTimers
  /** Frames that cannot be read or belong to no request: logged, never thrown. */
  onUnexpected?: (reason: string) => void
  /** The server refused the token (close 4401): a chance to refresh it before the next try. */
  onUnauthorized?: () => void
}

/** A request that could not be answered: the socket dropped, the session closed or the server said no. */
export class ResultsSessionError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ResultsSessionError'
  }
}

/** Unanswered heartbeats (0.5 s apart after the first overdue one) before the socket is replaced. */
export const HEARTBEAT_MAX_MISSED = 6

/** Close code we use for a socket the heartbeat found dead (not clean: reconnects). */
export const HEARTBEAT_TIMEOUT_CLOSE = 4000

/** The server's close code for a missing or refused access token. */
export const UNAUTHORIZED_CLOSE = 4401

/** Our own clean close (stopped, logged out, page hidden too long): no reconnect. */
const CLEAN_CLOSE = 1000
const OPEN = 1

/** Why requests in flight fail. */
export const SESSION_ERRORS = {
  dropped: 'The connection to the results server was lost.',
  closed: 'The results session was closed.',
  hidden: 'The results session was closed while the page was hidden.',
  gaveUp: 'The results server could not be reached.',
  loggedOut: 'Log in to load results.',
} as const

type ServerFrameOf<T extends ResultsServerFrame['type']> = Extract<ResultsServerFrame, { type: T }>

/** Frames of a stats.calc stream. */
export type StatsCalcFrame = ServerFrameOf<
  | 'stats.calc.output_statistic'
  | 'stats.calc.all_output_statistic'
  | 'stats.calc.error'
  | 'stats.calc.done'
>
/** How a stats.calc ended. */
export type StatsCalcEnd = ServerFrameOf<'stats.calc.done'>['state']

/** Frames of a fetch.data stream: binary frames decoded (payload is a view), the rest as JSON. */
export type DataStreamFrame = DecodedBinaryFrame | { header: ResultsServerFrame; payload: null }

/** A running stream. */
export interface StreamHandle<End> {
  requestId: number
  /** Resolves with how the stream ended; rejects with a ResultsSessionError. */
  done: Promise<End>
  /** Asks the server to stop; resolves with whether it was still running. */
  cancel(): Promise<boolean>
}

/** fetch.info of several outputs: what each holds, and the outputs that do not exist. */
export interface InfoResult {
  infos: ServerFrameOf<'fetch.info.resp'>[]
  missingOutputs: number[]
}

type IncomingFrame = { header: ResultsServerFrame; payload: Uint8Array | null }

interface PendingRequest {
  frame: ResultsClientFrame
  sent: boolean
  /** Handles one frame; returns true when the request is complete. */
  receive(frame: IncomingFrame): boolean
  fail(error: ResultsSessionError): void
  /** Ends a request that was never sent (cancelled while queued). */
  abandon?(): void
}

type RequestBody<T extends ResultsClientFrame['type']> = Omit<
  Extract<ResultsClientFrame, { type: T }>,
  'type' | 'requestId'
>

const DEFAULT_TIMERS: SessionTimers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** One results-server session; see the module comment for its rules. */
export class ResultsSession {
  #options: ResultsSessionOptions
  #timers: SessionTimers
  #socket: ResultsSocketLike | null = null
  #nextRequestId = 1
  #pending = new Map<number, PendingRequest>()
  #status: SessionStatus = 'idle'
  #attempts = 0
  #hadOpen = false
  #dropped = false
  #toastSeq = 0
  #toast: SessionSnapshot['toast'] = null
  #opens = 0
  #snapshot: SessionSnapshot = { status: 'idle', attempts: 0, opens: 0, toast: null }
  #listeners = new Set<(snapshot: SessionSnapshot) => void>()
  #reconnectTimer: unknown = null
  #heartbeatTimer: unknown = null
  #hiddenTimer: unknown = null
  #hiddenClosed = false
  #heardSinceBeat = true
  #beatOutstanding = false
  #missedBeats = 0
  /** Set once this socket answered a heartbeat: only then does silence count as death. */
  #heartbeatAnswered = false

  constructor(options: ResultsSessionOptions) {
    this.#options = options
    this.#timers = options.timers ?? DEFAULT_TIMERS
  }

  /** Connects and keeps the session up until {@link stop}. */
  start(): void {
    if (this.#status !== 'idle' && this.#status !== 'closed' && this.#status !== 'failed') return
    this.#attempts = 0
    this.#hiddenClosed = false
    this.#open()
  }

  /** Closes cleanly; every request still waiting fails. */
  stop(): void {
    this.#close(SESSION_ERRORS.closed)
  }

  /** The page became hidden or visible again (document.visibilityState). */
  setPageHidden(hidden: boolean): void {
    this.#clearTimer(this.#hiddenTimer)
    this.#hiddenTimer = null
    if (hidden) {
      this.#hiddenTimer = this.#timers.setTimeout(() => {
        this.#hiddenTimer = null
        if (this.#status === 'idle' || this.#status === 'closed') return
        this.#close(SESSION_ERRORS.hidden)
        this.#hiddenClosed = true
      }, HIDDEN_PAGE_DISCONNECT_MS)
      return
    }
    if (this.#hiddenClosed) this.start()
  }

  /** The connection as the UI shows it. */
  getSnapshot(): SessionSnapshot {
    return this.#snapshot
  }

  /** Calls `listener` after every connection change; returns the unsubscribe. */
  subscribe(listener: (snapshot: SessionSnapshot) => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  /** Which outputs exist, with their states. */
  async fetchAvailableOutputs(simId: number): Promise<OutputInfo[]> {
    const reply = await this.#ask(
      'fetch.available_outputs',
      { simId },
      'fetch.available_outputs.resp',
    )
    return reply.outputs
  }

  /** Objects, masks and dataset stats of each output (one answer per output). */
  fetchInfo(simId: number, outputs: readonly number[]): Promise<InfoResult> {
    const result: InfoResult = { infos: [], missingOutputs: [] }
    if (outputs.length === 0) return Promise.resolve(result)
    const expected = new Set(outputs)
    return new Promise((resolve, reject) => {
      this.#enqueue(
        { type: 'fetch.info', requestId: this.#takeRequestId(), simId, outputs: [...outputs] },
        {
          receive: ({ header }) => {
            if (header.type === 'fetch.info.resp') result.infos.push(header)
            else if (header.type === 'fetch.info.missing_output')
              result.missingOutputs.push(header.outputNo)
            else return this.#unexpectedReply(header, reject)
            expected.delete(header.outputNo)
            if (expected.size > 0) return false
            resolve(result)
            return true
          },
          fail: reject,
        },
      )
    })
  }

  /** Attributes, sub-attributes and operations statistics support. */
  async fetchStatisticsInfo(simId: number) {
    const reply = await this.#ask('stats.info', { simId }, 'stats.info.resp')
    return reply.attributes
  }

  /** Output and sensor state changes since the last sync. */
  sync(simId: number): Promise<ServerFrameOf<'sys.sync.resp'>> {
    return this.#ask('sys.sync', { simId }, 'sys.sync.resp')
  }

  /**
   * Starts a statistics calculation; `onFrame` sees each output statistic, aggregate and
   * missing-output error, then the done frame.
   */
  calculateStatistics(
    request: Omit<StatsCalcRequest, 'type' | 'requestId'>,
    onFrame: (frame: StatsCalcFrame) => void,
  ): StreamHandle<StatsCalcEnd> {
    const requestId = this.#takeRequestId()
    const frame: ResultsClientFrame = { ...request, type: 'stats.calc', requestId }
    return this.#stream<StatsCalcEnd>(frame, 'canceled', ({ header }, finish) => {
      switch (header.type) {
        case 'stats.calc.output_statistic':
        case 'stats.calc.all_output_statistic':
        case 'stats.calc.error':
          onFrame(header)
          return false
        case 'stats.calc.done':
          onFrame(header)
          finish(header.state)
          return true
        default:
          return null
      }
    })
  }

  /** Loads output data; binary frames arrive decoded (payload views), until fetch.data.done. */
  fetchData(
    request: { simId: number; outputs: number[]; requests: DataRequestItem[]; bundle: boolean },
    onFrame: (frame: DataStreamFrame) => void,
  ): StreamHandle<'completed' | 'canceled'> {
    const requestId = this.#takeRequestId()
    const frame: ResultsClientFrame = { ...request, type: 'fetch.data', requestId }
    return this.#stream<'completed' | 'canceled'>(frame, 'canceled', (incoming, finish) => {
      if (incoming.header.type === 'fetch.data.done') {
        finish('completed')
        return true
      }
      if (!incoming.header.type.startsWith('fetch.data.')) return null
      onFrame(
        incoming.payload === null
          ? { header: incoming.header, payload: null }
          : (incoming as DecodedBinaryFrame),
      )
      return false
    })
  }

  // ── Requests ─────────────────────────────────────────────────────────────────────────────────

  #takeRequestId(): number {
    return this.#nextRequestId++
  }

  #ask<T extends ResultsClientFrame['type'], R extends ResultsServerFrame['type']>(
    type: T,
    body: RequestBody<T>,
    replyType: R,
  ): Promise<ServerFrameOf<R>> {
    return new Promise((resolve, reject) => {
      const frame = { ...body, type, requestId: this.#takeRequestId() } as ResultsClientFrame
      this.#enqueue(frame, {
        receive: ({ header }) => {
          if (header.type !== replyType) return this.#unexpectedReply(header, reject)
          resolve(header as ServerFrameOf<R>)
          return true
        },
        fail: reject,
      })
    })
  }

  /** An error frame fails the request; any other stray reply is logged and ignored. */
  #unexpectedReply(header: ResultsServerFrame, reject: (error: ResultsSessionError) => void) {
    if (header.type === 'error') {
      reject(new ResultsSessionError(header.message))
      return true
    }
    this.#options.onUnexpected?.(`Unexpected ${header.type} for request ${header.requestId}`)
    return false
  }

  #stream<End>(
    frame: ResultsClientFrame,
    cancelledEnd: End,
    handle: (frame: IncomingFrame, finish: (end: End) => void) => boolean | null,
  ): StreamHandle<End> {
    let finish: (end: End) => void = () => undefined
    let fail: (error: ResultsSessionError) => void = () => undefined
    const done = new Promise<End>((resolve, reject) => {
      finish = resolve
      fail = reject
    })
    this.#enqueue(frame, {
      receive: (incoming) => {
        const complete = handle(incoming, finish)
        if (complete !== null) return complete
        return this.#unexpectedReply(incoming.header, fail)
      },
      fail: (error) => fail(error),
      abandon: () => finish(cancelledEnd),
    })
    return { requestId: frame.requestId, done, cancel: () => this.#cancel(frame.requestId) }
  }

  async #cancel(targetRequestId: number): Promise<boolean> {
    const target = this.#pending.get(targetRequestId)
    if (!target) return false
    if (!target.sent) {
      this.#pending.delete(targetRequestId)
      target.abandon?.()
      return true
    }
    const reply = await this.#ask('cancel', { targetRequestId }, 'cancel.resp')
    return reply.canceled
  }

  #enqueue(frame: ResultsClientFrame, request: Omit<PendingRequest, 'frame' | 'sent'>): void {
    if (this.#status === 'closed' || this.#status === 'failed' || this.#status === 'idle') {
      request.fail(
        new ResultsSessionError(
          this.#status === 'failed' ? SESSION_ERRORS.gaveUp : SESSION_ERRORS.closed,
        ),
      )
      return
    }
    const pending: PendingRequest = { ...request, frame, sent: false }
    this.#pending.set(frame.requestId, pending)
    if (this.#status === 'open') this.#sendRequest(pending)
  }

  #sendRequest(pending: PendingRequest): void {
    if (!this.#socket || this.#socket.readyState !== OPEN) return
    pending.sent = true
    this.#socket.send(JSON.stringify(pending.frame))
  }

  /** Fails requests in flight (all of them, or only those already sent). */
  #failPending(message: string, sentOnly: boolean): void {
    for (const [requestId, pending] of [...this.#pending]) {
      if (sentOnly && !pending.sent) continue
      this.#pending.delete(requestId)
      pending.fail(new ResultsSessionError(message))
    }
  }

  // ── Connection ───────────────────────────────────────────────────────────────────────────────

  #setStatus(status: SessionStatus): void {
    this.#status = status
    this.#publish()
  }

  #publish(): void {
    this.#snapshot = {
      status: this.#status,
      attempts: this.#attempts,
      opens: this.#opens,
      toast: this.#toast,
    }
    for (const listener of this.#listeners) listener(this.#snapshot)
  }

  #showToast(state: ConnectionToastState): void {
    this.#toast = { state, seq: ++this.#toastSeq }
  }

  #clearTimer(handle: unknown): void {
    if (handle !== null) this.#timers.clearTimeout(handle)
  }

  #open(): void {
    const token = this.#options.readToken()
    if (token === null) {
      this.#failPending(SESSION_ERRORS.loggedOut, false)
      this.#setStatus('closed')
      return
    }
    this.#setStatus(this.#hadOpen ? 'reconnecting' : 'connecting')
    let socket: ResultsSocketLike
    try {
      socket = this.#options.createSocket(this.#options.url)
    } catch (error) {
      this.#options.onUnexpected?.(`Could not open the results socket: ${messageOf(error)}`)
      this.#handleClose(null, 1006)
      return
    }
    socket.binaryType = 'arraybuffer'
    this.#socket = socket
    const helloId = this.#takeRequestId()
    socket.onopen = () => {
      socket.send(
        JSON.stringify({
          type: 'sys.hello',
          requestId: helloId,
          protocolVersion: RESULTS_PROTOCOL_VERSION,
          accessToken: token,
        } satisfies ResultsClientFrame),
      )
    }
    socket.onmessage = (event) => {
      if (this.#socket !== socket) return
      this.#receive(event.data, helloId)
    }
    socket.onclose = (event) => this.#handleClose(socket, event.code)
    socket.onerror = () => undefined
  }

  #handleClose(socket: ResultsSocketLike | null, code: number): void {
    if (socket !== null && this.#socket !== socket) return
    this.#socket = null
    this.#stopHeartbeat()
    if (this.#status === 'closed' || this.#status === 'failed') return
    this.#failPending(SESSION_ERRORS.dropped, true)
    if (code === UNAUTHORIZED_CLOSE) this.#options.onUnauthorized?.()
    if (this.#hadOpen && !this.#dropped) {
      this.#dropped = true
      this.#showToast('reconnecting')
    }
    if (!shouldReconnect(code, this.#attempts)) {
      const clean = code === CLEAN_CLOSE || code === 3000
      this.#failPending(clean ? SESSION_ERRORS.closed : SESSION_ERRORS.gaveUp, false)
      this.#setStatus(clean ? 'closed' : 'failed')
      return
    }
    const delayMs = delayForAttempt(this.#attempts)
    this.#attempts += 1
    this.#setStatus('reconnecting')
    this.#reconnectTimer = this.#timers.setTimeout(() => {
      this.#reconnectTimer = null
      this.#open()
    }, delayMs)
  }

  #close(reason: string): void {
    this.#clearTimer(this.#reconnectTimer)
    this.#reconnectTimer = null
    this.#stopHeartbeat()
    const socket = this.#socket
    this.#socket = null
    this.#failPending(reason, false)
    if (this.#status !== 'idle') this.#setStatus('closed')
    socket?.close(CLEAN_CLOSE, 'closed')
  }

  #receive(data: unknown, helloId: number): void {
    let incoming: IncomingFrame
    try {
      incoming = this.#decode(data)
    } catch (error) {
      this.#options.onUnexpected?.(`Unreadable results frame: ${messageOf(error)}`)
      return
    }
    this.#heardSinceBeat = true
    const { header } = incoming
    if (header.requestId === helloId) {
      this.#receiveHello(header)
      return
    }
    if (header.type === 'sys.heartbeat.resp') {
      this.#heartbeatAnswered = true
      return
    }
    if (header.requestId === null) {
      this.#options.onUnexpected?.(
        `Results server error: ${'message' in header ? header.message : ''}`,
      )
      return
    }
    const pending = this.#pending.get(header.requestId)
    if (!pending) {
      // Late frames of a cancelled or failed request.
      this.#options.onUnexpected?.(`${header.type} for unknown request ${header.requestId}`)
      return
    }
    if (pending.receive(incoming)) this.#pending.delete(header.requestId)
  }

  #decode(data: unknown): IncomingFrame {
    if (typeof data === 'string') return { header: parseResultsServerFrame(data), payload: null }
    if (data instanceof ArrayBuffer || ArrayBuffer.isView(data)) {
      const bytes =
        data instanceof ArrayBuffer
          ? new Uint8Array(data)
          : new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
      const decoded = decodeBinaryFrame(bytes)
      return { header: decoded.header, payload: decoded.payload }
    }
    throw new Error(`unsupported message of type ${typeof data}`)
  }

  #receiveHello(header: ResultsServerFrame): void {
    if (header.type !== 'sys.hello.resp') {
      // The server closes after refusing the hello; the close handler reconnects.
      this.#options.onUnexpected?.(
        `Session refused: ${header.type === 'error' ? header.message : header.type}`,
      )
      return
    }
    this.#attempts = 0
    this.#showToast(this.#dropped || this.#hadOpen ? 'reconnected' : 'connected')
    this.#hadOpen = true
    this.#dropped = false
    this.#opens += 1
    this.#setStatus('open')
    for (const pending of [...this.#pending.values()]) if (!pending.sent) this.#sendRequest(pending)
    this.#heardSinceBeat = true
    this.#beatOutstanding = false
    this.#missedBeats = 0
    this.#heartbeatAnswered = false
    this.#scheduleHeartbeat(heartbeatIntervalMs(true))
  }

  // ── Heartbeat ────────────────────────────────────────────────────────────────────────────────

  #stopHeartbeat(): void {
    this.#clearTimer(this.#heartbeatTimer)
    this.#heartbeatTimer = null
  }

  #scheduleHeartbeat(delayMs: number): void {
    this.#stopHeartbeat()
    this.#heartbeatTimer = this.#timers.setTimeout(() => {
      this.#heartbeatTimer = null
      this.#beat()
    }, delayMs)
  }

  #beat(): void {
    const socket = this.#socket
    if (!socket || this.#status !== 'open') return
    // A server that never answers heartbeats (older ones) is not judged by them.
    const overdue = this.#beatOutstanding && !this.#heardSinceBeat && this.#heartbeatAnswered
    this.#missedBeats = overdue ? this.#missedBeats + 1 : 0
    if (this.#missedBeats > HEARTBEAT_MAX_MISSED) {
      // The socket says nothing: treat it as dropped without waiting for a TCP timeout.
      socket.close(HEARTBEAT_TIMEOUT_CLOSE, 'heartbeat timeout')
      this.#handleClose(socket, HEARTBEAT_TIMEOUT_CLOSE)
      return
    }
    // Flags first: an answer may arrive before send() returns (tests, same-thread servers).
    this.#beatOutstanding = true
    this.#heardSinceBeat = false
    if (socket.readyState === OPEN)
      socket.send(
        JSON.stringify({
          type: 'sys.heartbeat',
          requestId: this.#takeRequestId(),
        } satisfies ResultsClientFrame),
      )
    this.#scheduleHeartbeat(heartbeatIntervalMs(this.#missedBeats === 0))
  }
}
