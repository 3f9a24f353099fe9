/**
 * The HTTP side of a load: an output's bundle URL, and a response body read into a pooled buffer
 * (output bundles and setup geometry alike).
 */
import type { WrittenDataset } from '../../domain/outputFormat.ts'
import type { OutputSource } from '../protocol.ts'
import type { BufferPool } from './bufferPool.ts'

/** The bundle URL of a source with the dataset and objects as query. */
export function buildBundleUrl(
  source: OutputSource,
  dataset: WrittenDataset,
  objectIds: readonly string[],
): string {
  const query = new URLSearchParams({ dataset })
  if (objectIds.length > 0) query.set('objects', objectIds.join(','))
  const separator = source.bundleUrl.includes('?') ? '&' : '?'
  return `${source.bundleUrl}${separator}${query.toString()}`
}

/**
 * Reads a response body. With a known length and no content encoding, the bytes go straight into
 * a pooled buffer (no fresh allocation to fault in); otherwise into what `arrayBuffer()` returns.
 * The result starts at offset 0 of its buffer, so every column view in it is aligned.
 */
export async function readResponseBytes(
  response: Response,
  pool: BufferPool,
  signal?: AbortSignal,
): Promise<Uint8Array> {
  const length = Number(response.headers.get('content-length') ?? NaN)
  const encoded = (response.headers.get('content-encoding') ?? 'identity') !== 'identity'
  if (response.body === null || !Number.isSafeInteger(length) || length <= 0 || encoded) {
    return new Uint8Array(await response.arrayBuffer())
  }
  let buffer = pool.acquire(length)
  let view = new Uint8Array(buffer)
  let offset = 0
  const reader = response.body.getReader()
  try {
    for (;;) {
      signal?.throwIfAborted()
      const { done, value } = await reader.read()
      if (done) break
      if (offset + value.length > view.length) {
        // More than announced: grow (a wrong Content-Length; the reader judges the bytes).
        const grown = pool.acquire(Math.max(offset + value.length, view.length * 2))
        new Uint8Array(grown).set(view.subarray(0, offset))
        pool.release(buffer)
        buffer = grown
        view = new Uint8Array(grown)
      }
      view.set(value, offset)
      offset += value.length
    }
  } catch (error) {
    pool.release(buffer)
    await reader.cancel().catch(() => undefined)
    throw error
  } finally {
    reader.releaseLock()
  }
  return view.subarray(0, offset)
}
