import { afterEach, describe, expect, it } from 'vitest'
import { WebSocket, WebSocketServer, type WebSocket as ServerSocket } from 'ws'
import {
  encodeBinaryFrame,
  parseResultsClientFrame,
  type ResultsClientFrame,
  type ResultsServerFrame,
} from '../../domain/resultsProtocol.ts'
import {
  HEARTBEAT_MAX_MISSED,
  ResultsSession,
  ResultsSessionError,
  SESSION_ERRORS,
  type ResultsSessionOptions,
  type ResultsSocketLike,
  type SessionTimers,
  type StatsCalcFrame,
} from './ResultsSession.ts'

// ── A real ws server that plays the results server ─────────────────────────────────────────────

type Handler = (frame: ResultsClientFrame, socket: ServerSocket) => void

interface TestServer {
  url: string
  received: ResultsClientFrame[]
  sockets: ServerSocket[]
  setHandler(handler: Handler): void
  close(): Promise<void>
}

const servers: TestServer[] = []
const sessions: ResultsSession[] = []

afterEach(async () => {
  for (const session of sessions.splice(0)) session.stop()
  for (const server of servers.splice(0)) await server.close()
})

function send(socket: ServerSocket, frame: ResultsServerFrame): void {
  socket.send(JSON.stringify(frame))
}

/** Answers hello and heartbeats; everything else goes to the handler. */
async function startServer(handler: Handler = () => undefined): Promise<TestServer> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' })
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()))
  const address = wss.address() as { port: number }
  const received: ResultsClientFrame[] = []
  const sockets: ServerSocket[] = []
  let current = handler
  wss.on('connection', (socket) => {
    sockets.push(socket)
    socket.on('message', (data: Buffer) => {
      const frame = parseResultsClientFrame(data.toString('utf8'))
      received.push(frame)
      if (frame.type === 'sys.hello') {
        if (frame.accessToken !== 'token-1') {
          send(socket, { type: 'error', requestId: frame.requestId, message: 'Not logged in' })
          socket.close(4401)
          return
        }
        send(socket, { type: 'sys.hello.resp', requestId: frame.requestId, protocolVersion: 1 })
        return
      }
      if (frame.type === 'sys.heartbeat') {
        send(socket, { type: 'sys.heartbeat.resp', requestId: frame.requestId })
        return
      }
      current(frame, socket)
    })
  })
  const server: TestServer = {
    url: `ws://127.0.0.1:${address.port}/ws/results`,
    received,
    sockets,
    setHandler: (next) => {
      current = next
    },
    close: () =>
      new Promise((resolve) => {
        for (const client of wss.clients) client.terminate()
        wss.close(() => resolve())
      }),
  }
  servers.push(server)
  return server
}

/** Timers that run 100 × faster, so real reconnects take milliseconds. */
const fastTimers: SessionTimers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms / 100),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
}

function openSession(url: string, options: Partial<ResultsSessionOptions> = {}): ResultsSession {
  const session = new ResultsSession({
    url,
    createSocket: (target) => new WebSocket(target) as unknown as ResultsSocketLike,
    readToken: () => 'token-1',
    ...options,
  })
  sessions.push(session)
  session.start()
  return session
}

function waitFor(check: () => boolean, timeoutMs = 3000): Promise<void> {
  const started = Date.now()
  return new Promise((resolve, reject) => {
    const poll = () => {
      if (check()) resolve()
      else if (Date.now() - started > timeoutMs) reject(new Error('condition not met in time'))
      else setTimeout(poll, 5)
    }
    poll()
  })
}

const outputState = {
  states: { visualization: 'ready', sensor: 'pending' },
  wallSensorState: 'unknown',
} as const

const statsRequest = {
  simId: 7,
  outputs: [0, 1, 2],
  attribute: 'pressure',
  subAttribute: null,
  dataset: 'raw',
  objIds: [1],
  masks: [],
  operations: { mean: ['mean'] },
  mode: 'both',
} as const satisfies Parameters<ResultsSession['calculateStatistics']>[0]

describe('ResultsSession against a ws server', () => {
  it('says hello with the access token and answers each request by its requestId', async () => {
    const server = await startServer((frame, socket) => {
      // Answer in reverse order of arrival to prove replies are matched by id, not order.
      if (frame.type === 'fetch.available_outputs')
        setTimeout(
          () =>
            send(socket, {
              type: 'fetch.available_outputs.resp',
              requestId: frame.requestId,
              outputs: [{ outputNo: frame.simId, ...outputState }],
            }),
          frame.simId === 1 ? 30 : 0,
        )
    })
    const session = openSession(server.url)
    const [first, second] = await Promise.all([
      session.fetchAvailableOutputs(1),
      session.fetchAvailableOutputs(2),
    ])
    expect(first.map((o) => o.outputNo)).toEqual([1])
    expect(second.map((o) => o.outputNo)).toEqual([2])
    expect(server.received[0]).toMatchObject({ type: 'sys.hello', accessToken: 'token-1' })
    expect(session.getSnapshot()).toMatchObject({ status: 'open', toast: { state: 'connected' } })
  })

  it('collects fetch.info answers and missing outputs until every output is accounted for', async () => {
    const server = await startServer((frame, socket) => {
      if (frame.type !== 'fetch.info') return
      for (const outputNo of frame.outputs) {
        if (outputNo > 1) {
          send(socket, { type: 'fetch.info.missing_output', requestId: frame.requestId, outputNo })
          continue
        }
        send(socket, {
          type: 'fetch.info.resp',
          requestId: frame.requestId,
          outputNo,
          timeS: outputNo * 0.1,
          objects: [{ id: 1, kind: 'fluid', name: 'Water' }],
          masks: [],
          stats: {
            full: { particleCount: 10, triangleCount: 0 },
            fast: { particleCount: 1, triangleCount: 0 },
          },
        })
      }
    })
    const session = openSession(server.url)
    const info = await session.fetchInfo(7, [0, 1, 5])
    expect(info.infos.map((i) => i.outputNo)).toEqual([0, 1])
    expect(info.missingOutputs).toEqual([5])
  })

  it('streams stats.calc frames to the callback until stats.calc.done', async () => {
    const server = await startServer((frame, socket) => {
      if (frame.type !== 'stats.calc') return
      const requestId = frame.requestId
      send(socket, {
        type: 'stats.calc.output_statistic',
        requestId,
        outputNo: 0,
        statistic: 'mean',
        value: 1.5,
      })
      send(socket, { type: 'stats.calc.error', requestId, outputNo: 1, message: 'missing' })
      send(socket, {
        type: 'stats.calc.output_statistic',
        requestId,
        outputNo: 2,
        statistic: 'mean',
        value: null,
      })
      send(socket, {
        type: 'stats.calc.all_output_statistic',
        requestId,
        statistic: 'mean',
        value: 1.5,
      })
      send(socket, { type: 'stats.calc.done', requestId, state: 'completed' })
    })
    const session = openSession(server.url)
    const frames: StatsCalcFrame[] = []
    const handle = session.calculateStatistics(statsRequest, (frame) => frames.push(frame))
    await expect(handle.done).resolves.toBe('completed')
    expect(frames.map((f) => f.type)).toEqual([
      'stats.calc.output_statistic',
      'stats.calc.error',
      'stats.calc.output_statistic',
      'stats.calc.all_output_statistic',
      'stats.calc.done',
    ])
    expect(server.received.find((f) => f.type === 'stats.calc')).toMatchObject(statsRequest)
  })

  it('cancels a running calculation: a cancel frame names it and the stream ends canceled', async () => {
    const server = await startServer((frame, socket) => {
      if (frame.type === 'stats.calc')
        send(socket, {
          type: 'stats.calc.output_statistic',
          requestId: frame.requestId,
          outputNo: 0,
          statistic: 'mean',
          value: 2,
        })
      if (frame.type === 'cancel') {
        send(socket, {
          type: 'cancel.resp',
          requestId: frame.requestId,
          targetRequestId: frame.targetRequestId,
          canceled: true,
        })
        send(socket, {
          type: 'stats.calc.done',
          requestId: frame.targetRequestId,
          state: 'canceled',
        })
      }
    })
    const session = openSession(server.url)
    const frames: StatsCalcFrame[] = []
    const handle = session.calculateStatistics(statsRequest, (frame) => frames.push(frame))
    await waitFor(() => frames.length === 1)
    await expect(handle.cancel()).resolves.toBe(true)
    await expect(handle.done).resolves.toBe('canceled')
    expect(server.received.find((f) => f.type === 'cancel')).toMatchObject({
      targetRequestId: handle.requestId,
    })
  })

  it('delivers fetch.data binary frames as decoded headers with payload views', async () => {
    const server = await startServer((frame, socket) => {
      if (frame.type !== 'fetch.data') return
      const payload = new Uint8Array([1, 2, 3, 4, 5])
      socket.send(
        encodeBinaryFrame(
          {
            type: 'fetch.data.bundle',
            requestId: frame.requestId,
            outputNo: 0,
            dataset: 'full',
            objIds: [1],
            byteLength: payload.byteLength,
          },
          payload,
        ),
      )
      send(socket, {
        type: 'fetch.data.missing_object',
        requestId: frame.requestId,
        outputNo: 0,
        objId: 9,
      })
      send(socket, { type: 'fetch.data.done', requestId: frame.requestId })
    })
    const session = openSession(server.url)
    const seen: { type: string; bytes: number[] | null }[] = []
    const handle = session.fetchData(
      {
        simId: 7,
        outputs: [0],
        requests: [
          { objIds: [1], attributes: ['pressure'], geometry: true, dataset: 'full', masks: [] },
        ],
        bundle: true,
      },
      (frame) => seen.push({ type: frame.header.type, bytes: frame.payload && [...frame.payload] }),
    )
    await expect(handle.done).resolves.toBe('completed')
    expect(seen).toEqual([
      { type: 'fetch.data.bundle', bytes: [1, 2, 3, 4, 5] },
      { type: 'fetch.data.missing_object', bytes: null },
    ])
  })

  it('fails a request with the server message of its error frame and stays open', async () => {
    const server = await startServer((frame, socket) => {
      if (frame.type === 'stats.info')
        send(socket, { type: 'error', requestId: frame.requestId, message: 'Simulation not found' })
      if (frame.type === 'sys.sync')
        send(socket, {
          type: 'sys.sync.resp',
          requestId: frame.requestId,
          vizUpdates: [],
          sensorUpdates: [],
        })
    })
    const session = openSession(server.url)
    await expect(session.fetchStatisticsInfo(99)).rejects.toThrow('Simulation not found')
    await expect(session.sync(7)).resolves.toMatchObject({ vizUpdates: [] })
  })

  it('logs bad frames (invalid JSON, unknown type, unknown request) and keeps answering', async () => {
    const unexpected: string[] = []
    const server = await startServer((frame, socket) => {
      if (frame.type !== 'stats.info') return
      socket.send('{not json')
      socket.send(JSON.stringify({ type: 'no.such.frame', requestId: frame.requestId }))
      socket.send(new Uint8Array([1, 2]))
      send(socket, { type: 'sys.sync.resp', requestId: 12345, vizUpdates: [], sensorUpdates: [] })
      send(socket, { type: 'stats.info.resp', requestId: frame.requestId, attributes: [] })
    })
    const session = openSession(server.url, { onUnexpected: (reason) => unexpected.push(reason) })
    await expect(session.fetchStatisticsInfo(7)).resolves.toEqual([])
    expect(unexpected).toHaveLength(4)
    expect(unexpected[0]).toMatch(/Unreadable results frame/)
    expect(unexpected[3]).toMatch(/unknown request 12345/)
  })

  it('fails requests in flight when the socket drops, then reconnects and serves new ones', async () => {
    let dropNext = true
    const server = await startServer((frame, socket) => {
      if (frame.type !== 'stats.info') return
      if (dropNext) {
        dropNext = false
        socket.terminate()
        return
      }
      send(socket, { type: 'stats.info.resp', requestId: frame.requestId, attributes: [] })
    })
    const session = openSession(server.url, { timers: fastTimers })
    const states: string[] = []
    session.subscribe((snapshot) => states.push(snapshot.status))
    const lost = session.fetchStatisticsInfo(7)
    await expect(lost).rejects.toThrow(SESSION_ERRORS.dropped)
    await expect(lost).rejects.toBeInstanceOf(ResultsSessionError)
    await expect(session.fetchStatisticsInfo(7)).resolves.toEqual([])
    expect(states).toContain('reconnecting')
    expect(session.getSnapshot()).toMatchObject({
      status: 'open',
      opens: 2,
      toast: { state: 'reconnected' },
    })
    expect(server.received.filter((f) => f.type === 'sys.hello')).toHaveLength(2)
  })

  it('does not reconnect after a clean close (3000) and fails what waits', async () => {
    const server = await startServer((frame, socket) => {
      if (frame.type === 'stats.info') socket.close(3000, 'done')
    })
    const session = openSession(server.url, { timers: fastTimers })
    await expect(session.fetchStatisticsInfo(7)).rejects.toThrow(SESSION_ERRORS.dropped)
    await waitFor(() => session.getSnapshot().status === 'closed')
    await expect(session.sync(7)).rejects.toThrow(SESSION_ERRORS.closed)
    expect(server.received.filter((f) => f.type === 'sys.hello')).toHaveLength(1)
  })

  it('queues requests made while connecting and sends them once the hello is answered', async () => {
    const server = await startServer((frame, socket) => {
      if (frame.type === 'stats.info')
        send(socket, { type: 'stats.info.resp', requestId: frame.requestId, attributes: [] })
    })
    const session = openSession(server.url)
    expect(session.getSnapshot().status).toBe('connecting')
    await expect(session.fetchStatisticsInfo(7)).resolves.toEqual([])
    expect(server.received.map((f) => f.type)).toEqual(['sys.hello', 'stats.info'])
  })

  it('keeps retrying while the server refuses the token (close 4401), asking for a refresh each time', async () => {
    const server = await startServer()
    let token = 'expired'
    let refusals = 0
    const session = openSession(server.url, {
      timers: fastTimers,
      readToken: () => token,
      onUnauthorized: () => refusals++,
    })
    await waitFor(() => server.received.filter((f) => f.type === 'sys.hello').length >= 2)
    expect(session.getSnapshot().status).not.toBe('open')
    expect(refusals).toBeGreaterThanOrEqual(1)
    token = 'token-1'
    await waitFor(() => session.getSnapshot().status === 'open')
  })
})

// ── Deterministic timing with a fake socket and fake timers ────────────────────────────────────

class FakeTimers implements SessionTimers {
  nowMs = 0
  #timers = new Map<number, { atMs: number; callback: () => void; delayMs: number }>()
  #nextId = 1

  setTimeout(callback: () => void, ms: number): unknown {
    const id = this.#nextId++
    this.#timers.set(id, { atMs: this.nowMs + ms, callback, delayMs: ms })
    return id
  }

  clearTimeout(handle: unknown): void {
    this.#timers.delete(handle as number)
  }

  /** Delays of the timers now waiting. */
  pendingDelays(): number[] {
    return [...this.#timers.values()].map((t) => t.delayMs)
  }

  /** Runs the next timer; returns its delay. */
  runNext(): number {
    const next = [...this.#timers.entries()].sort((a, b) => a[1].atMs - b[1].atMs)[0]
    if (!next) throw new Error('no timer waiting')
    this.#timers.delete(next[0])
    this.nowMs = next[1].atMs
    next[1].callback()
    return next[1].delayMs
  }

  advance(ms: number): void {
    const until = this.nowMs + ms
    for (;;) {
      const next = [...this.#timers.values()].sort((a, b) => a.atMs - b.atMs)[0]
      if (!next || next.atMs > until) break
      this.runNext()
    }
    this.nowMs = until
  }
}

class FakeSocket implements ResultsSocketLike {
  readyState = 0
  binaryType = 'blob'
  sent: ResultsClientFrame[] = []
  closedWith: number | null = null
  /** A live server answers heartbeats; the heartbeat test turns this off. */
  answerHeartbeats = true
  onopen: ((event: unknown) => void) | null = null
  onmessage: ((event: { data: unknown }) => void) | null = null
  onclose: ((event: { code: number }) => void) | null = null
  onerror: ((event: unknown) => void) | null = null

  send(data: string): void {
    const frame = parseResultsClientFrame(data)
    this.sent.push(frame)
    if (frame.type === 'sys.heartbeat' && this.answerHeartbeats)
      this.receive({ type: 'sys.heartbeat.resp', requestId: frame.requestId })
  }
  close(code = 1000): void {
    this.closedWith = code
    this.readyState = 3
  }
  /** The server accepts the socket and answers the hello. */
  accept(): void {
    this.readyState = 1
    this.onopen?.({})
    const hello = this.sent.find((f) => f.type === 'sys.hello')
    if (hello)
      this.receive({ type: 'sys.hello.resp', requestId: hello.requestId, protocolVersion: 1 })
  }
  receive(frame: ResultsServerFrame): void {
    this.onmessage?.({ data: JSON.stringify(frame) })
  }
  drop(code = 1006): void {
    this.readyState = 3
    this.onclose?.({ code })
  }
}

function fakeSession(timers: FakeTimers) {
  const sockets: FakeSocket[] = []
  const session = new ResultsSession({
    url: 'ws://test/ws/results',
    createSocket: () => {
      const socket = new FakeSocket()
      sockets.push(socket)
      return socket
    },
    readToken: () => 'token-1',
    timers,
  })
  sessions.push(session)
  session.start()
  return { session, sockets, last: () => sockets.at(-1) as FakeSocket }
}

describe('ResultsSession timing', () => {
  it('backs off 1 s, 2 s, 4 s … capped at 30 s and gives up after 50 retries', () => {
    const timers = new FakeTimers()
    const { session, sockets, last } = fakeSession(timers)
    last().accept()
    last().drop()
    const delays: number[] = []
    for (let i = 0; i < 60 && session.getSnapshot().status === 'reconnecting'; i++) {
      delays.push(timers.runNext())
      last().drop()
    }
    expect(delays.slice(0, 7)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000])
    expect(delays).toHaveLength(50)
    expect(sockets).toHaveLength(51)
    expect(session.getSnapshot().status).toBe('failed')
  })

  it('starts the backoff again from 1 s once a reconnect succeeds', () => {
    const timers = new FakeTimers()
    const { last } = fakeSession(timers)
    last().accept()
    last().drop()
    expect(timers.runNext()).toBe(1000)
    last().drop()
    expect(timers.runNext()).toBe(2000)
    last().accept()
    last().drop()
    expect(timers.pendingDelays()).toEqual([1000])
  })

  it('reports connected, then reconnecting on a drop, then reconnected', () => {
    const timers = new FakeTimers()
    const { session, last } = fakeSession(timers)
    const toasts: string[] = []
    session.subscribe((snapshot) => {
      const state = snapshot.toast?.state
      if (state && toasts.at(-1) !== state) toasts.push(state)
    })
    last().accept()
    last().drop()
    timers.runNext()
    last().accept()
    expect(toasts).toEqual(['connected', 'reconnecting', 'reconnected'])
  })

  it('beats every 10 s while answered, every 0.5 s once overdue, and replaces a silent socket', () => {
    const timers = new FakeTimers()
    const { sockets, last } = fakeSession(timers)
    const socket = last()
    socket.answerHeartbeats = false
    socket.accept()
    const beats = () => socket.sent.filter((f) => f.type === 'sys.heartbeat')
    timers.advance(10_000)
    expect(beats()).toHaveLength(1)
    socket.receive({ type: 'sys.heartbeat.resp', requestId: beats()[0]?.requestId ?? 0 })
    timers.advance(9_999)
    expect(beats()).toHaveLength(1)
    timers.advance(1)
    expect(beats()).toHaveLength(2)
    // No answer from now on: the next beats come every 0.5 s.
    timers.advance(10_000)
    expect(beats()).toHaveLength(3)
    timers.advance(500)
    expect(beats()).toHaveLength(4)
    timers.advance(500 * HEARTBEAT_MAX_MISSED)
    expect(socket.closedWith).toBe(4000)
    expect(timers.pendingDelays()).toContain(1000)
    timers.advance(1000)
    expect(sockets).toHaveLength(2)
  })

  it('never drops a socket whose server does not answer heartbeats at all', () => {
    const timers = new FakeTimers()
    const { sockets, last } = fakeSession(timers)
    last().answerHeartbeats = false
    last().accept()
    timers.advance(120_000)
    expect(sockets).toHaveLength(1)
    expect(last().closedWith).toBeNull()
    expect(last().sent.filter((f) => f.type === 'sys.heartbeat')).toHaveLength(12)
  })

  it('counts any frame as a sign of life', () => {
    const timers = new FakeTimers()
    const { last } = fakeSession(timers)
    const socket = last()
    socket.accept()
    timers.advance(10_000)
    socket.answerHeartbeats = false
    for (let i = 0; i < 5; i++) {
      timers.advance(10_000)
      socket.receive({ type: 'sys.sync.resp', requestId: 999, vizUpdates: [], sensorUpdates: [] })
    }
    expect(socket.closedWith).toBeNull()
    expect(timers.pendingDelays()).toEqual([10_000])
  })

  it('closes after 300 s hidden, failing what waits, and reconnects when the page shows again', async () => {
    const timers = new FakeTimers()
    const { session, sockets, last } = fakeSession(timers)
    last().accept()
    const waiting = session.fetchStatisticsInfo(7)
    session.setPageHidden(true)
    timers.advance(299_999)
    expect(session.getSnapshot().status).toBe('open')
    timers.advance(1)
    expect(session.getSnapshot().status).toBe('closed')
    expect(sockets[0]?.closedWith).toBe(1000)
    await expect(waiting).rejects.toThrow(SESSION_ERRORS.hidden)
    session.setPageHidden(false)
    expect(sockets).toHaveLength(2)
    last().accept()
    expect(session.getSnapshot().status).toBe('open')
  })

  it('stays connected when the page shows again within 300 s', () => {
    const timers = new FakeTimers()
    const { session, sockets, last } = fakeSession(timers)
    last().accept()
    session.setPageHidden(true)
    timers.advance(200_000)
    session.setPageHidden(false)
    timers.advance(200_000)
    expect(session.getSnapshot().status).toBe('open')
    expect(sockets).toHaveLength(1)
  })

  it('cancels a queued calculation locally, without sending it', async () => {
    const timers = new FakeTimers()
    const { session, last } = fakeSession(timers)
    const handle = session.calculateStatistics(statsRequest, () => undefined)
    await expect(handle.cancel()).resolves.toBe(true)
    await expect(handle.done).resolves.toBe('canceled')
    last().accept()
    expect(last().sent.map((f) => f.type)).toEqual(['sys.hello'])
  })

  it('fails every waiting request when stopped', async () => {
    const timers = new FakeTimers()
    const { session } = fakeSession(timers)
    const waiting = session.sync(7)
    session.stop()
    await expect(waiting).rejects.toThrow(SESSION_ERRORS.closed)
    expect(session.getSnapshot().status).toBe('closed')
  })
})
