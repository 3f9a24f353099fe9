import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { runNumericsFile } from '../../domain/output/layout.ts'
import type { RunNumerics } from '../../domain/runNumerics.ts'
import {
  DEMO_PROJECT_NAME,
  DEMO_SIMULATION_NAME,
  DEMO_USERS,
  OTHER_ORGANIZATION_USER,
} from '../db/demoAccounts.ts'
import {
  describeEachDialect,
  startTestServer,
  type Json,
  type TestServer,
} from '../../tests/integration/harness.ts'

/*
 * A run's details through the API: the numerical parameters its solver stored beside its log
 * (solver/run writes them at the start of the run), on both databases, with their permissions.
 */

/** The parameters of the seeded dam break as solver/run describes them. */
const NUMERICS: RunNumerics = {
  kernel: 'wendland',
  smoothingLengthFactor: 1.5,
  smoothingLength: 0.03,
  particleDiameter: 0.02,
  speedOfSound: 20,
  speedOfSoundRule: 'material',
  speedOfSoundCandidates: { material: 20, gravityWave: 19.81, initialSpeed: 0 },
  speedOfSoundCoefficient: 10,
  fluidHeight: 0.4,
  viscosity: 'artificial+laminar',
  artificialViscosityAlpha: 0.01,
  laminarViscosity: 1e-6,
  densityDiffusion: 'fourtakas',
  densityDiffusionDelta: 0.1,
  cfl: 0.2,
  acousticCfl: 0.4,
  integrator: 'rk4_dual_step',
  integrationScheme: 'dual_timestep_rk_4',
  fixedTimeStepS: null,
  shifting: 'lyu21',
  wall: 'riemann',
  densityThreshold: null,
  fluidParticles: 1000,
  wallParticles: 10686,
  threads: 2,
}

describeEachDialect('run details', (dialect) => {
  let server: TestServer
  let token: string
  let otherToken: string
  let simulationId: number
  let runId: number
  let otherRunId: number

  const insertRun = async (simulation: number) =>
    (
      await server.database.handle.db
        .insertInto('runs')
        .values({
          simulation_id: simulation,
          state: 'completed',
          cores: 2,
          solver_id: 1,
          started_at: '2026-11-27T10:00:00.000Z',
          created_at: '2026-11-27T10:00:00.000Z',
          updated_at: '2026-11-27T10:00:00.000Z',
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id
  const writeNumerics = (simulation: number, run: number, text: string) => {
    const path = join(server.dataDir, runNumericsFile(simulation, run))
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, text)
  }

  beforeAll(async () => {
    server = await startTestServer(dialect)
    token = (await server.login(DEMO_USERS.manager.email)).accessToken
    otherToken = (await server.login(OTHER_ORGANIZATION_USER.email)).accessToken
    const projects = await server.request('GET', '/api/projects?pageLimit=30', { token })
    const project = (projects.body.results as Json[]).find((p) => p.name === DEMO_PROJECT_NAME)
    simulationId = (project.simulations as Json[]).find((s) => s.name === DEMO_SIMULATION_NAME).id
    const other = await server.request('POST', `/api/projects/${project.id}/simulations`, {
      token,
      body: { name: 'Other' },
    })
    runId = await insertRun(simulationId)
    otherRunId = await insertRun(other.body.id as number)
  })
  afterAll(async () => {
    await server?.close()
  })

  it('serves the numerical parameters the solver stored for a run, null before it did', async () => {
    const path = `/api/simulations/${simulationId}/jobs/${runId}/numerics`
    const before = await server.request('GET', path, { token })
    expect(before.status).toBe(200)
    expect(before.body).toEqual({ runId, numerics: null })
    writeNumerics(simulationId, runId, JSON.stringify(NUMERICS))
    const after = await server.request('GET', path, { token })
    expect(after.body).toEqual({ runId, numerics: NUMERICS })
    // a broken file is no parameters, not a server error
    writeNumerics(simulationId, runId, '{"kernel": 3')
    expect((await server.request('GET', path, { token })).body).toEqual({ runId, numerics: null })
    writeNumerics(simulationId, runId, JSON.stringify(NUMERICS))
  })

  it('hides the numerics of another organization and of another simulation’s run behind 404', async () => {
    const path = `/api/simulations/${simulationId}/jobs/${runId}/numerics`
    expect((await server.request('GET', path, { token: otherToken })).status).toBe(404)
    expect((await server.request('GET', path)).status).toBe(401)
    const foreign = `/api/simulations/${simulationId}/jobs/${otherRunId}/numerics`
    expect((await server.request('GET', foreign, { token })).status).toBe(404)
    const unknown = `/api/simulations/${simulationId}/jobs/999999/numerics`
    expect((await server.request('GET', unknown, { token })).status).toBe(404)
    const invalid = await server.request(
      'GET',
      `/api/simulations/${simulationId}/jobs/x/numerics`,
      {
        token,
      },
    )
    expect(invalid.status).toBe(400)
  })
})
