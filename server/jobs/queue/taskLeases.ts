import type { Transaction } from 'kysely'
import type { Database } from '../../db/schema.ts'
import type { Db } from '../jobContext.ts'
import { databaseNowMs } from './leases.ts'

/*
 * Leases of queued tasks (tables.ts TaskLeasesTable), as leases.ts does for jobs: times on the
 * database's clock, a claim takes the lease in its transaction, the heartbeat renews it, a
 * reaper takes the expired ones (exactly one reaper each).
 */

/** A task's lease key: its kind and the id of its row (or of its request). */
export function taskKey(kind: string, id: string): string {
  return `${kind}:${id}`
}

/** An expired lease taken by a reaper: what the task was, and what it was queued with. */
export interface AbandonedTask {
  kind: string
  id: string
  data: unknown
}

function parseData(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

/**
 * Takes a task's lease inside its claim's transaction. False when another live lease holds it
 * (a task without a row of its own is claimed by this insert alone).
 */
export async function takeTaskLease(
  trx: Transaction<Database>,
  lease: { kind: string; id: string; data: unknown; workerId: string; ttlMs: number },
  nowIso: string,
): Promise<boolean> {
  const nowMs = await databaseNowMs(trx)
  const task = taskKey(lease.kind, lease.id)
  await trx
    .deleteFrom('task_leases')
    .where('task', '=', task)
    .where('expires_ms', '<', nowMs)
    .execute()
  const inserted = await trx
    .insertInto('task_leases')
    .values({
      task,
      kind: lease.kind,
      worker_id: lease.workerId,
      heartbeat_ms: nowMs,
      expires_ms: nowMs + lease.ttlMs,
      data: JSON.stringify(lease.data ?? null),
      created_at: nowIso,
    })
    .onConflict((oc) => oc.column('task').doNothing())
    .executeTakeFirst()
  return Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1
}

/** The heartbeat: renews the worker's task leases; returns the keys it still holds. */
export async function renewTaskLeases(db: Db, workerId: string, ttlMs: number): Promise<string[]> {
  const nowMs = await databaseNowMs(db)
  const rows = await db
    .updateTable('task_leases')
    .set({ heartbeat_ms: nowMs, expires_ms: nowMs + ttlMs })
    .where('worker_id', '=', workerId)
    .where('expires_ms', '>=', nowMs)
    .returning('task')
    .execute()
  return rows.map((row) => row.task)
}

/** Gives a task's lease back (it ended on this worker). */
export async function releaseTaskLease(db: Db, task: string, workerId: string): Promise<void> {
  await db
    .deleteFrom('task_leases')
    .where('task', '=', task)
    .where('worker_id', '=', workerId)
    .execute()
}

/** Lets every task lease of this worker expire now (a clean shutdown). */
export async function expireTaskLeases(db: Db, workerId: string): Promise<void> {
  await db
    .updateTable('task_leases')
    .set({ expires_ms: 0 })
    .where('worker_id', '=', workerId)
    .execute()
}

/** Whether a live lease holds the task (a worker runs it). */
export async function isTaskLeased(db: Db, task: string): Promise<boolean> {
  const nowMs = await databaseNowMs(db)
  const row = await db
    .selectFrom('task_leases')
    .select('task')
    .where('task', '=', task)
    .where('expires_ms', '>=', nowMs)
    .executeTakeFirst()
  return row !== undefined
}

/**
 * Takes the expired task leases of these kinds (those this process has runners for) away, each by
 * exactly one reaper.
 */
export async function takeExpiredTaskLeases(
  db: Db,
  kinds: readonly string[],
): Promise<AbandonedTask[]> {
  if (kinds.length === 0) return []
  const nowMs = await databaseNowMs(db)
  const expired = await db
    .selectFrom('task_leases')
    .select(['task', 'kind', 'data'])
    .where('expires_ms', '<', nowMs)
    .where('kind', 'in', kinds)
    .execute()
  const taken: AbandonedTask[] = []
  for (const row of expired) {
    const deleted = await db
      .deleteFrom('task_leases')
      .where('task', '=', row.task)
      .where('expires_ms', '<', nowMs)
      .executeTakeFirst()
    if (Number(deleted.numDeletedRows) === 1)
      taken.push({
        kind: row.kind,
        id: row.task.slice(row.kind.length + 1),
        data: parseData(row.data),
      })
  }
  return taken
}
