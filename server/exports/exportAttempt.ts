import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { Kysely } from 'kysely'
import { USER_EXPORT_RETENTION_MS } from '../../domain/rest/exportRoutes.ts'
import type { OutputManifestInfo } from '../../domain/rest/resultsRoutes.ts'
import { EXPORT_MESSAGES, type ExportRequest } from '../../domain/results.ts'
import type { Clock } from '../clock.ts'
import type { Database, SimulationRow } from '../db/schema.ts'
import { TASK_SHUTDOWN } from '../jobs/queue/tasks.ts'
import { refreshSimulationSize } from '../storage/usage.ts'
import {
  type ExportAttempt,
  type ExportResult,
  type ExportSensor,
  finishExport,
  listArchive,
  removeExportFiles,
  writeIfCurrent,
} from './exportFiles.ts'
import { ExportFailure, runExportWork } from './exportWork.ts'

/*
 * One attempt at an export: its work (exportWork.ts) and what it writes of its record: the state
 * running, progress, each file listed as it completes, and the end (completed with the archive,
 * or failed with its files removed). In the server's process an attempt owns its record. On a
 * worker (claimed) a reaper may give the record to a retry while the attempt still runs (its
 * worker starved past its lease): from then on it lists nothing and ends nothing, and deletes only
 * its own directory, so the export completes once, by the retry.
 */

type Db = Kysely<Database>

/** Called after each completed file; the work waits for it (tests hold an export mid-run). */
export type AfterFileHook = (exportId: number, signal: AbortSignal) => Promise<void>

export interface ExportAttemptContext {
  db: Db
  clock: Clock
  dataDir: string
  afterFile: AfterFileHook
}

export interface ExportWorkInput {
  simulation: SimulationRow
  runId: number | null
  manifests: readonly OutputManifestInfo[]
  request: ExportRequest
  sensors: readonly ExportSensor[]
}

export async function runExportAttempt(
  context: ExportAttemptContext,
  { id, directory }: ExportAttempt,
  work: ExportWorkInput,
  signal: AbortSignal,
  /** Claimed by a worker process (the record reads running already). */
  claimed: boolean,
): Promise<void> {
  const { db, clock, dataDir } = context
  // Writes in this process at once; a worker's only while the record is still this attempt's.
  const write = async (change: (db: Db) => Promise<void>): Promise<boolean> => {
    if (claimed) return writeIfCurrent(db, { id, directory }, clock.nowIso(), change)
    await change(db)
    return true
  }
  // Let the request that started the export answer before the work begins.
  if (!claimed) await new Promise((resolve) => setImmediate(resolve))
  try {
    signal.throwIfAborted()
    if (!claimed)
      await db
        .updateTable('user_exports')
        .set({ state: 'running', updated_at: clock.nowIso() })
        .where('id', '=', id)
        .execute()
    let lastProgressMs = 0
    const warnings = await runExportWork({
      dataDir,
      ...work,
      directory: join(dataDir, directory),
      signal,
      onProgress: async (fraction) => {
        const nowMs = clock.nowMs()
        if (nowMs - lastProgressMs < 250 && fraction < 1) return
        lastProgressMs = nowMs
        await db
          .updateTable('user_exports')
          .set({ progress: fraction, updated_at: clock.nowIso() })
          .where('id', '=', id)
          .where('directory', '=', directory)
          .execute()
      },
      onFile: async (file) => {
        const listed = await write(async (trx) => {
          await trx
            .insertInto('user_export_files')
            .values({
              export_id: id,
              simulation_id: work.simulation.id,
              filename: file.filename,
              path: file.path,
              size_bytes: file.sizeBytes,
              state: 'created',
              created_at: clock.nowIso(),
            })
            .execute()
        })
        if (!listed) throw new Error('Export taken over')
        await refreshSimulationSize(db, dataDir, work.simulation.id)
        await context.afterFile(id, signal)
      },
    })
    signal.throwIfAborted()
    const nowIso = clock.nowIso()
    const expiresAt = new Date(clock.nowMs() + USER_EXPORT_RETENTION_MS).toISOString()
    const completed = await write(async (trx) => {
      await listArchive(trx, nowIso, id, work.simulation)
      await finishExport(trx, nowIso, id, 'completed', { warnings, expiresAt, progress: 1 })
    })
    // Taken over after its last file: the files are this attempt's, the record the retry's.
    if (!completed) await rm(join(dataDir, directory), { recursive: true, force: true })
  } catch (error) {
    // A worker that stops or lost its lease leaves the record and files to the reaper's retry.
    if (claimed && signal.aborted && signal.reason === TASK_SHUTDOWN) return
    // A canceled export's record is finished by cancelExport (or left for recovery on close).
    if (signal.aborted) return removeExportFiles(db, dataDir, id, directory)
    const result: ExportResult =
      error instanceof ExportFailure
        ? { errors: error.errors, warnings: error.warnings }
        : { errors: [failure(error instanceof Error ? error.message : String(error))] }
    // Rows first: a file is never listed once its deletion has begun. An attempt taken over
    // (a retry owns the record now) deletes only its own directory.
    await write(async (trx) => {
      await trx.deleteFrom('user_export_files').where('export_id', '=', id).execute()
      await finishExport(trx, clock.nowIso(), id, 'failed', result)
    })
    await rm(join(dataDir, directory), { recursive: true, force: true })
    await refreshSimulationSize(db, dataDir, work.simulation.id)
  }
}

function failure(reason: string) {
  return { description: EXPORT_MESSAGES.failed, details: { description: reason }, outputs: [] }
}
