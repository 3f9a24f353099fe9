/**
 * Every other job kind past one machine (issue 18): PostgreSQL, the server with
 * DIVE_JOB_WORKERS=remote and two `npm run worker` processes on a shared storage root, over a run
 * written into that root (scripts/writeSyntheticRun.ts, the solver's writer). A download archive,
 * an export, a statistics range, a sensor recomputation, a STEP tree read and a tessellation each
 * run on a worker, and what they give is what the same runner gives in this process; a worker
 * killed with SIGKILL mid-export: its lease expires, another worker runs the export again and it
 * completes once; a cancel reaches the worker that runs an export. (distributed.test.ts:
 * simulations.)
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { sql } from 'kysely'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { defaultExportRequest, type ExportRequest } from '../../domain/results.ts'
import type { StatsCalcRequest } from '../../domain/resultsProtocol.ts'
import {
  ResultsSession,
  type ResultsSocketLike,
  type StatsCalcFrame,
} from '../../engine/results/ResultsSession.ts'
import { writeSyntheticRun } from '../../scripts/writeSyntheticRun.ts'
import { loadSimulation } from '../../server/api/views.ts'
import { createThreadCadExecutor } from '../../server/assemblies/cadThread.ts'
import { CUBE_MM_FIXTURE, readStepFixture } from '../../server/assemblies/testServer.ts'
import { createClock } from '../../server/clock.ts'
import { listArchiveEntries } from '../../server/compression/archiveSources.ts'
import { CompressionRunner } from '../../server/compression/CompressionRunner.ts'
import { DEMO_PASSWORD, DEMO_USERS } from '../../server/db/demoAccounts.ts'
import { ExportRunner } from '../../server/exports/ExportRunner.ts'
import { listOutputManifests } from '../../server/results/outputFiles.ts'
import { runStatisticsCalc } from '../../server/results/statistics/statisticsCalc.ts'
import { runSensorsDirectory } from '../../server/sensors/layout.ts'
import { SensorRecomputationRunner } from '../../server/sensors/SensorRecomputationRunner.ts'
import { resolveStoredPath } from '../../server/storage/files.ts'
import {
  createTestDatabase,
  isDialectUnavailable,
  type Json,
  type TestDatabase,
} from './harness.ts'
import { killProcess, sleep, startProcess, stopProcess, type Proc } from './processes.ts'

const RUN_ID = 3
const OUTPUTS = 6
/** Enough particles that an export lasts long enough to be caught mid-way (about 40 MB). */
const PARTICLES = 60_000

/** A tar with its headers' mtime and checksum blanked: the same entries give the same bytes. */
function tarEntries(gzipped: Buffer): Map<string, Buffer> {
  const tar = gunzipSync(gzipped)
  const entries = new Map<string, Buffer>()
  let pendingName: string | null = null
  for (let offset = 0; offset + 512 <= tar.length;) {
    const header = tar.subarray(offset, offset + 512)
    if (header.every((byte) => byte === 0)) break
    const size = parseInt(header.subarray(124, 136).toString('latin1').replace(/\0.*$/, ''), 8)
    const type = String.fromCharCode(header[156] ?? 0)
    const body = tar.subarray(offset + 512, offset + 512 + size)
    if (type === 'x') pendingName = /\d+ path=(.*)\n/.exec(body.toString('utf8'))?.[1] ?? null
    else {
      const name = pendingName ?? header.subarray(0, 100).toString('utf8').replace(/\0.*$/, '')
      entries.set(name, Buffer.from(body))
      pendingName = null
    }
    offset += 512 + Math.ceil(size / 512) * 512
  }
  return entries
}

describe.skipIf(isDialectUnavailable('postgres'))(
  'every other job kind on worker processes through pg-boss [postgres]',
  () => {
    let database: TestDatabase
    let dataDir: string
    let server: Proc | undefined
    const workers: Proc[] = []
    /**
     * Each worker by the id it printed. Not an array beside `workers`: two started at once
     * print their ids in either order, and a parallel list paired the ids with the wrong processes.
     */
    const workerById = new Map<string, Proc>()
    let baseUrl = ''
    let env: Record<string, string> = {}
    let token = ''
    let simulationId = 0
    const clock = createClock()

    async function startWorker(): Promise<void> {
      const worker = startProcess(
        'server/worker.ts',
        ['--cores', '1', '--concurrency', '1', '--heartbeat-ms', '400', '--poll-ms', '500'],
        env,
        /Dive worker (\S+) is taking jobs/,
      )
      workers.push(worker)
      workerById.set((await worker.match)[1]!, worker)
    }

    const logs = () =>
      [server!, ...workers].map((p) => p.output.join('').slice(-3000)).join('\n----\n')

    async function api(method: string, path: string, body?: unknown): Promise<Json> {
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

    async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms = 60_000) {
      const end = Date.now() + ms
      let value = await read()
      while (!done(value) && Date.now() < end) {
        await sleep(50)
        value = await read()
      }
      return value
    }

    const simulationRow = () =>
      database.handle.db
        .selectFrom('simulations')
        .selectAll()
        .where('id', '=', simulationId)
        .executeTakeFirstOrThrow()

    /** An export's listed files, name → bytes (the zip row has no file: it is zipped on download). */
    async function exportFiles(exportId: number): Promise<Map<string, Buffer>> {
      const db = database.handle.db
      const { directory } = await db
        .selectFrom('user_exports')
        .select('directory')
        .where('id', '=', exportId)
        .executeTakeFirstOrThrow()
      const rows = await db
        .selectFrom('user_export_files')
        .select(['filename', 'path'])
        .where('export_id', '=', exportId)
        .execute()
      const files = new Map<string, Buffer>()
      for (const row of rows) {
        expect(files.has(row.filename), `${row.filename} listed twice`).toBe(false)
        files.set(
          row.filename,
          row.path === '' ? Buffer.alloc(0) : readFileSync(join(dataDir, directory, row.path)),
        )
      }
      return files
    }

    const readExportRecord = async (): Promise<Json> =>
      (await api('GET', `/api/simulations/${simulationId}/user_exports`)).export

    const exportRequest = (): ExportRequest => ({
      ...defaultExportRequest(simulationId, OUTPUTS - 1),
      allObjects: true,
      attributes: ['velocity', 'pressure'],
      outputMode: 'range',
      outputsRange: [0, OUTPUTS - 1],
      stepSize: 1,
      logs: false,
      setup: true,
    })

    beforeAll(async () => {
      database = await createTestDatabase('postgres')
      dataDir = mkdtempSync(join(tmpdir(), 'dive-distributed-tasks-'))
      env = { DATABASE_URL: database.location, DIVE_DATA_DIR: dataDir }
      server = startProcess(
        'server/main.ts',
        [],
        { ...env, PORT: '0', HOST: '127.0.0.1', DIVE_JOB_WORKERS: 'remote' },
        /running at http:\/\/localhost:(\d+)/,
      )
      baseUrl = `http://127.0.0.1:${(await server.match)[1]}`
      await Promise.all([startWorker(), startWorker()])
      token = (
        await api('POST', '/api/auth/login', {
          email: DEMO_USERS.manager.email,
          password: DEMO_PASSWORD,
        })
      ).accessToken as string
      const projects = await api('GET', '/api/projects?pageLimit=30')
      const created = await api('POST', `/api/projects/${projects.results[0].id}/simulations`, {
        name: 'Queued results',
      })
      simulationId = created.id as number
      await writeSyntheticRun({
        dataDir,
        simulationId,
        runId: RUN_ID,
        outputCount: OUTPUTS,
        particles: PARTICLES,
      })
      await database.handle.db
        .updateTable('simulations')
        .set({ state: 'completed', active_run_id: RUN_ID })
        .where('id', '=', simulationId)
        .execute()
    }, 120_000)

    afterAll(async () => {
      await Promise.all([...workers.map(stopProcess), stopProcess(server)])
      await database?.drop()
      if (dataDir) rmSync(dataDir, { recursive: true, force: true })
    })

    it('makes the download archive on a worker, with the entries of the in-process one', async () => {
      const db = database.handle.db
      const simulation = await simulationRow()
      const manager = await db
        .selectFrom('users')
        .select('id')
        .where('email', '=', DEMO_USERS.manager.email)
        .executeTakeFirstOrThrow()
      // in this process (no queue on this database handle): the embedded default
      const local = new CompressionRunner({ db, clock, dataDir })
      const entries = await listArchiveEntries(
        dataDir,
        simulation,
        await loadSimulation(db, simulation),
      )
      await local.start(simulation, manager.id, entries)
      const localRow = await until(
        () => local.findRow(simulationId),
        (row) => row?.state === 'completed' || row?.state === 'failed',
      )
      expect(localRow?.state).toBe('completed')
      const expected = tarEntries(readFileSync(join(dataDir, localRow!.path)))
      await local.delete(simulationId)

      await api('POST', `/api/simulations/${simulationId}/compression`)
      const remote = await until(
        async (): Promise<Json> =>
          (await api('GET', `/api/simulations/${simulationId}/compression`)).compression,
        (c: Json) => c.state === 'completed' || c.state === 'failed',
      )
      expect(remote.state, logs()).toBe('completed')
      // it went through the queue to a worker
      const queued = await sql<{
        n: string
      }>`select count(*) as n from pgboss.job where name = 'dive-compression'`.execute(db)
      expect(Number(queued.rows[0]?.n)).toBeGreaterThanOrEqual(1)
      const row = await local.findRow(simulationId)
      const actual = tarEntries(readFileSync(join(dataDir, row!.path)))
      expect([...actual.keys()].sort()).toEqual([...expected.keys()].sort())
      for (const [name, bytes] of expected) {
        // the simulation's record carries its size of the moment; the rest is bit for bit
        if (name === 'simulation.json') {
          const [a, b] = [JSON.parse(bytes.toString()), JSON.parse(actual.get(name)!.toString())]
          expect([b.id, b.name]).toEqual([a.id, a.name])
          continue
        }
        expect(Buffer.compare(actual.get(name)!, bytes), name).toBe(0)
      }
      expect(await db.selectFrom('task_leases').selectAll().execute()).toEqual([])
    }, 120_000)

    let inProcessExport: Map<string, Buffer> | null = null

    /** The files the in-process export writes (once; a test run alone with -t makes them too). */
    async function readInProcessExport(): Promise<Map<string, Buffer>> {
      if (inProcessExport) return inProcessExport
      const db = database.handle.db
      const simulation = await simulationRow()
      const local = new ExportRunner({ db, clock, dataDir })
      const manifests = await listOutputManifests(dataDir, simulationId, RUN_ID)
      const started = await local.startExport(simulation, RUN_ID, manifests, exportRequest())
      await local.waitForExport(started.id)
      expect((await local.readExport(simulationId))?.state).toBe('completed')
      inProcessExport = await exportFiles(started.id)
      expect(inProcessExport.size).toBeGreaterThan(OUTPUTS)
      return inProcessExport
    }

    it('exports on a worker the files of the in-process export', async () => {
      const expectedExport = await readInProcessExport()

      const remote = await api(
        'POST',
        `/api/simulations/${simulationId}/user_exports`,
        exportRequest(),
      )
      const ended = await until(
        readExportRecord,
        (e: Json) => !['scheduled', 'running'].includes(e.state as string),
      )
      expect(ended.state, logs()).toBe('completed')
      expect(ended.id).toBe(remote.id)
      const files = await exportFiles(remote.id as number)
      expect([...files.keys()].sort()).toEqual([...expectedExport.keys()].sort())
      for (const [name, bytes] of expectedExport)
        expect(Buffer.compare(files.get(name)!, bytes), name).toBe(0)
    }, 180_000)

    // It timed out in full runs at load: a worker starved of CPU beat late, stopped its retry of
    // the export with its lease still valid and renewed that lease ever after (the record stayed
    // 'running'). Late beats now renew, and a stopped task's lease expires (jobWorker.test.ts).
    // It then hung in about half the runs on the test's side: it killed the worker that did not
    // hold the lease (ids were paired with processes by the order they started in), so the export
    // ended unharmed, and the next try waited for ever on the exit of the process killed before.
    it('retries an export whose worker is killed mid-way on the other worker: it completes once', async () => {
      const db = database.handle.db
      const expectedExport = await readInProcessExport()
      let killed: { exportId: number; directory: string } | null = null
      for (let attempt = 0; attempt < 4 && !killed; attempt++) {
        const started = await api(
          'POST',
          `/api/simulations/${simulationId}/user_exports`,
          exportRequest(),
        )
        const exportId = started.id as number
        const lease = await until(
          () =>
            db
              .selectFrom('task_leases')
              .select('worker_id')
              .where('task', '=', `export:${exportId}`)
              .executeTakeFirst(),
          (row) => row !== undefined,
          30_000,
        )
        expect(lease, logs()).toBeDefined()
        const victim = workerById.get(lease!.worker_id)
        expect(victim, `no worker ${lease!.worker_id}\n${logs()}`).toBeDefined()
        // the directory of the attempt that is killed (a retry writes into a new one)
        const before = await db
          .selectFrom('user_exports')
          .select('directory')
          .where('id', '=', exportId)
          .executeTakeFirstOrThrow()
        await killProcess(victim!)
        await startWorker()
        // Caught mid-way when the export ends in another directory (a retry); when it ended in
        // the killed attempt's own, the kill came too late (its commit may land after the kill):
        // again with a new export.
        await until(
          readExportRecord,
          (e: Json) => e.id === exportId && !['scheduled', 'running'].includes(e.state as string),
          90_000,
        )
        const row = await db
          .selectFrom('user_exports')
          .select('directory')
          .where('id', '=', exportId)
          .executeTakeFirstOrThrow()
        if (row.directory !== before.directory) killed = { exportId, directory: before.directory }
      }
      expect(killed, 'no export was caught mid-way in 4 tries').not.toBeNull()
      const ended = await until(
        readExportRecord,
        (e: Json) => !['scheduled', 'running'].includes(e.state as string),
        90_000,
      )
      expect(ended.state, logs()).toBe('completed')
      expect(ended.id).toBe(killed!.exportId)
      // written again in a new directory; the killed attempt's files are gone
      const row = await db
        .selectFrom('user_exports')
        .select('directory')
        .where('id', '=', killed!.exportId)
        .executeTakeFirstOrThrow()
      expect(row.directory).not.toBe(killed!.directory)
      expect(existsSync(join(dataDir, killed!.directory))).toBe(false)
      // every file once, as the in-process export wrote it
      const files = await exportFiles(killed!.exportId)
      expect([...files.keys()].sort()).toEqual([...expectedExport.keys()].sort())
      for (const [name, bytes] of expectedExport)
        expect(Buffer.compare(files.get(name)!, bytes), name).toBe(0)
      expect(await db.selectFrom('task_leases').selectAll().execute()).toEqual([])
    }, 240_000)

    it('cancels an export on the worker that runs it', async () => {
      const db = database.handle.db
      let canceledOnWorker = false
      for (let attempt = 0; attempt < 4 && !canceledOnWorker; attempt++) {
        const started = await api(
          'POST',
          `/api/simulations/${simulationId}/user_exports`,
          exportRequest(),
        )
        const exportId = started.id as number
        const task = `export:${exportId}`
        await until(
          () =>
            db
              .selectFrom('task_leases')
              .select('worker_id')
              .where('task', '=', task)
              .executeTakeFirst(),
          (row) => row !== undefined,
          30_000,
        )
        const { directory } = await db
          .selectFrom('user_exports')
          .select('directory')
          .where('id', '=', exportId)
          .executeTakeFirstOrThrow()
        const reply = await api('DELETE', `/api/simulations/${simulationId}/user_exports`)
        expect(reply.export.state).toBe('canceled')
        canceledOnWorker = workers.some((w) =>
          w.output.join('').includes(`Task ${task}: canceled by the server`),
        )
        if (!canceledOnWorker) continue // it had ended before the cancel: again
        // the worker ended it before the DELETE answered: lease given back, nothing left on disk
        expect(
          await db.selectFrom('task_leases').selectAll().where('task', '=', task).execute(),
        ).toEqual([])
        expect(existsSync(join(dataDir, directory))).toBe(false)
        await sleep(1500)
        const row = await db
          .selectFrom('user_exports')
          .select('state')
          .where('id', '=', exportId)
          .executeTakeFirstOrThrow()
        expect(row.state).toBe('canceled')
        expect(
          await db
            .selectFrom('user_export_files')
            .selectAll()
            .where('export_id', '=', exportId)
            .execute(),
        ).toEqual([])
      }
      expect(canceledOnWorker, logs()).toBe(true)
    }, 180_000)

    it('computes a statistics range on a worker with the values of the in-process calculation', async () => {
      const session = new ResultsSession({
        url: `${baseUrl.replace('http', 'ws')}/ws/results`,
        createSocket: (url) => new WebSocket(url) as unknown as ResultsSocketLike,
        readToken: () => token,
      })
      session.start()
      try {
        const info = await session.fetchInfo(simulationId, [0])
        const fluid = info.infos[0]?.objects.find((o) => o.kind === 'fluid')
        expect(fluid).toBeDefined()
        const request: Omit<StatsCalcRequest, 'type' | 'requestId'> = {
          simId: simulationId,
          outputs: Array.from({ length: OUTPUTS }, (_, k) => k),
          attribute: 'pressure',
          subAttribute: null,
          dataset: 'raw',
          objIds: [fluid!.id],
          masks: [],
          operations: { mean: ['mean'], max: ['max'] },
          mode: 'both',
        }
        const frames: StatsCalcFrame[] = []
        const handle = session.calculateStatistics(request, (frame) => frames.push(frame))
        expect(await handle.done, logs()).toBe('completed')
        const queued = await sql<{
          n: string
        }>`select count(*) as n from pgboss.job where name = 'dive-statistics'`.execute(
          database.handle.db,
        )
        expect(Number(queued.rows[0]?.n)).toBeGreaterThanOrEqual(1)

        const local: unknown[] = []
        const state = await runStatisticsCalc(
          { ...request, type: 'stats.calc', requestId: 1 },
          { dataDir, simulationId, runId: RUN_ID, clips: [], signal: new AbortController().signal },
          (frame) => {
            local.push(frame)
            return Promise.resolve()
          },
        )
        expect(state).toBe('completed')
        const strip = (list: unknown[]) =>
          list.map((frame) => {
            const { requestId: _requestId, ...rest } = frame as { requestId: number }
            return rest
          })
        expect(strip(frames)).toEqual(strip(local))
        expect(frames.filter((f) => f.type === 'stats.calc.output_statistic')).toHaveLength(
          OUTPUTS * 2,
        )
      } finally {
        session.stop()
      }
    }, 120_000)

    it('recomputes a sensor on a worker with the samples of the in-process recomputation', async () => {
      const db = database.handle.db
      await api('PUT', `/api/simulations/${simulationId}`, { settings: { particleDiameter: 0.02 } })
      const sensor = await api('POST', `/api/simulations/${simulationId}/custom_sensors`, {
        name: 'Probe',
        kind: 'point',
        position: [0.1, 0.1, 0.05],
      })
      const samplesDir = join(dataDir, runSensorsDirectory(simulationId, RUN_ID))
      const readSamples = () =>
        new Map(
          readdirSync(join(samplesDir, String(sensor.id)))
            .sort()
            .map((name) => [name, readFileSync(join(samplesDir, String(sensor.id), name))]),
        )
      // in this process first (no queue on this handle)
      const local = new SensorRecomputationRunner({ db, clock, dataDir })
      await local.schedule(simulationId, RUN_ID, [sensor.id as number])
      const localEnd = await until(
        () => local.describe(simulationId),
        (r) => r.state !== 'scheduled' && r.state !== 'running',
      )
      expect(localEnd.state).toBe('done')
      const expected = readSamples()
      expect(expected.size).toBe(OUTPUTS)
      await local.close()

      await api('POST', `/api/simulations/${simulationId}/sensor_outputs/recomputation`)
      const remote = await until(
        async (): Promise<Json> =>
          api('GET', `/api/simulations/${simulationId}/sensor_outputs/recomputation`),
        (r: Json) => r.state !== 'scheduled' && r.state !== 'running',
      )
      expect(remote.state, logs()).toBe('done')
      expect(remote.outputsDone).toBe(OUTPUTS)
      const queued = await sql<{
        n: string
      }>`select count(*) as n from pgboss.job where name = 'dive-sensorRecomputation'`.execute(db)
      expect(Number(queued.rows[0]?.n)).toBeGreaterThanOrEqual(1)
      const actual = readSamples()
      expect([...actual.keys()]).toEqual([...expected.keys()])
      for (const [name, bytes] of expected)
        expect(Buffer.compare(actual.get(name)!, bytes), name).toBe(0)
    }, 120_000)

    it('reads a STEP tree and tessellates a part on workers as the CAD thread does here', async () => {
      const db = database.handle.db
      // a simulation whose setup is still open
      const projects = await api('GET', '/api/projects?pageLimit=30')
      const cad = await api('POST', `/api/projects/${projects.results[0].id}/simulations`, {
        name: 'Queued CAD',
      })
      const cadId = cad.id as number
      const form = new FormData()
      form.append('file', new Blob([readStepFixture(CUBE_MM_FIXTURE)]), 'cube-mm.step')
      const response = await fetch(`${baseUrl}/api/client-upload/simulations/${cadId}/assemblies`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        body: form,
      })
      expect(response.status).toBe(201)
      const assemblyId = ((await response.json()) as Json).id as number
      const read = await until(
        async (): Promise<Json> => api('GET', `/api/assemblies/${assemblyId}`),
        (a: Json) => a.state !== 'scheduled' && a.state !== 'running',
      )
      expect(read.state, logs()).toBe('done')
      // the tree the CAD thread reads in this process
      const stored = await db
        .selectFrom('assemblies')
        .select('stored_path')
        .where('id', '=', assemblyId)
        .executeTakeFirstOrThrow()
      const local = await createThreadCadExecutor().read(
        resolveStoredPath(dataDir, stored.stored_path),
        new AbortController().signal,
      )
      expect(read.assemblyMetadata).toEqual(local.tree)

      const part = await api('POST', `/api/assemblies/${assemblyId}/parts`, {
        name: 'Cube',
        assemblyNodeIds: [(read.assemblyMetadata as Json[])[0].entryId],
      })
      const run = await api('POST', `/api/assemblies/${assemblyId}`, { partIds: [part.id] })
      const ended = await until(
        async (): Promise<Json> =>
          ((await api('GET', `/api/simulations/${cadId}/tessellation_runs`)) as Json[]).find(
            (r: Json) => r.id === run.id,
          ),
        (r: Json) => r.state !== 'scheduled' && r.state !== 'running',
      )
      expect(ended.state, logs()).toBe('done')
      // as the in-process CAD test finds it (server/assemblies/assemblies.test.ts): 12 triangles, 1 m
      const parts = (await api('GET', `/api/simulations/${cadId}/parts`)) as Json[]
      expect(parts.find((p: Json) => p.name === 'Cube')?.shape.info).toMatchObject({
        nbrOfTriangles: 12,
        boundingBox: { min: [0, 0, 0], max: [1, 1, 1] },
      })
      const queued = await sql<{
        name: string
      }>`select distinct name from pgboss.job where name in ('dive-assembly', 'dive-tessellation')`.execute(
        db,
      )
      expect(queued.rows.map((r) => r.name).sort()).toEqual(['dive-assembly', 'dive-tessellation'])
    }, 180_000)
  },
)
