import type { Transaction } from 'kysely'
import type { Clock } from '../clock.ts'
import type { Database } from '../db/schema.ts'
import type { Db, JobRow } from './jobContext.ts'
import { takeLease } from './queue/leases.ts'
import type { LeaseOptions } from './types.ts'

/**
 * Claims a scheduled job: one conditional update, so of several runners (processes, machines)
 * exactly one gets it; a worker process takes the job's lease in the same transaction.
 */
export async function claimJob(
  db: Db,
  clock: Clock,
  job: JobRow,
  leases: LeaseOptions | undefined,
): Promise<boolean> {
  const nowIso = clock.nowIso()
  return db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable('jobs')
      .set((eb) => ({
        state: 'running',
        attempts: eb('attempts', '+', 1),
        started_at: nowIso,
        updated_at: nowIso,
      }))
      .where('id', '=', job.id)
      .where('state', '=', 'scheduled')
      .executeTakeFirst()
    const claimed = Number(result.numUpdatedRows) === 1
    if (claimed && leases) await takeLease(trx, job.id, leases.workerId, leases.ttlMs, nowIso)
    return claimed
  })
}

/**
 * Cancels a job that no runner has claimed yet: one conditional update, so a concurrent claim
 * fails. False when a runner claimed it first (it must then be stopped where it runs).
 */
export async function cancelScheduledJob(db: Db, clock: Clock, jobId: number): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({ state: 'canceled', updated_at: clock.nowIso() })
    .where('id', '=', jobId)
    .where('state', '=', 'scheduled')
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

/**
 * Claims a scheduled row of `jobs` (scheduled → running, one more attempt): one conditional
 * update, so of several runners exactly one gets it. The runners of sensor recomputations and CAD
 * jobs claim with it, in their process or (remote workers) in the transaction of the task's lease.
 */
export async function claimJobRow(
  db: Db | Transaction<Database>,
  jobId: number,
  nowIso: string,
): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set((eb) => ({
      state: 'running',
      attempts: eb('attempts', '+', 1),
      started_at: nowIso,
      updated_at: nowIso,
    }))
    .where('id', '=', jobId)
    .where('state', '=', 'scheduled')
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}

/**
 * A row of `jobs` whose worker died goes back to scheduled (progress 0) to be queued again; false
 * when it was no longer running.
 */
export async function rescheduleJobRow(db: Db, jobId: number, nowIso: string): Promise<boolean> {
  const result = await db
    .updateTable('jobs')
    .set({ state: 'scheduled', progress: 0, updated_at: nowIso })
    .where('id', '=', jobId)
    .where('state', '=', 'running')
    .executeTakeFirst()
  return Number(result.numUpdatedRows) === 1
}
