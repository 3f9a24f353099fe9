import WebSocket from 'ws'
import {
  decodeBinaryFrame,
  parseResultsServerFrame,
  RESULTS_PROTOCOL_VERSION,
  type ResultsServerFrame,
} from '../../../domain/resultsProtocol.ts'

/*
 * A /ws/results client for tests and the bench: every frame it receives is parsed with the
 * protocol's schemas (binary ones with decodeBinaryFrame) and kept, in order, with its payload.
 */

/** A received frame; binary ones carry their payload. */
export interface ReceivedFrame {
  frame: ResultsServerFrame
  payload: Uint8Array | null
}

/** A connected test client of /ws/results. */
export class ResultsTestClient {
  readonly socket: WebSocket
  readonly frames: ReceivedFrame[] = []
  #waiters: { test: (frame: ReceivedFrame) => boolean; resolve: (frame: ReceivedFrame) => void }[] =
    []
  #nextRequestId = 1
  readonly closed: Promise<{ code: number; reason: string }>

  private constructor(socket: WebSocket) {
    this.socket = socket
    this.closed = new Promise((resolve) =>
      socket.on('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    )
    socket.on('message', (data: Buffer, isBinary: boolean) => {
      const received: ReceivedFrame = isBinary
        ? (() => {
            const decoded = decodeBinaryFrame(new Uint8Array(data))
            return { frame: decoded.header, payload: decoded.payload }
          })()
        : { frame: parseResultsServerFrame(data.toString('utf8')), payload: null }
      this.frames.push(received)
      this.#waiters = this.#waiters.filter((waiter) => {
        if (!waiter.test(received)) return true
        waiter.resolve(received)
        return false
      })
    })
  }

  /** Opens a socket to `url` (ws://host:port/ws/results). */
  static async connect(url: string): Promise<ResultsTestClient> {
    const socket = new WebSocket(url, { maxPayload: 1024 * 1024 * 1024 })
    await new Promise<void>((resolve, reject) => {
      socket.once('open', () => resolve())
      socket.once('error', reject)
    })
    return new ResultsTestClient(socket)
  }

  /** Connects and says sys.hello with the token; resolves after sys.hello.resp. */
  static async open(url: string, accessToken: string): Promise<ResultsTestClient> {
    const client = await ResultsTestClient.connect(url)
    const requestId = client.send({
      type: 'sys.hello',
      protocolVersion: RESULTS_PROTOCOL_VERSION,
      accessToken,
    })
    const reply = await client.waitFor((f) => f.frame.requestId === requestId)
    if (reply.frame.type !== 'sys.hello.resp') throw new Error(JSON.stringify(reply.frame))
    return client
  }

  /** Sends a command with a fresh requestId (unless it has one); returns the requestId. */
  send(frame: Record<string, unknown>): number {
    const requestId = typeof frame.requestId === 'number' ? frame.requestId : this.#nextRequestId++
    this.socket.send(JSON.stringify({ ...frame, requestId }))
    return requestId
  }

  /** Sends raw text as is. */
  sendText(text: string): void {
    this.socket.send(text)
  }

  /** The first frame (already received or to come) that passes `test`. */
  waitFor(test: (frame: ReceivedFrame) => boolean, timeoutMs = 30_000): Promise<ReceivedFrame> {
    const found = this.frames.find(test)
    if (found) return Promise.resolve(found)
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('No such frame in time')), timeoutMs)
      this.#waiters.push({
        test,
        resolve: (frame) => {
          clearTimeout(timer)
          resolve(frame)
        },
      })
    })
  }

  /** Every frame of `requestId` up to and including the first of type `lastType`. */
  async collect(requestId: number, lastType: string, timeoutMs = 60_000): Promise<ReceivedFrame[]> {
    await this.waitFor(
      (f) => f.frame.requestId === requestId && f.frame.type === lastType,
      timeoutMs,
    )
    const frames = this.frames.filter((f) => f.frame.requestId === requestId)
    const end = frames.findIndex((f) => f.frame.type === lastType)
    return frames.slice(0, end + 1)
  }

  /** Sends a command and collects its frames up to `lastType`. */
  async request(
    frame: Record<string, unknown>,
    lastType: string,
    timeoutMs?: number,
  ): Promise<ReceivedFrame[]> {
    return this.collect(this.send(frame), lastType, timeoutMs)
  }

  close(): void {
    this.socket.close()
  }
}
