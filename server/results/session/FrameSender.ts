import type { WebSocket } from 'ws'
import type { PieceSink } from '../bundleBody.ts'
import {
  PAYLOAD_ALIGNMENT,
  type BinaryServerFrame,
  type ResultsServerFrame,
} from '../../../domain/resultsProtocol.ts'

/** Sending stopped because the socket is closing or closed. */
export class SocketClosedError extends Error {
  override name = 'SocketClosedError'
  constructor() {
    super('The results session socket is closed')
  }
}

/**
 * Bytes the socket may hold unsent before a sender waits for them to drain: 4 MiB keeps a fast
 * link busy (a few ms of data) while a slow or stalled client cannot make the server buffer a
 * whole bundle per request.
 */
export const SEND_HIGH_WATER_BYTES = 4 * 1024 * 1024

/** The prefix of a binary frame: header length (u32 LE) and the JSON header padded to 8 bytes. */
export function encodeBinaryFramePrefix(header: BinaryServerFrame): Uint8Array {
  const json = new TextEncoder().encode(JSON.stringify(header))
  const headerLength = Math.ceil((4 + json.byteLength) / PAYLOAD_ALIGNMENT) * PAYLOAD_ALIGNMENT - 4
  const bytes = new Uint8Array(4 + headerLength)
  new DataView(bytes.buffer).setUint32(0, headerLength, true)
  bytes.fill(0x20, 4)
  bytes.set(json, 4)
  return bytes
}

/**
 * Serializes everything a session sends on its socket: JSON frames and binary frames, one message
 * at a time (a binary frame is streamed as fragments of one websocket message, so nothing may come
 * between them). Waits for the socket to drain above {@link SEND_HIGH_WATER_BYTES}, so memory per
 * session stays bounded whatever the client's speed.
 */
export class FrameSender {
  readonly #socket: WebSocket
  readonly #highWaterBytes: number
  #tail: Promise<void> = Promise.resolve()

  constructor(socket: WebSocket, highWaterBytes = SEND_HIGH_WATER_BYTES) {
    this.#socket = socket
    this.#highWaterBytes = highWaterBytes
  }

  /** Sends a JSON frame after everything queued before it. Rejects with SocketClosedError. */
  sendJson(frame: ResultsServerFrame): Promise<void> {
    return this.#enqueue(() => this.#write(JSON.stringify(frame), false, true))
  }

  /**
   * Sends one binary frame whose payload (exactly `header.byteLength` bytes) comes in chunks: the
   * prefix and each chunk are fragments of one message. A payload of the wrong length throws
   * before the message's last fragment (the socket is then closed: the message cannot be ended).
   */
  sendBinary(
    header: BinaryServerFrame,
    payload: Iterable<Uint8Array> | AsyncIterable<Uint8Array>,
  ): Promise<void> {
    return this.#enqueue(async () => {
      let sent = 0
      let pending: Uint8Array | null = encodeBinaryFramePrefix(header)
      let first = true
      try {
        for await (const chunk of payload) {
          if (chunk.byteLength === 0) continue
          await this.#write(pending, true, false)
          first = false
          pending = chunk
          sent += chunk.byteLength
          if (sent > header.byteLength)
            throw new Error('Binary payload longer than its header says')
        }
        if (sent !== header.byteLength)
          throw new Error(`Binary payload is ${sent} bytes, its header says ${header.byteLength}`)
        await this.#write(pending, true, true)
      } catch (error) {
        // A message left unfinished would corrupt every later frame: end the session instead.
        if (!first) this.#socket.terminate()
        throw error
      }
    })
  }

  /**
   * Sends one binary frame whose payload `pump` hands over in pieces (bundleBody.ts
   * pumpBundlePieces): each piece is written as the message's next fragment, without a copy, and
   * its `done` is called once the socket wrote it, so its buffer is reused only then and the pump
   * keeps the socket's pace. Resolves once every piece is written. A payload of the wrong length,
   * a failed pump or a closed socket ends the session's socket (the message cannot be ended) and
   * rejects; the pump's signal aborts at the first failed write.
   */
  sendBinaryPieces(
    header: BinaryServerFrame,
    pump: (sink: PieceSink, signal: AbortSignal) => Promise<void>,
  ): Promise<void> {
    return this.#enqueue(async () => {
      const socket = this.#socket
      if (socket.readyState !== socket.OPEN) throw new SocketClosedError()
      const total = header.byteLength
      const abort = new AbortController()
      const state: { failure: Error | null } = { failure: null }
      const fail = (error: Error) => {
        state.failure ??= error
        abort.abort()
      }
      const wrote = (error?: Error) => {
        if (error) fail(new SocketClosedError())
      }
      let sent = 0
      socket.send(encodeBinaryFramePrefix(header), { binary: true, fin: total === 0 }, wrote)
      try {
        await pump((piece, done) => {
          sent += piece.byteLength
          if (state.failure || sent > total) {
            fail(state.failure ?? new Error('Binary payload longer than its header says'))
            done()
            return
          }
          socket.send(piece, { binary: true, fin: sent === total }, (error) => {
            wrote(error)
            done()
          })
        }, abort.signal)
        if (state.failure) throw state.failure
        if (sent !== total)
          throw new Error(`Binary payload is ${sent} bytes, its header says ${total}`)
      } catch (error) {
        const reason = state.failure ?? error
        // A message left unfinished would corrupt every later frame: end the session instead.
        if (sent < total || state.failure) socket.terminate()
        throw reason
      }
    })
  }

  #enqueue(task: () => Promise<void>): Promise<void> {
    const run = this.#tail.then(task)
    this.#tail = run.catch(() => undefined)
    return run
  }

  async #write(data: string | Uint8Array, binary: boolean, fin: boolean): Promise<void> {
    const socket = this.#socket
    if (socket.readyState !== socket.OPEN) throw new SocketClosedError()
    const written = new Promise<void>((resolve, reject) => {
      socket.send(data, { binary, fin }, (error) => (error ? reject(error) : resolve()))
    })
    if (socket.bufferedAmount > this.#highWaterBytes) {
      try {
        await written
      } catch {
        throw new SocketClosedError()
      }
    } else written.catch(() => undefined)
  }
}
