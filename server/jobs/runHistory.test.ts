import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { runLogFile } from '../../domain/output/layout.ts'
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
 * A run's history (the Run sidebar's History tab, issue 14 item 2): the solver's log lines with
 * their levels, progress lines as DEBUG entries for admins only, the runner's end message when the
 * log lacks it, on both databases and with their permissions.
 */

const line = (fields: Record<string, unknown>) =>
  JSON.stringify({
    progress: 0,
    time: 0,
    runtime: 0,
    runtimeLeft: null,
    particles: 11686,
    output: -1,
    dt: 0,
    step: 0,
    fluidParticles: 1000,
    deletedParticles: 0,
    creditsConsumed: 0,
    at: '2026-11-27T10:00:00.000Z',
    level: 'INFO',
    ...fields,
  })

const LOG = [
  line({ message: 'Simulation started.' }),
  line({ at: '2026-11-27T10:00:01.000Z', step: 120, time: 12.5, dt: 0.000104, output: 0 }),
  line({ at: '2026-11-27T10:00:02.000Z', output: 0, message: 'Output 0 written.' }),
  line({
    at: '2026-11-27T10:00:03.000Z',
    level: 'WARN',
    message: 'Warning: runtime limit reached.',
  }),
  '{"torn": ',
].join('\n')

describeEachDialect('run history', (dialect) => {
  let server: TestServer
  let token: string
  let adminToken: string
  let otherToken: string
  let simulationId: number
  let runId: number
  let otherRunId: number

  const insertRun = async (simulation: number, state: string, message: string | null) =>
    (
      await server.database.handle.db
        .insertInto('runs')
        .values({
          simulation_id: simulation,
          state,
          cores: 2,
          solver_id: 1,
          message,
          started_at: '2026-11-27T10:00:00.000Z',
          ended_at: '2026-11-27T10:00:04.000Z',
          created_at: '2026-11-27T10:00:00.000Z',
          updated_at: '2026-11-27T10:00:00.000Z',
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id

  beforeAll(async () => {
    server = await startTestServer(dialect)
    token = (await server.login(DEMO_USERS.manager.email)).accessToken
    adminToken = (await server.login(DEMO_USERS.admin.email)).accessToken
    otherToken = (await server.login(OTHER_ORGANIZATION_USER.email)).accessToken
    const projects = await server.request('GET', '/api/projects?pageLimit=30', { token })
    const project = (projects.body.results as Json[]).find((p) => p.name === DEMO_PROJECT_NAME)
    simulationId = (project.simulations as Json[]).find((s) => s.name === DEMO_SIMULATION_NAME).id
    const other = await server.request('POST', `/api/projects/${project.id}/simulations`, {
      token,
      body: { name: 'Other history' },
    })
    runId = await insertRun(
      simulationId,
      'failed',
      'The server restarted while the job was running.',
    )
    otherRunId = await insertRun(other.body.id as number, 'completed', null)
    const path = join(server.dataDir, runLogFile(simulationId, runId))
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(path, LOG)
  })
  afterAll(async () => {
    await server?.close()
  })

  const historyPath = () => `/api/simulations/${simulationId}/history?runId=${runId}`

  it('gives a manager the leveled messages of the log and the runner’s end, without DEBUG lines', async () => {
    const reply = await server.request('GET', historyPath(), { token })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual({
      runId,
      entries: [
        { at: '2026-11-27T10:00:00.000Z', level: 'INFO', message: 'Simulation started.' },
        { at: '2026-11-27T10:00:02.000Z', level: 'INFO', message: 'Output 0 written.' },
        {
          at: '2026-11-27T10:00:03.000Z',
          level: 'WARN',
          message: 'Warning: runtime limit reached.',
        },
        {
          at: '2026-11-27T10:00:04.000Z',
          level: 'ERROR',
          message: 'The server restarted while the job was running.',
        },
      ],
    })
  })

  it('gives an admin the progress lines too, as DEBUG entries in words', async () => {
    const reply = await server.request('GET', historyPath(), { token: adminToken })
    expect(reply.status).toBe(200)
    const entries = reply.body.entries as Json[]
    expect(entries).toHaveLength(5)
    expect(entries[1]).toEqual({
      at: '2026-11-27T10:00:01.000Z',
      level: 'DEBUG',
      message: 'Step 120, t = 0.0125 s, dt = 0.000104 s, 11,686 particles, last output 0.',
    })
  })

  it('answers the active run by default and an empty history before any run', async () => {
    const other = await server.request('POST', '/api/projects', {
      token,
      body: { name: 'History empty' },
    })
    const created = await server.request('POST', `/api/projects/${other.body.id}/simulations`, {
      token,
      body: { name: 'Never run' },
    })
    const reply = await server.request('GET', `/api/simulations/${created.body.id}/history`, {
      token,
    })
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual({ runId: null, entries: [] })
  })

  it('hides the history of another organization and of another simulation’s run behind 404', async () => {
    expect((await server.request('GET', historyPath(), { token: otherToken })).status).toBe(404)
    expect((await server.request('GET', historyPath())).status).toBe(401)
    const foreign = `/api/simulations/${simulationId}/history?runId=${otherRunId}`
    expect((await server.request('GET', foreign, { token })).status).toBe(404)
    const invalid = `/api/simulations/${simulationId}/history?runId=x`
    expect((await server.request('GET', invalid, { token })).status).toBe(400)
  })
})
