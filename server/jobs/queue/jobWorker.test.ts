import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { sql } from 'kysely'
import type PgBoss from 'pg-boss'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createTestDatabase,
  isDialectUnavailable,
  type TestDatabase,
} from '../../../tests/integration/harness.ts'
import { createClock } from '../../clock.ts'
import { migrateToLatest } from '../../db/migrations.ts'
import { createFakeExecutors, DEFAULT_SCRIPT } from '../testing.ts'
import { JobWorker, LEASE_BEATS } from './JobWorker.ts'
import type { ResultsServerFrame, StatsCalcRequest } from '../../../domain/resultsProtocol.ts'
import { runRemoteStatistics } from '../../results/statistics/statisticsTask.ts'
import { Notifier } from './notify.ts'
import { queueName, startBoss, type QueuedTask } from './pgBoss.ts'
import { createServerTaskQueue } from './remoteJobs.ts'
import { CANCELED_HOLDER } from './taskLeases.ts'
import {
  registerTaskHandler,
  TASK_CANCELED,
  TASK_SHUTDOWN,
  unregisterTaskHandler,
} from './tasks.ts'

/*
 * A worker process's loop (JobWorker) on PostgreSQL, in this process.
 *
 * Its heartbeat under load (issue 18): a worker starved of CPU renews its leases late. The retry
 * of a killed export hung in the full test runs because such a worker stopped its own task on a
 * late beat while its lease was still valid, kept that lease and renewed it ever after: no reaper
 * ever took it and the record stayed 'running'. A late beat now renews (a renewal only succeeds
 * on a lease no one can have taken) and a task stopped here is no longer renewed, so its lease
 * expires and a reaper queues it again.
 *
 * A cancel before any worker took a task without a row (a statistics range) marks it, so that the
 * worker that takes its message drops it instead of computing it for no one.
 */

const HEARTBEAT_MS = 1500
const TTL_MS = HEARTBEAT_MS * LEASE_BEATS

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Keeps the event loop busy, as a starved or busy process would (no timer, no reply runs). */
function blockEventLoop(ms: number): void {
  const end = Date.now() + ms
  while (Date.now() < end);
}

describe.skipIf(isDialectUnavailable('postgres'))('a job worker [postgres]', () => {
  let database: TestDatabase
  let dataDir: string
  let boss: PgBoss
  const clock = createClock()

  beforeAll(async () => {
    database = await createTestDatabase('postgres')
    await migrateToLatest(database.handle)
    dataDir = mkdtempSync(join(tmpdir(), 'dive-heartbeat-test-'))
    boss = await startBoss(database.location)
  })
  afterAll(async () => {
    await boss?.stop({ graceful: false, close: true, wait: true })
    await database?.drop()
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  })

  function startWorker(workerId: string): JobWorker {
    return new JobWorker({
      db: database.handle.db,
      databaseUrl: database.location,
      dataDir,
      clock,
      cores: 1,
      kinds: ['statistics'],
      concurrency: 1,
      heartbeatMs: HEARTBEAT_MS,
      pollMs: 100,
      executors: createFakeExecutors(DEFAULT_SCRIPT).executors,
      loadSetup: () => Promise.reject(new Error('no setup in this test')),
      workerId,
    })
  }

  const leaseOf = (task: string) =>
    database.handle.db
      .selectFrom('task_leases')
      .selectAll()
      .where('task', '=', task)
      .executeTakeFirst()

  it('keeps running a task through a late beat while its lease is still valid, then gives the lease back', async () => {
    const db = database.handle.db
    const runs: { aborted: boolean; reason: unknown }[] = []
    registerTaskHandler(db, {
      kind: 'statistics',
      claim: () => Promise.resolve(true),
      async run(_id, _data, signal) {
        // Stalled past most of a lease (the old guard: ttl - one beat) but short of its expiry.
        blockEventLoop(TTL_MS - HEARTBEAT_MS + 300)
        // Then runs on for two beats, which must renew it.
        await sleep(2 * HEARTBEAT_MS)
        runs.push({ aborted: signal.aborted, reason: signal.reason })
      },
      recover: () => Promise.resolve(true),
    })
    const worker = startWorker('late-beats')
    await worker.start()
    try {
      await boss.send(queueName('statistics'), { taskId: 'late', data: null } satisfies QueuedTask)
      const end = Date.now() + 60_000
      while (runs.length === 0 && Date.now() < end) await sleep(50)
      await sleep(200)
      expect(runs).toEqual([{ aborted: false, reason: undefined }])
      expect(await leaseOf('statistics:late')).toBeUndefined()
    } finally {
      await worker.close()
      unregisterTaskHandler(db, 'statistics')
    }
  }, 90_000)

  it('drops a task while its renewals hang, and no longer renews its lease: a reaper takes it', async () => {
    const db = database.handle.db
    await db.deleteFrom('task_leases').execute()
    const signals: AbortSignal[] = []
    const recovered: string[] = []
    registerTaskHandler(db, {
      kind: 'statistics',
      claim: () => Promise.resolve(true),
      run: (_id, _data, signal) =>
        new Promise<void>((resolve) => {
          signals.push(signal)
          signal.addEventListener('abort', () => resolve(), { once: true })
        }),
      recover(id) {
        recovered.push(id)
        return Promise.resolve(false)
      },
    })
    const worker = startWorker('hangs')
    await worker.start()
    let unlock: () => void = () => undefined
    const lock: { held: Promise<void> } = { held: Promise.resolve() }
    try {
      await boss.send(queueName('statistics'), { taskId: 'held', data: null } satisfies QueuedTask)
      const end = Date.now() + 60_000
      while (signals.length === 0 && Date.now() < end) await sleep(50)
      expect(signals).toHaveLength(1)
      expect((await leaseOf('statistics:held'))?.worker_id).toBe('hangs')
      // The lease's row locked elsewhere: the worker's renewals wait (a database that hangs).
      const lockTaken = new Promise<void>((taken) => {
        lock.held = db.transaction().execute(async (trx) => {
          await sql`select task from task_leases where task = ${'statistics:held'} for update`.execute(
            trx,
          )
          taken()
          await new Promise<void>((resolve) => (unlock = resolve))
        })
      })
      await lockTaken
      const until = Date.now() + 3 * TTL_MS
      while (!signals[0]!.aborted && Date.now() < until) await sleep(50)
      expect(signals[0]!.reason).toBe(TASK_SHUTDOWN)
      unlock()
      await lock.held
      // The renewal that waited lands once; after it the lease is left to expire, and the
      // reaper (this worker's own) takes it and asks the task's runner to recover it.
      const reaped = Date.now() + 3 * TTL_MS
      while (recovered.length === 0 && Date.now() < reaped) await sleep(50)
      expect(recovered).toEqual(['held'])
      expect(await leaseOf('statistics:held')).toBeUndefined()
    } finally {
      unlock()
      await lock.held
      await worker.close()
      unregisterTaskHandler(db, 'statistics')
    }
  }, 120_000)

  /** A statistics range as a results session sends it (its outputs are never read here). */
  const statsRequest = (requestId: number): StatsCalcRequest => ({
    type: 'stats.calc',
    requestId,
    simId: 1,
    outputs: [0, 1, 2],
    attribute: 'pressure',
    subAttribute: null,
    dataset: 'raw',
    objIds: [1],
    masks: [],
    operations: { mean: ['mean'] },
    mode: 'both',
  })

  it('answers a statistics range canceled before any worker took it at once, and no worker computes it', async () => {
    const db = database.handle.db
    await db.deleteFrom('task_leases').execute()
    const runs: string[] = []
    registerTaskHandler(db, {
      kind: 'statistics',
      claim: () => Promise.resolve(true),
      run(id) {
        runs.push(id)
        return Promise.resolve()
      },
      recover: () => Promise.resolve(true),
    })
    const notifier = new Notifier(database.location)
    const queue = createServerTaskQueue(db, boss, notifier, clock)
    let worker: JobWorker | null = null
    try {
      // No worker runs: the range is queued, and canceled before anyone takes it.
      const canceled = new AbortController()
      canceled.abort()
      const frames: ResultsServerFrame[] = []
      await runRemoteStatistics(
        queue,
        statsRequest(9),
        { simulationId: 1, runId: 1, clips: [] },
        (frame) => {
          frames.push(frame)
          return Promise.resolve()
        },
        canceled.signal,
      )
      expect(frames).toEqual([{ type: 'stats.calc.done', requestId: 9, state: 'canceled' }])
      const marks = await db
        .selectFrom('task_leases')
        .select(['kind', 'worker_id'])
        .where('kind', '=', 'statistics')
        .execute()
      expect(marks).toEqual([{ kind: 'statistics', worker_id: CANCELED_HOLDER }])
      // A worker comes and takes its message: it drops the task and the mark, runs nothing.
      worker = startWorker('after-cancel')
      await worker.start()
      const queued = () =>
        sql<{
          state: string
        }>`select state from pgboss.job where name = ${queueName('statistics')}`.execute(db)
      const end = Date.now() + 30_000
      while ((await queued()).rows.some((r) => r.state !== 'completed') && Date.now() < end)
        await sleep(50)
      expect((await queued()).rows.map((r) => r.state)).not.toContain('created')
      await sleep(HEARTBEAT_MS)
      expect(runs).toEqual([])
      expect(await db.selectFrom('task_leases').selectAll().execute()).toEqual([])
    } finally {
      await worker?.close()
      await notifier.close()
      unregisterTaskHandler(db, 'statistics')
    }
  }, 90_000)

  it('stops a statistics range a worker runs when it is canceled, and leaves no mark', async () => {
    const db = database.handle.db
    await db.deleteFrom('task_leases').execute()
    const signals: AbortSignal[] = []
    registerTaskHandler(db, {
      kind: 'statistics',
      claim: () => Promise.resolve(true),
      run: (_id, _data, signal) =>
        new Promise<void>((resolve) => {
          signals.push(signal)
          signal.addEventListener('abort', () => resolve(), { once: true })
        }),
      recover: () => Promise.resolve(true),
    })
    const notifier = new Notifier(database.location)
    const queue = createServerTaskQueue(db, boss, notifier, clock)
    const worker = startWorker('runs-it')
    await worker.start()
    try {
      await queue.dispatch('statistics', 'running', null)
      const end = Date.now() + 30_000
      while (signals.length === 0 && Date.now() < end) await sleep(50)
      expect(signals).toHaveLength(1)
      expect(await queue.cancel('statistics', 'running')).toBe(true)
      expect(signals[0]!.reason).toBe(TASK_CANCELED)
      expect(await db.selectFrom('task_leases').selectAll().execute()).toEqual([])
    } finally {
      await worker.close()
      await notifier.close()
      unregisterTaskHandler(db, 'statistics')
    }
  }, 90_000)
})
