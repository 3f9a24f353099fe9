import 'fake-indexeddb/auto'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { CacheQuotaError, type OutputCacheKey } from '../data/cache.ts'
import { IndexedDbOutputCache, type IndexedDbOutputCacheOptions } from './outputCache.ts'
import { MAX_CHUNK_BYTES, TOUCH_FLUSH_MS } from './outputCacheStore.ts'

let databaseCount = 0
const openCaches: IndexedDbOutputCache[] = []

function createCache(options: IndexedDbOutputCacheOptions = {}): {
  cache: IndexedDbOutputCache
  databaseName: string
} {
  const databaseName = options.databaseName ?? `output-cache-test-${++databaseCount}`
  let clockMs = 1_000
  const cache = new IndexedDbOutputCache({ nowMs: () => (clockMs += 10), ...options, databaseName })
  openCaches.push(cache)
  return { cache, databaseName }
}

function keyOf(overrides: Partial<OutputCacheKey> = {}): OutputCacheKey {
  return {
    simulationId: 7,
    runId: 1,
    outputNo: 0,
    objectId: 'fluid-0',
    dataset: 'full',
    formatVersion: '1.0',
    ...overrides,
  }
}

function patternBytes(length: number, seed = 1): Uint8Array {
  const bytes = new Uint8Array(length)
  for (let index = 0; index < length; index++) bytes[index] = (index * 31 + seed) & 0xff
  return bytes
}

function concatenate(chunks: readonly Uint8Array[]): Uint8Array {
  const whole = new Uint8Array(chunks.reduce((sum, chunk) => sum + chunk.length, 0))
  let offset = 0
  for (const chunk of chunks) {
    whole.set(chunk, offset)
    offset += chunk.length
  }
  return whole
}

afterEach(async () => {
  vi.restoreAllMocks()
  await Promise.all(openCaches.splice(0).map((cache) => cache.close()))
})

describe('IndexedDbOutputCache', () => {
  it('returns null for a payload it never stored', async () => {
    const { cache } = createCache()
    expect(await cache.get(keyOf())).toBeNull()
  })

  it('returns the stored bytes, each chunk owning its whole buffer', async () => {
    const { cache } = createCache()
    const bytes = patternBytes(1000)
    await cache.put(keyOf(), bytes)
    const chunks = await cache.get(keyOf())
    expect(chunks).toHaveLength(1)
    const [chunk] = chunks ?? []
    expect(chunk?.byteOffset).toBe(0)
    expect(chunk?.byteLength).toBe(chunk?.buffer.byteLength)
    expect(chunk).toEqual(bytes)
  })

  it('copies on put, so the caller may transfer or change its bytes right after the call', async () => {
    const { cache } = createCache()
    const bytes = patternBytes(64)
    const expected = bytes.slice()
    const stored = cache.put(keyOf(), bytes)
    bytes.fill(0)
    await stored
    expect(concatenate((await cache.get(keyOf())) ?? [])).toEqual(expected)
  })

  it('keeps payloads apart by simulation, run, output, object, dataset and format version', async () => {
    const { cache } = createCache()
    const variants: Partial<OutputCacheKey>[] = [
      {},
      { simulationId: 8 },
      { runId: 2 },
      { outputNo: 1 },
      { objectId: 'wall-1' },
      { dataset: 'fast' },
      { formatVersion: '2.0' },
    ]
    for (const [index, variant] of variants.entries()) {
      await cache.put(keyOf(variant), patternBytes(16, index))
    }
    for (const [index, variant] of variants.entries()) {
      expect(concatenate((await cache.get(keyOf(variant))) ?? [])).toEqual(patternBytes(16, index))
    }
    expect(await cache.keys()).toHaveLength(variants.length)
  })

  it('stores a payload in chunks of at most the chunk size and reassembles them in order', async () => {
    const { cache } = createCache({ chunkBytes: 100 })
    const bytes = patternBytes(1050)
    await cache.put(keyOf(), bytes)
    const chunks = (await cache.get(keyOf())) ?? []
    expect(chunks.map((chunk) => chunk.length)).toEqual([...Array<number>(10).fill(100), 50])
    expect(concatenate(chunks)).toEqual(bytes)
  })

  it('never stores a chunk larger than 64 MB, whatever chunk size is asked for', async () => {
    const { cache } = createCache({ chunkBytes: 1024 ** 3 })
    await cache.put(keyOf(), new Uint8Array(MAX_CHUNK_BYTES + 8))
    const chunks = (await cache.get(keyOf())) ?? []
    expect(chunks.map((chunk) => chunk.length)).toEqual([MAX_CHUNK_BYTES, 8])
    expect(MAX_CHUNK_BYTES).toBe(64 * 1024 * 1024)
  })

  it('replaces a payload stored again under the same key, leaving no chunks of the old one', async () => {
    const { cache } = createCache({ chunkBytes: 10 })
    await cache.put(keyOf(), patternBytes(95, 1))
    await cache.put(keyOf(), patternBytes(25, 2))
    const chunks = (await cache.get(keyOf())) ?? []
    expect(chunks).toHaveLength(3)
    expect(concatenate(chunks)).toEqual(patternBytes(25, 2))
    expect(await cache.storedBytes()).toBe(25)
  })

  it('stores an empty payload', async () => {
    const { cache } = createCache()
    await cache.put(keyOf(), new Uint8Array(0))
    expect(concatenate((await cache.get(keyOf())) ?? [new Uint8Array(1)])).toHaveLength(0)
  })

  it('evicts the least recently used payloads when a put would exceed the budget', async () => {
    const { cache } = createCache({ budgetBytes: 300 })
    await cache.put(keyOf({ outputNo: 0 }), patternBytes(100))
    await cache.put(keyOf({ outputNo: 1 }), patternBytes(100))
    await cache.put(keyOf({ outputNo: 2 }), patternBytes(100))
    // Reading output 0 makes output 1 the least recently used.
    expect(await cache.get(keyOf({ outputNo: 0 }))).not.toBeNull()
    await cache.put(keyOf({ outputNo: 3 }), patternBytes(100))
    expect(await cache.get(keyOf({ outputNo: 1 }))).toBeNull()
    expect(await cache.get(keyOf({ outputNo: 0 }))).not.toBeNull()
    expect(await cache.get(keyOf({ outputNo: 2 }))).not.toBeNull()
    expect(await cache.get(keyOf({ outputNo: 3 }))).not.toBeNull()
    expect(await cache.storedBytes()).toBe(300)
  })

  it('evicts as many old payloads as a large one needs', async () => {
    const { cache } = createCache({ budgetBytes: 300 })
    for (let outputNo = 0; outputNo < 3; outputNo++) {
      await cache.put(keyOf({ outputNo }), patternBytes(100))
    }
    await cache.put(keyOf({ outputNo: 9 }), patternBytes(250))
    expect((await cache.keys()).map((key) => key.outputNo)).toEqual([9])
  })

  it('rejects a payload larger than the whole budget with a CacheQuotaError and keeps the others', async () => {
    const { cache } = createCache({ budgetBytes: 300 })
    await cache.put(keyOf({ outputNo: 0 }), patternBytes(100))
    await expect(cache.put(keyOf({ outputNo: 1 }), patternBytes(301))).rejects.toBeInstanceOf(
      CacheQuotaError,
    )
    expect(await cache.get(keyOf({ outputNo: 0 }))).not.toBeNull()
  })

  it('takes its budget from the storage estimate when none is configured', async () => {
    const { cache } = createCache({ estimateStorage: () => Promise.resolve({ quota: 400 }) })
    await cache.put(keyOf({ outputNo: 0 }), patternBytes(150))
    await cache.put(keyOf({ outputNo: 1 }), patternBytes(150))
    // Half of a 400-byte quota is 200 bytes: the first payload makes room for the second.
    expect((await cache.keys()).map((key) => key.outputNo)).toEqual([1])
  })

  it("turns the browser's QuotaExceededError into a CacheQuotaError after one retry with room made", async () => {
    const { cache } = createCache()
    await cache.put(keyOf({ outputNo: 0 }), patternBytes(100))
    const put = vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(() => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError')
    })
    const failure = cache.put(keyOf({ outputNo: 1 }), patternBytes(100))
    await expect(failure).rejects.toBeInstanceOf(CacheQuotaError)
    expect(put).toHaveBeenCalled()
    put.mockRestore()
    // Room was made by evicting the older payload; the cache still works afterwards.
    expect(await cache.get(keyOf({ outputNo: 0 }))).toBeNull()
    expect(await cache.get(keyOf({ outputNo: 1 }))).toBeNull()
    await cache.put(keyOf({ outputNo: 2 }), patternBytes(10))
    expect(await cache.get(keyOf({ outputNo: 2 }))).not.toBeNull()
  })

  it('succeeds on the retry when evicting old payloads made enough room', async () => {
    const { cache } = createCache()
    await cache.put(keyOf({ outputNo: 0 }), patternBytes(100))
    // eslint-disable-next-line @typescript-eslint/unbound-method -- applied with the store as `this`
    const original = IDBObjectStore.prototype.put
    let failures = 0
    vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(function (
      this: IDBObjectStore,
      ...args: Parameters<IDBObjectStore['put']>
    ) {
      if (failures++ === 0) throw new DOMException('Full.', 'QuotaExceededError')
      return original.apply(this, args)
    })
    await cache.put(keyOf({ outputNo: 1 }), patternBytes(100))
    vi.restoreAllMocks()
    expect(await cache.get(keyOf({ outputNo: 0 }))).toBeNull()
    expect(concatenate((await cache.get(keyOf({ outputNo: 1 }))) ?? [])).toEqual(patternBytes(100))
  })

  it('drops every payload of a simulation from runs other than the current one', async () => {
    const { cache } = createCache()
    await cache.put(keyOf({ runId: 1, outputNo: 0 }), patternBytes(10))
    await cache.put(keyOf({ runId: 1, outputNo: 1 }), patternBytes(10))
    await cache.put(keyOf({ runId: 2, outputNo: 0 }), patternBytes(10))
    await cache.put(keyOf({ simulationId: 8, runId: 1 }), patternBytes(10))
    await cache.dropStaleRuns(7, 2)
    expect(await cache.get(keyOf({ runId: 1, outputNo: 0 }))).toBeNull()
    expect(await cache.get(keyOf({ runId: 1, outputNo: 1 }))).toBeNull()
    expect(await cache.get(keyOf({ runId: 2, outputNo: 0 }))).not.toBeNull()
    expect(await cache.get(keyOf({ simulationId: 8, runId: 1 }))).not.toBeNull()
    expect(await cache.storedBytes()).toBe(20)
  })

  it('survives a reload: a new instance on the same database reads what the old one wrote', async () => {
    const { cache, databaseName } = createCache({ chunkBytes: 40 })
    await cache.put(keyOf(), patternBytes(100))
    await cache.close()
    const { cache: reopened } = createCache({ databaseName })
    expect(concatenate((await reopened.get(keyOf())) ?? [])).toEqual(patternBytes(100))
  })

  it('keeps the least-recently-used order across a reload', async () => {
    const databaseName = `output-cache-test-${++databaseCount}`
    let clockMs = 1_000
    const cacheA = new IndexedDbOutputCache({
      databaseName,
      nowMs: () => (clockMs += 10),
      budgetBytes: 200,
    })
    openCaches.push(cacheA)
    await cacheA.put(keyOf({ outputNo: 0 }), patternBytes(100))
    await cacheA.put(keyOf({ outputNo: 1 }), patternBytes(100))
    await cacheA.get(keyOf({ outputNo: 0 }))
    await cacheA.close()
    const cacheB = new IndexedDbOutputCache({
      databaseName,
      nowMs: () => (clockMs += 10),
      budgetBytes: 200,
    })
    openCaches.push(cacheB)
    await cacheB.put(keyOf({ outputNo: 2 }), patternBytes(100))
    expect((await cacheB.keys()).map((key) => key.outputNo)).toEqual([0, 2])
  })

  it('treats a record whose chunks are missing as a miss and removes it', async () => {
    const { cache, databaseName } = createCache({ chunkBytes: 10 })
    await cache.put(keyOf(), patternBytes(30))
    await cache.close()
    await new Promise<void>((resolve, reject) => {
      const request = indexedDB.open(databaseName)
      request.onerror = () => reject(request.error ?? new Error('open failed'))
      request.onsuccess = () => {
        const database = request.result
        const transaction = database.transaction('chunks', 'readwrite')
        transaction.objectStore('chunks').delete([`7/1/0/full/1.0/fluid-0`, 1])
        transaction.oncomplete = () => {
          database.close()
          resolve()
        }
      }
    })
    const { cache: reopened } = createCache({ databaseName })
    expect(await reopened.get(keyOf())).toBeNull()
    expect(await reopened.keys()).toHaveLength(0)
  })

  it('reads several payloads in readonly transactions, in key order, null where missing', async () => {
    const { cache } = createCache({ chunkBytes: 40 })
    await cache.put(keyOf({ outputNo: 0 }), patternBytes(100, 1))
    await cache.put(keyOf({ outputNo: 1 }), patternBytes(30, 2))
    const transaction = vi.spyOn(IDBDatabase.prototype, 'transaction')
    const read = await cache.getMany([
      keyOf({ outputNo: 1 }),
      keyOf({ outputNo: 5 }),
      keyOf({ outputNo: 0 }),
    ])
    expect(read.map((chunks) => (chunks === null ? null : concatenate(chunks)))).toEqual([
      patternBytes(30, 2),
      null,
      patternBytes(100, 1),
    ])
    // No write per read: the uses are written later, together.
    expect(transaction.mock.calls.map((call) => call[1] ?? 'readonly')).toEqual([
      'readonly',
      'readonly',
      'readonly',
    ])
  })

  it('writes the uses of its reads in one transaction within TOUCH_FLUSH_MS', async () => {
    const { cache, databaseName } = createCache()
    await cache.put(keyOf({ outputNo: 0 }), patternBytes(10))
    await cache.put(keyOf({ outputNo: 1 }), patternBytes(10))
    await cache.put(keyOf({ outputNo: 2 }), patternBytes(10))
    const transaction = vi.spyOn(IDBDatabase.prototype, 'transaction')
    await cache.get(keyOf({ outputNo: 1 }))
    await cache.get(keyOf({ outputNo: 0 }))
    await new Promise((resolve) => setTimeout(resolve, TOUCH_FLUSH_MS + 300))
    expect(transaction.mock.calls.map((call) => call[1] ?? 'readonly')).toEqual([
      'readonly',
      'readonly',
      'readwrite',
    ])
    // Another instance (another data worker) sees the order: 2 untouched, then 1, then 0.
    const { cache: other } = createCache({ databaseName })
    expect((await other.keys()).map((key) => key.outputNo)).toEqual([2, 1, 0])
  })

  it('rejects, never throws synchronously, when IndexedDB cannot be opened', async () => {
    const { cache } = createCache()
    vi.spyOn(indexedDB, 'open').mockImplementation(() => {
      throw new DOMException('No IndexedDB here.', 'InvalidStateError')
    })
    const result = cache.get(keyOf())
    await expect(result).rejects.toThrow('No IndexedDB here.')
  })
})
