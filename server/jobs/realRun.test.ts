import { existsSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decodePointCloudFile } from '../../domain/pointCloudFile.ts'
import type { Simulation } from '../../domain/projects.ts'
import { DEMO_PROJECT_NAME, DEMO_SIMULATION_NAME, DEMO_USERS } from '../db/demoAccounts.ts'
import { startTestServer, type Json, type TestServer } from '../../tests/integration/harness.ts'

/*
 * The real chain on the seeded dam break, coarsened to a few seconds: stored setup → job thread →
 * discretizer → SPH solver → outputs, log and credits, with the worker-thread executors.
 */

const solverPresent = existsSync(new URL('../../solver/run/index.ts', import.meta.url))
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe.skipIf(!solverPresent)('a real run in a job thread [sqlite]', () => {
  let server: TestServer
  let token: string
  let simulationId: number

  beforeAll(async () => {
    server = await startTestServer('sqlite')
    token = (await server.login(DEMO_USERS.manager.email)).accessToken
    const projects = await server.request('GET', '/api/projects?pageLimit=30', { token })
    const project = (projects.body.results as Json[]).find((p) => p.name === DEMO_PROJECT_NAME)
    const simulation = (project.simulations as Json[]).find((s) => s.name === DEMO_SIMULATION_NAME)
    simulationId = simulation.id
    const coarse = await server.request('PUT', `/api/simulations/${simulationId}`, {
      token,
      body: { settings: { particleDiameter: 0.02, endTime: 0.06, outputTimeInterval: 0.01 } },
    })
    expect(coarse.status).toBe(200)
  })
  afterAll(async () => {
    await server?.close()
  })

  it('discretizes the stored setup in a job thread', async () => {
    const started = await server.request(
      'POST',
      `/api/simulations/${simulationId}/discretizations`,
      {
        token,
        body: {},
      },
    )
    expect(started.status, JSON.stringify(started.body)).toBe(201)
    let record: Json
    do {
      await sleep(100)
      record = (
        await server.request('GET', `/api/simulations/${simulationId}/discretizations`, { token })
      ).body
    } while (record.state === 'scheduled' || record.state === 'running')
    expect(record).toMatchObject({ state: 'done', progress: 1, errors: [] })
    // The job thread hands back each part's particles; they are served as DPCL files.
    const summary = record.summary
    expect(summary.particleCount).toBe(summary.fluidCount + summary.wallCount)
    expect(summary.fluidCount).toBeGreaterThan(0)
    // the water column keeps its volume: 0.4 × 0.38 × 0.14 m = 21.28 L in 20 × 19 × 7 = 2,660
    // particles of 2 cm
    const water = (summary.parts as Json[]).find((p) => p.role === 'fluid')
    expect(water.particleCount).toBe(2660)
    expect(water.geometricVolume).toBeCloseTo(0.02128, 7)
    expect(Math.abs(water.volumeDifference as number)).toBeLessThan(1e-6)
    const parts = (await server.request('GET', `/api/simulations/${simulationId}/parts`, { token }))
      .body as Json[]
    for (const entry of summary.parts as Json[]) {
      const part = parts.find((p) => p.id === entry.partId)
      expect(part?.pointcloudCount ?? 0).toBe(entry.particleCount)
      if (entry.particleCount === 0) continue
      const response = await fetch(`${server.baseUrl}${part.pointcloudUrl as string}`, {
        headers: { authorization: `Bearer ${token}` },
      })
      const cloud = decodePointCloudFile(new Uint8Array(await response.arrayBuffer()))
      expect(cloud.count).toBe(entry.particleCount)
      expect(cloud.positions.every(Number.isFinite)).toBe(true)
    }
  }, 60_000)

  it('runs, stops after an output, resumes from that checkpoint to completed, with log and credits', async () => {
    const path = `/api/simulations/${simulationId}`
    // a pressure sensor in the middle of the water column, sampled every step: the 2 cm copy is
    // 7 particles deep, so the wall is beyond the kernel's reach (3 dp) and the free surface at it
    const sensor = await server.request('POST', `${path}/custom_sensors`, {
      token,
      body: {
        name: 'Middle',
        kind: 'point',
        position: [0.1, 0.19, 0.07],
        sampleRate: 'every_step',
      },
    })
    expect(sensor.status, sensor.text).toBe(201)
    const restarted = await server.request('POST', `${path}/jobs`, {
      token,
      body: { cores: 1, solver_id: 1 },
    })
    expect(restarted.status).toBe(201)
    const waitFor = async (test: (s: Simulation) => boolean) => {
      const until = Date.now() + 90_000
      for (;;) {
        const simulation = (await server.request<Simulation>('GET', path, { token })).body
        if (test(simulation) || Date.now() > until) return simulation
        await sleep(100)
      }
    }
    await waitFor((s) => (s.log?.output ?? -1) >= 1)
    expect((await server.request('DELETE', `${path}/jobs`, { token })).status).toBe(200)
    const stopped = await waitFor((s) => s.state === 'stopped')
    expect(stopped).toMatchObject({ state: 'stopped', resumable: true, setupLocked: true })
    const [run] = (await server.request('GET', `${path}/jobs`, { token })).body as Json[]
    const lastOutput = run.lastOutput as number
    expect(lastOutput).toBeGreaterThanOrEqual(1)
    // the numerical parameters the solver ran with, stored with the run and logged at its start
    const numerics = await server.request('GET', `${path}/jobs/${run.id}/numerics`, { token })
    expect(numerics.body).toMatchObject({
      runId: run.id,
      numerics: {
        kernel: 'wendland',
        particleDiameter: 0.02,
        // the material's 10 m/s is under the solver's 10 √(g H) for the 0.14 m of water
        speedOfSoundRule: 'gravity_wave',
        integrator: 'rk4_dual_step',
        fluidParticles: 2660,
        threads: 1,
      },
    })

    const resumed = await server.request('POST', `${path}/jobs?resume=true`, {
      token,
      body: { cores: 1, solver_id: 1 },
    })
    expect(resumed.status).toBe(201)
    const done = await waitFor((s) => ['completed', 'failed'].includes(s.state))
    expect(done.state).toBe('completed')
    const outputs = await server.request('GET', `${path}/outputs`, { token })
    const numbers = (outputs.body as { outputNo: number }[]).map((o) => o.outputNo)
    expect(numbers.slice(0, 6)).toEqual([0, 1, 2, 3, 4, 5])
    const [resumedRun] = (await server.request('GET', `${path}/jobs`, { token })).body as Json[]
    expect(resumedRun).toMatchObject({
      id: run.id,
      resumedFromOutput: lastOutput,
      state: 'completed',
    })
    // the sensor's samples, every step of both parts of the run, in time order from t = 0
    const series = (
      await server.request('GET', `/api/custom_sensors/${sensor.body.id as number}/series`, {
        token,
      })
    ).body
    expect(series).toMatchObject({ runId: run.id, sampleRate: 'every_step' })
    const times = series.timeS as number[]
    expect(series.sampleCount).toBeGreaterThan(6)
    expect(times[0]).toBe(0)
    expect(times.at(-1)).toBeCloseTo(0.06, 9)
    for (let k = 1; k < times.length; k++) expect(times[k]).toBeGreaterThan(times[k - 1]!)
    // hydrostatic at the start: about ρ g (0.14 − 0.07) = 0.69 kPa
    expect(series.pressure[0]).toBeGreaterThan(0.9 * 1000 * 9.81 * 0.07)
    expect(series.pressure[0]).toBeLessThan(1.1 * 1000 * 9.81 * 0.07)
  }, 200_000)

  it('ends a stop during the launch of a real job thread cleanly, with nothing half-started', async () => {
    const path = `/api/simulations/${simulationId}`
    const started = await server.request('POST', `${path}/jobs`, {
      token,
      body: { cores: 1, solver_id: 1 },
    })
    expect(started.body.state).toBe('launching')
    expect((await server.request('DELETE', `${path}/jobs`, { token })).status).toBe(200)
    let simulation: Simulation
    const until = Date.now() + 60_000
    do {
      await sleep(100)
      simulation = (await server.request<Simulation>('GET', path, { token })).body
    } while (simulation.state !== 'stopped' && Date.now() < until)
    expect(simulation).toMatchObject({ state: 'stopped', resumable: false })
    const [run] = (await server.request('GET', `${path}/jobs`, { token })).body as Json[]
    expect(run).toMatchObject({ state: 'stopped', lastOutput: null })
    expect((await server.request('GET', `${path}/outputs`, { token })).body).toEqual([])
  }, 90_000)
})
