import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { Kysely } from 'kysely'
import { simulationDirectory } from '../../domain/output/layout.ts'
import type { ExportStatus } from '../../domain/rest/exportRoutes.ts'
import type { Database, SimulationRow } from '../db/schema.ts'
import { refreshSimulationSize } from '../storage/usage.ts'
import { storedZipSizeBytes } from './archive.ts'
import type { ExportMessage } from './exportWork.ts'

/* Names, paths and records of user exports, shared by the runner, its routes and its tests. */

type Db = Kysely<Database>

/** A sensor the export writes (its sample points per output). */
export interface ExportSensor {
  id: number
  name: string
}

/** The path of the all-files archive row: it has no file of its own, it is zipped on download. */
export const ARCHIVE_PATH = ''

/** The all-files archive's name: the simulation's name, file-name safe. */
export function archiveFileName(simulationName: string): string {
  return `${simulationName.replace(/[^\w.-]+/g, '_').replace(/^_+|_+$/g, '') || 'simulation'}_export.zip`
}

/** A file a download streams: one on disk, or the archive of the export's other files. */
export interface DownloadableFile {
  filename: string
  /** null for the archive. */
  path: string | null
  sizeBytes: number
  /** The archive's entries in order; [] for a plain file. */
  archiveEntries: { name: string; path: string }[]
}

/** Why a record left by a previous process failed. */
export const SERVER_RESTARTED_MESSAGE = 'The server stopped while the files were being exported.'

/** Where a simulation's exports live, relative to the data directory. */
export function exportsDirectory(simulationId: number): string {
  return `${simulationDirectory(simulationId)}/exports`
}

function parseMessages(text: string): ExportMessage[] {
  try {
    const parsed: unknown = JSON.parse(text)
    return Array.isArray(parsed) ? (parsed as ExportMessage[]) : []
  } catch {
    return []
  }
}

/** An export's record and listed files as the API returns them; null when it is gone. */
export async function readExportStatus(db: Db, id: number): Promise<ExportStatus | null> {
  const row = await db
    .selectFrom('user_exports')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst()
  if (!row) return null
  const files = await db
    .selectFrom('user_export_files')
    .select(['id', 'filename', 'state'])
    .where('export_id', '=', id)
    .orderBy('id')
    .execute()
  return {
    id: row.id,
    name: row.name,
    state: row.state as ExportStatus['state'],
    files,
    warnings: parseMessages(row.warnings),
    errors: parseMessages(row.errors),
    progress: row.progress,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  }
}

/** With two or more files, one more: all of them as one ZIP, streamed from them on download. */
export async function listArchive(
  db: Db,
  nowIso: string,
  id: number,
  simulation: SimulationRow,
): Promise<void> {
  const files = await db
    .selectFrom('user_export_files')
    .select(['filename', 'size_bytes'])
    .where('export_id', '=', id)
    .execute()
  if (files.length < 2) return
  await db
    .insertInto('user_export_files')
    .values({
      export_id: id,
      simulation_id: simulation.id,
      filename: archiveFileName(simulation.name),
      path: ARCHIVE_PATH,
      size_bytes: storedZipSizeBytes(
        files.map((file) => ({ name: file.filename, sizeBytes: file.size_bytes })),
      ),
      state: 'created',
      created_at: nowIso,
    })
    .execute()
}

/** One attempt at an export on a worker: the record it claimed and the directory it writes. */
export interface ExportAttempt {
  id: number
  directory: string
}

/**
 * Runs `write` in one transaction with the attempt's record, only while the attempt is still the
 * record's own (running, in its directory): false, and nothing written, once a reaper's recovery
 * gave the export to a retry (exportTask.ts). The record's row is updated first, so a recovery
 * that comes meanwhile waits for the write and then finds it done.
 */
export async function writeIfCurrent(
  db: Db,
  attempt: ExportAttempt,
  nowIso: string,
  write: (trx: Db) => Promise<void>,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const held = await trx
      .updateTable('user_exports')
      .set({ updated_at: nowIso })
      .where('id', '=', attempt.id)
      .where('directory', '=', attempt.directory)
      .where('state', '=', 'running')
      .executeTakeFirst()
    if (Number(held.numUpdatedRows) !== 1) return false
    await write(trx)
    return true
  })
}

/** Deletes an export's listed files and their directory. */
export async function removeExportFiles(
  db: Db,
  dataDir: string,
  id: number,
  directory: string,
): Promise<void> {
  // Rows first: a file is never listed once its deletion has begun.
  await db.deleteFrom('user_export_files').where('export_id', '=', id).execute()
  await rm(join(dataDir, directory), { recursive: true, force: true })
  const owner = await db
    .selectFrom('user_exports')
    .select('simulation_id')
    .where('id', '=', id)
    .executeTakeFirst()
  if (owner) await refreshSimulationSize(db, dataDir, owner.simulation_id)
}

/** What an export's end records. */
export interface ExportResult {
  errors?: ExportMessage[]
  warnings?: ExportMessage[]
  expiresAt?: string
  progress?: number
}

/** Ends an export's record. */
export async function finishExport(
  db: Db,
  nowIso: string,
  id: number,
  state: 'completed' | 'failed' | 'canceled',
  result: ExportResult,
): Promise<void> {
  await db
    .updateTable('user_exports')
    .set({
      state,
      updated_at: nowIso,
      ended_at: nowIso,
      expires_at: result.expiresAt ?? null,
      ...(result.progress === undefined ? {} : { progress: result.progress }),
      ...(result.errors ? { errors: JSON.stringify(result.errors) } : {}),
      ...(result.warnings ? { warnings: JSON.stringify(result.warnings) } : {}),
    })
    .where('id', '=', id)
    .execute()
}

/** A listed file of an export, with its absolute path (the archive: its entries). */
export async function findExportFile(
  db: Db,
  dataDir: string,
  exportId: number,
  fileId: number,
): Promise<DownloadableFile | null> {
  const rows = await db
    .selectFrom('user_export_files')
    .innerJoin('user_exports', 'user_exports.id', 'user_export_files.export_id')
    .select([
      'user_export_files.id',
      'user_export_files.filename',
      'user_export_files.path',
      'user_export_files.size_bytes',
      'user_exports.directory',
    ])
    .where('user_export_files.export_id', '=', exportId)
    .orderBy('user_export_files.id')
    .execute()
  const row = rows.find((candidate) => candidate.id === fileId)
  if (!row) return null
  const absolute = (path: string) => join(dataDir, row.directory, path)
  return {
    filename: row.filename,
    path: row.path === ARCHIVE_PATH ? null : absolute(row.path),
    sizeBytes: row.size_bytes,
    archiveEntries:
      row.path === ARCHIVE_PATH
        ? rows
            .filter((entry) => entry.path !== ARCHIVE_PATH)
            .map((entry) => ({ name: entry.filename, path: absolute(entry.path) }))
        : [],
  }
}
