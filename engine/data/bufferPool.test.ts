import { describe, expect, it } from 'vitest'
import {
  BufferPool,
  DEFAULT_MAX_RETAINED_BYTES,
  MIN_POOLED_BYTES,
  sizeClassOf,
  workerPoolBytes,
} from './bufferPool.ts'

const MB = 1024 ** 2

describe('sizeClassOf', () => {
  it('rounds up to eight classes per power of two, wasting at most an eighth', () => {
    expect(sizeClassOf(1)).toBe(MIN_POOLED_BYTES)
    expect(sizeClassOf(8 * MB)).toBe(8 * MB)
    expect(sizeClassOf(8 * MB + 1)).toBe(9 * MB)
    expect(sizeClassOf(12.5 * MB)).toBe(13 * MB)
    for (const bytes of [70_000, 1_234_567, 99 * MB + 5]) {
      const size = sizeClassOf(bytes)
      expect(size).toBeGreaterThanOrEqual(bytes)
      expect(size).toBeLessThanOrEqual(bytes * 1.125)
    }
  })
})

describe('BufferPool', () => {
  it('hands a released buffer out again for a request of about its size', () => {
    const pool = new BufferPool()
    const first = pool.acquire(3 * MB)
    expect(first.byteLength).toBe(3 * MB)
    pool.release(first)
    expect(pool.acquire(2.9 * MB)).toBe(first)
    expect(pool.counts()).toEqual({ allocated: 1, reused: 1, idle: 0 })
  })

  it('never hands out a buffer too small, nor one more than twice the size class', () => {
    const pool = new BufferPool()
    const small = pool.acquire(MB)
    const huge = pool.acquire(64 * MB)
    pool.release(small)
    pool.release(huge)
    const medium = pool.acquire(4 * MB)
    expect(medium).not.toBe(small)
    expect(medium).not.toBe(huge)
    expect(pool.acquire(40 * MB)).toBe(huge)
  })

  it('picks the smallest fitting idle buffer', () => {
    const pool = new BufferPool()
    const a = pool.acquire(6 * MB)
    const b = pool.acquire(5 * MB)
    pool.release(a)
    pool.release(b)
    expect(pool.acquire(5 * MB)).toBe(b)
  })

  it('ignores detached buffers and keeps at most its cap, dropping the oldest', () => {
    const pool = new BufferPool({ maxRetainedBytes: 5 * MB })
    const detached = new ArrayBuffer(MB)
    structuredClone(detached, { transfer: [detached] })
    pool.release(detached)
    expect(pool.retainedBytes()).toBe(0)
    const oldest = pool.acquire(2 * MB)
    const newer = pool.acquire(2 * MB)
    const newest = pool.acquire(2 * MB)
    pool.release(oldest)
    pool.release(newer)
    pool.release(newest)
    expect(pool.retainedBytes()).toBe(4 * MB)
    expect(pool.acquire(2 * MB)).toBe(newer)
    expect(pool.counts().idle).toBe(1)
    pool.release(newest) // already idle: not kept twice
    expect(pool.counts().idle).toBe(1)
    pool.clear()
    expect(pool.retainedBytes()).toBe(0)
  })
})

describe('workerPoolBytes', () => {
  it('splits a sixteenth of the device over the data workers, so twelve pools stay within it', () => {
    // Chromium's largest reading, 8 GiB, and the pool of twelve workers: 512 MiB in all.
    expect(workerPoolBytes(8, 12) * 12).toBeCloseTo(512 * MB, -3)
    expect(workerPoolBytes(8, 12)).toBeGreaterThan(40 * MB) // a 1M-particle bundle still fits
    expect(workerPoolBytes(null, 12)).toBe(workerPoolBytes(4, 12))
    expect(workerPoolBytes(0.25, 12)).toBe(16 * MB)
    expect(workerPoolBytes(8, 1)).toBe(DEFAULT_MAX_RETAINED_BYTES)
  })

  it('keeps no buffer larger than its cap, so the cap bounds the idle bytes', () => {
    const pool = new BufferPool({ maxRetainedBytes: workerPoolBytes(2, 12) })
    pool.release(new ArrayBuffer(24 * MB))
    expect(pool.retainedBytes()).toBe(0)
    pool.release(new ArrayBuffer(5 * MB))
    pool.release(new ArrayBuffer(5 * MB))
    expect(pool.retainedBytes()).toBe(10 * MB)
    pool.release(new ArrayBuffer(5 * MB))
    pool.release(new ArrayBuffer(5 * MB))
    expect(pool.retainedBytes()).toBeLessThanOrEqual(workerPoolBytes(2, 12))
  })
})
