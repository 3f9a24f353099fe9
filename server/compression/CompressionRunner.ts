import { randomUUID } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { mkdir, rename, rm, stat } from 'node:fs/promises'
import { dirname } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { createGzip } from 'node:zlib'
import type { Kysely } from 'kysely'
import { simulationDirectory } from '../../domain/output/layout.ts'
import {
  COMPRESSION_EXTENSION,
  COMPRESSION_LEVEL,
  COMPRESSION_TEXTS,
  type Compression,
} from '../../domain/rest/compressionRoutes.ts'
import { JOB_STATES, type JobState } from '../../domain/jobs.ts'
import { ApiError } from '../api/apiError.ts'
import type { Clock } from '../clock.ts'
import { isUniqueViolation } from '../db/connect.ts'
import type { Database, SimulationRow } from '../db/schema.ts'
import { resolveStoredPath } from '../storage/files.ts'
import { refreshSimulationSize } from '../storage/usage.ts'
import { serverTaskQueueFor } from '../jobs/queue/tasks.ts'
import type { ArchiveEntry } from './archiveSources.ts'
import { removeCompressionFiles, toTaskEntries } from './compressionTask.ts'
import {
  withCompressions,
  type CompressionDatabase,
  type SimulationCompressionRow,
} from './tables.ts'
import { tarStream } from './tarArchive.ts'

/*
 * The compression job: packs a simulation's files into `{name}.tar.gz` under
 * `{dataDir}/simulations/{id}/compression/`, on the event loop with gzip on libuv's thread pool
 * (node:zlib), streaming file by file so memory stays flat. One archive per simulation: a new one
 * replaces the old. Progress (bytes read / bytes to read) is stored at most every
 * PROGRESS_WRITE_MS; cancel aborts the pipeline and deletes the partial file.
 */

/** How often a running job stores its progress (the UI polls every 5 s). */
const PROGRESS_WRITE_MS = 250

export interface CompressionRunnerOptions {
  db: Kysely<Database>
  clock: Clock
  dataDir: string
  /** Remote workers compress (DIVE_JOB_WORKERS=remote): unfinished rows are theirs to recover. */
  remote?: boolean
}

interface RunningWork {
  abort: AbortController
  done: Promise<void>
}

/** A file name safe for archives and Content-Disposition. */
export function archiveFilename(simulationName: string): string {
  const base = simulationName.replace(/[^\w .-]+/g, '_').trim() || 'simulation'
  return `${base}${COMPRESSION_EXTENSION}`
}

function readState(state: string): JobState {
  return JOB_STATES.find((s) => s === state) ?? 'unknown'
}

/** The API record of a row. */
export function toCompression(row: SimulationCompressionRow): Compression {
  return {
    id: row.id,
    simulationId: row.simulation_id,
    state: readState(row.state),
    progress: row.progress,
    filename: row.filename,
    inputBytes: row.input_bytes,
    sizeBytes: row.size_bytes,
    fileCount: row.file_count,
    error: row.error,
    creatorId: row.creator_id,
    createdAt: row.created_at,
    endedAt: row.ended_at,
  }
}

function isActive(row: SimulationCompressionRow): boolean {
  return row.state === 'scheduled' || row.state === 'running'
}

export class CompressionRunner {
  #db: Kysely<CompressionDatabase>
  #baseDb: Kysely<Database>
  #clock: Clock
  #dataDir: string
  #remote: boolean
  #running = new Map<number, RunningWork>()

  constructor(options: CompressionRunnerOptions) {
    this.#remote = options.remote ?? false
    this.#baseDb = options.db
    this.#db = withCompressions(options.db)
    this.#clock = options.clock
    this.#dataDir = options.dataDir
  }

  /** The latest compression row of a simulation, or undefined. */
  async findRow(simulationId: number): Promise<SimulationCompressionRow | undefined> {
    return this.#db
      .selectFrom('simulation_compressions')
      .selectAll()
      .where('simulation_id', '=', simulationId)
      .executeTakeFirst()
  }

  /** The latest compression of a simulation, or null. */
  async read(simulationId: number): Promise<Compression | null> {
    const row = await this.findRow(simulationId)
    return row ? toCompression(row) : null
  }

  /**
   * Starts compressing these entries (replacing a finished archive). 409 while one is running
   * for the simulation.
   */
  async start(
    simulation: SimulationRow,
    creatorId: number,
    entries: readonly ArchiveEntry[],
  ): Promise<Compression> {
    const previous = await this.findRow(simulation.id)
    if (previous && isActive(previous))
      throw new ApiError('conflict', COMPRESSION_TEXTS.alreadyRunning)
    if (previous) await this.#removeRow(previous)
    const nowIso = this.#clock.nowIso()
    const inputBytes = entries.reduce((sum, entry) => sum + entry.sizeBytes, 0)
    let row: SimulationCompressionRow
    try {
      row = await this.#db
        .insertInto('simulation_compressions')
        .values({
          simulation_id: simulation.id,
          creator_id: creatorId,
          state: 'scheduled',
          filename: archiveFilename(simulation.name),
          path: `${simulationDirectory(simulation.id)}/compression/${randomUUID()}${COMPRESSION_EXTENSION}`,
          input_bytes: inputBytes,
          error: null,
          created_at: nowIso,
          updated_at: nowIso,
          ended_at: null,
        })
        .returningAll()
        .executeTakeFirstOrThrow()
    } catch (error) {
      // A second start that raced this one holds the simulation's row.
      if (isUniqueViolation(error)) throw new ApiError('conflict', COMPRESSION_TEXTS.alreadyRunning)
      throw error
    }
    const queue = serverTaskQueueFor(this.#baseDb)
    if (queue) {
      await queue.dispatch('compression', String(row.id), {
        entries: await toTaskEntries(this.#dataDir, entries),
      })
      return toCompression(row)
    }
    const abort = new AbortController()
    const work: RunningWork = { abort, done: Promise.resolve() }
    work.done = this.#compress(row, entries, abort.signal).finally(() => {
      if (this.#running.get(simulation.id) === work) this.#running.delete(simulation.id)
    })
    this.#running.set(simulation.id, work)
    return toCompression(row)
  }

  /**
   * DELETE: a running compression is stopped (its row reads canceled, its partial file is gone);
   * a finished one is deleted with its archive. Returns what is left (null once deleted).
   */
  async delete(simulationId: number): Promise<Compression | null> {
    const row = await this.findRow(simulationId)
    if (!row) return null
    if (!isActive(row)) {
      await this.#removeRow(row)
      return null
    }
    const work = this.#running.get(simulationId)
    if (work) {
      work.abort.abort()
      await work.done
    }
    const nowIso = this.#clock.nowIso()
    // First the row (a worker's claim or progress after this is refused), then its worker.
    await this.#db
      .updateTable('simulation_compressions')
      .set({ state: 'canceled', updated_at: nowIso, ended_at: nowIso })
      .where('id', '=', row.id)
      .where('state', 'in', ['scheduled', 'running'])
      .execute()
    await serverTaskQueueFor(this.#baseDb)?.stop('compression', String(row.id))
    await this.#removeFiles(row)
    return this.read(simulationId)
  }

  /** The completed archive with this file name, for the download; null otherwise. */
  async findDownload(
    simulationId: number,
    filename: string,
  ): Promise<{ path: string; filename: string; sizeBytes: number } | null> {
    const row = await this.findRow(simulationId)
    if (!row || row.state !== 'completed' || row.filename !== filename) return null
    const path = resolveStoredPath(this.#dataDir, row.path)
    try {
      return { path, filename: row.filename, sizeBytes: (await stat(path)).size }
    } catch {
      return null
    }
  }

  /**
   * Fails what a previous process left scheduled or running, and deletes its partial files. With
   * remote workers the rows are the workers' (a dead worker's are retried through its lease).
   */
  async recoverUnfinished(): Promise<void> {
    if (this.#remote) return
    const rows = await this.#db
      .selectFrom('simulation_compressions')
      .selectAll()
      .where('state', 'in', ['scheduled', 'running'])
      .execute()
    for (const row of rows) {
      const nowIso = this.#clock.nowIso()
      await this.#db
        .updateTable('simulation_compressions')
        .set({
          state: 'failed',
          error: COMPRESSION_TEXTS.serverRestarted,
          updated_at: nowIso,
          ended_at: nowIso,
        })
        .where('id', '=', row.id)
        .execute()
      await this.#removeFiles(row)
    }
  }

  /** Stops every running compression (the app closes). */
  async close(): Promise<void> {
    const works = [...this.#running.values()]
    for (const work of works) work.abort.abort()
    await Promise.all(works.map((work) => work.done))
  }

  /** A worker's run of a claimed compression (compressionTask.ts). */
  compressClaimed(
    row: SimulationCompressionRow,
    entries: readonly ArchiveEntry[],
    signal: AbortSignal,
  ): Promise<void> {
    return this.#compress(row, entries, signal)
  }

  /** Deletes a compression's archive and partial file (compressionTask.ts: a dead worker's). */
  async #removeFiles(row: SimulationCompressionRow): Promise<void> {
    await removeCompressionFiles(this.#dataDir, row)
  }

  async #removeRow(row: SimulationCompressionRow): Promise<void> {
    await this.#removeFiles(row)
    await this.#db.deleteFrom('simulation_compressions').where('id', '=', row.id).execute()
    await refreshSimulationSize(this.#baseDb, this.#dataDir, row.simulation_id)
  }

  /**
   * Writes the attempt's progress or end. Only while the row is still this attempt's: a reaper that
   * gave a worker's compression to a retry gave it a new path (compressionTask.ts recover).
   */
  async #update(
    row: SimulationCompressionRow,
    changes: Partial<{
      state: string
      progress: number
      size_bytes: number
      file_count: number
      error: string | null
      ended_at: string | null
    }>,
  ): Promise<boolean> {
    const result = await this.#db
      .updateTable('simulation_compressions')
      .set({ ...changes, updated_at: this.#clock.nowIso() })
      .where('id', '=', row.id)
      .where('path', '=', row.path)
      // Never overwrite an end (canceled by DELETE) with progress.
      .where('state', 'in', ['scheduled', 'running'])
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  }

  async #compress(
    row: SimulationCompressionRow,
    entries: readonly ArchiveEntry[],
    signal: AbortSignal,
  ): Promise<void> {
    const path = resolveStoredPath(this.#dataDir, row.path)
    const partial = `${path}.partial`
    let readBytes = 0
    let lastWriteMs = 0
    let progressWrite: Promise<void> = Promise.resolve()
    const counted = entries.map((entry) => ({
      name: entry.name,
      sizeBytes: entry.sizeBytes,
      chunks: async function* (this: void) {
        for await (const chunk of entry.chunks()) {
          readBytes += chunk.length
          yield chunk
        }
      },
    }))
    const total = Math.max(1, row.input_bytes)
    const progressTimer = setInterval(() => {
      const now = Date.now()
      if (now - lastWriteMs < PROGRESS_WRITE_MS) return
      lastWriteMs = now
      const progress = Math.min(0.99, readBytes / total)
      progressWrite = progressWrite.then(async () => {
        await this.#update(row, { progress })
      })
    }, PROGRESS_WRITE_MS)
    try {
      await this.#update(row, { state: 'running' })
      await mkdir(dirname(path), { recursive: true })
      await pipeline(
        Readable.from(tarStream(counted, Math.floor(this.#clock.nowMs() / 1000))),
        createGzip({ level: COMPRESSION_LEVEL }),
        createWriteStream(partial),
        { signal },
      )
      clearInterval(progressTimer)
      await progressWrite
      await rename(partial, path)
      const sizeBytes = (await stat(path)).size
      const completed = await this.#update(row, {
        state: 'completed',
        progress: 1,
        size_bytes: sizeBytes,
        file_count: entries.length,
        ended_at: this.#clock.nowIso(),
      })
      // Canceled or taken over meanwhile: no row names this archive any more.
      if (!completed) await rm(path, { force: true })
      await refreshSimulationSize(this.#baseDb, this.#dataDir, row.simulation_id)
    } catch (error) {
      clearInterval(progressTimer)
      await progressWrite.catch(() => undefined)
      await rm(partial, { force: true })
      if (signal.aborted) return
      await rm(path, { force: true })
      const detail = error instanceof Error ? error.message : String(error)
      await this.#update(row, {
        state: 'failed',
        error: `${COMPRESSION_TEXTS.failed} ${detail}`,
        ended_at: this.#clock.nowIso(),
      }).catch(() => undefined)
    }
  }
}
