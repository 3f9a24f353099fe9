import { describe, expect, it } from 'vitest'
import {
  CacheQuotaError,
  formatCacheKey,
  isQuotaError,
  MemoryOutputCache,
  NO_OUTPUT_CACHE,
  type OutputCacheKey,
} from './cache.ts'

const key = (overrides: Partial<OutputCacheKey> = {}): OutputCacheKey => ({
  simulationId: 1,
  runId: 2,
  outputNo: 3,
  objectId: 'fluid-0',
  dataset: 'full',
  formatVersion: '1.0',
  ...overrides,
})

describe('cache keys', () => {
  it('differ in every field', () => {
    const base = formatCacheKey(key())
    for (const change of [
      { simulationId: 9 },
      { runId: 9 },
      { outputNo: 9 },
      { objectId: 'wall-1' },
      { dataset: 'fast' as const },
      { formatVersion: '2.0' },
    ]) {
      expect(formatCacheKey(key(change))).not.toBe(base)
    }
  })
})

describe('MemoryOutputCache', () => {
  it('copies on put, so the caller may transfer its buffer right after', async () => {
    const cache = new MemoryOutputCache()
    const bytes = new Uint8Array([1, 2, 3, 4])
    const put = cache.put(key(), bytes)
    structuredClone(bytes.buffer, { transfer: [bytes.buffer] })
    await put
    expect(await cache.get(key())).toEqual([new Uint8Array([1, 2, 3, 4])])
  })

  it('splits into chunks, refuses puts over its quota, drops stale runs', async () => {
    const cache = new MemoryOutputCache({ chunkBytes: 3, quotaBytes: 10 })
    await cache.put(key(), new Uint8Array([1, 2, 3, 4, 5]))
    expect((await cache.get(key()))!.map((c) => c.length)).toEqual([3, 2])
    const error = await cache.put(key({ outputNo: 4 }), new Uint8Array(6)).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(CacheQuotaError)
    expect(isQuotaError(error)).toBe(true)
    expect(isQuotaError(new DOMException('x', 'QuotaExceededError'))).toBe(true)
    expect(isQuotaError(new Error('x'))).toBe(false)
    await cache.put(key({ runId: 3, outputNo: 4 }), new Uint8Array(2))
    await cache.put(key({ simulationId: 8 }), new Uint8Array(2))
    await cache.dropStaleRuns(1, 3)
    expect(cache.keys().map((k) => [k.simulationId, k.runId])).toEqual([
      [1, 3],
      [8, 2],
    ])
  })

  it('has a no-op twin that caches nothing', async () => {
    await NO_OUTPUT_CACHE.put(key(), new Uint8Array(1))
    expect(await NO_OUTPUT_CACHE.get(key())).toBeNull()
  })
})
