import { randomUUID } from 'node:crypto'
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { Kysely } from 'kysely'
import type { ExportStatus } from '../../domain/rest/exportRoutes.ts'
import type { OutputManifestInfo } from '../../domain/rest/resultsRoutes.ts'
import { EXPORT_MESSAGES, type ExportRequest } from '../../domain/results.ts'
import type { Clock } from '../clock.ts'
import type { Database, SimulationRow } from '../db/schema.ts'
import {
  type AfterFileHook,
  type ExportAttemptContext,
  type ExportWorkInput,
  runExportAttempt,
} from './exportAttempt.ts'
import {
  SERVER_RESTARTED_MESSAGE,
  finishExport,
  findExportFile,
  type ExportResult,
  exportsDirectory,
  type DownloadableFile,
  type ExportSensor,
  readExportStatus,
  removeExportFiles,
} from './exportFiles.ts'
import { serverTaskQueueFor } from '../jobs/queue/tasks.ts'

/*
 * The user exports of an app: one live export per simulation. Starting one cancels and deletes the
 * previous one; the work runs in the background (exportWork.ts) and its record moves scheduled →
 * running → completed (files listed) | failed (errors, files removed) | canceled (DELETE: files
 * removed). A completed export's files are kept USER_EXPORT_RETENTION_MS, then the record reads
 * `expired` and the files are deleted. Records left scheduled or running by a previous process
 * are failed at start, their files removed. One attempt's work and its writes: exportAttempt.ts.
 */

type Db = Kysely<Database>

interface Running {
  controller: AbortController
  done: Promise<void>
}

export interface ExportRunnerOptions {
  db: Db
  clock: Clock
  dataDir: string
  /** Remote workers run the exports (DIVE_JOB_WORKERS=remote): records are theirs to recover. */
  remote?: boolean
}

/** What a queued export carries beside its record (the rest is read from the record). */
export interface ExportTaskData {
  runId: number | null
  sensors: ExportSensor[]
}

export class ExportRunner {
  #db: Db
  #clock: Clock
  #dataDir: string
  #remote: boolean
  #running = new Map<number, Running>()
  #afterFileHook: AfterFileHook | null = null
  #attemptContext: ExportAttemptContext
  /** Start, cancel and read of one simulation's export run one after another. */
  #queues = new Map<number, Promise<unknown>>()

  constructor(options: ExportRunnerOptions) {
    this.#db = options.db
    this.#clock = options.clock
    this.#dataDir = options.dataDir
    this.#remote = options.remote ?? false
    this.#attemptContext = {
      db: this.#db,
      clock: this.#clock,
      dataDir: this.#dataDir,
      afterFile: async (exportId, signal) => this.#afterFileHook?.(exportId, signal),
    }
  }

  /**
   * Fails the records a previous process left unfinished and removes their files. With remote
   * workers the records are the workers' (a dead worker's are retried through its lease).
   */
  async recoverUnfinished(): Promise<void> {
    if (this.#remote) return
    const rows = await this.#db
      .selectFrom('user_exports')
      .select(['id', 'directory'])
      .where('state', 'in', ['scheduled', 'running'])
      .execute()
    for (const row of rows) {
      await this.#removeFiles(row.id, row.directory)
      await this.#finish(row.id, 'failed', {
        errors: [
          {
            description: EXPORT_MESSAGES.failed,
            details: { description: SERVER_RESTARTED_MESSAGE },
            outputs: [],
          },
        ],
      })
    }
  }

  /** Replaces the simulation's export with a new one and starts its work. */
  async startExport(
    simulation: SimulationRow,
    runId: number | null,
    manifests: readonly OutputManifestInfo[],
    request: ExportRequest,
    sensors: readonly ExportSensor[] = [],
  ): Promise<ExportStatus> {
    return this.#serialize(simulation.id, () =>
      this.#startExport(simulation, runId, manifests, request, sensors),
    )
  }

  async #startExport(
    simulation: SimulationRow,
    runId: number | null,
    manifests: readonly OutputManifestInfo[],
    request: ExportRequest,
    sensors: readonly ExportSensor[],
  ): Promise<ExportStatus> {
    await this.#deleteExports(simulation.id)
    const now = this.#clock.nowIso()
    const directory = `${exportsDirectory(simulation.id)}/${randomUUID()}`
    const { id } = await this.#db
      .insertInto('user_exports')
      .values({
        simulation_id: simulation.id,
        name: EXPORT_MESSAGES.defaultName,
        state: 'scheduled',
        request: JSON.stringify(request),
        directory,
        expires_at: null,
        ended_at: null,
        created_at: now,
        updated_at: now,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    // the reply is the export as created: read before its work starts, which on a fast export
    // would otherwise race the reply with its first file
    const created = (await readExportStatus(this.#db, id))!
    const queue = serverTaskQueueFor(this.#db)
    if (queue) {
      const data: ExportTaskData = { runId, sensors: [...sensors] }
      await queue.dispatch('export', String(id), data)
      return created
    }
    const controller = new AbortController()
    const done = runExportAttempt(
      this.#attemptContext,
      { id, directory },
      { simulation, runId, manifests, request, sensors },
      controller.signal,
      false,
    )
    this.#running.set(id, { controller, done })
    void done.finally(() => this.#running.delete(id))
    return created
  }

  /** The simulation's latest export (expired once its retention has passed), or null. */
  async readExport(simulationId: number): Promise<ExportStatus | null> {
    return this.#serialize(simulationId, () => this.#readExport(simulationId))
  }

  async #readExport(simulationId: number): Promise<ExportStatus | null> {
    const row = await this.#latest(simulationId)
    if (!row) return null
    if (
      row.state === 'completed' &&
      row.expires_at !== null &&
      row.expires_at <= this.#clock.nowIso()
    ) {
      await this.#removeFiles(row.id, row.directory)
      await this.#setState(row.id, 'expired')
    }
    return readExportStatus(this.#db, row.id)
  }

  /** Cancels a running export and deletes the files of the latest one; null when none exists. */
  async cancelExport(simulationId: number): Promise<ExportStatus | null> {
    return this.#serialize(simulationId, () => this.#cancelExport(simulationId))
  }

  async #cancelExport(simulationId: number): Promise<ExportStatus | null> {
    const row = await this.#latest(simulationId)
    if (!row) return null
    await this.#stop(row.id)
    await this.#removeFiles(row.id, row.directory)
    if (row.state !== 'expired') await this.#finish(row.id, 'canceled', {})
    return readExportStatus(this.#db, row.id)
  }

  /** A file of the simulation's export that may be downloaded now, with its absolute path. */
  async findDownloadableFile(
    simulationId: number,
    fileId: number,
  ): Promise<DownloadableFile | null> {
    const status = await this.readExport(simulationId)
    if (!status || status.state !== 'completed') return null
    return findExportFile(this.#db, this.#dataDir, status.id, fileId)
  }

  /** Stops every running export (the app is closing); records stay for the next start. */
  async close(): Promise<void> {
    const running = [...this.#running.values()]
    for (const entry of running) entry.controller.abort()
    await Promise.allSettled(running.map((entry) => entry.done))
  }

  /** Tests: a hook the work awaits after each completed file (null removes it). */
  setAfterFileHook(hook: AfterFileHook | null): void {
    this.#afterFileHook = hook
  }

  /** Settles when the export's work has ended (tests). */
  async waitForExport(exportId: number): Promise<void> {
    await this.#running.get(exportId)?.done
  }

  /** A worker's run of a claimed export (exportTask.ts). */
  runClaimed(id: number, directory: string, work: ExportWorkInput, signal: AbortSignal) {
    return runExportAttempt(this.#attemptContext, { id, directory }, work, signal, true)
  }

  /** Deletes an export's files and their rows (exportTask.ts: a dead worker's attempt). */
  removeFiles(id: number, directory: string): Promise<void> {
    return this.#removeFiles(id, directory)
  }

  async #serialize<T>(simulationId: number, task: () => Promise<T>): Promise<T> {
    const previous = this.#queues.get(simulationId) ?? Promise.resolve()
    const next = previous.then(task, task)
    const settled = next.catch(() => undefined)
    this.#queues.set(simulationId, settled)
    void settled.then(() => {
      if (this.#queues.get(simulationId) === settled) this.#queues.delete(simulationId)
    })
    return next
  }

  async #stop(id: number): Promise<void> {
    const running = this.#running.get(id)
    const queue = serverTaskQueueFor(this.#db)
    if (!running && queue) {
      // Not claimed yet: no worker ever will. Claimed: its worker ends it (and we wait).
      const canceled = await this.#db
        .updateTable('user_exports')
        .set({ state: 'canceled', updated_at: this.#clock.nowIso() })
        .where('id', '=', id)
        .where('state', '=', 'scheduled')
        .executeTakeFirst()
      if (Number(canceled.numUpdatedRows) === 0) await queue.stop('export', String(id))
      return
    }
    if (!running) return
    running.controller.abort()
    await running.done
  }

  /** Stops and deletes every export of the simulation (a new one replaces them). */
  async #deleteExports(simulationId: number): Promise<void> {
    const rows = await this.#db
      .selectFrom('user_exports')
      .select(['id', 'directory'])
      .where('simulation_id', '=', simulationId)
      .execute()
    for (const row of rows) {
      await this.#stop(row.id)
      await this.#removeFiles(row.id, row.directory)
      await this.#db.deleteFrom('user_exports').where('id', '=', row.id).execute()
    }
    await rm(join(this.#dataDir, exportsDirectory(simulationId)), { recursive: true, force: true })
  }

  #removeFiles(id: number, directory: string): Promise<void> {
    return removeExportFiles(this.#db, this.#dataDir, id, directory)
  }

  async #setState(id: number, state: string): Promise<void> {
    await this.#db
      .updateTable('user_exports')
      .set({ state, updated_at: this.#clock.nowIso() })
      .where('id', '=', id)
      .execute()
  }

  #finish(
    id: number,
    state: 'completed' | 'failed' | 'canceled',
    result: ExportResult,
  ): Promise<void> {
    return finishExport(this.#db, this.#clock.nowIso(), id, state, result)
  }

  async #latest(simulationId: number) {
    return this.#db
      .selectFrom('user_exports')
      .selectAll()
      .where('simulation_id', '=', simulationId)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst()
  }
}
