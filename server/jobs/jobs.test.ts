import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest'
import type { FieldError } from '../../domain/errors.ts'
import type { Simulation } from '../../domain/projects.ts'
import type { RunRecord } from '../../domain/rest/runRoutes.ts'
import { DISCRETIZATION_BLOCKED } from '../../domain/discretization.ts'
import { CONDITION_MESSAGES } from '../../domain/conditions.ts'
import { RUN_TEXTS } from '../../domain/rest/runRoutes.ts'
import { RUN_STOP_MESSAGES } from '../../solver/run/types.ts'
import {
  createTestDatabase,
  describeEachDialect,
  type Json,
  type TestDatabase,
} from '../../tests/integration/harness.ts'
import { createClock } from '../clock.ts'
import { DEMO_PASSWORD, DEMO_USERS, OTHER_ORGANIZATION_USER } from '../db/demoAccounts.ts'
import { migrateToLatest } from '../db/migrations.ts'
import { seedDatabase } from '../db/seed.ts'
import {
  DEFAULT_SCRIPT,
  completeSetup,
  createFakeExecutors,
  emptySetup,
  startJobsApp,
  type FakeScript,
  type JobsTestServer,
} from './testing.ts'

const outputNumbers = (body: unknown) => (body as { outputNo: number }[]).map((o) => o.outputNo)
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describeEachDialect('jobs and runs', (dialect) => {
  let database: TestDatabase
  let server: JobsTestServer
  let token: string
  let otherToken: string
  const script: FakeScript = { ...DEFAULT_SCRIPT }
  const fake = createFakeExecutors(script)
  const blockedSimulations = new Set<number>()
  const unreadableSimulations = new Set<number>()
  let projectId: number

  const request = async (method: string, path: string, body?: unknown, as = token) => {
    const response = await fetch(`${server.baseUrl}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${as}`,
        ...(body !== undefined && { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await response.text()
    const parsed: Json = text ? JSON.parse(text) : undefined
    return { status: response.status, body: parsed }
  }
  const login = async (email: string) => {
    const response = await fetch(`${server.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: DEMO_PASSWORD }),
    })
    return ((await response.json()) as { accessToken: string }).accessToken
  }
  let simulationCount = 0
  const newSimulation = async () => {
    const reply = await request('POST', `/api/projects/${projectId}/simulations`, {
      name: `Run ${++simulationCount}`,
    })
    expect(reply.status).toBe(201)
    return reply.body.id as number
  }
  const readSimulation = async (id: number): Promise<Simulation> =>
    (await request('GET', `/api/simulations/${id}`)).body as Simulation
  const waitForState = async (id: number, states: string[], timeoutMs = 10_000) => {
    const until = Date.now() + timeoutMs
    for (;;) {
      const simulation = await readSimulation(id)
      if (states.includes(simulation.state)) return simulation
      if (Date.now() > until) {
        const runs = (await request('GET', `/api/simulations/${id}/jobs`)).body as RunRecord[]
        throw new Error(
          `simulation ${id} stayed ${simulation.state}, wanted ${states.join('|')} (${runs[0]?.message})`,
        )
      }
      await sleep(20)
    }
  }
  const start = (id: number, resume = false, cores = 1) =>
    request('POST', `/api/simulations/${id}/jobs${resume ? '?resume=true' : ''}`, {
      cores,
      solver_id: 1,
    })
  const organizationCredits = async () =>
    (
      await database.handle.db
        .selectFrom('organizations')
        .innerJoin('users', 'users.organization_id', 'organizations.id')
        .select('organizations.credits')
        .where('users.email', '=', DEMO_USERS.manager.email)
        .executeTakeFirstOrThrow()
    ).credits
  const setCredits = (credits: number) =>
    database.handle.db
      .updateTable('organizations')
      .set({ credits })
      .where('name', '!=', '')
      .execute()

  beforeAll(async () => {
    database = await createTestDatabase(dialect)
    await migrateToLatest(database.handle)
    await seedDatabase(database.handle.db, createClock())
    server = await startJobsApp(database.handle, {
      executors: fake.executors,
      loadSetup: (id) => {
        if (unreadableSimulations.has(id)) {
          const error = new Error('The STL file of part "Tank" was not found.')
          error.name = 'RunSetupError'
          return Promise.reject(error)
        }
        return Promise.resolve(blockedSimulations.has(id) ? emptySetup(id) : completeSetup(id))
      },
    })
    token = await login(DEMO_USERS.manager.email)
    otherToken = await login(OTHER_ORGANIZATION_USER.email)
    const project = await request('POST', '/api/projects', { name: 'Jobs' })
    projectId = project.body.id
  })
  afterAll(async () => {
    await server?.close()
    await database?.drop()
  })
  beforeEach(async () => {
    Object.assign(script, DEFAULT_SCRIPT, { failAtStep: undefined, failBeforeStart: undefined })
    await setCredits(2500)
  })

  it('lists the CPU solver only', async () => {
    const all = await request('GET', '/api/solvers')
    expect(all.status).toBe(200)
    expect(all.body).toEqual([{ id: 1, name: 'Dive SPH (CPU)', latest: true, gpu: false }])
    expect((await request('GET', '/api/solvers?gpu=true')).body).toEqual([])
  })

  it('runs a simulation from launching through running to completed, with logs and outputs', async () => {
    const id = await newSimulation()
    const before = await organizationCredits()
    const started = await start(id, false, 2)
    expect(started.status).toBe(201)
    expect(started.body).toMatchObject({
      state: 'launching',
      setupLocked: true,
      resumable: false,
      cores: 2,
      solver: { name: 'Dive SPH (CPU)' },
    })
    expect(started.body.activeRunId).toBeTypeOf('number')
    const done = await waitForState(id, ['completed'])
    expect(done).toMatchObject({ resumable: false, setupLocked: true })
    expect(done.log).toMatchObject({ progress: 1, output: 2, particles: 100 })
    expect(done.creditsConsumed).toBeCloseTo(1.5)

    const runs = await request('GET', `/api/simulations/${id}/jobs`)
    expect(runs.body).toHaveLength(1)
    expect(runs.body[0]).toMatchObject({
      state: 'completed',
      lastOutput: 2,
      cores: 2,
      message: null,
    })
    const outputs = await request('GET', `/api/simulations/${id}/outputs`)
    expect(outputNumbers(outputs.body)).toEqual([0, 1, 2])
    expect(outputs.body[0]).toEqual({
      outputNo: 0,
      states: { visualization: 'ready', sensor: 'pending' },
      wallSensorState: 'unknown',
    })
    const logs = await request('GET', `/api/simulations/${id}/logs?key=time&key=progress`)
    expect(logs.body.lines).toEqual([
      { time: 100, progress: 1 / 3 },
      { time: 200, progress: 2 / 3 },
      { time: 300, progress: 1 },
    ])

    expect(await organizationCredits()).toBeCloseTo(before - 1.5)
    const transactions = await database.handle.db
      .selectFrom('credit_transactions')
      .selectAll()
      .where('simulation_id', '=', id)
      .execute()
    expect(transactions).toHaveLength(1)
    expect(transactions[0]).toMatchObject({ kind: 'simulation', credits: -1.5 })
    expect(transactions[0]?.simulation_hours).toBeCloseTo(1.5 / 60)
  })

  it('refuses a second start of a running simulation with a clear error, even when both race', async () => {
    script.stepMs = 200
    const id = await newSimulation()
    const [a, b] = await Promise.all([start(id), start(id)])
    expect([a.status, b.status].sort()).toEqual([201, 409])
    const refused = a.status === 409 ? a : b
    expect(refused.body.description).toBe(RUN_TEXTS.alreadyRunning)
    expect((await start(id)).body.description).toBe(RUN_TEXTS.alreadyRunning)
    expect((await request('GET', `/api/simulations/${id}/jobs`)).body).toHaveLength(1)
    await request('DELETE', `/api/simulations/${id}/jobs`)
    await waitForState(id, ['stopped'])
  })

  it('stops a running simulation, then resumes it from its last output', async () => {
    script.stepMs = 80
    script.outputs = 6
    const id = await newSimulation()
    await start(id)
    await waitForState(id, ['running'])
    for (;;) {
      const outputs = await request('GET', `/api/simulations/${id}/outputs`)
      if (outputs.body.length >= 2) break
      await sleep(20)
    }
    const stopping = await request('DELETE', `/api/simulations/${id}/jobs`)
    expect(stopping.status).toBe(200)
    expect(['stopping', 'stopped']).toContain(stopping.body.state)
    const stopped = await waitForState(id, ['stopped'])
    expect(stopped).toMatchObject({ resumable: true, setupLocked: true })
    const [run] = (await request('GET', `/api/simulations/${id}/jobs`)).body
    expect(run).toMatchObject({ state: 'stopped', message: RUN_STOP_MESSAGES.user })
    const lastOutput = run.lastOutput as number
    expect(lastOutput).toBeGreaterThanOrEqual(1)

    const resumed = await start(id, true)
    expect(resumed.status).toBe(201)
    expect(resumed.body.activeRunId).toBe(run.id)
    const done = await waitForState(id, ['completed'])
    expect(done.resumable).toBe(false)
    expect(fake.calls.at(-1)).toMatchObject({
      resumeFromOutput: lastOutput,
      resumeFromRunId: run.id,
    })
    const outputs = await request('GET', `/api/simulations/${id}/outputs`)
    expect(outputNumbers(outputs.body)).toEqual([0, 1, 2, 3, 4, 5])
  })

  it('restarts from output 0 as a new run, and refuses resume when nothing can be resumed', async () => {
    const id = await newSimulation()
    expect((await start(id, true)).body.description).toBe(RUN_TEXTS.notResumable)
    await start(id)
    await waitForState(id, ['completed'])
    expect((await start(id, true)).body.description).toBe(RUN_TEXTS.notResumable)
    const first = (await readSimulation(id)).activeRunId
    const restarted = await start(id)
    expect(restarted.status).toBe(201)
    expect(restarted.body.activeRunId).not.toBe(first)
    await waitForState(id, ['completed'])
    expect(fake.calls.at(-1)).toMatchObject({ resumeFromOutput: null })
    expect((await request('GET', `/api/simulations/${id}/jobs`)).body).toHaveLength(2)
  })

  it('unlocks the setup of a stopped run for editing, after which it can only restart', async () => {
    script.stepMs = 80
    script.outputs = 6
    const id = await newSimulation()
    await start(id)
    await waitForState(id, ['running'])
    const refused = await request('DELETE', `/api/simulations/${id}/setup_lock`)
    expect(refused.status).toBe(409)
    expect(refused.body.description).toBe(RUN_TEXTS.unlockWhileRunning)
    for (;;) {
      const outputs = await request('GET', `/api/simulations/${id}/outputs`)
      if (outputs.body.length >= 1) break
      await sleep(20)
    }
    await request('DELETE', `/api/simulations/${id}/jobs`)
    expect(await waitForState(id, ['stopped'])).toMatchObject({
      setupLocked: true,
      resumable: true,
    })
    const unlocked = await request('DELETE', `/api/simulations/${id}/setup_lock`)
    expect(unlocked.status).toBe(200)
    expect(unlocked.body).toMatchObject({ setupLocked: false, resumable: false, state: 'stopped' })
    expect((await start(id, true)).body.description).toBe(RUN_TEXTS.notResumable)
  })

  it('ends a stop during launch cleanly: stopped, nothing written, not resumable', async () => {
    script.startDelayMs = 300
    const id = await newSimulation()
    await start(id)
    const stopping = await request('DELETE', `/api/simulations/${id}/jobs`)
    expect(stopping.status).toBe(200)
    const stopped = await waitForState(id, ['stopped'])
    expect(stopped.resumable).toBe(false)
    expect((await request('GET', `/api/simulations/${id}/outputs`)).body).toEqual([])
    const [run] = (await request('GET', `/api/simulations/${id}/jobs`)).body
    expect(run).toMatchObject({ state: 'stopped', lastOutput: null })
    const jobs = await database.handle.db
      .selectFrom('jobs')
      .select('state')
      .where('simulation_id', '=', id)
      .execute()
    expect(jobs.map((j) => j.state)).toEqual(['canceled'])
  })

  it('stops computing when the simulation is deleted while it runs', async () => {
    script.stepMs = 60
    script.outputs = 50
    const id = await newSimulation()
    await start(id)
    await waitForState(id, ['running'])
    const signal = fake.signals.at(-1)
    expect((await request('DELETE', `/api/simulations/${id}`)).status).toBe(200)
    for (let i = 0; i < 100 && !signal?.aborted; i++) await sleep(20)
    expect(signal?.aborted).toBe(true)
  })

  it('refuses to stop a simulation that is not running', async () => {
    const id = await newSimulation()
    const reply = await request('DELETE', `/api/simulations/${id}/jobs`)
    expect(reply.status).toBe(409)
    expect(reply.body.description).toBe(RUN_TEXTS.notRunning)
  })

  it('fails the run with the solver message when the solver throws', async () => {
    script.failAtStep = { step: 1, message: 'Particles left the domain at t = 0.2 s' }
    const id = await newSimulation()
    await start(id)
    const failed = await waitForState(id, ['failed'])
    expect(failed.resumable).toBe(false)
    const [run] = (await request('GET', `/api/simulations/${id}/jobs`)).body
    expect(run.message).toBe('Particles left the domain at t = 0.2 s')
  })

  it("ends in 'launch failed' when the job thread fails before the run starts", async () => {
    script.failBeforeStart = 'The job thread ended early (exit code 1).'
    const id = await newSimulation()
    await start(id)
    const failed = await waitForState(id, ['launch failed'])
    expect(failed.resumable).toBe(false)
    const [run] = (await request('GET', `/api/simulations/${id}/jobs`)).body as RunRecord[]
    expect(run).toMatchObject({
      state: 'launch failed',
      message: 'The job thread ended early (exit code 1).',
    })
    // A failed launch is finished: the simulation can be started again.
    script.failBeforeStart = undefined
    expect((await start(id)).status).toBe(201)
    await waitForState(id, ['completed'])
  })

  it("refuses a start with 'Not enough credits left...' when the organization has none", async () => {
    await setCredits(0)
    const id = await newSimulation()
    const reply = await start(id)
    expect(reply.status).toBe(400)
    expect(reply.body.description).toBe('Not enough credits left...')
    expect((await readSimulation(id)).state).toBe('not started')
  })

  it('stops a run when the organization runs out of credits and records why', async () => {
    await setCredits(0.9)
    script.outputs = 10
    script.stepMs = 40
    const id = await newSimulation()
    await start(id)
    const stopped = await waitForState(id, ['stopped'])
    expect(stopped.lastStopCondition).toEqual({ valueType: 'credits', threshold: 0 })
    const [run] = (await request('GET', `/api/simulations/${id}/jobs`)).body
    expect(run.message).toBe(RUN_TEXTS.notEnoughCredits)
    expect(await organizationCredits()).toBeLessThanOrEqual(0)
    expect(await organizationCredits()).toBeGreaterThan(-0.2)
  })

  it('blocks a start while the setup has errors or missing inputs', async () => {
    const id = await newSimulation()
    blockedSimulations.add(id)
    const reply = await start(id)
    expect(reply.status).toBe(400)
    expect(reply.body.code).toBe('validation_error')
    expect(reply.body.errors[0].message).toBe(RUN_TEXTS.startBlocked)
    expect((reply.body.errors as FieldError[]).map((e) => e.message)).toContain(
      'Add your first object',
    )
    expect((await readSimulation(id)).state).toBe('not started')
  })

  it('refuses a start and a discretization with the reason when the setup cannot be read', async () => {
    const id = await newSimulation()
    unreadableSimulations.add(id)
    const run = await start(id)
    expect(run.status).toBe(400)
    expect(run.body.description).toBe('The STL file of part "Tank" was not found.')
    const discretization = await request('POST', `/api/simulations/${id}/discretizations`, {})
    expect(discretization.status).toBe(400)
    expect((await readSimulation(id)).state).toBe('not started')
  })

  it('refuses more cores than the subscription allows and an unknown solver', async () => {
    const id = await newSimulation()
    expect((await start(id, false, 3)).body.description).toBe(RUN_TEXTS.tooManyCores(2))
    const unknown = await request('POST', `/api/simulations/${id}/jobs`, { cores: 1, solver_id: 9 })
    expect(unknown.status).toBe(400)
    expect(unknown.body.description).toBe(RUN_TEXTS.unknownSolver)
    const broken = await request('POST', `/api/simulations/${id}/jobs`, { cores: 0, solver_id: 1 })
    expect(broken.status).toBe(400)
  })

  it("hides another organization's simulation behind 404", async () => {
    const id = await newSimulation()
    const reply = await request(
      'POST',
      `/api/simulations/${id}/jobs`,
      { cores: 1, solver_id: 1 },
      otherToken,
    )
    expect(reply.status).toBe(404)
    expect(
      (await request('GET', `/api/simulations/${id}/jobs`, undefined, otherToken)).status,
    ).toBe(404)
  })

  it('keeps stop and warning conditions with their validation messages, copied to each run', async () => {
    const id = await newSimulation()
    const base = `/api/simulations/${id}/conditions`
    const tooLate = await request('POST', base, {
      valueType: 'time',
      action: 'stop',
      threshold: 5000,
    })
    expect(tooLate.status).toBe(400)
    expect(tooLate.body.description).toBe(CONDITION_MESSAGES.aboveEndTime)
    const zero = await request('POST', base, { valueType: 'time', action: 'stop', threshold: 0 })
    expect(zero.body.description).toBe(CONDITION_MESSAGES.time)
    const created = await request('POST', base, {
      valueType: 'time',
      action: 'stop',
      threshold: 500,
    })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({
      valueType: 'time',
      action: 'stop',
      operator: '>=',
      threshold: 500,
      triggered: false,
      runId: -1,
    })
    const warning = await request('POST', base, {
      valueType: 'particle_nbr',
      action: 'warning',
      threshold: 10,
    })
    const updated = await request('PUT', `/api/conditions/${warning.body.id}`, {
      valueType: 'particle_nbr',
      action: 'warning',
      threshold: 20,
    })
    expect(updated.body.threshold).toBe(20)
    expect((await request('GET', base)).body).toHaveLength(2)
    expect((await request('DELETE', `/api/conditions/${warning.body.id}`)).body).toEqual({
      id: warning.body.id,
    })

    await start(id)
    const run = (await readSimulation(id)).activeRunId
    expect((await request('GET', `${base}?runId=${run}`)).body).toHaveLength(1)
    expect((await request('GET', base)).body).toHaveLength(1)
    await waitForState(id, ['completed'])
    // this run's own call: the job thread is handed the run after start() answers
    const call = fake.calls.find((input) => input.runId === run)
    expect(call?.conditions).toMatchObject([{ valueType: 'time', threshold: 500 }])
    const other = await request('GET', base, undefined, otherToken)
    expect(other.status).toBe(404)
  })

  it('locks conditions while the simulation is running', async () => {
    script.stepMs = 150
    const id = await newSimulation()
    await start(id)
    await waitForState(id, ['running'])
    const reply = await request('POST', `/api/simulations/${id}/conditions`, {
      valueType: 'runtime',
      action: 'warning',
      threshold: 60,
    })
    expect(reply.status).toBe(409)
    await request('DELETE', `/api/simulations/${id}/jobs`)
    await waitForState(id, ['stopped'])
  })

  it('discretizes: scheduled, then done with its warnings; failed with its errors', async () => {
    const id = await newSimulation()
    expect((await request('GET', `/api/simulations/${id}/discretizations`)).body).toBeNull()
    script.discretizationWarnings = ['Part Water column is far from the origin']
    const started = await request('POST', `/api/simulations/${id}/discretizations`, {})
    expect(started.status).toBe(201)
    expect(started.body).toMatchObject({ state: 'scheduled', progress: 0, errors: [] })
    let record: Json
    do {
      await sleep(20)
      record = (await request('GET', `/api/simulations/${id}/discretizations`)).body
    } while (record.state === 'scheduled' || record.state === 'running')
    expect(record).toMatchObject({
      state: 'done',
      progress: 1,
      warnings: [{ description: 'Part Water column is far from the origin', partId: 1 }],
    })

    script.discretizationErrors = ['Part Water column has no volume']
    await request('POST', `/api/simulations/${id}/discretizations`, {})
    do {
      await sleep(20)
      record = (await request('GET', `/api/simulations/${id}/discretizations`)).body
    } while (record.state === 'scheduled' || record.state === 'running')
    expect(record.state).toBe('failed')
    expect(record.errors[0].description).toBe('Part Water column has no volume')
  })

  it('blocks a discretization of a setup with errors, and cancels a running one', async () => {
    const blocked = await newSimulation()
    blockedSimulations.add(blocked)
    const reply = await request('POST', `/api/simulations/${blocked}/discretizations`, {})
    expect(reply.status).toBe(400)
    expect(reply.body.errors[0].message).toBe(DISCRETIZATION_BLOCKED.text)
    expect(DISCRETIZATION_BLOCKED.text).toBe(
      'There are errors in your setup. Please check the Input Validation bar.',
    )

    script.discretizeMs = 2000
    const id = await newSimulation()
    await request('POST', `/api/simulations/${id}/discretizations`, {})
    expect((await request('POST', `/api/simulations/${id}/discretizations`, {})).status).toBe(409)
    const canceled = await request('DELETE', `/api/simulations/${id}/discretizations`)
    expect(canceled.status).toBe(200)
    expect(canceled.body.state).toBe('canceled')
    expect((await request('DELETE', `/api/simulations/${id}/discretizations`)).status).toBe(409)
  })
})

describeEachDialect('jobs across a server restart', (dialect) => {
  let database: TestDatabase
  beforeAll(async () => {
    database = await createTestDatabase(dialect)
    await migrateToLatest(database.handle)
    await seedDatabase(database.handle.db, createClock())
  })
  afterAll(async () => {
    await database?.drop()
  })

  const startRunAndCrash = async (dataDir: string, waitForOutput: boolean) => {
    const script: FakeScript = { ...DEFAULT_SCRIPT, outputs: 100, stepMs: 50 }
    const first = await startJobsApp(database.handle, {
      executors: createFakeExecutors(script).executors,
      dataDir,
    })
    const login = await fetch(`${first.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: DEMO_USERS.manager.email, password: DEMO_PASSWORD }),
    })
    const { accessToken } = (await login.json()) as { accessToken: string }
    const auth = { authorization: `Bearer ${accessToken}`, 'content-type': 'application/json' }
    const projects = (await (
      await fetch(`${first.baseUrl}/api/projects?pageLimit=1`, { headers: auth })
    ).json()) as Json
    const project = projects.results[0]
    const created = (await (
      await fetch(`${first.baseUrl}/api/projects/${project.id}/simulations`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ name: `Crash ${Math.random()}` }),
      })
    ).json()) as Json
    await fetch(`${first.baseUrl}/api/simulations/${created.id}/jobs`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ cores: 1, solver_id: 1 }),
    })
    for (;;) {
      const run = await database.handle.db
        .selectFrom('runs')
        .select(['last_output', 'state'])
        .where('simulation_id', '=', created.id)
        .executeTakeFirst()
      if (run?.state === 'running' && (!waitForOutput || (run.last_output ?? -1) >= 1)) break
      await sleep(20)
    }
    await first.close()
    return created.id as number
  }
  const readState = async (id: number) =>
    database.handle.db
      .selectFrom('simulations')
      .select(['state', 'resumable', 'active_run_id'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()

  it('resumes a run left running from its last checkpoint', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dive-restart-'))
    const id = await startRunAndCrash(dataDir, true)
    expect((await readState(id)).state).toBe('running')
    const lastOutput = (
      await database.handle.db
        .selectFrom('runs')
        .select('last_output')
        .where('simulation_id', '=', id)
        .executeTakeFirstOrThrow()
    ).last_output

    const script: FakeScript = { ...DEFAULT_SCRIPT, outputs: (lastOutput ?? 0) + 3 }
    const fake = createFakeExecutors(script)
    const second = await startJobsApp(database.handle, { executors: fake.executors, dataDir })
    try {
      for (let i = 0; i < 500 && (await readState(id)).state !== 'completed'; i++) await sleep(20)
      expect((await readState(id)).state).toBe('completed')
      expect(fake.calls[0]).toMatchObject({ resumeFromOutput: lastOutput })
    } finally {
      await second.close()
    }
  })

  it('fails a run left running without a checkpoint, never leaving it running', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'dive-restart-'))
    const id = await startRunAndCrash(dataDir, false)
    await database.handle.db
      .updateTable('runs')
      .set({ last_output: null })
      .where('simulation_id', '=', id)
      .execute()
    const fake = createFakeExecutors({ ...DEFAULT_SCRIPT })
    const second = await startJobsApp(database.handle, { executors: fake.executors, dataDir })
    try {
      const state = await readState(id)
      expect(state.state).toBe('failed')
      expect(fake.calls).toHaveLength(0)
      const [run] = await database.handle.db
        .selectFrom('runs')
        .select(['state', 'message'])
        .where('simulation_id', '=', id)
        .execute()
      expect(run).toEqual({ state: 'failed', message: RUN_TEXTS.serverRestartFailed })
    } finally {
      await second.close()
    }
  })
})
