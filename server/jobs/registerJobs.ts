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
import { replayLiveEvent } from './queue/liveEvents.ts'
import { CHANNELS, Listener, Notifier } from './queue/notify.ts'
import { startBoss } from './queue/pgBoss.ts'
import { startReaper } from './queue/reaper.ts'
import { createRemoteJobs, createServerTaskQueue, dispatchTask } from './queue/remoteJobs.ts'
import { deliverTaskFrame, setServerTaskQueue } from './queue/tasks.ts'
import { markStorageRoot } from './queue/storageRoot.ts'

/** How often the server looks for leases of dead workers. */
const REAP_INTERVAL_MS = 1000

/** The server's end of the queue: pg-boss, notifications, and worker events relayed to the hub. */
async function startQueue(databaseUrl: string, db: Kysely<Database>, hub: LiveHub, clock: Clock) {
  const boss = await startBoss(databaseUrl)
  const notifier = new Notifier(databaseUrl)
  const listener = new Listener(
    databaseUrl,
    [CHANNELS.live, CHANNELS.taskFrames],
    (channel, message) => {
      if (channel === CHANNELS.live) replayLiveEvent(hub, message)
      else deliverTaskFrame(message)
    },
  )
  await listener.start()
  setServerTaskQueue(db, createServerTaskQueue(db, boss, notifier, clock))
  return {
    jobs: createRemoteJobs(db, boss, notifier),
    dispatchTask: (kind: string, id: string, data: unknown) =>
      dispatchTask(boss, notifier, kind, id, data),
    async close() {
      setServerTaskQueue(db, null)
      await listener.close()
      await notifier.close()
      await boss.stop({ graceful: false, close: true, wait: true }).catch(() => undefined)
    },
  }
}

/** Overrides of the job machinery (tests): executors and the setup loader. */
export interface JobOptions {
  executors?: JobExecutors
  loadSetup?: SetupLoader
  /**
   * Remote workers (issue 18, PostgreSQL only): jobs go to pg-boss on this database and
   * `npm run worker` processes run them; this server only queues, relays their live events and
   * takes the leases of dead workers. Without it the server runs every job itself.
   */
  queue?: { databaseUrl: string; reapIntervalMs?: number }
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
  if (options.queue) await markStorageRoot(dataDir, db, clock.nowIso())
  const remote = options.queue ? await startQueue(options.queue.databaseUrl, db, hub, clock) : null
  const runner = new JobRunner({
    db,
    clock,
    dataDir,
    executors: options.executors ?? createWorkerExecutors(),
    loadSetup: options.loadSetup ?? createSetupLoader(db, dataDir),
    events: hub,
    ...(remote ? { remote: remote.jobs } : {}),
  })
  registerJobRunner(db, runner)
  await registerLiveChannel(app, { db, clock, hub })
  const stopReaper = remote
    ? startReaper(
        db,
        runner,
        options.queue?.reapIntervalMs ?? REAP_INTERVAL_MS,
        remote.dispatchTask,
      )
    : null
  app.addHook('onClose', async () => {
    await stopReaper?.()
    await runner.close()
    await remote?.close()
    unregisterJobRunner(db)
  })
  await runner.start()
  return runner
}
