/**
 * Jobs past one machine (issue 18): PostgreSQL, the server with DIVE_JOB_WORKERS=remote and two
 * `npm run worker` processes, all real processes on a shared storage root. Two small simulations
 * run at once on different workers; the worker of the second is killed with SIGKILL after a
 * checkpoint. Its lease expires, the job is queued again and the other worker resumes it from
 * that checkpoint. Both runs complete; the resumed run's outputs are byte for byte those of the
 * uninterrupted one (same setup), credits add up, and the live channel told it all.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { tableFromIPC, type Table } from 'apache-arrow'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { outputDirectory } from '../../domain/output/layout.ts'
import {
  DEMO_PASSWORD,
  DEMO_PROJECT_NAME,
  DEMO_SIMULATION_NAME,
  DEMO_USERS,
} from '../../server/db/demoAccounts.ts'
import { LIVE_PATH } from '../../server/live/liveChannel.ts'
import {
  createTestDatabase,
  isDialectUnavailable,
  type Json,
  type TestDatabase,
} from './harness.ts'
import { REPO, sleep, startProcess, stopProcess, type Proc } from './processes.ts'

const solverPresent = existsSync(join(REPO, 'solver/run/index.ts'))
/** Outputs 0 … 6: 30 ms of simulated time, one every 5 ms. */
const LAST_OUTPUT = 6

/**
 * A clone's parts have new ids, and object files are named by part id (wall-4.fast.arrow): each id
 * becomes its rank among the output's ids, so the same part has the same name in both.
 */
function byPartRank(files: Map<string, Buffer>): Map<string, Buffer> {
  const ids = [...new Set([...files.keys()].flatMap((name) => /-(\d+)\./.exec(name)?.[1] ?? []))]
  ids.sort((a, b) => Number(a) - Number(b))
  return new Map(
    [...files].map(([name, bytes]) => [
      name.replace(/-(\d+)\./, (_all, id: string) => `-#${ids.indexOf(id)}.`),
      bytes,
    ]),
  )
}

/** A column's values as bytes (bit for bit, whatever the type). */
function columnBytes(table: Table, column: string): Buffer {
  const values = table.getChild(column)?.toArray() as ArrayBufferView
  return Buffer.from(values.buffer, values.byteOffset, values.byteLength)
}

/** Every file under a directory, relative path → bytes. */
function readTree(dir: string, prefix = ''): Map<string, Buffer> {
  const files = new Map<string, Buffer>()
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory())
      for (const [name, bytes] of readTree(path, `${prefix}${entry.name}/`)) files.set(name, bytes)
    else files.set(`${prefix}${entry.name}`, readFileSync(path))
  }
  return files
}

describe.skipIf(isDialectUnavailable('postgres') || !solverPresent)(
  'jobs on two worker processes through pg-boss [postgres]',
  () => {
    let database: TestDatabase
    let dataDir: string
    let server: Proc | undefined
    const workers: Proc[] = []
    const workerIds: string[] = []
    let baseUrl = ''

    beforeAll(async () => {
      database = await createTestDatabase('postgres')
      dataDir = mkdtempSync(join(tmpdir(), 'dive-distributed-'))
      const env = { DATABASE_URL: database.location, DIVE_DATA_DIR: dataDir }
      server = startProcess(
        'server/main.ts',
        [],
        { ...env, PORT: '0', HOST: '127.0.0.1', DIVE_JOB_WORKERS: 'remote' },
        /running at http:\/\/localhost:(\d+)/,
      )
      baseUrl = `http://127.0.0.1:${(await server.match)[1]}`
      for (let k = 0; k < 2; k++) {
        const worker = startProcess(
          'server/worker.ts',
          ['--cores', '1', '--concurrency', '1', '--heartbeat-ms', '400', '--poll-ms', '500'],
          env,
          /Dive worker (\S+) is taking jobs/,
        )
        workers.push(worker)
        workerIds.push((await worker.match)[1]!)
      }
    }, 90_000)

    afterAll(async () => {
      await Promise.all([...workers.map(stopProcess), stopProcess(server)])
      await database?.drop()
      if (dataDir) rmSync(dataDir, { recursive: true, force: true })
    })

    async function api(
      method: string,
      path: string,
      token?: string,
      body?: unknown,
    ): Promise<Json> {
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      const text = await response.text()
      if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`)
      return text === '' ? null : JSON.parse(text)
    }

    it('runs two simulations at once on different workers, survives kill -9 of one, outputs and credits intact', async () => {
      const db = database.handle.db
      const login = await api('POST', '/api/auth/login', undefined, {
        email: DEMO_USERS.manager.email,
        password: DEMO_PASSWORD,
      })
      const token = login.accessToken as string
      const projects = await api('GET', '/api/projects?pageLimit=30', token)
      const project = (projects.results as Json[]).find((p) => p.name === DEMO_PROJECT_NAME)
      const demo = (project.simulations as Json[]).find((s) => s.name === DEMO_SIMULATION_NAME)
      // the seeded dam break, coarse and short: 2 cm particles, outputs every 5 ms to 30 ms
      await api('PUT', `/api/simulations/${demo.id}`, token, {
        settings: { particleDiameter: 0.02, endTime: 0.03, outputTimeInterval: 0.005 },
      })
      const copy = await api('POST', `/api/simulations/${demo.id}`, token, {})
      const [first, second] = [demo.id as number, copy.id as number]
      const organizationId = (
        await db
          .selectFrom('simulations')
          .select('organization_id')
          .where('id', '=', first)
          .executeTakeFirstOrThrow()
      ).organization_id
      const creditsBefore = (
        await db
          .selectFrom('organizations')
          .select('credits')
          .where('id', '=', organizationId)
          .executeTakeFirstOrThrow()
      ).credits

      // the live channel of the server, following the second simulation
      const live = new WebSocket(`${baseUrl.replace('http', 'ws')}${LIVE_PATH}?token=${token}`)
      const frames: Json[] = []
      live.on('message', (data: Buffer) => frames.push(JSON.parse(data.toString('utf8'))))
      await new Promise((resolve, reject) => live.once('open', resolve).once('error', reject))
      live.send(JSON.stringify({ type: 'Subscribe', simulationId: second }))

      for (const id of [first, second])
        await api('POST', `/api/simulations/${id}/jobs`, token, { cores: 1, solver_id: 1 })
      const leaseOf = async (simulationId: number) =>
        db
          .selectFrom('job_leases')
          .innerJoin('jobs', 'jobs.id', 'job_leases.job_id')
          .select(['job_leases.worker_id', 'jobs.id as job_id'])
          .where('jobs.simulation_id', '=', simulationId)
          .where('jobs.kind', '=', 'simulation')
          .executeTakeFirst()
      const until = (ms: number) => Date.now() + ms
      let deadline = until(60_000)
      let leases = [await leaseOf(first), await leaseOf(second)]
      while (leases.some((lease) => !lease) && Date.now() < deadline) {
        await sleep(100)
        leases = [await leaseOf(first), await leaseOf(second)]
      }
      // both run at once, each on its own worker
      expect(leases.every(Boolean), workers.map((w) => w.output.join('')).join('\n')).toBe(true)
      expect(leases[0]!.worker_id).not.toBe(leases[1]!.worker_id)
      const victim = workers[workerIds.indexOf(leases[1]!.worker_id)]!
      const survivorId = leases[0]!.worker_id

      // the second run writes checkpoints (outputs 1, 2) on its worker; then that worker is killed
      const runOf = async (simulationId: number) =>
        db
          .selectFrom('runs')
          .selectAll()
          .where('simulation_id', '=', simulationId)
          .orderBy('id', 'desc')
          .executeTakeFirstOrThrow()
      deadline = until(60_000)
      while (((await runOf(second)).last_output ?? -1) < 2 && Date.now() < deadline) await sleep(50)
      const killedAt = (await runOf(second)).last_output
      const logs = () =>
        [server!, ...workers].map((p) => p.output.join('').slice(-3000)).join('\n----\n')
      expect(killedAt, `${JSON.stringify(await runOf(second))}\n${logs()}`).toBeGreaterThanOrEqual(
        2,
      )
      victim.child.kill('SIGKILL')

      // the live channel told the remote run's log lines and outputs as the server's own
      expect(
        frames.some(
          (f) =>
            f.type === 'StoreUpdate' &&
            (f.path as string[]).join('/') === `simulations/${second}/logs`,
        ),
      ).toBe(true)
      expect(frames.some((f) => f.type === 'NewWorkload' && f.simulationId === second)).toBe(true)

      // the lease expires (4 missed heartbeats), the other worker resumes from the checkpoint
      deadline = until(100_000)
      let states: string[] = []
      for (;;) {
        states = await Promise.all(
          [first, second].map(
            async (id) => (await api('GET', `/api/simulations/${id}`, token)).state as string,
          ),
        )
        if (
          states.every((s) => ['completed', 'failed', 'stopped'].includes(s)) ||
          Date.now() > deadline
        )
          break
        await sleep(250)
      }
      expect(states, workers.map((w) => w.output.join('')).join('\n')).toEqual([
        'completed',
        'completed',
      ])
      const [run1, run2] = [await runOf(first), await runOf(second)]
      const jobOf = (id: number) =>
        db
          .selectFrom('jobs')
          .selectAll()
          .where('simulation_id', '=', id)
          .where('kind', '=', 'simulation')
          .executeTakeFirstOrThrow()
      const [job1, job2] = [await jobOf(first), await jobOf(second)]
      expect(job1.attempts).toBe(1)
      // claimed twice: by the killed worker, then by the survivor (never both at once: one lease)
      expect(job2.attempts).toBe(2)
      expect(run2.resumed_from_output).not.toBeNull()
      expect(run2.resumed_from_output!).toBeGreaterThanOrEqual(1)
      expect(run2.resumed_from_output!).toBeLessThanOrEqual(killedAt!)
      expect(await leaseOf(second)).toBeUndefined()
      void survivorId

      // outputs identical to the uninterrupted run: every column of every object, bit for bit
      // (the files' own metadata name their simulation and run, which differ)
      expect(run1.last_output).toBe(LAST_OUTPUT)
      expect(run2.last_output).toBe(LAST_OUTPUT)
      for (let outputNo = 0; outputNo <= LAST_OUTPUT; outputNo++) {
        const a = byPartRank(readTree(join(dataDir, outputDirectory(first, run1.id, outputNo))))
        const b = byPartRank(readTree(join(dataDir, outputDirectory(second, run2.id, outputNo))))
        expect([...b.keys()].sort()).toEqual([...a.keys()].sort())
        for (const [name, bytes] of a) {
          if (name.endsWith('.json')) continue
          const [tableA, tableB] = [
            tableFromIPC(bytes),
            tableFromIPC(b.get(name) ?? Buffer.alloc(0)),
          ]
          expect(tableB.numRows).toBe(tableA.numRows)
          expect(tableB.schema.names).toEqual(tableA.schema.names)
          for (const column of tableA.schema.names.map(String)) {
            const same = Buffer.compare(columnBytes(tableA, column), columnBytes(tableB, column))
            expect(same, `output ${outputNo} ${name} column ${column}`).toBe(0)
          }
        }
      }

      // credits billed once: the organization paid exactly what the runs consumed, one
      // transaction per run holds it, and each simulation's total is its run's
      const creditsAfter = (
        await db
          .selectFrom('organizations')
          .select('credits')
          .where('id', '=', organizationId)
          .executeTakeFirstOrThrow()
      ).credits
      const transactions = await db
        .selectFrom('credit_transactions')
        .selectAll()
        .where('kind', '=', 'simulation')
        .where('simulation_id', 'in', [first, second])
        .execute()
      expect(transactions).toHaveLength(2)
      expect(run1.credits_consumed).toBeGreaterThan(0)
      expect(run2.credits_consumed).toBeGreaterThan(0)
      const consumed = run1.credits_consumed + run2.credits_consumed
      expect(creditsBefore - creditsAfter).toBeCloseTo(consumed, 9)
      expect(-transactions.reduce((sum, t) => sum + t.credits, 0)).toBeCloseTo(consumed, 9)
      for (const [run, id] of [
        [run1, first],
        [run2, second],
      ] as const) {
        const simulation = await db
          .selectFrom('simulations')
          .select('credits_consumed')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
        expect(simulation.credits_consumed).toBeCloseTo(run.credits_consumed, 9)
        expect(transactions.find((t) => t.simulation_id === id)?.id).toBe(run.credit_transaction_id)
      }
      live.close()
    }, 200_000)
  },
)
