import type PgBoss from 'pg-boss'
import type { Clock } from '../../clock.ts'
import type { Db } from '../jobContext.ts'
import type { RemoteJobs } from '../types.ts'
import { isLeased } from './leases.ts'
import { CHANNELS, type Notifier } from './notify.ts'
import { isQueuedKind, queueName, type QueuedJob, type QueuedTask } from './pgBoss.ts'
import { isTaskLeased, markTaskCanceled, taskKey } from './taskLeases.ts'
import type { ServerTaskQueue } from './tasks.ts'

/** A stop request to the worker running a job, or a task (its taskKey) (CHANNELS.control). */
export type ControlMessage = { jobId: number } | { task: string }

/** How long a task's stop waits for its worker to end it. */
const TASK_END_WAIT_MS = 10_000

/**
 * The queue as the job runner sees it: a scheduled job is sent to its kind's pg-boss queue and
 * idle workers are woken; stops reach the worker by notification; the lease says who runs a job.
 */
export function createRemoteJobs(db: Db, boss: PgBoss, notifier: Notifier): RemoteJobs {
  return {
    async dispatch(jobId, kind) {
      if (!isQueuedKind(kind)) throw new Error(`Jobs of kind ${kind} are not queued.`)
      await boss.send(queueName(kind), { jobId } satisfies QueuedJob)
      await notifier.notify(CHANNELS.ready, { kind })
    },
    async abort(jobId) {
      await notifier.notify(CHANNELS.control, { jobId } satisfies ControlMessage)
    },
    isLeased: (jobId) => isLeased(db, jobId),
  }
}

/** Sends a task to its kind's queue and wakes idle workers (the server, and reapers). */
export async function dispatchTask(
  boss: PgBoss,
  notifier: Notifier,
  kind: string,
  id: string,
  data: unknown,
): Promise<void> {
  if (!isQueuedKind(kind)) throw new Error(`Tasks of kind ${kind} are not queued.`)
  await boss.send(queueName(kind), { taskId: id, data } satisfies QueuedTask)
  await notifier.notify(CHANNELS.ready, { kind })
}

/** The server's task queue (tasks.ts ServerTaskQueue) over pg-boss and notifications. */
export function createServerTaskQueue(
  db: Db,
  boss: PgBoss,
  notifier: Notifier,
  clock: Clock,
): ServerTaskQueue {
  async function stop(kind: string, id: string): Promise<boolean> {
    const task = taskKey(kind, id)
    if (!(await isTaskLeased(db, task))) return false
    await notifier.notify(CHANNELS.control, { task } satisfies ControlMessage)
    const until = Date.now() + TASK_END_WAIT_MS
    while (Date.now() < until && (await isTaskLeased(db, task)))
      await new Promise((resolve) => setTimeout(resolve, 50))
    return true
  }
  return {
    dispatch: (kind, id, data) => dispatchTask(boss, notifier, kind, id, data),
    stop,
    async cancel(kind, id) {
      if (await markTaskCanceled(db, kind, id, clock.nowIso())) return false
      return stop(kind, id)
    },
    isLeased: (kind, id) => isTaskLeased(db, taskKey(kind, id)),
  }
}
