import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Mesh, Sensor } from '../../domain/meshes.ts'
import { sensorSeriesFile, type SensorSeriesHeader } from '../../domain/output/layout.ts'
import type { Project, Simulation } from '../../domain/projects.ts'
import type { SensorSeries } from '../../domain/sensorSampling.ts'
import { DEMO_USERS, OTHER_ORGANIZATION_USER } from '../db/demoAccounts.ts'
import { loadRunSetup } from '../setup/loadRunSetup.ts'
import {
  describeEachDialect,
  startTestServer,
  type TestServer,
} from '../../tests/integration/harness.ts'
import { thinSeries } from './series.ts'

/*
 * Sensors sampled while the run steps, over HTTP on both dialects: the sample rate of a sensor
 * (set, changed, refused when invalid), the sensors a run is handed, and a run's series read
 * back (GET /custom_sensors/{id}/series), thinned without losing a short peak, with permissions.
 */

/** Writes a series as solver/run/sensorSeries.ts does: a header and Float64 records. */
function writeSeries(
  dataDir: string,
  ids: { simulation: number; run: number; sensor: number },
  sampleRate: SensorSeriesHeader['sampleRate'],
  records: number[][],
) {
  const header: SensorSeriesHeader = {
    version: 1,
    sensorId: ids.sensor,
    kind: 'point',
    sampleRate,
    columns: ['timeS', 'pressure', 'vx', 'vy', 'vz'],
    pointCount: 1,
  }
  const headerPath = join(dataDir, sensorSeriesFile(ids.simulation, ids.run, ids.sensor, 'header'))
  mkdirSync(dirname(headerPath), { recursive: true })
  writeFileSync(headerPath, JSON.stringify(header))
  const values = Float64Array.from(records.flat())
  writeFileSync(
    join(dataDir, sensorSeriesFile(ids.simulation, ids.run, ids.sensor, 'records')),
    new Uint8Array(values.buffer),
  )
}

describe('series thinning', () => {
  it('keeps a three-sample peak among 20,000 samples thinned to 300', () => {
    const pressure = new Float64Array(20_000).map((_, i) => 1000 + Math.sin(i / 500) * 10)
    pressure.set([9000, 12000, 8000], 12_345)
    const kept = thinSeries(pressure, pressure.length, 300)
    expect(kept.length).toBeLessThanOrEqual(301)
    expect(kept).toContain(12_346)
    expect(kept[0]).toBe(0)
    expect(kept.at(-1)).toBe(19_999)
    for (let k = 1; k < kept.length; k++) expect(kept[k]).toBeGreaterThan(kept[k - 1]!)
    expect(thinSeries(pressure, 10, 300)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
  })
})

describeEachDialect('sensors sampled while running', (dialect) => {
  let server: TestServer
  let manager: string
  let other: string
  let simulation: Simulation
  let otherSimulation: Simulation

  const api = (method: string, path: string, body?: unknown, token = manager) =>
    server.request(method, `/api${path}`, { token, ...(body !== undefined && { body }) })
  const insertRun = async (simulationId: number) =>
    (
      await server.database.handle.db
        .insertInto('runs')
        .values({
          simulation_id: simulationId,
          state: 'completed',
          cores: 1,
          solver_id: 1,
          created_at: '2026-11-27T10:00:00.000Z',
          updated_at: '2026-11-27T10:00:00.000Z',
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id

  beforeAll(async () => {
    server = await startTestServer(dialect)
    manager = (await server.login(DEMO_USERS.manager.email)).accessToken
    other = (await server.login(OTHER_ORGANIZATION_USER.email)).accessToken
    const project = (await api('POST', '/projects', { name: 'Impact' })).body as Project
    simulation = (await api('POST', `/projects/${project.id}/simulations`, { name: 'Wall' }))
      .body as Simulation
    otherSimulation = (await api('POST', `/projects/${project.id}/simulations`, { name: 'Other' }))
      .body as Simulation
  })
  afterAll(async () => {
    await server?.close()
  })

  it('keeps a sample rate per sensor, refuses an invalid one, and hands the run its sensors', async () => {
    const path = `/simulations/${simulation.id}/custom_sensors`
    const wall = await api('POST', path, {
      name: 'Wall probe',
      kind: 'point',
      position: [0.8, 0.05, 0.02],
      sampleRate: 'every_step',
    })
    expect(wall.status, wall.text).toBe(201)
    expect(wall.body).toMatchObject({ name: 'Wall probe', sampleRate: 'every_step' })
    const plain = await api('POST', path, { name: 'Plain', kind: 'point', position: [0, 0, 0] })
    expect(plain.body.sampleRate).toBeNull()
    const mesh = (
      await api('POST', `/simulations/${simulation.id}/meshes`, {
        kind: 'rectangle',
        width: 0.1,
        height: 0.1,
      })
    ).body as Mesh
    const plate = await api('POST', path, {
      name: 'Plate',
      kind: 'surface',
      meshId: mesh.id,
      sampleRate: 1000,
    })
    expect(plate.body.sampleRate).toBe(1000)

    for (const [rate, message] of [
      [0, 'Sample rate must be greater than 0.'],
      [-5, 'Sample rate must be greater than 0.'],
      [2e6, 'Sample rate must be at most 1000000.'],
    ] as const) {
      const refused = await api('PUT', `/custom_sensors/${plain.body.id as number}`, {
        sampleRate: rate,
      })
      expect(refused.status).toBe(400)
      expect(refused.body.description).toBe(message)
    }
    expect(
      (await api('PUT', `/custom_sensors/${plain.body.id as number}`, { sampleRate: 'often' }))
        .status,
    ).toBe(400)
    const changed = await api('PUT', `/custom_sensors/${plain.body.id as number}`, {
      sampleRate: 250,
    })
    expect(changed.body.sampleRate).toBe(250)
    const cleared = await api('PUT', `/custom_sensors/${plain.body.id as number}`, {
      sampleRate: null,
    })
    expect(cleared.body.sampleRate).toBeNull()
    const listed = (await api('GET', path)).body as Sensor[]
    expect(listed.map((s) => [s.name, s.sampleRate])).toEqual([
      ['Wall probe', 'every_step'],
      ['Plain', null],
      ['Plate', 1000],
    ])

    // the run is handed the sensors with a rate: a point, and the plate's triangle centroids
    const setup = await loadRunSetup(server.database.handle.db, server.dataDir, simulation.id)
    expect(setup.sensors?.map((s) => [s.id, s.kind, s.sampleRate])).toEqual([
      [wall.body.id, 'point', 'every_step'],
      [plate.body.id, 'surface', 1000],
    ])
    expect(setup.sensors?.[0]?.points).toEqual([0.8, 0.05, 0.02])
    expect(setup.sensors?.[1]?.points.length).toBe(2 * 3)
  })

  it('serves a run’s samples of a sensor, whole or thinned keeping the impact peak', async () => {
    const sensor = (
      await api('POST', `/simulations/${simulation.id}/custom_sensors`, {
        name: 'Impact',
        kind: 'point',
        position: [0.8, 0.05, 0.02],
        sampleRate: 'every_step',
      })
    ).body as Sensor
    const path = `/custom_sensors/${sensor.id}/series`
    // no run yet: nothing sampled
    expect((await api('GET', path)).body).toMatchObject({
      sensorId: sensor.id,
      runId: null,
      sampleRate: null,
      sampleCount: 0,
      timeS: [],
    })
    const runId = await insertRun(simulation.id)
    await server.database.handle.db
      .updateTable('simulations')
      .set({ active_run_id: runId })
      .where('id', '=', simulation.id)
      .execute()
    // 10,000 steps of 0.1 ms: hydrostatic 2 kPa, an impact of 0.3 ms at t = 0.5 s, dry at the end
    const records = Array.from({ length: 10_000 }, (_, i) => {
      const t = i * 1e-4
      const p = i >= 5000 && i < 5003 ? 30_000 + 10_000 * (i - 5000) : 2000
      return i >= 9990 ? [t, NaN, NaN, NaN, NaN] : [t, p, 1.5, 0, -0.25]
    })
    writeSeries(
      server.dataDir,
      { simulation: simulation.id, run: runId, sensor: sensor.id },
      'every_step',
      records,
    )

    const whole = (await api('GET', `${path}?maxPoints=200000`)).body as SensorSeries
    expect(whole).toMatchObject({ runId, sampleRate: 'every_step', sampleCount: 10_000 })
    expect(whole.count).toBe(10_000)
    expect(whole.timeS[5001]).toBeCloseTo(0.5001, 12)
    expect(whole.pressure[5002]).toBe(50_000)
    expect(whole.vx[0]).toBe(1.5)
    expect(whole.pressure.at(-1)).toBeNull()

    // the default thins to about 5,000; 30 points still show the 0.3 ms peak
    const thinned = (await api('GET', path)).body as SensorSeries
    expect(thinned.sampleCount).toBe(10_000)
    expect(thinned.count).toBeLessThanOrEqual(5001)
    expect(Math.max(...thinned.pressure.map((p) => p ?? 0))).toBe(50_000)
    const coarse = (await api('GET', `${path}?maxPoints=30`)).body as SensorSeries
    expect(coarse.count).toBeLessThanOrEqual(31)
    expect(Math.max(...coarse.pressure.map((p) => p ?? 0))).toBe(50_000)
    expect(coarse.timeS.at(-1)).toBeCloseTo(0.9999, 12)
    expect(coarse.pressure.at(-1)).toBeNull()
  })

  it('hides a sensor’s series from another organization and refuses a foreign run', async () => {
    const sensor = (
      await api('POST', `/simulations/${simulation.id}/custom_sensors`, {
        name: 'Guarded',
        kind: 'point',
        position: [0, 0, 0],
      })
    ).body as Sensor
    const path = `/custom_sensors/${sensor.id}/series`
    expect((await api('GET', path, undefined, other)).status).toBe(404)
    expect((await server.request('GET', `/api${path}`)).status).toBe(401)
    expect((await api('GET', '/custom_sensors/999999/series')).status).toBe(404)
    const foreignRun = await insertRun(otherSimulation.id)
    expect((await api('GET', `${path}?runId=${foreignRun}`)).status).toBe(404)
    expect((await api('GET', `${path}?maxPoints=2`)).status).toBe(400)
    expect((await api('GET', `${path}?maxPoints=x`)).status).toBe(400)
  })
})
