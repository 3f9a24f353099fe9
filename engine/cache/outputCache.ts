/**
 * The output cache of the data workers (engine/data/cache.ts `OutputCache`): object payload bytes
 * (the decoded form, since the reader views columns in place) keyed by simulation, run, output,
 * object, dataset and format version; evicted least recently used first under a byte budget; kept
 * across reloads; dropped when the run changes. The index (a record per payload: size, last use)
 * is in IndexedDB; the bytes are in an OPFS file per payload where the worker has sync access
 * handles (payloadFiles.ts: read 2–8 × faster than IndexedDB here), else in IndexedDB in chunks of
 * at most 64 MB. Used only inside data workers, so every write is off the main thread.
 */
import {
  CacheQuotaError,
  formatCacheKey,
  isQuotaError,
  type OutputCache,
  type OutputCacheKey,
} from '../data/cache.ts'
import {
  deleteEntries,
  newPayloadFileName,
  pickKey,
  readFile,
  removeFiles,
  sweepOrphanFiles,
  validChunks,
  withSweepLock,
  writeEntry,
  type SeenEntry,
  type StoredBytes,
} from './cacheEntries.ts'
import {
  CACHE_DATABASE_NAME,
  chunkRange,
  copyIntoChunks,
  openCacheDatabase,
  DEFAULT_QUOTA_SHARE,
  MAX_CHUNK_BYTES,
  ORPHAN_FILE_AGE_MS,
  TOUCH_FLUSH_MS,
  type CacheDatabase,
  type CacheEntryRecord,
} from './outputCacheStore.ts'
import { openOpfsPayloadFiles, type PayloadFiles } from './payloadFiles.ts'

/** Options of {@link IndexedDbOutputCache}. */
export interface IndexedDbOutputCacheOptions {
  /** Default {@link CACHE_DATABASE_NAME}. */
  databaseName?: string
  /**
   * Where payload bytes go: files (default: OPFS where this worker has sync access handles), or
   * null to keep them in IndexedDB chunks.
   */
  files?: PayloadFiles | null
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

/** The output cache. One instance per data worker; all share the database and the files. */
export class IndexedDbOutputCache implements OutputCache {
  #databaseName: string
  #chunkBytes: number
  #configuredBudgetBytes: number | null
  #quotaShare: number
  #nowMs: () => number
  #estimateStorage: () => Promise<{ quota?: number; usage?: number }>
  #database: Promise<CacheDatabase> | null = null
  #files: Promise<PayloadFiles | null>
  /** When this instance sweeps orphan files next (its first put, then every ORPHAN_FILE_AGE_MS). */
  #nextSweepMs = -Infinity
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
    this.#files =
      options.files === undefined ? openOpfsPayloadFiles() : Promise.resolve(options.files)
  }

  /** Whether payload bytes go to files (OPFS) rather than IndexedDB chunks. */
  async usesFiles(): Promise<boolean> {
    return (await this.#files) !== null
  }

  async get(key: OutputCacheKey): Promise<Uint8Array[] | null> {
    const [chunks] = await this.getMany([key])
    return chunks ?? null
  }

  /**
   * Every payload's record (and chunks) in a readonly transaction of its own, all at once: the
   * browser hands out a transaction's results in request order, each large value read whole before
   * the next, so separate transactions let the reads overlap. None writes (see
   * {@link TOUCH_FLUSH_MS}), so none waits for another. Files are read once their record is found.
   */
  async getMany(keys: readonly OutputCacheKey[]): Promise<(Uint8Array[] | null)[]> {
    if (keys.length === 0) return []
    const database = await this.#open()
    const files = await this.#files
    const invalid: SeenEntry[] = []
    const found = await Promise.all(
      keys.map(async (key) => {
        const id = formatCacheKey(key)
        const transaction = database.transaction(['entries', 'chunks'], 'readonly')
        const [entry, chunks] = await Promise.all([
          transaction.objectStore('entries').get(id),
          transaction.objectStore('chunks').getAll(chunkRange(id)),
        ])
        if (!entry) return null
        const bytes =
          entry.fileName === null ? validChunks(entry, chunks) : await readFile(files, entry)
        if (bytes === 'invalid') invalid.push(entry)
        if (bytes === null || bytes === 'invalid') return null
        this.#touch(entry.id)
        return bytes
      }),
    )
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
    const stale = entries.filter((entry) => entry.runId !== runId)
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

  /**
   * Removes the payload files no record names, once old enough (cacheEntries.ts). Runs by itself
   * on an instance's first put and then every {@link ORPHAN_FILE_AGE_MS}; resolves with the names
   * removed.
   */
  async sweepFiles(): Promise<string[]> {
    const files = await this.#files
    if (files === null) return []
    return sweepOrphanFiles(await this.#open(), files, this.#nowMs())
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
    const files = await this.#files
    if (files !== null && this.#nowMs() >= this.#nextSweepMs) {
      this.#nextSweepMs = this.#nowMs() + ORPHAN_FILE_AGE_MS
      void withSweepLock(() => this.sweepFiles()).catch(() => undefined)
    }
    const write = (budget: number) => this.#write(database, files, key, chunks, sizeBytes, budget)
    try {
      await write(budgetBytes)
    } catch (error) {
      if (!isQuotaError(error)) throw error
      // The browser's quota is tighter than our budget. The failed write left nothing behind, so
      // free as many bytes as the payload, then retry once.
      this.#budgetBytes = null
      try {
        await this.#evictLeastRecentlyUsed(database, sizeBytes, formatCacheKey(key))
        await write(Infinity)
      } catch (retryError) {
        if (isQuotaError(retryError)) throw new CacheQuotaError()
        throw retryError
      }
    }
  }

  /** Writes the payload's file (if files are used), then its record; removes what it replaced. */
  async #write(
    database: CacheDatabase,
    files: PayloadFiles | null,
    key: OutputCacheKey,
    chunks: ArrayBuffer[],
    sizeBytes: number,
    budgetBytes: number,
  ): Promise<void> {
    const fileName = files === null ? null : newPayloadFileName(key)
    const record: CacheEntryRecord = {
      ...pickKey(key),
      id: formatCacheKey(key),
      sizeBytes,
      chunkCount: fileName === null ? chunks.length : 0,
      fileName,
      lastUsedMs: this.#nextLastUsedMs(),
    }
    const bytes: StoredBytes = fileName === null ? { chunks, fileName } : { chunks: null, fileName }
    let unusedFiles: string[]
    try {
      if (files !== null && fileName !== null) {
        await files.write(
          fileName,
          chunks.map((chunk) => new Uint8Array(chunk)),
        )
      }
      unusedFiles = await writeEntry(database, record, bytes, budgetBytes)
    } catch (error) {
      // No record names the new file: remove it now rather than leave it to the sweep.
      if (files !== null && fileName !== null) await removeFiles(files, [fileName])
      throw error
    }
    if (files !== null) await removeFiles(files, unusedFiles)
  }

  async #evictLeastRecentlyUsed(
    database: CacheDatabase,
    sizeBytes: number,
    keepId: string,
  ): Promise<void> {
    const entries = await database.getAllFromIndex('entries', 'byLastUsed')
    const evicted: SeenEntry[] = []
    let freedBytes = 0
    for (const entry of entries) {
      if (freedBytes >= sizeBytes) break
      if (entry.id === keepId) continue
      evicted.push(entry)
      freedBytes += entry.sizeBytes
    }
    if (evicted.length > 0) await this.#deleteEntries(database, evicted)
  }

  /** Deletes the records, then removes their files. */
  async #deleteEntries(database: CacheDatabase, seen: readonly SeenEntry[]): Promise<void> {
    const unusedFiles = await deleteEntries(database, seen)
    const files = await this.#files
    if (files !== null) await removeFiles(files, unusedFiles)
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
