import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import { writeSyntheticRun } from '../../scripts/writeSyntheticRun.ts'
import { createClock } from '../../server/clock.ts'
import { DEMO_PASSWORD, DEMO_USERS } from '../../server/db/demoAccounts.ts'
import { createTestDatabase, type Json, type TestDatabase } from './harness.ts'
import { sleep, startProcess, stopProcess, type Proc } from './processes.ts'

/*
 * The setup of the tests of task kinds on worker processes (issue 18; distributedTasks.test.ts,
 * distributedExports.test.ts): PostgreSQL, the server with DIVE_JOB_WORKERS=remote and two
 * `npm run worker` processes on a shared storage root, and a completed simulation whose run is
 * written into that root (scripts/writeSyntheticRun.ts, the solver's writer).
 */

export const RUN_ID = 3
export const OUTPUTS = 6

/** What the tests of a file use; filled in by its beforeAll. */
export interface RemoteTaskCluster {
  database: TestDatabase
  dataDir: string
  baseUrl: string
  token: string
  /** The completed simulation with the synthetic run. */
  simulationId: number
  server: Proc
  /** Every worker started, killed ones included. */
  workers: Proc[]
  /**
   * Each worker by the id it printed. Not an array beside `workers`: two started at once print
   * their ids in either order, and a parallel list paired the ids with the wrong processes.
   */
  workerById: Map<string, Proc>
  clock: ReturnType<typeof createClock>
  /** Starts one more worker; settles once it takes jobs. */
  startWorker: () => Promise<void>
  /** The last output of the server and of each worker, for failure messages. */
  logs: () => string
  /** A call of the REST API as the demo manager; throws on an error status. */
  api: (method: string, path: string, body?: unknown) => Promise<Json>
  /** Reads until `done` holds or `ms` have passed; returns the last value read. */
  until: <T>(read: () => Promise<T>, done: (value: T) => boolean, ms?: number) => Promise<T>
}

/**
 * Registers the cluster's beforeAll and afterAll in the calling describe; `particles` per output
 * of the synthetic run.
 */
export function useRemoteTaskCluster(particles: number): RemoteTaskCluster {
  let env: Record<string, string> = {}
  const cluster: RemoteTaskCluster = {
    database: undefined as unknown as TestDatabase,
    dataDir: '',
    baseUrl: '',
    token: '',
    simulationId: 0,
    server: undefined as unknown as Proc,
    workers: [],
    workerById: new Map(),
    clock: createClock(),
    async startWorker() {
      const worker = startProcess(
        'server/worker.ts',
        ['--cores', '1', '--concurrency', '1', '--heartbeat-ms', '400', '--poll-ms', '500'],
        env,
        /Dive worker (\S+) is taking jobs/,
      )
      cluster.workers.push(worker)
      cluster.workerById.set((await worker.match)[1]!, worker)
    },
    logs: () =>
      [cluster.server, ...cluster.workers]
        .map((p) => p.output.join('').slice(-3000))
        .join('\n----\n'),
    async api(method, path, body): Promise<Json> {
      const response = await fetch(`${cluster.baseUrl}${path}`, {
        method,
        headers: {
          ...(cluster.token ? { authorization: `Bearer ${cluster.token}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      const text = await response.text()
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`)
      return text === '' ? null : JSON.parse(text)
    },
    async until(read, done, ms = 60_000) {
      const end = Date.now() + ms
      let value = await read()
      while (!done(value) && Date.now() < end) {
        await sleep(50)
        value = await read()
      }
      return value
    },
  }

  beforeAll(async () => {
    cluster.database = await createTestDatabase('postgres')
    cluster.dataDir = mkdtempSync(join(tmpdir(), 'dive-distributed-tasks-'))
    env = { DATABASE_URL: cluster.database.location, DIVE_DATA_DIR: cluster.dataDir }
    cluster.server = startProcess(
      'server/main.ts',
      [],
      { ...env, PORT: '0', HOST: '127.0.0.1', DIVE_JOB_WORKERS: 'remote' },
      /running at http:\/\/localhost:(\d+)/,
    )
    cluster.baseUrl = `http://127.0.0.1:${(await cluster.server.match)[1]}`
    await Promise.all([cluster.startWorker(), cluster.startWorker()])
    cluster.token = (
      await cluster.api('POST', '/api/auth/login', {
        email: DEMO_USERS.manager.email,
        password: DEMO_PASSWORD,
      })
    ).accessToken as string
    const projects = await cluster.api('GET', '/api/projects?pageLimit=30')
    const created = await cluster.api(
      'POST',
      `/api/projects/${projects.results[0].id}/simulations`,
      {
        name: 'Queued results',
      },
    )
    cluster.simulationId = created.id as number
    await writeSyntheticRun({
      dataDir: cluster.dataDir,
      simulationId: cluster.simulationId,
      runId: RUN_ID,
      outputCount: OUTPUTS,
      particles,
    })
    await cluster.database.handle.db
      .updateTable('simulations')
      .set({ state: 'completed', active_run_id: RUN_ID })
      .where('id', '=', cluster.simulationId)
      .execute()
  }, 120_000)

  afterAll(async () => {
    await Promise.all([...cluster.workers.map(stopProcess), stopProcess(cluster.server)])
    await cluster.database?.drop()
    if (cluster.dataDir) rmSync(cluster.dataDir, { recursive: true, force: true })
  })

  return cluster
}
