import { sql, type Transaction } from 'kysely'
import type { Database } from '../../db/schema.ts'
import type { Db } from '../jobContext.ts'

/*
 * Leases of running jobs (tables.ts). Times come from the database's clock: every machine
 * compares against the same clock, whatever its own says.
 */

/** Now in milliseconds on the database's clock (PostgreSQL: leases are held only there). */
export async function databaseNowMs(db: Db | Transaction<Database>): Promise<number> {
  const { rows } = await sql<{
    now_ms: number | string
  }>`select ${nowMsExpression()} as now_ms`.execute(db)
  return Number(rows[0]?.now_ms)
}

function nowMsExpression() {
  return sql`(floor(extract(epoch from clock_timestamp()) * 1000))::bigint`
}

/** Takes the lease of a job just claimed (inside the claim's transaction). */
export async function takeLease(
  trx: Transaction<Database>,
  jobId: number,
  workerId: string,
  ttlMs: number,
  nowIso: string,
): Promise<void> {
  const nowMs = await databaseNowMs(trx)
  await trx.deleteFrom('job_leases').where('job_id', '=', jobId).execute()
  await trx
    .insertInto('job_leases')
    .values({
      job_id: jobId,
      worker_id: workerId,
      heartbeat_ms: nowMs,
      expires_ms: nowMs + ttlMs,
      created_at: nowIso,
    })
    .execute()
}

/**
 * The worker's heartbeat: pushes the expiry of its leases of these jobs (those it still runs)
 * forward. Returns the ids of the jobs it still holds (a lease taken over by another process is
 * missing from the answer). A lease of a job it no longer runs (dropped when its renewals were
 * late) is left to expire, so a reaper queues that job again.
 */
export async function renewLeases(
  db: Db,
  workerId: string,
  ttlMs: number,
  jobIds: readonly number[],
): Promise<number[]> {
  if (jobIds.length === 0) return []
  const nowMs = await databaseNowMs(db)
  const rows = await db
    .updateTable('job_leases')
    .set({ heartbeat_ms: nowMs, expires_ms: nowMs + ttlMs })
    .where('worker_id', '=', workerId)
    .where('job_id', 'in', jobIds)
    .where('expires_ms', '>=', nowMs)
    .returning('job_id')
    .execute()
  return rows.map((row) => row.job_id)
}

/** Gives a job's lease back (the job ended on this worker). */
export async function releaseLease(db: Db, jobId: number, workerId: string): Promise<void> {
  await db
    .deleteFrom('job_leases')
    .where('job_id', '=', jobId)
    .where('worker_id', '=', workerId)
    .execute()
}

/** Lets every lease of this worker expire at once (a clean shutdown: others take its jobs now). */
export async function expireLeases(db: Db, workerId: string): Promise<void> {
  await db
    .updateTable('job_leases')
    .set({ expires_ms: 0 })
    .where('worker_id', '=', workerId)
    .execute()
}

/** Whether a live (unexpired) lease holds the job. */
export async function isLeased(db: Db, jobId: number): Promise<boolean> {
  const nowMs = await databaseNowMs(db)
  const row = await db
    .selectFrom('job_leases')
    .select('job_id')
    .where('job_id', '=', jobId)
    .where('expires_ms', '>=', nowMs)
    .executeTakeFirst()
  return row !== undefined
}

/**
 * Takes the expired leases away, one at a time: each is deleted only if it is still expired, so
 * of several reapers (the server, workers) exactly one gets each job. Returns those job ids.
 */
export async function takeExpiredLeases(db: Db): Promise<number[]> {
  const nowMs = await databaseNowMs(db)
  const expired = await db
    .selectFrom('job_leases')
    .select('job_id')
    .where('expires_ms', '<', nowMs)
    .execute()
  const taken: number[] = []
  for (const { job_id: jobId } of expired) {
    const deleted = await db
      .deleteFrom('job_leases')
      .where('job_id', '=', jobId)
      .where('expires_ms', '<', nowMs)
      .executeTakeFirst()
    if (Number(deleted.numDeletedRows) === 1) taken.push(jobId)
  }
  return taken
}
