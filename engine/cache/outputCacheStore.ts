/**
 * The output cache's IndexedDB database (outputCache.ts): its schema (entries, and their bytes in
 * chunks), its version and name, and how payloads are cut into chunks.
 */
import { openDB, type DBSchema, type IDBPDatabase } from 'idb'
import type { OutputCacheKey } from '../data/cache.ts'

/**
 * IndexedDB schema version. A bump drops every cached output (they are only a cache); files of the
 * dropped entries are removed by the sweep of unreferenced files (cacheEntries.ts).
 * 2: records name the OPFS file that holds their bytes, if any.
 */
export const CACHE_SCHEMA_VERSION = 2

/** Default database name (one per origin, shared by every data worker and tab). */
export const CACHE_DATABASE_NAME = 'dive-output-cache'

/**
 * Largest stored value. One big value per payload would need one contiguous allocation in the
 * browser's storage process for a 200 MB payload; 64 MB chunks keep each write and read bounded.
 */
export const MAX_CHUNK_BYTES = 64 * 1024 * 1024

/**
 * Reads mark their entries used in one write at most this often (ms) rather than a write per read:
 * a readwrite transaction on `entries` holds back every read of every data worker until it commits.
 */
export const TOUCH_FLUSH_MS = 1000

/** Share of the origin's quota (navigator.storage.estimate) the cache may fill by default. */
export const DEFAULT_QUOTA_SHARE = 0.5

/**
 * One cached payload's record. Its bytes are in the OPFS file `fileName` (payloadFiles.ts) or, where
 * that is null, in the `chunks` store under [id, 0 … chunkCount − 1].
 */
export interface CacheEntryRecord extends OutputCacheKey {
  id: string
  sizeBytes: number
  chunkCount: number
  fileName: string | null
  lastUsedMs: number
}

/**
 * A payload file written but named by no record is removed once it is this old (ms): younger, it
 * may be a write whose record is not committed yet (another worker, another tab).
 */
export const ORPHAN_FILE_AGE_MS = 10 * 60 * 1000

export interface OutputCacheSchema extends DBSchema {
  entries: {
    key: string
    value: CacheEntryRecord
    indexes: { bySimulation: number; byLastUsed: number }
  }
  chunks: {
    key: [string, number]
    value: ArrayBuffer
  }
}

export type CacheDatabase = IDBPDatabase<OutputCacheSchema>

export function chunkRange(id: string): IDBKeyRange {
  return IDBKeyRange.bound([id, 0], [id, Number.MAX_SAFE_INTEGER])
}

/** Copies `bytes` into chunks of at most `chunkBytes`, each its own ArrayBuffer (synchronously). */
export function copyIntoChunks(bytes: Uint8Array, chunkBytes: number): ArrayBuffer[] {
  if (bytes.length === 0) return [new ArrayBuffer(0)]
  const chunks: ArrayBuffer[] = []
  for (let start = 0; start < bytes.length; start += chunkBytes) {
    chunks.push(bytes.slice(start, Math.min(bytes.length, start + chunkBytes)).buffer)
  }
  return chunks
}

/**
 * Opens the database at {@link CACHE_SCHEMA_VERSION}: any older schema is dropped, never migrated
 * (cached outputs are disposable). `blocking` runs when another tab opens a newer schema,
 * `terminated` when the browser closed the connection.
 */
export function openCacheDatabase(
  name: string,
  handlers: { blocking: () => void; terminated: () => void },
): Promise<CacheDatabase> {
  return openDB<OutputCacheSchema>(name, CACHE_SCHEMA_VERSION, {
    upgrade(database) {
      for (const store of [...database.objectStoreNames]) database.deleteObjectStore(store)
      const entries = database.createObjectStore('entries', { keyPath: 'id' })
      entries.createIndex('bySimulation', 'simulationId')
      entries.createIndex('byLastUsed', 'lastUsedMs')
      database.createObjectStore('chunks')
    },
    ...handlers,
  })
}
