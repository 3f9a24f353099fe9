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
  shouldReconnect,
  type ConnectionToastState,
} from '../../domain/liveProtocol.ts'
import type { OutputInfo } from '../../domain/results.ts'
import {
  RESULTS_PROTOCOL_VERSION,
  type DataRequestItem,
  type DecodedBinaryFrame,
  type ResultsClientFrame,
  type ResultsServerFrame,
  type StatsCalcRequest,
} from '../../domain/resultsProtocol.ts'
import {
  CLEAN_CLOSE,
  DEFAULT_TIMERS,
  HEARTBEAT_TIMEOUT_CLOSE,
  OPEN,
  SESSION_ERRORS,
  UNAUTHORIZED_CLOSE,
  decodeIncomingFrame,
  messageOf,
  type DataStreamFrame,
  type IncomingFrame,
  type InfoResult,
  type ResultsSessionOptions,
  type ResultsSocketLike,
  type ServerFrameOf,
  type SessionSnapshot,
  type SessionStatus,
  type SessionTimers,
  type StatsCalcEnd,
  type StatsCalcFrame,
  type StreamHandle,
} from './sessionTypes.ts'
import { SessionHeartbeat } from './sessionHeartbeat.ts'
import { SessionRequests } from './sessionRequests.ts'

/** The session's contract (socket, timers, snapshot, errors, streams) comes with it. */
export * from './sessionTypes.ts'

/** One results-server session; see the module comment for its rules. */
export class ResultsSession {
  #options: ResultsSessionOptions
  #timers: SessionTimers
  #socket: ResultsSocketLike | null = null
  #requests: SessionRequests
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
  #hiddenTimer: unknown = null
  #hiddenClosed = false
  #heartbeat: SessionHeartbeat

  constructor(options: ResultsSessionOptions) {
    this.#options = options
    this.#timers = options.timers ?? DEFAULT_TIMERS
    this.#requests = new SessionRequests({
      status: () => this.#status,
      socket: () => this.#socket,
      onUnexpected: (reason) => this.#options.onUnexpected?.(reason),
    })
    this.#heartbeat = new SessionHeartbeat(this.#timers, {
      isOpen: () => this.#socket !== null && this.#status === 'open',
      send: () => {
        if (this.#socket?.readyState !== OPEN) return
        this.#socket.send(
          JSON.stringify({
            type: 'sys.heartbeat',
            requestId: this.#requests.takeRequestId(),
          } satisfies ResultsClientFrame),
        )
      },
      dead: () => {
        // The socket says nothing: treat it as dropped without waiting for a TCP timeout.
        const socket = this.#socket
        if (socket === null) return
        socket.close(HEARTBEAT_TIMEOUT_CLOSE, 'heartbeat timeout')
        this.#handleClose(socket, HEARTBEAT_TIMEOUT_CLOSE)
      },
    })
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
    const reply = await this.#requests.ask(
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
      this.#requests.enqueue(
        {
          type: 'fetch.info',
          requestId: this.#requests.takeRequestId(),
          simId,
          outputs: [...outputs],
        },
        {
          receive: ({ header }) => {
            if (header.type === 'fetch.info.resp') result.infos.push(header)
            else if (header.type === 'fetch.info.missing_output')
              result.missingOutputs.push(header.outputNo)
            else return this.#requests.unexpectedReply(header, reject)
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
    const reply = await this.#requests.ask('stats.info', { simId }, 'stats.info.resp')
    return reply.attributes
  }

  /** Output and sensor state changes since the last sync. */
  sync(simId: number): Promise<ServerFrameOf<'sys.sync.resp'>> {
    return this.#requests.ask('sys.sync', { simId }, 'sys.sync.resp')
  }

  /**
   * Starts a statistics calculation; `onFrame` sees each output statistic, aggregate and
   * missing-output error, then the done frame.
   */
  calculateStatistics(
    request: Omit<StatsCalcRequest, 'type' | 'requestId'>,
    onFrame: (frame: StatsCalcFrame) => void,
  ): StreamHandle<StatsCalcEnd> {
    const requestId = this.#requests.takeRequestId()
    const frame: ResultsClientFrame = { ...request, type: 'stats.calc', requestId }
    return this.#requests.stream<StatsCalcEnd>(frame, 'canceled', ({ header }, finish) => {
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
    const requestId = this.#requests.takeRequestId()
    const frame: ResultsClientFrame = { ...request, type: 'fetch.data', requestId }
    return this.#requests.stream<'completed' | 'canceled'>(
      frame,
      'canceled',
      (incoming, finish) => {
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
      },
    )
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
      this.#requests.failPending(SESSION_ERRORS.loggedOut, false)
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
    const helloId = this.#requests.takeRequestId()
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
    this.#heartbeat.stop()
    if (this.#status === 'closed' || this.#status === 'failed') return
    this.#requests.failPending(SESSION_ERRORS.dropped, true)
    if (code === UNAUTHORIZED_CLOSE) this.#options.onUnauthorized?.()
    if (this.#hadOpen && !this.#dropped) {
      this.#dropped = true
      this.#showToast('reconnecting')
    }
    if (!shouldReconnect(code, this.#attempts)) {
      const clean = code === CLEAN_CLOSE || code === 3000
      this.#requests.failPending(clean ? SESSION_ERRORS.closed : SESSION_ERRORS.gaveUp, false)
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
    this.#heartbeat.stop()
    const socket = this.#socket
    this.#socket = null
    this.#requests.failPending(reason, false)
    if (this.#status !== 'idle') this.#setStatus('closed')
    socket?.close(CLEAN_CLOSE, 'closed')
  }

  #receive(data: unknown, helloId: number): void {
    let incoming: IncomingFrame
    try {
      incoming = decodeIncomingFrame(data)
    } catch (error) {
      this.#options.onUnexpected?.(`Unreadable results frame: ${messageOf(error)}`)
      return
    }
    this.#heartbeat.heard()
    const { header } = incoming
    if (header.requestId === helloId) {
      this.#receiveHello(header)
      return
    }
    if (header.type === 'sys.heartbeat.resp') {
      this.#heartbeat.answered()
      return
    }
    if (header.requestId === null) {
      this.#options.onUnexpected?.(
        `Results server error: ${'message' in header ? header.message : ''}`,
      )
      return
    }
    this.#requests.route(header.requestId, incoming)
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
    this.#requests.sendQueued()
    this.#heartbeat.start()
  }
}
