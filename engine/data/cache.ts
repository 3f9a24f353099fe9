/**
 * The cache of decoded outputs as the data workers see it. Decoded = the object payload bytes
 * themselves: the reader views columns in place, so caching bytes caches the decoded form.
 * engine/cache/ implements it: an IndexedDB index, the bytes in OPFS files where the worker has
 * sync access handles (else IndexedDB chunks of at most 64 MB), LRU eviction under a quota,
 * dropped when the run changes; tests use {@link MemoryOutputCache}.
 */
import type { WrittenDataset } from '../../domain/outputFormat.ts'

/** One cached object payload: an object of one output of one run, in one dataset and format version. */
export interface OutputCacheKey {
  simulationId: number
  runId: number
  outputNo: number
  /** Object id, or {@link OBJECT_LIST_ID} for the list of an output's object ids. */
  objectId: string
  dataset: WrittenDataset
  /** `"major.minor"` of the payload (domain/outputFormat.ts formatVersionString). */
  formatVersion: string
}

/**
 * Reserved object id of the entry that lists an output's object ids (UTF-8 JSON array), so a
 * load of "every object" can be served from the cache without asking the server. No real object
 * id contains '#'.
 */
export const OBJECT_LIST_ID = '#objects'

/**
 * Cache of object payloads, used only inside data workers (every write off the main thread).
 * Implementations never throw synchronously; failures are rejected promises.
 */
export interface OutputCache {
  /**
   * The payload's bytes in stored order (concatenated they are the payload), or null when not
   * cached. Each chunk should own its whole ArrayBuffer (fresh from IndexedDB or a file, offset 0),
   * so a single chunk can be transferred without a copy.
   */
  get(key: OutputCacheKey): Promise<Uint8Array[] | null>
  /**
   * Several payloads at once (an output's objects): for each key, in order, what {@link get} would
   * give. IndexedDB: the reads overlap, and none waits for a write.
   */
  getMany(keys: readonly OutputCacheKey[]): Promise<(Uint8Array[] | null)[]>
  /**
   * Stores a payload. `bytes` is usually a view into a fetched bundle that the caller transfers to
   * the render worker right after this call returns: an implementation must take its copy (or
   * structured-clone it into a request) synchronously, before its first await. Rejects with
   * {@link CacheQuotaError} when storage is full (the caller skips the write and carries on).
   */
  put(key: OutputCacheKey, bytes: Uint8Array): Promise<void>
  /** Drops every entry of `simulationId` whose run is not `runId` (a new run makes them stale). */
  dropStaleRuns(simulationId: number, runId: number): Promise<void>
}

/** The cache is full (IndexedDB QuotaExceededError, or the configured budget). */
export class CacheQuotaError extends Error {
  constructor(message = 'The output cache is full.') {
    super(message)
    this.name = 'CacheQuotaError'
  }
}

/** True for a quota failure of any origin: {@link CacheQuotaError} or a DOMException 'QuotaExceededError'. */
export function isQuotaError(error: unknown): boolean {
  if (error instanceof CacheQuotaError) return true
  return (
    typeof error === 'object' &&
    error !== null &&
    'name' in error &&
    error.name === 'QuotaExceededError'
  )
}

/** A stable string for a key (fields joined in a fixed order; the object id last, as it may hold any character). */
export function formatCacheKey(key: OutputCacheKey): string {
  return [
    key.simulationId,
    key.runId,
    key.outputNo,
    key.dataset,
    key.formatVersion,
    key.objectId,
  ].join('/')
}

/** A cache that stores nothing (no IndexedDB, or caching turned off). */
export const NO_OUTPUT_CACHE: OutputCache = {
  get: () => Promise.resolve(null),
  getMany: (keys) => Promise.resolve(keys.map(() => null)),
  put: () => Promise.resolve(),
  dropStaleRuns: () => Promise.resolve(),
}

/** Options of {@link MemoryOutputCache}. */
export interface MemoryOutputCacheOptions {
  /** A put that would take the stored bytes above this fails with {@link CacheQuotaError}. */
  quotaBytes?: number
  /** Largest chunk `get` returns (to exercise multi-chunk reads). Default: one chunk. */
  chunkBytes?: number
}

/** An in-memory {@link OutputCache} (tests, benches, Node). Copies on put, like IndexedDB. */
export class MemoryOutputCache implements OutputCache {
  #entries = new Map<string, { key: OutputCacheKey; chunks: Uint8Array[] }>()
  #quotaBytes: number
  #chunkBytes: number

  constructor(options: MemoryOutputCacheOptions = {}) {
    this.#quotaBytes = options.quotaBytes ?? Infinity
    this.#chunkBytes = options.chunkBytes ?? Infinity
  }

  get(key: OutputCacheKey): Promise<Uint8Array[] | null> {
    const entry = this.#entries.get(formatCacheKey(key))
    // Fresh copies, as IndexedDB hands out: the caller may transfer them.
    return Promise.resolve(entry ? entry.chunks.map((chunk) => chunk.slice()) : null)
  }

  getMany(keys: readonly OutputCacheKey[]): Promise<(Uint8Array[] | null)[]> {
    return Promise.all(keys.map((key) => this.get(key)))
  }

  put(key: OutputCacheKey, bytes: Uint8Array): Promise<void> {
    const id = formatCacheKey(key)
    const others = this.storedBytes() - (this.#entries.get(id) ? this.#sizeOf(id) : 0)
    if (others + bytes.length > this.#quotaBytes) return Promise.reject(new CacheQuotaError())
    const chunks: Uint8Array[] = []
    const step = Math.max(1, Math.min(this.#chunkBytes, bytes.length))
    for (let start = 0; start < bytes.length; start += step) {
      chunks.push(bytes.slice(start, Math.min(bytes.length, start + step)))
    }
    if (chunks.length === 0) chunks.push(new Uint8Array(0))
    this.#entries.set(id, { key: { ...key }, chunks })
    return Promise.resolve()
  }

  dropStaleRuns(simulationId: number, runId: number): Promise<void> {
    for (const [id, entry] of this.#entries) {
      if (entry.key.simulationId === simulationId && entry.key.runId !== runId) {
        this.#entries.delete(id)
      }
    }
    return Promise.resolve()
  }

  /** Bytes currently stored. */
  storedBytes(): number {
    let total = 0
    for (const id of this.#entries.keys()) total += this.#sizeOf(id)
    return total
  }

  /** Keys currently stored. */
  keys(): OutputCacheKey[] {
    return [...this.#entries.values()].map((entry) => ({ ...entry.key }))
  }

  #sizeOf(id: string): number {
    return (this.#entries.get(id)?.chunks ?? []).reduce((sum, chunk) => sum + chunk.length, 0)
  }
}
