import type { FastifyInstance } from 'fastify'
import type { Kysely } from 'kysely'
import type { Clock } from '../clock.ts'
import type { Database } from '../db/schema.ts'
import { LiveHub } from '../live/LiveHub.ts'
import { registerLiveChannel } from '../live/liveChannel.ts'
import { JobRunner } from './JobRunner.ts'
import { createSetupLoader, registerJobRunner, unregisterJobRunner } from './services.ts'
import type { JobExecutors, SetupLoader } from './types.ts'
import { createWorkerExecutors } from './workerExecutors.ts'

/** Overrides of the job machinery (tests): executors and the setup loader. */
export interface JobOptions {
  executors?: JobExecutors
  loadSetup?: SetupLoader
}

export interface RegisterJobsOptions extends JobOptions {
  db: Kysely<Database>
  clock: Clock
  dataDir: string
}

/**
 * The job runner and the live channel of an app: recovers jobs left by a previous process,
 * serves /ws/live, and ends the job threads when the app closes (rows stay for the next start).
 */
export async function registerJobs(
  app: FastifyInstance,
  options: RegisterJobsOptions,
): Promise<JobRunner> {
  const { db, clock, dataDir } = options
  const hub = new LiveHub(db, clock)
  const runner = new JobRunner({
    db,
    clock,
    dataDir,
    executors: options.executors ?? createWorkerExecutors(),
    loadSetup: options.loadSetup ?? createSetupLoader(db, dataDir),
    events: hub,
  })
  registerJobRunner(db, runner)
  await registerLiveChannel(app, { db, clock, hub })
  app.addHook('onClose', async () => {
    await runner.close()
    unregisterJobRunner(db)
  })
  await runner.start()
  return runner
}
