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

/**
 * The holder of a lease that stands for a cancel: the task (one without a row of its own, a
 * statistics range) was canceled before any worker took it. A worker's claim then finds the lease
 * held, drops the task and the mark; a reaper drops a mark that outlived its message.
 */
export const CANCELED_HOLDER = '(canceled)'

/** A cancel's mark lasts as long as pg-boss keeps a queued message (14 days). */
export const CANCEL_MARK_TTL_MS = 14 * 24 * 60 * 60 * 1000

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

/**
 * Marks a task that no worker holds as canceled (a lease held by CANCELED_HOLDER), so that no
 * worker ever runs it. False when a worker holds it (that worker must be asked to stop it).
 */
export async function markTaskCanceled(
  db: Db,
  kind: string,
  id: string,
  nowIso: string,
): Promise<boolean> {
  return db
    .transaction()
    .execute((trx) =>
      takeTaskLease(
        trx,
        { kind, id, data: null, workerId: CANCELED_HOLDER, ttlMs: CANCEL_MARK_TTL_MS },
        nowIso,
      ),
    )
}

/**
 * A worker whose claim found the task held: true when the holder is a cancel's mark, which is
 * dropped (the task's message was taken: nothing runs it any more).
 */
export async function takeCancelMark(db: Db, task: string): Promise<boolean> {
  const deleted = await db
    .deleteFrom('task_leases')
    .where('task', '=', task)
    .where('worker_id', '=', CANCELED_HOLDER)
    .executeTakeFirst()
  return Number(deleted.numDeletedRows) === 1
}

/**
 * The heartbeat: renews the worker's leases of these tasks (those it still runs); returns the keys
 * it still holds. A lease of a task it no longer runs is left to expire for a reaper.
 */
export async function renewTaskLeases(
  db: Db,
  workerId: string,
  ttlMs: number,
  tasks: readonly string[],
): Promise<string[]> {
  if (tasks.length === 0) return []
  const nowMs = await databaseNowMs(db)
  const rows = await db
    .updateTable('task_leases')
    .set({ heartbeat_ms: nowMs, expires_ms: nowMs + ttlMs })
    .where('worker_id', '=', workerId)
    .where('task', 'in', tasks)
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

/** Whether a live lease holds the task (a worker runs it; a cancel's mark is none). */
export async function isTaskLeased(db: Db, task: string): Promise<boolean> {
  const nowMs = await databaseNowMs(db)
  const row = await db
    .selectFrom('task_leases')
    .select('task')
    .where('task', '=', task)
    .where('worker_id', '!=', CANCELED_HOLDER)
    .where('expires_ms', '>=', nowMs)
    .executeTakeFirst()
  return row !== undefined
}

/**
 * Takes the expired task leases of these kinds (those this process has runners for) away, each by
 * exactly one reaper. An expired cancel's mark is dropped (its message is gone), not returned.
 */
export async function takeExpiredTaskLeases(
  db: Db,
  kinds: readonly string[],
): Promise<AbandonedTask[]> {
  if (kinds.length === 0) return []
  const nowMs = await databaseNowMs(db)
  const expired = await db
    .selectFrom('task_leases')
    .select(['task', 'kind', 'data', 'worker_id'])
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
    if (Number(deleted.numDeletedRows) === 1 && row.worker_id !== CANCELED_HOLDER)
      taken.push({
        kind: row.kind,
        id: row.task.slice(row.kind.length + 1),
        data: parseData(row.data),
      })
  }
  return taken
}
