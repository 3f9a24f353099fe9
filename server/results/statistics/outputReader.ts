import { open } from 'node:fs/promises'

/*
 * Whole object files read into reused buffers: a fresh 40 MB allocation costs page faults at about
 * 1 GB/s (TOOLCHAIN.md), several times the read itself, so statistics streaming over outputs keeps
 * a few buffers and reads each output's files into them.
 */

/** Buffers larger than the request by this share, so slightly bigger outputs reuse them too. */
const SLACK = 1.125

/** A few reusable byte buffers (8-byte aligned: each owns its ArrayBuffer). */
export class BufferPool {
  #free: Buffer[] = []
  readonly #keep: number

  constructor(keep = 8) {
    this.#keep = keep
  }

  /** A buffer of at least `sizeBytes` (contents undefined). */
  take(sizeBytes: number): Buffer {
    let best = -1
    this.#free.forEach((buffer, index) => {
      if (buffer.length >= sizeBytes && (best < 0 || buffer.length < this.#free[best]!.length))
        best = index
    })
    if (best >= 0) return this.#free.splice(best, 1)[0]!
    return Buffer.allocUnsafeSlow(Math.max(8, Math.ceil(sizeBytes * SLACK)))
  }

  /** Gives a buffer back; the pool keeps the largest few. */
  give(buffer: Buffer): void {
    this.#free.push(buffer)
    if (this.#free.length > this.#keep) {
      this.#free.sort((a, b) => b.length - a.length)
      this.#free.length = this.#keep
    }
  }
}

/** A file's bytes in a pooled buffer; `release` hands the buffer back. */
export interface PooledFile {
  bytes: Uint8Array
  release(): void
}

/** Reads a whole file into a buffer of the pool. Throws ENOENT and other I/O errors as is. */
export async function readFilePooled(path: string, pool: BufferPool): Promise<PooledFile> {
  const handle = await open(path, 'r')
  try {
    const { size } = await handle.stat()
    const buffer = pool.take(size)
    let offset = 0
    while (offset < size) {
      const { bytesRead } = await handle.read(buffer, offset, size - offset, offset)
      if (bytesRead === 0) break
      offset += bytesRead
    }
    let released = false
    return {
      bytes: buffer.subarray(0, offset),
      release: () => {
        if (released) return
        released = true
        pool.give(buffer)
      },
    }
  } finally {
    await handle.close()
  }
}
