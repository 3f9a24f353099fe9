/**
 * The output cache's records and their bytes (outputCache.ts): a payload's record written with the
 * evictions that make room for it, deletions of records, the checks of bytes read against their
 * record, and the sweep of payload files no record names.
 *
 * Payload files (payloadFiles.ts) and records are not in one transaction, so the order keeps them
 * sound across data workers, tabs and crashes: a file is written under a name never used before,
 * then its record is committed; a record is deleted, then its file removed. A reader that finds a
 * record's file missing or short has a miss. A crash, or a file a reader held while it was removed,
 * leaves a file no record names: {@link sweepOrphanFiles} removes it once it is old enough that no
 * write can still be committing it.
 */
import type { IDBPTransaction } from 'idb'
import type { OutputCacheKey } from '../data/cache.ts'
import {
  chunkRange,
  ORPHAN_FILE_AGE_MS,
  type CacheDatabase,
  type CacheEntryRecord,
  type OutputCacheSchema,
} from './outputCacheStore.ts'
import type { PayloadFiles } from './payloadFiles.ts'

/** Where a payload's bytes are: chunks written with its record, or a file written before it. */
export type StoredBytes =
  { chunks: ArrayBuffer[]; fileName: null } | { chunks: null; fileName: string }

/** A record as a deletion sees it: the entry goes only while it still names the same file. */
export type SeenEntry = Pick<CacheEntryRecord, 'id' | 'fileName'>

type WriteTransaction = IDBPTransaction<OutputCacheSchema, ('entries' | 'chunks')[], 'readwrite'>

/** A file name for a new payload file: the key's run and output for people, then random (never reused). */
export function newPayloadFileName(key: OutputCacheKey): string {
  const random = Array.from(crypto.getRandomValues(new Uint32Array(3)), (word) =>
    word.toString(36),
  ).join('')
  return `${key.simulationId}-${key.runId}-${key.outputNo}-${random}`
}

/**
 * One transaction: evicts least recently used entries until the payload fits `budgetBytes`, then
 * writes its record (and its chunks). Resolves with the files of the entries it evicted or
 * replaced, to remove once committed. Nothing is half-written: a failure aborts it all.
 */
export async function writeEntry(
  database: CacheDatabase,
  record: CacheEntryRecord,
  bytes: StoredBytes,
  budgetBytes: number,
): Promise<string[]> {
  const transaction = database.transaction(['entries', 'chunks'], 'readwrite')
  // `done` carries the outcome; handle it now so an abort before the final await is not unhandled.
  transaction.done.catch(() => undefined)
  try {
    return await writeInTransaction(transaction, record, bytes, budgetBytes)
  } catch (error) {
    // A request that threw must not let the evictions commit alone.
    try {
      transaction.abort()
    } catch {
      // Already finished or aborted.
    }
    throw error
  }
}

async function writeInTransaction(
  transaction: WriteTransaction,
  record: CacheEntryRecord,
  bytes: StoredBytes,
  budgetBytes: number,
): Promise<string[]> {
  const entries = transaction.objectStore('entries')
  const chunkStore = transaction.objectStore('chunks')
  const byLastUsed = await entries.index('byLastUsed').getAll()
  const unusedFiles: string[] = []
  let storedBytes = 0
  for (const entry of byLastUsed) {
    if (entry.id !== record.id) storedBytes += entry.sizeBytes
    else if (entry.fileName !== null) unusedFiles.push(entry.fileName)
  }
  // A failed request aborts the transaction, and `done` carries the reason (QuotaExceededError).
  const pending: Promise<unknown>[] = []
  const track = (request: Promise<unknown>): void => {
    pending.push(request.catch(() => undefined))
  }
  for (const entry of byLastUsed) {
    if (storedBytes + record.sizeBytes <= budgetBytes) break
    if (entry.id === record.id) continue
    storedBytes -= entry.sizeBytes
    if (entry.fileName !== null) unusedFiles.push(entry.fileName)
    track(entries.delete(entry.id))
    track(chunkStore.delete(chunkRange(entry.id)))
  }
  track(chunkStore.delete(chunkRange(record.id)))
  bytes.chunks?.forEach((chunk, index) => track(chunkStore.put(chunk, [record.id, index])))
  track(entries.put(record))
  await Promise.all([...pending, transaction.done])
  return unusedFiles
}

/**
 * Deletes entries in one transaction, each only while its record names the file it was seen with
 * (a put of the same key meanwhile keeps its new bytes). Resolves with the files to remove.
 */
export async function deleteEntries(
  database: CacheDatabase,
  seen: readonly SeenEntry[],
): Promise<string[]> {
  const transaction = database.transaction(['entries', 'chunks'], 'readwrite')
  const entries = transaction.objectStore('entries')
  const chunkStore = transaction.objectStore('chunks')
  const unusedFiles: string[] = []
  const deletions = seen.map(async (entry) => {
    const current = await entries.get(entry.id)
    if (!current || current.fileName !== entry.fileName) return
    if (current.fileName !== null) unusedFiles.push(current.fileName)
    await Promise.all([entries.delete(entry.id), chunkStore.delete(chunkRange(entry.id))])
  })
  await Promise.all([...deletions, transaction.done])
  return unusedFiles
}

/** Removes files, each on its own; one in use (a reader holds it) stays for the sweep. */
export async function removeFiles(files: PayloadFiles, names: readonly string[]): Promise<void> {
  await Promise.allSettled(names.map((name) => files.remove(name)))
}

/**
 * Removes the payload files no record names that are older than {@link ORPHAN_FILE_AGE_MS}. The
 * files are listed before the records are read: a file whose record commits in between is young.
 * Resolves with the names removed.
 */
export async function sweepOrphanFiles(
  database: CacheDatabase,
  files: PayloadFiles,
  nowMs: number,
): Promise<string[]> {
  const names = await files.names()
  const records = await database.getAll('entries')
  const named = new Set(records.map((record) => record.fileName))
  const orphans: string[] = []
  for (const name of names) {
    if (named.has(name)) continue
    const modifiedMs = await files.modifiedMs(name)
    if (modifiedMs !== null && nowMs - modifiedMs > ORPHAN_FILE_AGE_MS) orphans.push(name)
  }
  await removeFiles(files, orphans)
  return orphans
}

/** Runs `sweep` under a Web Lock where there are locks, so one worker of the origin sweeps at a time. */
export function withSweepLock(sweep: () => Promise<unknown>): Promise<unknown> {
  const locks = (globalThis as { navigator?: { locks?: LockManager } }).navigator?.locks
  if (!locks) return sweep()
  return locks.request('dive-output-cache-sweep', { ifAvailable: true }, (lock) =>
    lock ? sweep() : undefined,
  )
}

/** The key's fields alone (a caller's object may carry more). */
export function pickKey(key: OutputCacheKey): OutputCacheKey {
  const { simulationId, runId, outputNo, objectId, dataset, formatVersion } = key
  return { simulationId, runId, outputNo, objectId, dataset, formatVersion }
}

/**
 * A record's chunks as views, or 'invalid' when they do not match it: IndexedDB is a trust
 * boundary, and a record that does not match its bytes is dropped, not used.
 */
export function validChunks(entry: CacheEntryRecord, chunks: unknown[]): Uint8Array[] | 'invalid' {
  const valid =
    chunks.length === entry.chunkCount &&
    chunks.every((chunk) => chunk instanceof ArrayBuffer) &&
    chunks.reduce<number>((sum, chunk) => sum + chunk.byteLength, 0) === entry.sizeBytes
  return valid ? chunks.map((chunk) => new Uint8Array(chunk)) : 'invalid'
}

/**
 * A record's file as one chunk; 'invalid' when it is missing or of another size (removed by an
 * eviction meanwhile, or cut short by a crash); null when it cannot be read now (a miss that keeps
 * the record), or when this instance has no files.
 */
export async function readFile(
  files: PayloadFiles | null,
  entry: CacheEntryRecord,
): Promise<Uint8Array[] | 'invalid' | null> {
  if (files === null || entry.fileName === null) return null
  let bytes: Uint8Array | null
  try {
    bytes = await files.read(entry.fileName)
  } catch {
    return null
  }
  return bytes !== null && bytes.length === entry.sizeBytes ? [bytes] : 'invalid'
}
