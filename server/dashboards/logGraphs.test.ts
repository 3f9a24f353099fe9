import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { LogGraphs } from '../../domain/logGraphs.ts'
import { runLogFile } from '../../domain/output/layout.ts'
import type { Simulation } from '../../domain/projects.ts'
import { DEMO_PROJECT_NAME, DEMO_USERS, OTHER_ORGANIZATION_USER } from '../db/demoAccounts.ts'
import {
  describeEachDialect,
  startTestServer,
  type TestServer,
} from '../../tests/integration/harness.ts'

/** A run of 3,000 log lines, 1 s of wall time per 10 ms simulated, with one spike in dt. */
const LINES = 3000
const SPIKE_LINE = 1234

describeEachDialect('dashboard log graphs (GET /simulations/{id}/log_graphs)', (dialect) => {
  let server: TestServer
  let manager: string
  let contributor: string
  let other: string
  let simulation: Simulation
  let idle: Simulation

  const call = (path: string, token: string) => server.request('GET', `/api${path}`, { token })

  beforeAll(async () => {
    server = await startTestServer(dialect)
    manager = (await server.login(DEMO_USERS.manager.email)).accessToken
    contributor = (await server.login(DEMO_USERS.contributor.email)).accessToken
    other = (await server.login(OTHER_ORGANIZATION_USER.email)).accessToken
    const projects = await call('/projects?pageLimit=50', manager)
    const projectId = (projects.body as { results: { id: number; name: string }[] }).results.find(
      (project) => project.name === DEMO_PROJECT_NAME,
    )?.id
    const create = async (name: string) =>
      (
        await server.request('POST', `/api/projects/${projectId}/simulations`, {
          token: manager,
          body: { name },
        })
      ).body as Simulation
    simulation = await create('Graphs')
    idle = await create('Graphs, not started')
    const db = server.database.handle.db
    const run = await db
      .insertInto('runs')
      .values({
        simulation_id: simulation.id,
        state: 'running',
        cores: 2,
        solver_id: 1,
        message: null,
        started_at: '2026-11-27T10:00:00.000Z',
        ended_at: null,
        created_at: '2026-11-27T10:00:00.000Z',
        updated_at: '2026-11-27T10:00:00.000Z',
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await db
      .updateTable('simulations')
      .set({ state: 'running', active_run_id: run.id })
      .where('id', '=', simulation.id)
      .execute()
    const path = join(server.dataDir, runLogFile(simulation.id, run.id))
    mkdirSync(dirname(path), { recursive: true })
    const lines = Array.from({ length: LINES }, (_, n) =>
      JSON.stringify({
        level: 'info',
        time: n * 10,
        runtime: n * 1000,
        runtimeLeft: null,
        particles: 50_000 - n,
        dt: n === SPIKE_LINE ? 0.5 : 1e-4,
        progress: n / LINES,
        output: Math.floor(n / 100),
      }),
    )
    // A torn last line (the solver still writing it) is skipped.
    writeFileSync(path, `${lines.join('\n')}\n{"level":"info","ti`)
  })
  afterAll(async () => {
    await server?.close()
  })

  it("thins the active run's graphs to maxPoints, keeping a spike", async () => {
    const reply = await call(`/simulations/${simulation.id}/log_graphs?maxPoints=101`, manager)
    expect(reply.status).toBe(200)
    const body = reply.body as LogGraphs
    expect(body.lineCount).toBe(LINES)
    const { dt, particles, runtimePerS } = body.graphs
    for (const series of [dt, particles, runtimePerS]) {
      expect(series.value.length).toBeLessThanOrEqual(101)
      // 50 buckets: one point each where the values are flat, two where they move.
      expect(series.value.length).toBeGreaterThanOrEqual(50)
      expect(series.timeS).toHaveLength(series.value.length)
      expect(series.progress).toHaveLength(series.value.length)
    }
    expect(Math.max(...dt.value)).toBe(0.5)
    expect(dt.timeS[dt.value.indexOf(0.5)]).toBeCloseTo((SPIKE_LINE * 10) / 1000)
    expect(particles.value.length).toBeGreaterThan(90)
    expect(particles.value[0]).toBe(50_000)
    expect(particles.timeS.at(-1)).toBeCloseTo(((LINES - 1) * 10) / 1000)
    // 1,000 ms of wall time per 10 ms simulated: 100 s per simulated second.
    expect(new Set(runtimePerS.value)).toEqual(new Set([100]))
  })

  it('sends every point under maxPoints (default 600) and nothing before a run', async () => {
    const whole = (await call(`/simulations/${simulation.id}/log_graphs?maxPoints=5000`, manager))
      .body as LogGraphs
    expect(whole.graphs.particles.value).toHaveLength(LINES)
    expect(whole.graphs.runtimePerS.value).toHaveLength(LINES - 1)
    const standard = (await call(`/simulations/${simulation.id}/log_graphs`, manager))
      .body as LogGraphs
    expect(standard.graphs.dt.value.length).toBeLessThanOrEqual(600)
    expect((await call(`/simulations/${idle.id}/log_graphs`, manager)).body).toEqual({
      runId: null,
      lineCount: 0,
      graphs: {
        particles: { timeS: [], progress: [], value: [] },
        runtimePerS: { timeS: [], progress: [], value: [] },
        dt: { timeS: [], progress: [], value: [] },
      },
    })
  })

  it('refuses a bad maxPoints and answers 404 out of reach', async () => {
    for (const maxPoints of ['3', '5001', 'x', '1.5'])
      expect(
        (await call(`/simulations/${simulation.id}/log_graphs?maxPoints=${maxPoints}`, manager))
          .status,
        maxPoints,
      ).toBe(400)
    expect((await call(`/simulations/${simulation.id}/log_graphs`, other)).status).toBe(404)
    // A contributor sees only their own projects: the manager's simulation is out of reach.
    expect((await call(`/simulations/${simulation.id}/log_graphs`, contributor)).status).toBe(404)
    expect(
      (await server.request('GET', `/api/simulations/${simulation.id}/log_graphs`)).status,
    ).toBe(401)
  })
})
