import type { JobRunner } from '../JobRunner.ts'
import type { Db } from '../jobContext.ts'
import { takeExpiredLeases } from './leases.ts'
import { takeExpiredTaskLeases } from './taskLeases.ts'
import { taskHandlerFor, taskHandlerKinds } from './tasks.ts'

/** Queues a recovered task again (remoteJobs.ts dispatchTask on this process's pg-boss). */
export type TaskDispatch = (kind: string, id: string, data: unknown) => Promise<void>

/**
 * Every `intervalMs`, takes the expired leases (their workers missed their heartbeats: killed,
 * cut off, frozen) and queues those jobs again, a simulation from its last checkpoint; a task is
 * recovered by its kind's runner (tasks.ts TaskHandler.recover) and queued again as it was, or
 * ended; only kinds with a runner in this process are taken (a statistics range: the workers'). The server and every worker run one; each expired lease goes to exactly one of them.
 */
export function startReaper(
  db: Db,
  runner: JobRunner,
  intervalMs: number,
  dispatchTask?: TaskDispatch,
): () => Promise<void> {
  let running: Promise<void> = Promise.resolve()
  const timer = setInterval(() => {
    running = running.then(async () => {
      try {
        for (const jobId of await takeExpiredLeases(db)) {
          console.warn(`Job ${jobId}: its worker missed its heartbeats; queued again`)
          await runner.recoverAbandoned(jobId)
        }
        if (dispatchTask)
          for (const task of await takeExpiredTaskLeases(db, taskHandlerKinds(db))) {
            const handler = taskHandlerFor(db, task.kind)
            if (handler && (await handler.recover(task.id, task.data))) {
              console.warn(`Task ${task.kind} ${task.id}: its worker died; queued again`)
              await dispatchTask(task.kind, task.id, task.data)
            } else console.warn(`Task ${task.kind} ${task.id}: its worker died; ended`)
          }
      } catch (error) {
        console.error('Taking expired job leases failed', error)
      }
    })
  }, intervalMs)
  timer.unref()
  return async () => {
    clearInterval(timer)
    await running
  }
}
