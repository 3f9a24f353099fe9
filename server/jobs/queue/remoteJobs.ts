import type PgBoss from 'pg-boss'
import type { Db } from '../jobContext.ts'
import type { RemoteJobs } from '../types.ts'
import { isLeased } from './leases.ts'
import { CHANNELS, type Notifier } from './notify.ts'
import { isQueuedKind, queueName, type QueuedJob } from './pgBoss.ts'

/** A stop request to the worker running a job (CHANNELS.control). */
export interface ControlMessage {
  jobId: number
}

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
