import { afterAll, beforeAll, expect, it } from 'vitest'
import { CONDITION_MESSAGES } from '../../domain/conditions.ts'
import { DEMO_PROJECT_NAME, DEMO_SIMULATION_NAME, DEMO_USERS } from '../db/demoAccounts.ts'
import {
  describeEachDialect,
  startTestServer,
  type Json,
  type TestServer,
} from '../../tests/integration/harness.ts'

/*
 * Alerts of the next run (issue 14 item 3): a Restart begins at time 0, so its time alert is
 * compared with 0, not with where the previous run ended; a Resume goes on from the previous run,
 * so its alerts must lie beyond it. On both databases.
 */

describeEachDialect('conditions of the next run', (dialect) => {
  let server: TestServer
  let token: string
  let simulationId: number

  /** A finished run that reached 0.8 s of the 1 s end time, 2 min of runtime and 5,000 particles. */
  const finishRun = async (state: string, setupLocked: 0 | 1, resumable: 0 | 1) => {
    const db = server.database.handle.db
    const at = '2026-11-27T10:00:00.000Z'
    const last = {
      time: 800,
      runtime: 120_000,
      runtimeLeft: 0,
      particles: 5000,
      dt: 1e-4,
      progress: 0.8,
      output: 7,
    }
    const run = await db
      .insertInto('runs')
      .values({
        simulation_id: simulationId,
        state,
        cores: 2,
        solver_id: 1,
        last_output: 7,
        last_log: JSON.stringify(last),
        started_at: at,
        ended_at: at,
        created_at: at,
        updated_at: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await db
      .updateTable('simulations')
      .set({ state, active_run_id: run.id, setup_locked: setupLocked, resumable })
      .where('id', '=', simulationId)
      .execute()
  }
  const addAlert = (valueType: string, threshold: number) =>
    server.request('POST', `/api/simulations/${simulationId}/conditions`, {
      token,
      body: { valueType, action: 'stop', threshold },
    })

  beforeAll(async () => {
    server = await startTestServer(dialect)
    token = (await server.login(DEMO_USERS.manager.email)).accessToken
    const projects = await server.request('GET', '/api/projects?pageLimit=30', { token })
    const project = (projects.body.results as Json[]).find((p) => p.name === DEMO_PROJECT_NAME)
    simulationId = (project.simulations as Json[]).find((s) => s.name === DEMO_SIMULATION_NAME).id
    // An end time of 1 s, whatever the seeded demo's is.
    const set = await server.request('PUT', `/api/simulations/${simulationId}`, {
      token,
      body: { settings: { endTime: 1 } },
    })
    expect(set.status).toBe(200)
  })
  afterAll(async () => {
    await server?.close()
  })

  it('takes a restart’s time, runtime and particle alerts below where the previous run ended', async () => {
    await finishRun('completed', 0, 0)
    const time = await addAlert('time', 300)
    expect(time.status, JSON.stringify(time.body)).toBe(201)
    expect((await addAlert('runtime', 1)).status).toBe(201)
    expect((await addAlert('particle_nbr', 100)).status).toBe(201)
    // Still bounded by the end time.
    expect((await addAlert('time', 1500)).body.description).toBe(CONDITION_MESSAGES.aboveEndTime)
  })

  it('asks a resume’s alerts to lie beyond where the run stopped', async () => {
    await finishRun('stopped', 1, 1)
    const early = await addAlert('time', 300)
    expect(early.status).toBe(400)
    expect(early.body.description).toBe(CONDITION_MESSAGES.time)
    expect((await addAlert('runtime', 1)).body.description).toBe(CONDITION_MESSAGES.runtime)
    expect((await addAlert('time', 900)).status).toBe(201)
  })
})
