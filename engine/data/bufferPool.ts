/**
 * A pool of ArrayBuffers to reuse. A fresh allocation is paid in page faults on first touch
 * (memcpy into it ≈ 1 GB/s against ≈ 7.5 GB/s into a touched buffer, TOOLCHAIN.md), so buffers that
 * come back (copied cache chunks, bundles the render worker is done with) are kept by size and
 * handed out again. Sizes are rounded up to size classes (8 per power of two, so at most 12.5 %
 * more memory than asked for, since a fetched bundle's buffer is transferred and held whole) so that a buffer released for one output fits the next output of about the same size.
 */

/** Smallest size class: below this, pooling saves nothing worth the bookkeeping. */
export const MIN_POOLED_BYTES = 64 * 1024
/** Default cap on bytes kept idle in a pool (oldest dropped first). */
export const DEFAULT_MAX_RETAINED_BYTES = 512 * 1024 ** 2
/**
 * Share of the device's memory that the idle buffers of all data workers together may keep, on
 * top of the render worker's output budget (1/8, engine/render/memoryBudget.ts): the pools sit
 * outside that budget, so without a share of their own twelve workers could keep 6 GiB idle.
 */
export const POOL_MEMORY_SHARE = 1 / 16
/** Device memory assumed where navigator.deviceMemory is absent, as the output budget does. */
const DEFAULT_DEVICE_MEMORY_GIB = 4
/** A pool below this reuses too little to be worth keeping (one 1M-particle fast dataset). */
const MIN_WORKER_POOL_BYTES = 16 * 1024 ** 2

/**
 * The idle bytes one of `workerCount` data workers may keep: {@link POOL_MEMORY_SHARE} of the
 * device's memory split over the workers, between 16 MiB and {@link DEFAULT_MAX_RETAINED_BYTES}.
 */
export function workerPoolBytes(deviceMemoryGiB: number | null, workerCount: number): number {
  const deviceGiB =
    deviceMemoryGiB !== null && deviceMemoryGiB > 0 ? deviceMemoryGiB : DEFAULT_DEVICE_MEMORY_GIB
  const share = (deviceGiB * 1024 ** 3 * POOL_MEMORY_SHARE) / Math.max(1, workerCount)
  return Math.round(Math.min(DEFAULT_MAX_RETAINED_BYTES, Math.max(MIN_WORKER_POOL_BYTES, share)))
}

/** The size class of a request: the smallest 2^k × (1 + j/8) that holds `bytes`. */
export function sizeClassOf(bytes: number): number {
  if (bytes <= MIN_POOLED_BYTES) return MIN_POOLED_BYTES
  const base = 2 ** Math.floor(Math.log2(bytes))
  const step = base / 8
  return Math.ceil(bytes / step) * step
}

/** Options of {@link BufferPool}. */
export interface BufferPoolOptions {
  maxRetainedBytes?: number
}

/** Idle ArrayBuffers by size, handed out again instead of allocating. */
export class BufferPool {
  #free: ArrayBuffer[] = []
  #retainedBytes = 0
  #maxRetainedBytes: number
  #allocatedCount = 0
  #reusedCount = 0

  constructor(options: BufferPoolOptions = {}) {
    this.#maxRetainedBytes = options.maxRetainedBytes ?? DEFAULT_MAX_RETAINED_BYTES
  }

  /**
   * A buffer of at least `minBytes`: an idle one of the same size class or up to twice it (the
   * smallest such), else a new one of the size class. Its contents are whatever was there.
   */
  acquire(minBytes: number): ArrayBuffer {
    const wanted = sizeClassOf(Math.max(0, minBytes))
    let best = -1
    for (let index = 0; index < this.#free.length; index++) {
      const size = this.#free[index]!.byteLength
      if (size < minBytes || size > 2 * wanted) continue
      if (best === -1 || size < this.#free[best]!.byteLength) best = index
    }
    if (best !== -1) {
      const [buffer] = this.#free.splice(best, 1)
      this.#retainedBytes -= buffer!.byteLength
      this.#reusedCount++
      return buffer!
    }
    this.#allocatedCount++
    return new ArrayBuffer(wanted)
  }

  /** Gives a buffer back. Detached (transferred) or tiny buffers are ignored; the oldest go first over the cap. */
  release(buffer: ArrayBuffer): void {
    if (buffer.byteLength < MIN_POOLED_BYTES || buffer.byteLength > this.#maxRetainedBytes) return
    if (this.#free.includes(buffer)) return
    this.#free.push(buffer)
    this.#retainedBytes += buffer.byteLength
    while (this.#retainedBytes > this.#maxRetainedBytes) {
      const oldest = this.#free.shift()!
      this.#retainedBytes -= oldest.byteLength
    }
  }

  /** Bytes held idle. */
  retainedBytes(): number {
    return this.#retainedBytes
  }

  /** How many buffers were allocated and how many handed out again. */
  counts(): { allocated: number; reused: number; idle: number } {
    return { allocated: this.#allocatedCount, reused: this.#reusedCount, idle: this.#free.length }
  }

  /** Drops every idle buffer. */
  clear(): void {
    this.#free = []
    this.#retainedBytes = 0
  }
}
