import { randomUUID } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { rm } from 'node:fs/promises'
import { dirname, join, relative } from 'node:path'
import type { Kysely, Transaction } from 'kysely'
import type { Clock } from '../clock.ts'
import type { Database } from '../db/schema.ts'
import type { TaskHandler } from '../jobs/queue/tasks.ts'
import { COMPRESSION_EXTENSION } from '../../domain/rest/compressionRoutes.ts'
import { resolveStoredPath } from '../storage/files.ts'
import type { ArchiveEntry } from './archiveSources.ts'
import type { CompressionRunner } from './CompressionRunner.ts'
import type { SimulationCompressionsTable } from './tables.ts'

/*
 * A download archive on a worker process (issue 18; server/jobs/queue/tasks.ts): the server
 * lists the entries as it would for itself (archiveSources.ts) and queues them, the in-memory
 * ones (job file, simulation record) as text and the files by their path under the shared storage
 * root; the worker claims the row (scheduled → running) and compresses as the server does
 * (.partial, renamed when complete). A dead worker's partial file is deleted and the archive
 * made again from the start.
 */

type Db = Kysely<Database>

/** An archive entry as queued: a file under the storage root, or text. */
export type TaskEntry =
  { name: string; file: string; sizeBytes: number } | { name: string; text: string }

/** What a queued compression carries. */
export interface CompressionTaskData {
  entries: TaskEntry[]
}

/** Deletes a compression's archive and its partial file. */
export async function removeCompressionFiles(
  dataDir: string,
  row: { path: string },
): Promise<void> {
  const path = resolveStoredPath(dataDir, row.path)
  await rm(`${path}.partial`, { force: true })
  await rm(path, { force: true })
}

async function* noChunks(): AsyncGenerator<Uint8Array> {}

/** Entries as queued (files by their path relative to the storage root). */
export async function toTaskEntries(
  dataDir: string,
  entries: readonly ArchiveEntry[],
): Promise<TaskEntry[]> {
  const queued: TaskEntry[] = []
  for (const entry of entries) {
    if (entry.path !== null) {
      queued.push({
        name: entry.name,
        file: relative(dataDir, entry.path),
        sizeBytes: entry.sizeBytes,
      })
      continue
    }
    const chunks: Uint8Array[] = []
    for await (const chunk of entry.chunks()) chunks.push(chunk)
    queued.push({ name: entry.name, text: Buffer.concat(chunks).toString('utf8') })
  }
  return queued
}

/** Queued entries as archive entries read from this machine's mount of the storage root. */
export function fromTaskEntries(dataDir: string, entries: readonly TaskEntry[]): ArchiveEntry[] {
  return entries.map((entry) => {
    if ('text' in entry) {
      const bytes = Buffer.from(entry.text, 'utf8')
      return {
        name: entry.name,
        path: null,
        sizeBytes: bytes.length,
        chunks: async function* () {
          yield await Promise.resolve(bytes)
        },
      }
    }
    const path = join(dataDir, entry.file)
    const sizeBytes = entry.sizeBytes
    return {
      name: entry.name,
      path,
      sizeBytes,
      chunks: () =>
        sizeBytes === 0
          ? noChunks()
          : (createReadStream(path, {
              highWaterMark: 1024 * 1024,
              end: sizeBytes - 1,
            }) as AsyncIterable<Uint8Array>),
    }
  })
}

function withTable<T extends Kysely<Database>>(db: T) {
  return db.withTables<{ simulation_compressions: SimulationCompressionsTable }>()
}

export function createCompressionTaskHandler(
  db: Db,
  clock: Clock,
  dataDir: string,
  runner: CompressionRunner,
): TaskHandler {
  const table = withTable(db)
  return {
    kind: 'compression',
    async claim(trx: Transaction<Database>, id: string, _data: unknown, nowIso: string) {
      const result = await withTable(trx)
        .updateTable('simulation_compressions')
        .set({ state: 'running', updated_at: nowIso })
        .where('id', '=', Number(id))
        .where('state', '=', 'scheduled')
        .executeTakeFirst()
      return Number(result.numUpdatedRows) === 1
    },

    async run(id: string, data: unknown, signal: AbortSignal): Promise<void> {
      const row = await table
        .selectFrom('simulation_compressions')
        .selectAll()
        .where('id', '=', Number(id))
        .executeTakeFirst()
      if (!row) return
      const { entries } = data as CompressionTaskData
      await runner.compressClaimed(row, fromTaskEntries(dataDir, entries), signal)
    },

    async recover(id: string): Promise<boolean> {
      const row = await table
        .selectFrom('simulation_compressions')
        .selectAll()
        .where('id', '=', Number(id))
        .executeTakeFirst()
      if (!row || row.state !== 'running') return false
      // The row first: from then on the dead attempt writes nothing to it (CompressionRunner
      // #update), and its files are deleted below.
      const result = await table
        .updateTable('simulation_compressions')
        .set({
          state: 'scheduled',
          progress: 0,
          // A new name: a worker only cut off (not dead) cannot touch the new attempt's files.
          path: `${dirname(row.path)}/${randomUUID()}${COMPRESSION_EXTENSION}`,
          updated_at: clock.nowIso(),
        })
        .where('id', '=', row.id)
        .where('path', '=', row.path)
        .where('state', '=', 'running')
        .executeTakeFirst()
      if (Number(result.numUpdatedRows) !== 1) return false
      await removeCompressionFiles(dataDir, row)
      return true
    },
  }
}
