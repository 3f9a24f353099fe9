/**
 * The other task kinds past one machine (issue 18; remoteTaskCluster.ts: PostgreSQL, the server
 * with DIVE_JOB_WORKERS=remote, two workers on a shared storage root, over a run written into that
 * root): a download archive, a statistics range, a sensor recomputation, a STEP tree read and a
 * tessellation each run on a worker, and what they give is what the same runner gives in this
 * process. (distributedExports.test.ts: exports, a killed worker's retry, a cancel;
 * distributed.test.ts: simulations.)
 */
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import type { StatsCalcRequest } from '../../domain/resultsProtocol.ts'
import {
  ResultsSession,
  type ResultsSocketLike,
  type StatsCalcFrame,
} from '../../engine/results/ResultsSession.ts'
import { loadSimulation } from '../../server/api/views.ts'
import { createThreadCadExecutor } from '../../server/assemblies/cadThread.ts'
import { CUBE_MM_FIXTURE, readStepFixture } from '../../server/assemblies/testServer.ts'
import { listArchiveEntries } from '../../server/compression/archiveSources.ts'
import { CompressionRunner } from '../../server/compression/CompressionRunner.ts'
import { DEMO_USERS } from '../../server/db/demoAccounts.ts'
import { runStatisticsCalc } from '../../server/results/statistics/statisticsCalc.ts'
import { runSensorsDirectory } from '../../server/sensors/layout.ts'
import { SensorRecomputationRunner } from '../../server/sensors/SensorRecomputationRunner.ts'
import { resolveStoredPath } from '../../server/storage/files.ts'
import { isDialectUnavailable, type Json } from './harness.ts'
import { OUTPUTS, RUN_ID, useRemoteTaskCluster } from './remoteTaskCluster.ts'

const PARTICLES = 20_000

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
  'every other task kind on worker processes through pg-boss [postgres]',
  () => {
    const cluster = useRemoteTaskCluster(PARTICLES)
    const { api, clock, logs, until } = cluster

    const simulationRow = () =>
      cluster.database.handle.db
        .selectFrom('simulations')
        .selectAll()
        .where('id', '=', cluster.simulationId)
        .executeTakeFirstOrThrow()

    it('makes the download archive on a worker, with the entries of the in-process one', async () => {
      const { database, dataDir, simulationId } = cluster
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

    it('computes a statistics range on a worker with the values of the in-process calculation', async () => {
      const { database, dataDir, baseUrl, token, simulationId } = cluster
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
      const { database, dataDir, simulationId } = cluster
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
      const { database, dataDir, baseUrl, token } = cluster
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
