import { randomUUID } from 'node:crypto'
import type { Kysely, Transaction } from 'kysely'
import type { ExportRequest } from '../../domain/results.ts'
import type { Clock } from '../clock.ts'
import type { Database } from '../db/schema.ts'
import type { TaskHandler } from '../jobs/queue/tasks.ts'
import { listOutputManifests } from '../results/outputFiles.ts'
import type { ExportRunner, ExportTaskData } from './ExportRunner.ts'
import { exportsDirectory } from './exportFiles.ts'

/*
 * An export on a worker process (issue 18; server/jobs/queue/tasks.ts): the server queued the
 * record it inserted; a worker claims it (scheduled → running), runs the same work as the server
 * (ExportRunner.runClaimed: every file written as .partial and renamed, then listed) and ends the
 * record. When the worker dies its files are deleted and the export starts over in a new
 * directory, so the export completes once with every file listed once.
 */

type Db = Kysely<Database>

export function createExportTaskHandler(
  db: Db,
  clock: Clock,
  dataDir: string,
  runner: ExportRunner,
): TaskHandler {
  return {
    kind: 'export',
    async claim(trx: Transaction<Database>, id: string, _data: unknown, nowIso: string) {
      const result = await trx
        .updateTable('user_exports')
        .set({ state: 'running', updated_at: nowIso })
        .where('id', '=', Number(id))
        .where('state', '=', 'scheduled')
        .executeTakeFirst()
      return Number(result.numUpdatedRows) === 1
    },

    async run(id: string, data: unknown, signal: AbortSignal): Promise<void> {
      const row = await db
        .selectFrom('user_exports')
        .selectAll()
        .where('id', '=', Number(id))
        .executeTakeFirst()
      const simulation =
        row &&
        (await db
          .selectFrom('simulations')
          .selectAll()
          .where('id', '=', row.simulation_id)
          .executeTakeFirst())
      if (!row || !simulation) return
      const { runId, sensors } = data as ExportTaskData
      const manifests =
        runId === null ? [] : await listOutputManifests(dataDir, simulation.id, runId)
      const request = JSON.parse(row.request) as ExportRequest
      await runner.runClaimed(
        row.id,
        row.directory,
        { simulation, runId, manifests, request, sensors },
        signal,
      )
    },

    async recover(id: string): Promise<boolean> {
      const row = await db
        .selectFrom('user_exports')
        .select(['id', 'simulation_id', 'directory', 'state'])
        .where('id', '=', Number(id))
        .executeTakeFirst()
      if (!row || row.state !== 'running') return false
      // The record first: from then on the dead attempt lists nothing more (writeIfCurrent), and
      // what it listed before is deleted with its files below.
      const result = await db
        .updateTable('user_exports')
        .set({
          state: 'scheduled',
          progress: 0,
          directory: `${exportsDirectory(row.simulation_id)}/${randomUUID()}`,
          updated_at: clock.nowIso(),
        })
        .where('id', '=', row.id)
        .where('directory', '=', row.directory)
        .where('state', '=', 'running')
        .executeTakeFirst()
      if (Number(result.numUpdatedRows) !== 1) return false
      await runner.removeFiles(row.id, row.directory)
      return true
    },
  }
}
