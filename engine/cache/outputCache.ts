/**
 * The IndexedDB output cache of the data workers (engine/data/cache.ts `OutputCache`): object
 * payload bytes (the decoded form, since the reader views columns in place) keyed by simulation,
 * run, output, object, dataset and format version; stored in chunks of at most 64 MB; evicted
 * least recently used first under a byte budget; kept across reloads; dropped when the run changes.
 * Used only inside data workers, so every IndexedDB write is off the main thread.
 */
import type { IDBPTransaction } from 'idb'
import {
  CacheQuotaError,
  formatCacheKey,
  isQuotaError,
  type OutputCache,
  type OutputCacheKey,
} from '../data/cache.ts'
import {
  CACHE_DATABASE_NAME,
  chunkRange,
  copyIntoChunks,
  openCacheDatabase,
  DEFAULT_QUOTA_SHARE,
  MAX_CHUNK_BYTES,
  TOUCH_FLUSH_MS,
  type CacheDatabase,
  type CacheEntryRecord,
  type OutputCacheSchema,
} from './outputCacheStore.ts'

/** Options of {@link IndexedDbOutputCache}. */
export interface IndexedDbOutputCacheOptions {
  /** Default {@link CACHE_DATABASE_NAME}. */
  databaseName?: string
  /** A fixed byte budget; default: {@link DEFAULT_QUOTA_SHARE} of the storage estimate's quota, else none. */
  budgetBytes?: number
  /** Share of the estimated quota used when no `budgetBytes` is given. */
  quotaShare?: number
  /** Chunk size, at most (and by default) {@link MAX_CHUNK_BYTES}. */
  chunkBytes?: number
  /** Clock for least-recently-used order (injected: the engine never reads the clock itself). */
  nowMs?: () => number
  /** Storage estimate; default `navigator.storage.estimate` where it exists. */
  estimateStorage?: () => Promise<{ quota?: number; usage?: number }>
}

function defaultEstimateStorage(): Promise<{ quota?: number; usage?: number }> {
  const storage = (globalThis as { navigator?: { storage?: StorageManager } }).navigator?.storage
  return storage?.estimate ? storage.estimate() : Promise.resolve({})
}

/** IndexedDB-backed {@link OutputCache}. One instance per data worker; all share the database. */
export class IndexedDbOutputCache implements OutputCache {
  #databaseName: string
  #chunkBytes: number
  #configuredBudgetBytes: number | null
  #quotaShare: number
  #nowMs: () => number
  #estimateStorage: () => Promise<{ quota?: number; usage?: number }>
  #database: Promise<CacheDatabase> | null = null
  #budgetBytes: Promise<number> | null = null
  #lastUsedMs = 0
  /** Entries read since the last flush, with the time of their last read. */
  #pendingTouches = new Map<string, number>()
  #touchTimer: ReturnType<typeof setTimeout> | null = null

  constructor(options: IndexedDbOutputCacheOptions = {}) {
    this.#databaseName = options.databaseName ?? CACHE_DATABASE_NAME
    this.#chunkBytes = Math.max(1, Math.min(options.chunkBytes ?? MAX_CHUNK_BYTES, MAX_CHUNK_BYTES))
    this.#configuredBudgetBytes = options.budgetBytes ?? null
    this.#quotaShare = options.quotaShare ?? DEFAULT_QUOTA_SHARE
    this.#nowMs = options.nowMs ?? (() => Date.now())
    this.#estimateStorage = options.estimateStorage ?? defaultEstimateStorage
  }

  async get(key: OutputCacheKey): Promise<Uint8Array[] | null> {
    const [chunks] = await this.getMany([key])
    return chunks ?? null
  }

  /**
   * Every payload in a readonly transaction of its own, all at once: the browser hands out a
   * transaction's results in request order, each large value read whole before the next is given,
   * so separate transactions let the reads of an output's objects overlap. None writes (see
   * {@link TOUCH_FLUSH_MS}), so none waits for another.
   */
  async getMany(keys: readonly OutputCacheKey[]): Promise<(Uint8Array[] | null)[]> {
    if (keys.length === 0) return []
    const database = await this.#open()
    const ids = keys.map(formatCacheKey)
    const read = await Promise.all(
      ids.map((id) => {
        const transaction = database.transaction(['entries', 'chunks'], 'readonly')
        return Promise.all([
          transaction.objectStore('entries').get(id),
          transaction.objectStore('chunks').getAll(chunkRange(id)),
        ])
      }),
    )
    const invalid: string[] = []
    const found = read.map(([entry, chunks]) => {
      if (!entry) return null
      // IndexedDB is a trust boundary: a record that does not match its chunks is dropped, not used.
      const valid =
        chunks.length === entry.chunkCount &&
        chunks.every((chunk) => chunk instanceof ArrayBuffer) &&
        chunks.reduce((sum, chunk) => sum + chunk.byteLength, 0) === entry.sizeBytes
      if (!valid) {
        invalid.push(entry.id)
        return null
      }
      this.#touch(entry.id)
      return chunks.map((chunk) => new Uint8Array(chunk))
    })
    if (invalid.length > 0) await this.#deleteEntries(database, invalid)
    return found
  }

  put(key: OutputCacheKey, bytes: Uint8Array): Promise<void> {
    // The caller transfers `bytes` right after this call: copy before the first await.
    let chunks: ArrayBuffer[]
    try {
      chunks = copyIntoChunks(bytes, this.#chunkBytes)
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)))
    }
    return this.#store(key, chunks, bytes.length)
  }

  async dropStaleRuns(simulationId: number, runId: number): Promise<void> {
    const database = await this.#open()
    const entries = await database.getAllFromIndex('entries', 'bySimulation', simulationId)
    const stale = entries.filter((entry) => entry.runId !== runId).map((entry) => entry.id)
    if (stale.length > 0) await this.#deleteEntries(database, stale)
  }

  /** Bytes of every cached payload (all workers' writes). */
  async storedBytes(): Promise<number> {
    await this.#flushTouches()
    const database = await this.#open()
    const entries = await database.getAll('entries')
    return entries.reduce((sum, entry) => sum + entry.sizeBytes, 0)
  }

  /** Keys of every cached payload, least recently used first. */
  async keys(): Promise<OutputCacheKey[]> {
    await this.#flushTouches()
    const database = await this.#open()
    const entries = await database.getAllFromIndex('entries', 'byLastUsed')
    return entries.map((entry) => ({
      simulationId: entry.simulationId,
      runId: entry.runId,
      outputNo: entry.outputNo,
      objectId: entry.objectId,
      dataset: entry.dataset,
      formatVersion: entry.formatVersion,
    }))
  }

  /** Writes the uses not yet written, then closes the connection; a later call opens it again. */
  async close(): Promise<void> {
    await this.#flushTouches()
    const database = this.#database
    this.#database = null
    if (database) (await database.catch(() => null))?.close()
  }

  async #store(key: OutputCacheKey, chunks: ArrayBuffer[], sizeBytes: number): Promise<void> {
    const budgetBytes = await this.#readBudgetBytes()
    if (sizeBytes > budgetBytes) {
      throw new CacheQuotaError(
        `The output cache is full: ${sizeBytes} bytes do not fit its budget of ${budgetBytes} bytes.`,
      )
    }
    // Eviction goes by last use: the reads not yet written count.
    await this.#flushTouches()
    const database = await this.#open()
    try {
      await this.#write(database, key, chunks, sizeBytes, budgetBytes)
    } catch (error) {
      if (!isQuotaError(error)) throw error
      // The browser's quota is tighter than our budget. The failed transaction rolled back, so
      // free as many bytes as the payload in a transaction of their own, then retry once.
      this.#budgetBytes = null
      try {
        await this.#evictLeastRecentlyUsed(database, sizeBytes, formatCacheKey(key))
        await this.#write(database, key, chunks, sizeBytes, Infinity)
      } catch (retryError) {
        if (isQuotaError(retryError)) throw new CacheQuotaError()
        throw retryError
      }
    }
  }

  async #evictLeastRecentlyUsed(
    database: CacheDatabase,
    sizeBytes: number,
    keepId: string,
  ): Promise<void> {
    const entries = await database.getAllFromIndex('entries', 'byLastUsed')
    const ids: string[] = []
    let freedBytes = 0
    for (const entry of entries) {
      if (freedBytes >= sizeBytes) break
      if (entry.id === keepId) continue
      ids.push(entry.id)
      freedBytes += entry.sizeBytes
    }
    if (ids.length > 0) await this.#deleteEntries(database, ids)
  }

  /** One transaction: evicts least recently used entries until the payload fits, then writes it. */
  async #write(
    database: CacheDatabase,
    key: OutputCacheKey,
    chunks: ArrayBuffer[],
    sizeBytes: number,
    budgetBytes: number,
  ): Promise<void> {
    const id = formatCacheKey(key)
    const transaction = database.transaction(['entries', 'chunks'], 'readwrite')
    // `done` carries the outcome; handle it now so an abort before the final await is not unhandled.
    transaction.done.catch(() => undefined)
    try {
      await this.#writeInTransaction(transaction, id, key, chunks, sizeBytes, budgetBytes)
    } catch (error) {
      // Nothing half-written: a request that threw must not let the evictions commit alone.
      try {
        transaction.abort()
      } catch {
        // Already finished or aborted.
      }
      throw error
    }
  }

  async #writeInTransaction(
    transaction: IDBPTransaction<OutputCacheSchema, ('entries' | 'chunks')[], 'readwrite'>,
    id: string,
    key: OutputCacheKey,
    chunks: ArrayBuffer[],
    sizeBytes: number,
    budgetBytes: number,
  ): Promise<void> {
    const entries = transaction.objectStore('entries')
    const chunkStore = transaction.objectStore('chunks')
    const byLastUsed = await entries.index('byLastUsed').getAll()
    let storedBytes = byLastUsed.reduce(
      (sum, entry) => sum + (entry.id === id ? 0 : entry.sizeBytes),
      0,
    )
    // A failed request aborts the transaction, and `done` carries the reason (QuotaExceededError).
    const pending: Promise<unknown>[] = []
    const track = (request: Promise<unknown>): void => {
      pending.push(request.catch(() => undefined))
    }
    for (const entry of byLastUsed) {
      if (storedBytes + sizeBytes <= budgetBytes) break
      if (entry.id === id) continue
      storedBytes -= entry.sizeBytes
      track(entries.delete(entry.id))
      track(chunkStore.delete(chunkRange(entry.id)))
    }
    track(chunkStore.delete(chunkRange(id)))
    chunks.forEach((chunk, index) => track(chunkStore.put(chunk, [id, index])))
    const record: CacheEntryRecord = {
      simulationId: key.simulationId,
      runId: key.runId,
      outputNo: key.outputNo,
      objectId: key.objectId,
      dataset: key.dataset,
      formatVersion: key.formatVersion,
      id,
      sizeBytes,
      chunkCount: chunks.length,
      lastUsedMs: this.#nextLastUsedMs(),
    }
    pending.push(entries.put(record))
    // A failed request aborts the transaction; `done` carries the abort's reason (QuotaExceededError).
    await Promise.all([
      ...pending.map((request) => request.catch(() => undefined)),
      transaction.done,
    ])
  }

  async #deleteEntries(database: CacheDatabase, ids: readonly string[]): Promise<void> {
    const transaction = database.transaction(['entries', 'chunks'], 'readwrite')
    const requests = ids.flatMap((id) => [
      transaction.objectStore('entries').delete(id),
      transaction.objectStore('chunks').delete(chunkRange(id)),
    ])
    await Promise.all([...requests, transaction.done])
  }

  /**
   * Marks an entry used without delaying the read: noted now, written with the other uses within
   * {@link TOUCH_FLUSH_MS} in one transaction (a failure only costs LRU accuracy).
   */
  #touch(id: string): void {
    this.#pendingTouches.set(id, this.#nextLastUsedMs())
    this.#touchTimer ??= setTimeout(() => {
      this.#touchTimer = null
      void this.#flushTouches()
    }, TOUCH_FLUSH_MS)
  }

  /** Writes the pending uses (entries deleted meanwhile stay deleted). Never rejects. */
  async #flushTouches(): Promise<void> {
    if (this.#touchTimer !== null) {
      clearTimeout(this.#touchTimer)
      this.#touchTimer = null
    }
    if (this.#pendingTouches.size === 0) return
    const touches = [...this.#pendingTouches]
    this.#pendingTouches.clear()
    try {
      const database = await this.#open()
      const transaction = database.transaction('entries', 'readwrite')
      const store = transaction.store
      await Promise.all([
        ...touches.map(([id, lastUsedMs]) =>
          store
            .get(id)
            .then((current) => (current ? store.put({ ...current, lastUsedMs }) : undefined)),
        ),
        transaction.done,
      ])
    } catch {
      // Only the least-recently-used order suffers.
    }
  }

  /** Strictly increasing within this instance, so two uses in the same millisecond keep their order. */
  #nextLastUsedMs(): number {
    this.#lastUsedMs = Math.max(this.#nowMs(), this.#lastUsedMs + 1e-3)
    return this.#lastUsedMs
  }

  #readBudgetBytes(): Promise<number> {
    if (this.#configuredBudgetBytes !== null) return Promise.resolve(this.#configuredBudgetBytes)
    this.#budgetBytes ??= this.#estimateStorage().then(
      (estimate) =>
        typeof estimate.quota === 'number' && estimate.quota > 0
          ? Math.floor(estimate.quota * this.#quotaShare)
          : Infinity,
      () => Infinity,
    )
    return this.#budgetBytes
  }

  #open(): Promise<CacheDatabase> {
    if (this.#database) return this.#database
    const opening = openCacheDatabase(this.#databaseName, {
      // Another tab opens a newer schema: let it, and reopen on the next call.
      blocking: () => void this.close(),
      terminated: () => {
        this.#database = null
      },
    })
    this.#database = opening
    opening.catch(() => {
      if (this.#database === opening) this.#database = null
    })
    return opening
  }
}
