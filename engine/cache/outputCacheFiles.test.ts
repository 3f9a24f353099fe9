import 'fake-indexeddb/auto'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { CacheQuotaError, formatCacheKey, type OutputCacheKey } from '../data/cache.ts'
import { deleteEntries } from './cacheEntries.ts'
import { IndexedDbOutputCache, type IndexedDbOutputCacheOptions } from './outputCache.ts'
import { openCacheDatabase, ORPHAN_FILE_AGE_MS } from './outputCacheStore.ts'
import { MemoryPayloadFiles } from './payloadFiles.ts'

// The cache with its bytes in files (OPFS in a data worker). Node has no OPFS: the files here are
// MemoryPayloadFiles, so what is tested is the cache's logic around its files; the OPFS store
// itself is exercised in chromium by bench/browser/storageReads.ts (its `check` line).

let databaseCount = 0
const openCaches: IndexedDbOutputCache[] = []
let clockMs = 1_000_000
const nowMs = () => (clockMs += 10)

function createCache(options: IndexedDbOutputCacheOptions & { files: MemoryPayloadFiles }) {
  const databaseName = options.databaseName ?? `output-cache-files-test-${++databaseCount}`
  const cache = new IndexedDbOutputCache({ nowMs, ...options, databaseName })
  openCaches.push(cache)
  return { cache, databaseName, files: options.files }
}

function keyOf(overrides: Partial<OutputCacheKey> = {}): OutputCacheKey {
  return {
    simulationId: 7,
    runId: 1,
    outputNo: 0,
    objectId: 'fluid-0',
    dataset: 'fast',
    formatVersion: '1.0',
    ...overrides,
  }
}

function patternBytes(length: number, seed = 1): Uint8Array {
  const bytes = new Uint8Array(length)
  for (let index = 0; index < length; index++) bytes[index] = (index * 31 + seed) & 0xff
  return bytes
}

async function readRecord(databaseName: string, key: OutputCacheKey) {
  const database = await openCacheDatabase(databaseName, {
    blocking: () => {},
    terminated: () => {},
  })
  try {
    return await database.get('entries', formatCacheKey(key))
  } finally {
    database.close()
  }
}

/** Files whose writes fail as a browser out of quota does. */
class FullFiles extends MemoryPayloadFiles {
  failures = Infinity
  override write(name: string, parts: readonly Uint8Array[]): Promise<void> {
    if (this.failures-- > 0) return Promise.reject(new DOMException('Full.', 'QuotaExceededError'))
    return super.write(name, parts)
  }
}

afterEach(async () => {
  vi.restoreAllMocks()
  await Promise.all(openCaches.splice(0).map((cache) => cache.close()))
})

describe('IndexedDbOutputCache with payload files', () => {
  it('keeps the bytes in one file per payload and reads them back as one chunk owning its buffer', async () => {
    const { cache, databaseName, files } = createCache({
      files: new MemoryPayloadFiles(nowMs),
      chunkBytes: 100,
    })
    expect(await cache.usesFiles()).toBe(true)
    await cache.put(keyOf(), patternBytes(1050))
    const record = await readRecord(databaseName, keyOf())
    expect(record?.fileName).not.toBeNull()
    expect(record?.chunkCount).toBe(0)
    expect(await files.names()).toEqual([record?.fileName])
    const chunks = (await cache.get(keyOf())) ?? []
    expect(chunks).toHaveLength(1)
    expect(chunks[0]?.byteLength).toBe(chunks[0]?.buffer.byteLength)
    expect(chunks[0]).toEqual(patternBytes(1050))
  })

  it('keeps the bytes in IndexedDB where there are no files (Node, a browser without OPFS)', async () => {
    const cache = new IndexedDbOutputCache({
      databaseName: `output-cache-files-test-${++databaseCount}`,
    })
    openCaches.push(cache)
    expect(await cache.usesFiles()).toBe(false)
    await cache.put(keyOf(), patternBytes(10))
    expect(await cache.get(keyOf())).toEqual([patternBytes(10)])
  })

  it('copies on put, so the caller may transfer or change its bytes right after the call', async () => {
    const { cache } = createCache({ files: new MemoryPayloadFiles(nowMs) })
    const bytes = patternBytes(64)
    const stored = cache.put(keyOf(), bytes)
    bytes.fill(0)
    await stored
    expect(await cache.get(keyOf())).toEqual([patternBytes(64)])
  })

  it('writes a payload stored again under a new file and removes the old one', async () => {
    const { cache, files } = createCache({ files: new MemoryPayloadFiles(nowMs) })
    await cache.put(keyOf(), patternBytes(95, 1))
    const [first] = await files.names()
    await cache.put(keyOf(), patternBytes(25, 2))
    const names = await files.names()
    expect(names).toHaveLength(1)
    expect(names[0]).not.toBe(first)
    expect(await cache.get(keyOf())).toEqual([patternBytes(25, 2)])
    expect(await cache.storedBytes()).toBe(25)
  })

  it('removes the files of the payloads it evicts and of stale runs', async () => {
    const { cache, files } = createCache({ files: new MemoryPayloadFiles(nowMs), budgetBytes: 250 })
    await cache.put(keyOf({ outputNo: 0 }), patternBytes(100))
    await cache.put(keyOf({ outputNo: 1 }), patternBytes(100))
    await cache.get(keyOf({ outputNo: 0 }))
    await cache.put(keyOf({ outputNo: 2 }), patternBytes(100))
    expect((await cache.keys()).map((key) => key.outputNo)).toEqual([0, 2])
    expect(await files.names()).toHaveLength(2)
    await cache.put(keyOf({ runId: 2, outputNo: 0 }), patternBytes(10))
    await cache.dropStaleRuns(7, 2)
    expect((await cache.keys()).map((key) => key.runId)).toEqual([2])
    expect(await files.names()).toHaveLength(1)
  })

  it('treats a record whose file is missing or cut short as a miss and removes the record', async () => {
    const { cache, databaseName, files } = createCache({ files: new MemoryPayloadFiles(nowMs) })
    await cache.put(keyOf({ outputNo: 0 }), patternBytes(100))
    await cache.put(keyOf({ outputNo: 1 }), patternBytes(100))
    const missing = (await readRecord(databaseName, keyOf({ outputNo: 0 })))!.fileName!
    const short = (await readRecord(databaseName, keyOf({ outputNo: 1 })))!.fileName!
    await files.remove(missing)
    await files.write(short, [patternBytes(40)])
    expect(await cache.getMany([keyOf({ outputNo: 0 }), keyOf({ outputNo: 1 })])).toEqual([
      null,
      null,
    ])
    expect(await cache.keys()).toHaveLength(0)
  })

  it('keeps the record when its file cannot be read for now', async () => {
    const { cache, files } = createCache({ files: new MemoryPayloadFiles(nowMs) })
    await cache.put(keyOf(), patternBytes(10))
    vi.spyOn(files, 'read').mockRejectedValueOnce(new DOMException('Busy.', 'InvalidStateError'))
    expect(await cache.get(keyOf())).toBeNull()
    expect(await cache.get(keyOf())).toEqual([patternBytes(10)])
  })

  it('removes the new file when its record cannot be written', async () => {
    const { cache, files } = createCache({ files: new MemoryPayloadFiles(nowMs) })
    vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(() => {
      throw new DOMException('Broken.', 'UnknownError')
    })
    await expect(cache.put(keyOf(), patternBytes(10))).rejects.toThrow('Broken.')
    vi.restoreAllMocks()
    expect(await files.names()).toEqual([])
    expect(await cache.keys()).toEqual([])
  })

  it("makes room and retries once when the browser's quota refuses the file, then gives up", async () => {
    const files = new FullFiles(nowMs)
    files.failures = 0
    const { cache } = createCache({ files })
    await cache.put(keyOf({ outputNo: 0 }), patternBytes(100))
    files.failures = 1
    await cache.put(keyOf({ outputNo: 1 }), patternBytes(100))
    expect((await cache.keys()).map((key) => key.outputNo)).toEqual([1])
    files.failures = 2
    await expect(cache.put(keyOf({ outputNo: 2 }), patternBytes(100))).rejects.toBeInstanceOf(
      CacheQuotaError,
    )
    expect(await files.names()).toHaveLength(0)
    expect(await cache.keys()).toEqual([])
  })

  it('sweeps files no record names once they are older than a write can take, keeping the rest', async () => {
    const { cache, databaseName, files } = createCache({ files: new MemoryPayloadFiles(nowMs) })
    await cache.put(keyOf({ outputNo: 0 }), patternBytes(10))
    // A crash between a file's write and its record's commit leaves a file no record names.
    await files.write('7-1-9-crashed', [patternBytes(10)])
    clockMs += ORPHAN_FILE_AGE_MS + 1
    // A write in flight elsewhere: its file is young, its record not committed yet.
    await files.write('7-1-8-in-flight', [patternBytes(10)])
    expect(await cache.sweepFiles()).toEqual(['7-1-9-crashed'])
    const kept = await files.names()
    expect(kept).toHaveLength(2)
    expect(kept).toContain('7-1-8-in-flight')
    expect(kept).toContain((await readRecord(databaseName, keyOf({ outputNo: 0 })))?.fileName)
    expect(await cache.get(keyOf({ outputNo: 0 }))).toEqual([patternBytes(10)])
  })

  it('sweeps by itself on its first put', async () => {
    const files = new MemoryPayloadFiles(nowMs)
    await files.write('7-1-9-crashed', [patternBytes(10)])
    clockMs += ORPHAN_FILE_AGE_MS + 1
    const { cache } = createCache({ files })
    await cache.put(keyOf(), patternBytes(10))
    await vi.waitFor(async () => expect(await files.names()).toHaveLength(1))
    expect(await cache.get(keyOf())).toEqual([patternBytes(10)])
  })

  it('two workers writing the same key leave one record and one file', async () => {
    const files = new MemoryPayloadFiles(nowMs)
    const { cache: first, databaseName } = createCache({ files })
    const { cache: second } = createCache({ files, databaseName })
    await Promise.all([
      first.put(keyOf(), patternBytes(50, 1)),
      second.put(keyOf(), patternBytes(50, 1)),
    ])
    expect(await files.names()).toHaveLength(1)
    expect(await second.get(keyOf())).toEqual([patternBytes(50, 1)])
    expect(await first.storedBytes()).toBe(50)
  })

  it('a deletion leaves a record alone when another worker has put new bytes under its key', async () => {
    const { cache, databaseName, files } = createCache({ files: new MemoryPayloadFiles(nowMs) })
    await cache.put(keyOf(), patternBytes(10, 1))
    const seen = await readRecord(databaseName, keyOf())
    await cache.put(keyOf(), patternBytes(10, 2))
    const database = await openCacheDatabase(databaseName, {
      blocking: () => {},
      terminated: () => {},
    })
    try {
      expect(await deleteEntries(database, [{ id: seen!.id, fileName: seen!.fileName }])).toEqual(
        [],
      )
    } finally {
      database.close()
    }
    expect(await cache.get(keyOf())).toEqual([patternBytes(10, 2)])
    expect(await files.names()).toHaveLength(1)
  })
})
