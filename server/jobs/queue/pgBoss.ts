import PgBoss from 'pg-boss'

/*
 * pg-boss, the queue of remote workers: one queue per job kind. A queued message only says which
 * job to take; the jobs row stays the truth (its claim is one conditional update), so a message
 * delivered twice or left behind by a dead worker is harmless.
 */

/** Kinds whose rows are `jobs` run by the JobRunner (leases in job_leases). */
export const RUNNER_KINDS = ['simulation', 'discretization'] as const

/**
 * Kinds run by their own runners (tasks.ts; leases in task_leases): sensor recomputations,
 * statistics over a range of outputs, exports, download archives, CAD reads and tessellations.
 */
export const TASK_KINDS = [
  'sensorRecomputation',
  'statistics',
  'export',
  'compression',
  'assembly',
  'tessellation',
] as const
export type TaskKind = (typeof TASK_KINDS)[number]

/** Job kinds that worker processes take from the queue. */
export const QUEUED_KINDS = [...RUNNER_KINDS, ...TASK_KINDS] as const
export type QueuedKind = (typeof QUEUED_KINDS)[number]

export function isTaskKind(kind: string): kind is TaskKind {
  return (TASK_KINDS as readonly string[]).includes(kind)
}

export function isQueuedKind(kind: string): kind is QueuedKind {
  return (QUEUED_KINDS as readonly string[]).includes(kind)
}

/** pg-boss queue of a job kind. */
export function queueName(kind: QueuedKind): string {
  return `dive-${kind}`
}

/** The message of a queued job. */
export interface QueuedJob {
  jobId: number
}

/** The message of a queued task: its id (its row's, or its request's) and what it needs. */
export interface QueuedTask {
  taskId: string
  data: unknown
}

/** pg-boss keeps its tables in this schema of the Dive database. */
export const PG_BOSS_SCHEMA = 'pgboss'

/**
 * Starts pg-boss on the database (creating or updating its schema) with a queue per kind. A queued
 * message is taken once (retryLimit 0): a worker that dies after taking it has claimed the job, and
 * the job's lease, not pg-boss, brings it back.
 */
export async function startBoss(databaseUrl: string): Promise<PgBoss> {
  const boss = new PgBoss({
    connectionString: databaseUrl,
    schema: PG_BOSS_SCHEMA,
    max: 4,
    schedule: false,
    application_name: 'dive-queue',
  })
  boss.on('error', (error: Error) => console.error('Job queue (pg-boss):', error.message))
  await boss.start()
  for (const kind of QUEUED_KINDS) {
    const name = queueName(kind)
    if (await boss.getQueue(name)) continue
    try {
      await boss.createQueue(name, { name, retryLimit: 0, expireInHours: 23 })
    } catch (error) {
      // Another process created it at the same moment.
      if (!(await boss.getQueue(name))) throw error
    }
  }
  return boss
}
