import { describe, expect, it } from 'vitest'
import type { WebSocket } from 'ws'
import { decodeBinaryFrame } from '../../../domain/resultsProtocol.ts'
import { FrameSender, SocketClosedError } from './FrameSender.ts'

/** A socket that keeps what it was sent and flushes only when told to. */
class FakeSocket {
  readonly OPEN = 1
  readyState = 1
  bufferedAmount = 0
  terminated = false
  sent: { data: string | Uint8Array; fin: boolean }[] = []
  #callbacks: ((error?: Error) => void)[] = []

  send(data: string | Uint8Array, options: { fin: boolean }, callback: (error?: Error) => void) {
    this.sent.push({ data, fin: options.fin })
    this.bufferedAmount += typeof data === 'string' ? data.length : data.byteLength
    this.#callbacks.push(callback)
  }

  flush(): void {
    this.bufferedAmount = 0
    for (const callback of this.#callbacks.splice(0)) callback()
  }

  terminate(): void {
    this.terminated = true
    this.readyState = 3
    for (const callback of this.#callbacks.splice(0)) callback(new Error('closed'))
  }
}

const tick = () => new Promise((resolve) => setImmediate(resolve))

function bundleHeader(byteLength: number) {
  return {
    type: 'fetch.data.bundle' as const,
    requestId: 1,
    outputNo: 0,
    dataset: 'full' as const,
    objIds: [9],
    byteLength,
  }
}

describe('FrameSender', () => {
  it('streams a binary frame as fragments of one message that decode to header and payload', async () => {
    const socket = new FakeSocket()
    const sender = new FrameSender(socket as unknown as WebSocket, 1 << 30)
    const chunks = [Uint8Array.from([1, 2, 3]), Uint8Array.from([4, 5])]
    await sender.sendBinary(bundleHeader(5), chunks)
    expect(socket.sent.map((part) => part.fin)).toEqual([false, false, true])
    const message = Buffer.concat(socket.sent.map((part) => part.data as Uint8Array))
    const decoded = decodeBinaryFrame(new Uint8Array(message))
    expect(decoded.header).toEqual(bundleHeader(5))
    expect([...decoded.payload]).toEqual([1, 2, 3, 4, 5])
  })

  it('waits for the socket to drain above the high-water mark before sending more', async () => {
    const socket = new FakeSocket()
    const sender = new FrameSender(socket as unknown as WebSocket, 4)
    const sending = sender.sendBinary(bundleHeader(8), [new Uint8Array(4), new Uint8Array(4)])
    const text = sender.sendJson({ type: 'fetch.data.done', requestId: 1 })
    await tick()
    // The prefix alone is above 4 bytes: nothing more goes out until the socket drains.
    expect(socket.sent).toHaveLength(1)
    socket.flush()
    await tick()
    // Both 4-byte chunks fit under the mark once drained; the second pushes it over again.
    expect(socket.sent.map((part) => part.fin)).toEqual([false, false, true])
    socket.flush()
    await sending
    await tick()
    socket.flush()
    await text
    expect(socket.sent).toHaveLength(4)
    expect(socket.sent.at(-1)?.data).toBe('{"type":"fetch.data.done","requestId":1}')
  })

  it('refuses to send on a closed socket and ends a message it cannot finish', async () => {
    const socket = new FakeSocket()
    const sender = new FrameSender(socket as unknown as WebSocket, 1 << 30)
    function* failing() {
      yield new Uint8Array(2)
      yield new Uint8Array(2)
      throw new Error('disk gone')
    }
    await expect(sender.sendBinary(bundleHeader(10), failing())).rejects.toThrow('disk gone')
    expect(socket.terminated).toBe(true)
    await expect(sender.sendJson({ type: 'fetch.data.done', requestId: 1 })).rejects.toThrow(
      SocketClosedError,
    )
  })
})

describe('FrameSender.sendBinaryPieces', () => {
  it('writes each piece as a fragment without a copy and gives it back only once the socket wrote it', async () => {
    const socket = new FakeSocket()
    const sender = new FrameSender(socket as unknown as WebSocket, 1 << 30)
    const pieces = [Buffer.from([1, 2, 3]), Buffer.from([4, 5])]
    const done: number[] = []
    const sending = sender.sendBinaryPieces(bundleHeader(5), async (sink) => {
      pieces.forEach((piece, index) => sink(piece, () => done.push(index)))
      await new Promise<void>((resolve) => {
        const wait = () => (done.length === pieces.length ? resolve() : setImmediate(wait))
        wait()
      })
    })
    await tick()
    expect(socket.sent.map((part) => part.fin)).toEqual([false, false, true])
    expect(socket.sent[1]!.data).toBe(pieces[0])
    // Not written yet: the buffers are still the socket's.
    expect(done).toEqual([])
    socket.flush()
    await sending
    expect(done).toEqual([0, 1])
    const decoded = decodeBinaryFrame(
      new Uint8Array(Buffer.concat(socket.sent.map((part) => part.data as Uint8Array))),
    )
    expect(decoded.header).toEqual(bundleHeader(5))
    expect([...decoded.payload]).toEqual([1, 2, 3, 4, 5])
  })

  it('aborts the pump when the socket fails and ends a message of the wrong length', async () => {
    const socket = new FakeSocket()
    const sender = new FrameSender(socket as unknown as WebSocket, 1 << 30)
    let aborted = false
    const failing = sender.sendBinaryPieces(bundleHeader(10), async (sink, signal) => {
      sink(Buffer.alloc(4), () => undefined)
      socket.terminate()
      await tick()
      aborted = signal.aborted
      signal.throwIfAborted()
    })
    await expect(failing).rejects.toThrow(SocketClosedError)
    expect(aborted).toBe(true)

    const short = new FakeSocket()
    const shortSender = new FrameSender(short as unknown as WebSocket, 1 << 30)
    const sending = shortSender.sendBinaryPieces(bundleHeader(10), (sink) => {
      sink(Buffer.alloc(4), () => undefined)
      return Promise.resolve()
    })
    await expect(sending).rejects.toThrow('Binary payload is 4 bytes, its header says 10')
    expect(short.terminated).toBe(true)
  })
})
