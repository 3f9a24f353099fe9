import type { JobRunner } from '../JobRunner.ts'
import type { Db } from '../jobContext.ts'
import { takeExpiredLeases } from './leases.ts'

/**
 * Every `intervalMs`, takes the expired leases (their workers missed their heartbeats: killed,
 * cut off, frozen) and queues those jobs again, a simulation from its last checkpoint. The server
 * and every worker run one; each expired lease goes to exactly one of them.
 */
export function startReaper(db: Db, runner: JobRunner, intervalMs: number): () => Promise<void> {
  let running: Promise<void> = Promise.resolve()
  const timer = setInterval(() => {
    running = running.then(async () => {
      try {
        for (const jobId of await takeExpiredLeases(db)) {
          console.warn(`Job ${jobId}: its worker missed its heartbeats; queued again`)
          await runner.recoverAbandoned(jobId)
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
