import { readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { Kysely, Transaction } from 'kysely'
import type { Clock } from '../clock.ts'
import type { Database } from '../db/schema.ts'
import { claimJobRow, rescheduleJobRow } from '../jobs/claim.ts'
import type { TaskHandler } from '../jobs/queue/tasks.ts'
import { runSensorsDirectory } from './layout.ts'
import { SENSOR_JOB_KIND, readPayload } from './recomputationRecord.ts'
import type { SensorRecomputationRunner } from './SensorRecomputationRunner.ts'

/*
 * A sensor recomputation on a worker process (issue 18; server/jobs/queue/tasks.ts): the server
 * queues the job row it scheduled; a worker claims it and samples in its own sensor thread, writing
 * the per-output states and the job's progress as the server does. Every sample file is written to
 * a .tmp name and renamed, so a dead worker's job is simply run again from its first output.
 */

type Db = Kysely<Database>

/** Temporary files a thread ended mid-write may leave (never listed, removed here). */
export async function removeTemporarySensorFiles(
  dataDir: string,
  simulationId: number,
  runId: number,
): Promise<void> {
  const root = join(dataDir, runSensorsDirectory(simulationId, runId))
  let sensorDirs: string[]
  try {
    sensorDirs = await readdir(root)
  } catch {
    return
  }
  for (const dir of sensorDirs) {
    const names = await readdir(join(root, dir)).catch(() => [] as string[])
    await Promise.all(
      names
        .filter((name) => name.endsWith('.tmp'))
        .map((name) => rm(join(root, dir, name), { force: true })),
    )
  }
}

export function createSensorTaskHandler(
  db: Db,
  clock: Clock,
  dataDir: string,
  runner: SensorRecomputationRunner,
): TaskHandler {
  const readJob = (id: string) =>
    db
      .selectFrom('jobs')
      .selectAll()
      .where('id', '=', Number(id))
      .where('kind', '=', SENSOR_JOB_KIND)
      .executeTakeFirst()
  return {
    kind: SENSOR_JOB_KIND,
    claim: (trx: Transaction<Database>, id: string, _data: unknown, nowIso: string) =>
      claimJobRow(trx, Number(id), nowIso),
    async run(id: string, _data: unknown, signal: AbortSignal): Promise<void> {
      const job = await readJob(id)
      if (job) await runner.runClaimed(job, signal)
    },
    async recover(id: string): Promise<boolean> {
      const job = await readJob(id)
      if (!job || job.state !== 'running') return false
      await removeTemporarySensorFiles(dataDir, job.simulation_id, readPayload(job).runId)
      return rescheduleJobRow(db, job.id, clock.nowIso())
    },
  }
}
