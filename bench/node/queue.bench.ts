/**
 * The job queue of remote workers (issue 18) on a real PostgreSQL: pg-boss, the jobs rows, the
 * claim with its lease, NOTIFY wake-ups and the job's end written to the rows, with jobs that do
 * no work of their own (discretizations whose executor answers at once), so what is measured is
 * the queue and its bookkeeping. Denominator: one PostgreSQL round trip (`select 1`) of the run.
 */
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { sql } from 'kysely'
import pg from 'pg'
import { createClock } from '../../server/clock.ts'
import { openDatabase, type DatabaseHandle } from '../../server/db/connect.ts'
import { migrateToLatest } from '../../server/db/migrations.ts'
import { seedDatabase } from '../../server/db/seed.ts'
import { JobRunner } from '../../server/jobs/JobRunner.ts'
import { JobWorker } from '../../server/jobs/queue/JobWorker.ts'
import { Notifier } from '../../server/jobs/queue/notify.ts'
import { startBoss } from '../../server/jobs/queue/pgBoss.ts'
import { createRemoteJobs } from '../../server/jobs/queue/remoteJobs.ts'
import type { JobEvents, JobExecutors } from '../../server/jobs/types.ts'
import type { RunSetup } from '../../solver/setup.ts'
import { computeMedian, judgeRatio } from '../lib/measure.ts'
import { BenchSkip, type BenchCase, type BenchContext } from '../lib/types.ts'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

function findBin(name: string): string | undefined {
  for (const dir of (process.env.PATH ?? '').split(':'))
    if (existsSync(join(dir, name))) return join(dir, name)
  const root = '/usr/lib/postgresql'
  if (!existsSync(root)) return undefined
  for (const version of readdirSync(root).sort((a, b) => Number(b) - Number(a)))
    if (existsSync(join(root, version, 'bin', name))) return join(root, version, 'bin', name)
  return undefined
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('port')),
      )
    })
  })
}

/** TEST_DATABASE_URL's server, or a throwaway cluster (initdb as postgres when root). */
async function startPostgres(): Promise<{ adminUrl: string; stop: () => void }> {
  if (process.env.TEST_DATABASE_URL) return { adminUrl: process.env.TEST_DATABASE_URL, stop() {} }
  const initdb = findBin('initdb')
  const pgCtl = findBin('pg_ctl')
  if (!initdb || !pgCtl) throw new BenchSkip('PostgreSQL (initdb, pg_ctl) is not installed')
  const asRoot = process.getuid?.() === 0
  const run = (bin: string, args: string[]) =>
    asRoot
      ? execFileSync('runuser', ['-u', 'postgres', '--', bin, ...args], { stdio: 'pipe' })
      : execFileSync(bin, args, { stdio: 'pipe' })
  const dir = mkdtempSync(join(tmpdir(), 'dive-bench-pg-'))
  chmodSync(dir, 0o777)
  if (asRoot) execFileSync('chown', ['postgres', dir])
  const data = join(dir, 'data')
  const port = await freePort()
  run(initdb, ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--locale=C.UTF-8'])
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`
  run(pgCtl, ['-D', data, '-l', join(dir, 'log'), '-o', options, '-w', 'start'])
  return {
    adminUrl: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      try {
        run(pgCtl, ['-D', data, '-m', 'immediate', '-w', 'stop'])
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    },
  }
}

const SILENT_EVENTS: JobEvents = {
  simulationChanged() {},
  runLog() {},
  outputWritten() {},
  discretizationChanged() {},
  workloadStarted() {},
  workloadInitialized() {},
  workloadEnded() {},
  creditsConsumed() {},
}

async function runQueue(context: BenchContext): Promise<void> {
  const postgres = await startPostgres()
  const name = `dive_bench_${randomBytes(4).toString('hex')}`
  const admin = new pg.Client({ connectionString: postgres.adminUrl })
  await admin.connect()
  await admin.query(`CREATE DATABASE ${name}`)
  const url = new URL(postgres.adminUrl)
  url.pathname = `/${name}`
  const databaseUrl = url.toString()
  const dataDir = mkdtempSync(join(tmpdir(), 'dive-bench-queue-'))
  let handle: DatabaseHandle | undefined
  const closers: (() => Promise<unknown>)[] = []
  try {
    handle = openDatabase({ databaseUrl, sqlitePath: '' })
    const { db } = handle
    await migrateToLatest(handle)
    const clock = createClock()
    await seedDatabase(db, clock)
    const simulation = await db.selectFrom('simulations').select('id').executeTakeFirstOrThrow()

    // when each job's executor is called: the job has been taken, claimed, leased and started
    const startedAt = new Map<number, number>()
    let nextJobId = 0
    const executors: JobExecutors = {
      simulation: () => Promise.reject(new Error('not used')),
      discretization: () => {
        startedAt.set(nextJobId++, performance.now())
        return Promise.resolve({ errors: [], warnings: [], summary: null, pointClouds: [] })
      },
    }
    const loadSetup = () => Promise.resolve({} as RunSetup)
    const workers = Array.from(
      { length: 2 },
      () =>
        new JobWorker({
          db,
          databaseUrl,
          dataDir,
          clock,
          cores: 4,
          kinds: ['discretization'],
          concurrency: 4,
          heartbeatMs: 1000,
          pollMs: 2000,
          executors,
          loadSetup,
        }),
    )
    for (const worker of workers) {
      await worker.start()
      closers.push(() => worker.close())
    }
    // the server's side: jobs are queued through the runner as POST …/discretizations does
    const boss = await startBoss(databaseUrl)
    const notifier = new Notifier(databaseUrl)
    closers.push(
      () => notifier.close(),
      () => boss.stop({ graceful: false, close: true }),
    )
    const runner = new JobRunner({
      db,
      clock,
      dataDir,
      executors,
      loadSetup,
      events: SILENT_EVENTS,
      remote: createRemoteJobs(db, boss, notifier),
    })
    const createJob = async () => {
      const nowIso = clock.nowIso()
      const row = await db
        .insertInto('jobs')
        .values({
          simulation_id: simulation.id,
          kind: 'discretization',
          state: 'scheduled',
          created_at: nowIso,
          updated_at: nowIso,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      runner.enqueue(row.id)
      return row.id
    }
    const ended = async (ids: number[]) => {
      const open = await db
        .selectFrom('jobs')
        .select('id')
        .where('id', 'in', ids)
        .where('state', 'in', ['scheduled', 'running'])
        .execute()
      return open.length === 0
    }

    const roundTrips: number[] = []
    for (let k = 0; k < 50; k++) {
      const t0 = performance.now()
      await sql`select 1`.execute(db)
      roundTrips.push(performance.now() - t0)
    }
    const roundTripMs = computeMedian(roundTrips)
    context.log(`PostgreSQL round trip (select 1): ${roundTripMs.toFixed(2)} ms median`)

    // time from a job's creation to its start on an idle worker
    const latencies: number[] = []
    const samples = context.quick ? 5 : 20
    for (let k = 0; k < samples + 1; k++) {
      const index = nextJobId
      const created = performance.now()
      const id = await createJob()
      while (!(await ended([id]))) await sleep(5)
      if (k > 0) latencies.push((startedAt.get(index) ?? Number.NaN) - created)
      await sleep(300)
    }
    const latencyMs = computeMedian(latencies)
    context.report({
      case: 'node/queue.startLatency',
      value: latencyMs,
      unit: 'ms',
      ...judgeRatio(latencyMs, roundTripMs, null, 'PostgreSQL round trip'),
    })
    context.log(
      `creation → start on an idle worker: median ${latencyMs.toFixed(1)} ms, max ${Math.max(...latencies).toFixed(1)} ms (${samples} jobs)`,
    )

    // jobs per second: a burst through two workers of 4 slots each, until every job has ended
    const count = context.quick ? 40 : 200
    const burstStart = performance.now()
    const ids: number[] = []
    for (let k = 0; k < count; k++) ids.push(await createJob())
    while (!(await ended(ids))) await sleep(10)
    const burstMs = performance.now() - burstStart
    const jobsPerSecond = (count / burstMs) * 1000
    const perRoundTrip = 1000 / roundTripMs
    context.report({
      case: 'node/queue.jobsPerSecond',
      value: jobsPerSecond,
      unit: 'jobs/s',
      ratio: jobsPerSecond / perRoundTrip,
      target: null,
      ok: null,
    })
    context.log(
      `${count} jobs in ${(burstMs / 1000).toFixed(2)} s through 2 workers × 4 slots (ratio: per round trips/s)`,
    )
  } finally {
    for (const close of closers.reverse()) await close().catch(() => undefined)
    await handle?.db.destroy()
    await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => undefined)
    await admin.end()
    postgres.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

export const cases: BenchCase[] = [
  {
    name: 'node/queue',
    description:
      'Jobs through pg-boss with two in-process workers on a throwaway PostgreSQL: creation → start on an idle worker (ms) and jobs/s of a burst, against one PostgreSQL round trip; reports.',
    run: runQueue,
  },
]
