/**
 * Issue 13's fault suite on both databases: a real server process (server/main.ts) is killed with
 * SIGKILL during a run of the demo simulation, in the middle of a large STL upload streamed slowly,
 * and during a VTU export, then started again on the same data directory and database. After each
 * start: nothing half-written is visible (no upload row without its file, no temporary left, no
 * export listed as done without its files, outputs listed only when whole), the simulations' sizes
 * and the organization's consumption are the bytes on disk, the credits add up, and the run
 * resumes from its checkpoint to completion.
 *
 * `npm test` runs one kill of each kind; `npm run fuzz` (FAULT_PROFILE=long) kills several times at
 * random moments (FAULT_SEED, FAULT_KILLS) and prints the counts: tried, recovered cleanly, lost.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { defaultExportRequest } from '../../domain/results.ts'
import { openDatabase, type DatabaseHandle } from '../../server/db/connect.ts'
import {
  DEMO_PROJECT_NAME,
  DEMO_SIMULATION_NAME,
  DEMO_USERS,
} from '../../server/db/demoAccounts.ts'
import {
  checkCredits,
  checkExports,
  checkNoTemporaries,
  checkOutputsComplete,
  checkSizes,
  checkUploads,
  startingCreditsOf,
} from '../fuzz/faultChecks.ts'
import {
  buildTetrahedraStl,
  formatFaultCounts,
  pollUntil,
  sleep,
  uploadAndKill,
  type FaultCounts,
} from '../fuzz/faultScenarios.ts'
import { createRandom } from '../../domain/random.ts'
import {
  loginTo,
  startServerProcess,
  type ApiClient,
  type ServerProcess,
} from '../fuzz/serverProcess.ts'
import { createTestDatabase, describeEachDialect, type Json, type TestDatabase } from './harness.ts'

const LONG = process.env.FAULT_PROFILE === 'long'
const KILLS = Number(process.env.FAULT_KILLS ?? (LONG ? 4 : 1))
const SEED = Number(process.env.FAULT_SEED ?? (LONG ? Date.now() % 1_000_000 : 13))
const END_STATES = ['completed', 'failed', 'stopped']

describeEachDialect('kill -9 faults', (dialect) => {
  let dataDir: string
  let database: TestDatabase | undefined
  let checker: DatabaseHandle
  let server: ServerProcess | undefined
  let api: ApiClient
  let simulationId: number
  let organizationId: number
  let startingCredits: number
  const random = createRandom(SEED + (dialect === 'postgres' ? 1 : 0))
  const counts: Record<string, FaultCounts> = {
    run: { tried: 0, recovered: 0, lost: 0 },
    upload: { tried: 0, recovered: 0, lost: 0 },
    export: { tried: 0, recovered: 0, lost: 0 },
  }

  const start = async () => {
    server = await startServerProcess({ dataDir, databaseUrl: database?.location })
    api = await loginTo(server.baseUrl, DEMO_USERS.manager.email)
  }
  const db = () => checker.db
  const consumed = async () =>
    (await api.request<{ consumed: number }>('GET', '/api/storage_consumption/organization')).body
      .consumed
  const simulationState = async () =>
    (
      await api.request<{ state: string; activeRunId: number | null }>(
        'GET',
        `/api/simulations/${simulationId}`,
      )
    ).body
  const listedOutputs = async () => {
    const reply = await api.request<{ outputNo: number }[]>(
      'GET',
      `/api/simulations/${simulationId}/outputs`,
    )
    return reply.status === 200 ? reply.body.map((o) => o.outputNo) : []
  }
  /** The checks that hold whenever nothing is being written. */
  const checkAtRest = async (): Promise<string[]> => [
    ...checkNoTemporaries(dataDir),
    ...(await checkUploads(db(), dataDir)),
    ...(await checkExports(db(), dataDir)),
    ...(await checkSizes(db(), dataDir, organizationId, await consumed())),
    ...(await checkCredits(db(), organizationId, startingCredits)),
  ]
  const record = (kind: string, problems: string[], moment: string) => {
    const count = counts[kind]!
    count.tried++
    if (LONG) console.log(`[${dialect}] ${kind} kill ${count.tried}: ${moment}`)
    if (problems.length === 0) count.recovered++
    else {
      count.lost++
      console.log(`[${dialect}] ${kind} kill ${count.tried}:\n  ${problems.join('\n  ')}`)
    }
  }

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'dive-faults-'))
    database = dialect === 'postgres' ? await createTestDatabase('postgres') : undefined
    // The server migrates and seeds; the test reads the same database to check it.
    await start()
    checker = database?.handle ?? openDatabase({ sqlitePath: join(dataDir, 'dive.sqlite') })
    const projects = await api.request<Json>('GET', '/api/projects?pageLimit=30')
    const project = (projects.body.results as Json[]).find((p) => p.name === DEMO_PROJECT_NAME)
    simulationId = (project.simulations as Json[]).find((s) => s.name === DEMO_SIMULATION_NAME).id
    organizationId = (
      await db()
        .selectFrom('simulations')
        .select('organization_id')
        .where('id', '=', simulationId)
        .executeTakeFirstOrThrow()
    ).organization_id
    startingCredits = await startingCreditsOf(db(), organizationId)
    // The demo simulation, coarse enough for a 2-core machine: 7 outputs.
    const coarse = await api.request('PUT', `/api/simulations/${simulationId}`, {
      settings: { particleDiameter: 0.02, endTime: 0.06, outputTimeInterval: 0.01 },
    })
    expect(coarse.status, coarse.text).toBe(200)
  }, 60_000)
  afterAll(async () => {
    if (LONG) console.log(formatFaultCounts(`faults [${dialect}] seed ${SEED}`, counts))
    await server?.stop()
    if (database) await database.drop()
    else await checker?.db.destroy()
    rmSync(dataDir, { recursive: true, force: true })
  }, 60_000)

  it(
    'a run killed mid-way resumes from its checkpoint to completion, its outputs whole and its size and credits true',
    async () => {
      const path = `/api/simulations/${simulationId}`
      const discretized = await api.request('POST', `${path}/discretizations`, {})
      expect(discretized.status, discretized.text).toBe(201)
      const discretization = await pollUntil(
        async () => (await api.request<{ state: string }>('GET', `${path}/discretizations`)).body,
        (d) => !['scheduled', 'running'].includes(d.state),
        60_000,
      )
      expect(discretization.state).toBe('done')
      const started = await api.request('POST', `${path}/jobs`, { cores: 1, solver_id: 1 })
      expect(started.status, started.text).toBe(201)
      for (let kill = 0; kill < KILLS; kill++) {
        // Kill once some outputs (a random number of them in the long profile) are written.
        const before = (await listedOutputs()).length
        const wanted = LONG ? before + 1 + Math.floor(random() * 2) : 2
        const reached = await pollUntil(
          async () => ({ outputs: await listedOutputs(), state: (await simulationState()).state }),
          (s) => s.outputs.length >= wanted || END_STATES.includes(s.state),
          120_000,
          50,
        )
        if (END_STATES.includes(reached.state)) break
        if (LONG) await sleep(Math.floor(random() * 400))
        await server!.kill()
        const listedBefore = await db()
          .selectFrom('runs')
          .select(['id', 'last_output'])
          .where('simulation_id', '=', simulationId)
          .orderBy('id', 'desc')
          .executeTakeFirstOrThrow()
        await start()
        // Right after the start the run is resumed, never left for dead.
        const resumed = await simulationState()
        const problems: string[] = []
        if (!['launching', 'scheduled', 'running', 'completed'].includes(resumed.state))
          problems.push(`after the start the simulation is ${resumed.state}`)
        if (resumed.activeRunId !== listedBefore.id)
          problems.push(`the active run is ${resumed.activeRunId}, was ${listedBefore.id}`)
        problems.push(
          ...checkOutputsComplete(dataDir, simulationId, listedBefore.id, await listedOutputs()),
        )
        record('run', problems, `after output ${reached.outputs.at(-1)}`)
      }
      const done = await pollUntil(simulationState, (s) => END_STATES.includes(s.state), 150_000)
      expect(done.state).toBe('completed')
      const outputs = await listedOutputs()
      expect(outputs).toEqual([0, 1, 2, 3, 4, 5, 6])
      expect(checkOutputsComplete(dataDir, simulationId, done.activeRunId!, outputs)).toEqual([])
      const runs = await db()
        .selectFrom('runs')
        .select(['id', 'state'])
        .where('simulation_id', '=', simulationId)
        .execute()
      expect(runs).toEqual([{ id: done.activeRunId, state: 'completed' }])
      expect(await checkAtRest()).toEqual([])
      expect(counts.run!.lost).toBe(0)
    },
    LONG ? 600_000 : 180_000,
  )

  it(
    'an STL upload cut by a kill leaves no row, no file and no .part after the start',
    async () => {
      const stl = buildTetrahedraStl(LONG ? 120_000 : 60_000)
      for (let kill = 0; kill < KILLS; kill++) {
        const uploadsBefore = await db().selectFrom('uploads').select('id').execute()
        // Short profile: half the body. Long: anywhere, the whole body and a moment after included.
        const fraction = LONG ? 0.2 + random() * 0.9 : 0.5
        const afterMs = Math.floor(random() * 300)
        const cut = await uploadAndKill(server!, api.token, stl, fraction, afterMs)
        await start()
        const problems = [...checkNoTemporaries(dataDir), ...(await checkUploads(db(), dataDir))]
        const uploadsAfter = await db().selectFrom('uploads').select('id').execute()
        // A cut body never becomes an upload; a whole one is either stored whole or not at all.
        if (fraction < 1 && uploadsAfter.length !== uploadsBefore.length)
          problems.push(`a cut upload (${cut.sentBytes} bytes sent) left an upload row`)
        if (cut.status === 201 && uploadsAfter.length !== uploadsBefore.length + 1)
          problems.push('an upload answered 201 is gone after the start')
        problems.push(...(await checkSizes(db(), dataDir, organizationId, await consumed())))
        record(
          'upload',
          problems,
          `${cut.sentBytes} of ${stl.length} bytes sent, answered ${cut.status ?? 'nothing'}`,
        )
      }
      expect(await checkAtRest()).toEqual([])
      expect(counts.upload!.lost).toBe(0)
    },
    LONG ? 300_000 : 60_000,
  )

  it(
    'a VTU export killed while it writes is failed at the start with its files removed, and a new one completes',
    async () => {
      const body = {
        ...defaultExportRequest(simulationId, 6),
        allObjects: true,
        allAttributes: true,
        outputMode: 'range' as const,
        outputsRange: [0, 6] as [number, number],
        logs: true,
        setup: true,
      }
      const path = `/api/simulations/${simulationId}/user_exports`
      for (let kill = 0; kill < KILLS; kill++) {
        const posted = await api.request<{ state: string }>('POST', path, body)
        expect(posted.status, posted.text).toBe(201)
        if (LONG) await sleep(Math.floor(random() * 60))
        const stateAtKill = (await api.request<Json>('GET', path)).body.export?.state as string
        await server!.kill()
        await start()
        const problems = [...(await checkExports(db(), dataDir)), ...checkNoTemporaries(dataDir)]
        const after = (await api.request<Json>('GET', path)).body.export
        if (stateAtKill !== 'completed' && after?.state !== 'failed')
          problems.push(
            `an export killed while ${stateAtKill} reads ${after?.state} after the start`,
          )
        if (stateAtKill === 'completed' && after?.state !== 'completed')
          problems.push(`a completed export reads ${after?.state} after the start`)
        problems.push(...(await checkSizes(db(), dataDir, organizationId, await consumed())))
        record('export', problems, `while ${stateAtKill}`)
      }
      const posted = await api.request('POST', path, body)
      expect(posted.status, posted.text).toBe(201)
      const done = await pollUntil(
        async () => (await api.request<{ export: { state: string } }>('GET', path)).body.export,
        (e) => !['scheduled', 'running'].includes(e.state),
        60_000,
        50,
      )
      expect(done.state).toBe('completed')
      expect(await checkAtRest()).toEqual([])
      expect(counts.export!.lost).toBe(0)
    },
    LONG ? 300_000 : 60_000,
  )

  it("sweeps at start the .tmp a run's atomic write leaves when it is killed between write and rename", async () => {
    const runId = (await simulationState()).activeRunId!
    await server!.kill()
    // What a kill leaves between writeFile(`${path}.tmp`) and rename in solver/run/outputs.ts.
    const runDir = join(dataDir, 'simulations', String(simulationId), 'runs', String(runId))
    const cut = [
      join(runDir, 'outputs', '000007', 'manifest.json.tmp'),
      join(runDir, 'checkpoint-cut.bin.tmp'),
    ]
    for (const path of cut) {
      mkdirSync(dirname(path), { recursive: true })
      writeFileSync(path, 'x'.repeat(4096))
    }
    await start()
    expect(cut.filter((path) => existsSync(path))).toEqual([])
    expect(await listedOutputs()).toEqual([0, 1, 2, 3, 4, 5, 6])
    expect(await checkAtRest()).toEqual([])
  })
})
