import type { FileHandle } from 'node:fs/promises'
import { open } from 'node:fs/promises'
import { Readable, type Writable } from 'node:stream'
import type { PreparedBundle } from './bundleStream.ts'

/*
 * The body of a bundle reply (bundleRoute.ts), sent at the socket's pace with as little JavaScript
 * per byte as Node allows (Node 20 has no sendfile): each object file is read in 4 MiB pieces into
 * buffers that are reused across pieces and requests, and each piece is handed to the socket with a
 * write callback that gives its buffer back, so the next reads overlap the socket's writes and no
 * fresh memory is faulted in per request (a fresh buffer costs about 1 GB/s in page faults,
 * TOOLCHAIN.md). Measured (bench node/bundleServe): the server's CPU per 40 MB bundle fell from
 * about 41 ms (async generator over 1 MiB read-stream chunks) to about 26 ms.
 *
 * Fastify sends a stream body with `pipe(res)`: this Readable takes that call and writes to the
 * response itself, so the app's onSend hooks (isolation, security and cache headers) still run. Read
 * as a plain Readable (anything but a pipe), it pushes copies of the same pieces.
 */

/** Bytes read per piece from an object file. */
export const BUNDLE_PIECE_BYTES = 4 * 1024 * 1024
/** Pieces one reply may have in flight (read or being written). */
const PIECES_IN_FLIGHT = 3
/** Free piece buffers kept between replies. */
const KEPT_PIECES = 8

const freePieces: Buffer[] = []

function takePiece(): Buffer {
  return freePieces.pop() ?? Buffer.allocUnsafeSlow(BUNDLE_PIECE_BYTES)
}

function givePiece(piece: Buffer): void {
  if (freePieces.length < KEPT_PIECES) freePieces.push(piece)
}

/** An inclusive byte range of the bundle (as in a Range header). */
export interface ByteRange {
  start: number
  end: number
}

/** One part of the bundle's bytes: bytes in memory (header, padding) or an object file. */
type Segment =
  | { position: number; length: number; bytes: Uint8Array }
  | { position: number; length: number; path: string }

function bundleSegments(bundle: Pick<PreparedBundle, 'header' | 'files' | 'offsets'>): Segment[] {
  const segments: Segment[] = [{ position: 0, length: bundle.header.length, bytes: bundle.header }]
  let position = bundle.header.length
  for (const [index, file] of bundle.files.entries()) {
    const offset = bundle.offsets[index] ?? position
    if (offset > position)
      segments.push({
        position,
        length: offset - position,
        bytes: new Uint8Array(offset - position),
      })
    segments.push({ position: offset, length: file.sizeBytes, path: file.path })
    position = offset + file.sizeBytes
  }
  return segments
}

/** Where a piece goes: it takes the piece and calls `done` once its buffer may be reused. */
export type PieceSink = (piece: Buffer, done: () => void) => void

/**
 * Reads `range` of the bundle piece by piece and hands each piece to `sink`; at most
 * {@link PIECES_IN_FLIGHT} pieces are out at once. Stops with an error when `signal` aborts or a
 * file is shorter than when it was stat'ed (a file that grew sends only what it announced).
 */
async function pumpBundle(
  segments: readonly Segment[],
  range: ByteRange,
  sink: PieceSink,
  signal: AbortSignal,
): Promise<void> {
  let inFlight = 0
  let wake: (() => void) | null = null
  const wakeUp = () => {
    const resume = wake
    wake = null
    resume?.()
  }
  const released = () => {
    inFlight--
    wakeUp()
  }
  // A reply whose socket went away may never call back: the abort wakes the pump instead.
  signal.addEventListener('abort', wakeUp)
  const waitForRelease = () => new Promise<void>((resolve) => (wake = resolve))
  const nextPiece = async (): Promise<Buffer> => {
    while (inFlight >= PIECES_IN_FLIGHT) {
      signal.throwIfAborted()
      await waitForRelease()
      signal.throwIfAborted()
    }
    inFlight++
    return takePiece()
  }
  const send = (piece: Buffer, length: number) => {
    sink(length === piece.length ? piece : piece.subarray(0, length), () => {
      givePiece(piece)
      released()
    })
  }
  for (const segment of segments) {
    const from = Math.max(range.start, segment.position)
    const to = Math.min(range.end + 1, segment.position + segment.length)
    if (to <= from) continue
    signal.throwIfAborted()
    if ('bytes' in segment) {
      const piece = await nextPiece()
      const part = segment.bytes.subarray(from - segment.position, to - segment.position)
      piece.set(part)
      send(piece, part.length)
      continue
    }
    let handle: FileHandle | null = await open(segment.path, 'r')
    try {
      let filePosition = from - segment.position
      const fileEnd = to - segment.position
      while (filePosition < fileEnd) {
        const piece = await nextPiece()
        let filled = 0
        const want = Math.min(piece.length, fileEnd - filePosition)
        try {
          while (filled < want) {
            const { bytesRead } = await handle.read(piece, filled, want - filled, filePosition)
            if (bytesRead === 0) throw new Error(`${segment.path} shrank while it was being sent`)
            filled += bytesRead
            filePosition += bytesRead
          }
        } catch (error) {
          givePiece(piece)
          released()
          throw error
        }
        signal.throwIfAborted()
        send(piece, filled)
      }
    } finally {
      await handle.close()
      handle = null
    }
  }
  while (inFlight > 0) {
    signal.throwIfAborted()
    await waitForRelease()
  }
  signal.removeEventListener('abort', wakeUp)
}

/**
 * Hands all of a bundle's bytes to `sink` piece by piece, as the HTTP reply gets them (the results
 * session's fetch.data writes them as websocket fragments, session/FrameSender.ts); resolves once
 * every piece is done. Rejects when `signal` aborts or a file shrank.
 */
export function pumpBundlePieces(
  bundle: Pick<PreparedBundle, 'header' | 'files' | 'offsets'>,
  sink: PieceSink,
  signal: AbortSignal,
): Promise<void> {
  const segments = bundleSegments(bundle)
  const last = segments.at(-1)!
  return pumpBundle(segments, { start: 0, end: last.position + last.length - 1 }, sink, signal)
}

/** A bundle's bytes (or a range of them) as a stream body; see the file comment. */
export class BundleBody extends Readable {
  readonly #segments: Segment[]
  readonly #range: ByteRange
  readonly #abort = new AbortController()
  #started = false
  readonly #heldPieces: (() => void)[] = []

  constructor(bundle: Pick<PreparedBundle, 'header' | 'files' | 'offsets'>, range: ByteRange) {
    super()
    this.#segments = bundleSegments(bundle)
    this.#range = range
  }

  /** Fastify's send: write the pieces to the response with write callbacks. */
  override pipe<T extends NodeJS.WritableStream>(destination: T, options?: { end?: boolean }): T {
    if (this.#started) return super.pipe(destination, options)
    this.#started = true
    const target = destination as unknown as Writable
    const end = options?.end !== false
    const sink: PieceSink = (piece, done) => {
      target.write(piece, () => done())
    }
    pumpBundle(this.#segments, this.#range, sink, this.#abort.signal).then(
      () => {
        if (end) target.end()
        // The source is done: let watchers (Fastify's end-of-stream) see it end.
        this.push(null)
        this.resume()
      },
      (error: unknown) => this.destroy(error instanceof Error ? error : new Error(String(error))),
    )
    return destination
  }

  override _read(): void {
    for (const release of this.#heldPieces.splice(0)) release()
    if (this.#started) return
    this.#started = true
    const sink: PieceSink = (piece, done) => {
      // A full queue holds the piece's buffer until the consumer reads again (backpressure).
      if (this.push(Buffer.from(piece))) done()
      else this.#heldPieces.push(done)
    }
    pumpBundle(this.#segments, this.#range, sink, this.#abort.signal).then(
      () => this.push(null),
      (error: unknown) => this.destroy(error instanceof Error ? error : new Error(String(error))),
    )
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.#abort.abort()
    callback(error)
  }
}

/**
 * The byte range a `Range` header asks of a body of `totalBytes` bytes (RFC 9110 §14): `null` when
 * there is no header or it cannot be served as one range (then the whole body is sent, as the RFC
 * allows), `'unsatisfiable'` when its one range lies past the end (416).
 */
export function parseRangeHeader(
  header: string | undefined,
  totalBytes: number,
): ByteRange | 'unsatisfiable' | null {
  if (header === undefined) return null
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim())
  if (!match) return null
  const [, first = '', last = ''] = match
  if (first === '' && last === '') return null
  if (first === '') {
    const suffix = Number(last)
    if (suffix === 0) return 'unsatisfiable'
    return { start: Math.max(0, totalBytes - suffix), end: totalBytes - 1 }
  }
  const start = Number(first)
  const end = last === '' ? totalBytes - 1 : Math.min(Number(last), totalBytes - 1)
  if (last !== '' && Number(last) < start) return null
  if (start >= totalBytes) return 'unsatisfiable'
  return { start, end }
}
