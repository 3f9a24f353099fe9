import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  createTestDatabase,
  isDialectUnavailable,
  type TestDatabase,
} from '../../../tests/integration/harness.ts'
import { createClock } from '../../clock.ts'
import { readServerConfig } from '../../config.ts'
import { migrateToLatest } from '../../db/migrations.ts'
import { seedDatabase } from '../../db/seed.ts'
import { claimJob } from '../claim.ts'
import { JobRunner } from '../JobRunner.ts'
import type { JobEvents, RemoteJobs } from '../types.ts'
import { renewLeases, takeExpiredLeases } from './leases.ts'
import { replayLiveEvent } from './liveEvents.ts'
import { checkStorageRoot, markStorageRoot } from './storageRoot.ts'
import {
  expireTaskLeases,
  isTaskLeased,
  releaseTaskLease,
  renewTaskLeases,
  takeExpiredTaskLeases,
  takeTaskLease,
} from './taskLeases.ts'

/*
 * The pieces of the remote-worker queue (issue 18) on their own: the setting, the event relay,
 * and on PostgreSQL the claim with its lease, renewals, expiry and what the server does with a
 * job whose worker is gone. tests/integration/distributed.test.ts runs it all as processes.
 */

function recordingEvents() {
  const calls: [string, unknown[]][] = []
  const record =
    (name: string) =>
    (...args: unknown[]) => {
      calls.push([name, args])
    }
  const events: JobEvents = {
    simulationChanged: record('simulationChanged'),
    runLog: record('runLog'),
    outputWritten: record('outputWritten'),
    discretizationChanged: record('discretizationChanged'),
    workloadStarted: record('workloadStarted'),
    workloadInitialized: record('workloadInitialized'),
    workloadEnded: record('workloadEnded'),
    creditsConsumed: record('creditsConsumed'),
  }
  return { events, calls }
}

describe('DIVE_JOB_WORKERS', () => {
  it('defaults to the server running jobs, and refuses remote workers without PostgreSQL', () => {
    expect(readServerConfig({}).jobWorkers).toBe('server')
    expect(
      readServerConfig({ DIVE_JOB_WORKERS: 'remote', DATABASE_URL: 'postgres://db/dive' })
        .jobWorkers,
    ).toBe('remote')
    expect(() => readServerConfig({ DIVE_JOB_WORKERS: 'remote' })).toThrow(/PostgreSQL/)
    expect(() => readServerConfig({ DIVE_JOB_WORKERS: 'elsewhere' })).toThrow(/server' or 'remote/)
  })
})

describe('live events of remote workers', () => {
  it('replays a notified event on the hub with its arguments, and ignores anything else', () => {
    const { events, calls } = recordingEvents()
    replayLiveEvent(events, { event: 'outputWritten', args: [7, 3, 2] })
    replayLiveEvent(events, { event: 'creditsConsumed', args: [1, 9, 0.5, 99.5] })
    replayLiveEvent(events, { event: 'constructor', args: [] })
    replayLiveEvent(events, { event: 'runLog' })
    replayLiveEvent(events, 'simulationChanged')
    replayLiveEvent(events, null)
    expect(calls).toEqual([
      ['outputWritten', [7, 3, 2]],
      ['creditsConsumed', [1, 9, 0.5, 99.5]],
    ])
  })
})

describe.skipIf(isDialectUnavailable('postgres'))('job leases [postgres]', () => {
  let database: TestDatabase
  let dataDir: string
  let simulationId: number
  const clock = createClock()

  beforeAll(async () => {
    database = await createTestDatabase('postgres')
    await migrateToLatest(database.handle)
    await seedDatabase(database.handle.db, clock)
    dataDir = mkdtempSync(join(tmpdir(), 'dive-queue-test-'))
    simulationId = (
      await database.handle.db.selectFrom('simulations').select('id').executeTakeFirstOrThrow()
    ).id
  })
  afterAll(async () => {
    await database?.drop()
    if (dataDir) rmSync(dataDir, { recursive: true, force: true })
  })

  /** A run and its simulation job, 'scheduled' or already 'running'. */
  async function createRun(state: 'scheduled' | 'running') {
    const db = database.handle.db
    const nowIso = clock.nowIso()
    const run = await db
      .insertInto('runs')
      .values({
        simulation_id: simulationId,
        state: state === 'running' ? 'running' : 'launching',
        cores: 1,
        solver_id: 1,
        created_at: nowIso,
        updated_at: nowIso,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await db
      .updateTable('simulations')
      .set({ state: state === 'running' ? 'running' : 'launching', active_run_id: run.id })
      .where('id', '=', simulationId)
      .execute()
    return db
      .insertInto('jobs')
      .values({
        simulation_id: simulationId,
        kind: 'simulation',
        state,
        run_id: run.id,
        payload: JSON.stringify({ cores: 1, solverId: 1 }),
        created_at: nowIso,
        updated_at: nowIso,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
  }

  function serverRunner(remote: RemoteJobs) {
    const unused = () => Promise.reject(new Error('the server runs no job itself here'))
    return new JobRunner({
      db: database.handle.db,
      clock,
      dataDir,
      executors: { simulation: unused, discretization: unused },
      loadSetup: unused,
      events: recordingEvents().events,
      remote,
    })
  }

  it('gives a job to exactly one of two workers claiming it at once, with its lease', async () => {
    const db = database.handle.db
    const job = await createRun('scheduled')
    const claims = await Promise.all(
      ['worker-a', 'worker-b'].map((workerId) =>
        claimJob(db, clock, job, { workerId, ttlMs: 60_000 }),
      ),
    )
    expect(claims.filter(Boolean)).toHaveLength(1)
    const winner = claims[0] ? 'worker-a' : 'worker-b'
    const lease = await db
      .selectFrom('job_leases')
      .selectAll()
      .where('job_id', '=', job.id)
      .executeTakeFirstOrThrow()
    expect(lease.worker_id).toBe(winner)
    expect(lease.expires_ms - lease.heartbeat_ms).toBe(60_000)
    // the heartbeat renews the winner's lease only
    expect(await renewLeases(db, winner, 60_000, [job.id])).toEqual([job.id])
    expect(
      await renewLeases(db, winner === 'worker-a' ? 'worker-b' : 'worker-a', 60_000, [job.id]),
    ).toEqual([])
    // only the jobs it names: one it no longer runs is left to expire
    expect(await renewLeases(db, winner, 60_000, [])).toEqual([])
    const row = await db
      .selectFrom('jobs')
      .select(['state', 'attempts'])
      .where('id', '=', job.id)
      .executeTakeFirstOrThrow()
    expect(row).toEqual({ state: 'running', attempts: 1 })
  })

  it('takes an expired lease once, and queues its job again from the start when it has no checkpoint', async () => {
    const db = database.handle.db
    const job = await createRun('scheduled')
    expect(await claimJob(db, clock, job, { workerId: 'dead', ttlMs: 60_000 })).toBe(true)
    // still alive: nothing to take; its worker stops renewing, then it expires
    expect(await takeExpiredLeases(db)).not.toContain(job.id)
    await db.updateTable('job_leases').set({ expires_ms: 0 }).where('job_id', '=', job.id).execute()
    // the dead worker can no longer renew it
    expect(await renewLeases(db, 'dead', 60_000, [job.id])).toEqual([])
    const [first, second] = await Promise.all([takeExpiredLeases(db), takeExpiredLeases(db)])
    expect([...first, ...second].filter((id) => id === job.id)).toHaveLength(1)

    const dispatched: [number, string][] = []
    const runner = serverRunner({
      dispatch: (jobId, kind) => {
        dispatched.push([jobId, kind])
        return Promise.resolve()
      },
      abort: () => Promise.resolve(),
      isLeased: () => Promise.resolve(false),
    })
    await runner.recoverAbandoned(job.id)
    await runner.close()
    const row = await db
      .selectFrom('jobs')
      .select(['state', 'payload'])
      .where('id', '=', job.id)
      .executeTakeFirstOrThrow()
    expect(row.state).toBe('scheduled')
    expect(JSON.parse(row.payload)).toMatchObject({ cores: 1 })
    expect(JSON.parse(row.payload).resumeFromOutput ?? null).toBeNull()
    expect(dispatched).toEqual([[job.id, 'simulation']])
    const simulation = await db
      .selectFrom('simulations')
      .select('state')
      .where('id', '=', simulationId)
      .executeTakeFirstOrThrow()
    expect(simulation.state).toBe('launching')
  })

  it('leaves a job whose worker holds its lease to that worker: a stop is sent to it, the rows stay', async () => {
    const db = database.handle.db
    const job = await createRun('scheduled')
    expect(await claimJob(db, clock, job, { workerId: 'alive', ttlMs: 60_000 })).toBe(true)
    const aborted: number[] = []
    const dispatched: number[] = []
    const runner = serverRunner({
      dispatch: (jobId) => {
        dispatched.push(jobId)
        return Promise.resolve()
      },
      abort: (jobId) => {
        aborted.push(jobId)
        return Promise.resolve()
      },
      isLeased: (jobId) => Promise.resolve(jobId === job.id),
    })
    // a server start recovers nothing its worker still runs
    await runner.start()
    await runner.stopSimulation(simulationId)
    await runner.close()
    expect(aborted).toEqual([job.id])
    // the scheduled job of the test before is queued again; the running one is not
    expect(dispatched).not.toContain(job.id)
    const row = await db
      .selectFrom('jobs')
      .select('state')
      .where('id', '=', job.id)
      .executeTakeFirstOrThrow()
    expect(row.state).toBe('running')
  })

  it('lets a worker start only on the storage root the server marked for this database', async () => {
    const db = database.handle.db
    const elsewhere = mkdtempSync(join(tmpdir(), 'dive-queue-unshared-'))
    try {
      await markStorageRoot(dataDir, db, clock.nowIso())
      await expect(checkStorageRoot(dataDir, db)).resolves.toBeUndefined()
      await expect(checkStorageRoot(elsewhere, db)).rejects.toThrow(/not the server's storage root/)
    } finally {
      rmSync(elsewhere, { recursive: true, force: true })
    }
  })

  it('a task lease: one holder at a time, renewed by its worker, taken once expired by a reaper of its kind', async () => {
    const db = database.handle.db
    const nowIso = clock.nowIso()
    const lease = (workerId: string, ttlMs: number) =>
      db
        .transaction()
        .execute((trx) =>
          takeTaskLease(
            trx,
            { kind: 'export', id: '41', data: { runId: 7 }, workerId, ttlMs },
            nowIso,
          ),
        )
    expect(await lease('w1', 60_000)).toBe(true)
    expect(await lease('w2', 60_000)).toBe(false)
    expect(await renewTaskLeases(db, 'w1', 60_000, ['export:41'])).toEqual(['export:41'])
    expect(await renewTaskLeases(db, 'w2', 60_000, ['export:41'])).toEqual([])
    expect(await renewTaskLeases(db, 'w1', 60_000, ['export:42'])).toEqual([])
    expect(await isTaskLeased(db, 'export:41')).toBe(true)
    await expireTaskLeases(db, 'w1')
    expect(await isTaskLeased(db, 'export:41')).toBe(false)
    // a reaper without an export runner leaves it; one with takes it, with what it was queued with
    expect(await takeExpiredTaskLeases(db, ['compression'])).toEqual([])
    expect(await takeExpiredTaskLeases(db, ['export'])).toEqual([
      { kind: 'export', id: '41', data: { runId: 7 } },
    ])
    expect(await takeExpiredTaskLeases(db, ['export'])).toEqual([])
    // an expired lease does not block the next claim
    expect(await lease('w2', 1)).toBe(true)
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(await lease('w3', 60_000)).toBe(true)
    await releaseTaskLease(db, 'export:41', 'w3')
    expect(await isTaskLeased(db, 'export:41')).toBe(false)
  })
})
