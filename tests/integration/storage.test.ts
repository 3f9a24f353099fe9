import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Simulation } from '../../domain/projects.ts'
import { storageFullMessage } from '../../domain/storage.ts'
import { buildApp } from '../../server/app.ts'
import {
  DEMO_PROJECT_NAME,
  DEMO_SIMULATION_NAME,
  DEMO_USERS,
} from '../../server/db/demoAccounts.ts'
import { describeEachDialect, startTestServer, type Json, type TestServer } from './harness.ts'

/*
 * Storage truth (issue 13 item 6): sizes equal the bytes on disk after a real run, deleting a
 * simulation or project removes its files and the uploads only it used, the organization's limit
 * refuses uploads and runs with its message (no_storage_limit_enforcement lifts it), and a start
 * sweeps orphans and cut uploads.
 */

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Bytes of the files under `path` (0 when absent). */
function bytesUnder(path: string): number {
  if (!existsSync(path)) return 0
  const stats = statSync(path)
  if (stats.isFile()) return stats.size
  return readdirSync(path).reduce((sum, entry) => sum + bytesUnder(join(path, entry)), 0)
}

describeEachDialect('storage accounting', (dialect) => {
  let server: TestServer
  let manager: string
  let organizationId: number
  let projectId: number
  let simulationId: number

  const db = () => server.database.handle.db
  const simulationBytesOnDisk = (id: number) =>
    ['simulations', 'discretizations', 'assemblies'].reduce(
      (sum, root) => sum + bytesUnder(join(server.dataDir, root, String(id))),
      0,
    )
  const organizationBytesOnDisk = () =>
    ['simulations', 'discretizations', 'assemblies'].reduce(
      (sum, root) => sum + bytesUnder(join(server.dataDir, root)),
      0,
    ) +
    ['uploads', 'images'].reduce(
      (sum, root) => sum + bytesUnder(join(server.dataDir, root, String(organizationId))),
      0,
    )
  const consumed = async () =>
    (await server.request('GET', '/api/storage_consumption/organization', { token: manager }))
      .body as { consumed: number; available: number }
  const readSimulation = async (id: number) =>
    (await server.request<Simulation>('GET', `/api/simulations/${id}`, { token: manager })).body
  const uploadCsv = async (fileName: string, text: string) => {
    const form = new FormData()
    form.append('file', new Blob([text]), fileName)
    const response = await fetch(`${server.baseUrl}/api/client-upload/uploads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${manager}` },
      body: form,
    })
    return { status: response.status, body: (await response.json()) as Json }
  }
  const waitFor = async (
    path: string,
    done: (body: { state: string }) => boolean,
  ): Promise<{ state: string }> => {
    const until = Date.now() + 120_000
    for (;;) {
      const body = (await server.request<{ state: string }>('GET', path, { token: manager })).body
      if (done(body) || Date.now() > until) return body
      await sleep(100)
    }
  }

  beforeAll(async () => {
    server = await startTestServer(dialect)
    manager = (await server.login(DEMO_USERS.manager.email)).accessToken
    const projects = await server.request('GET', '/api/projects?pageLimit=30', { token: manager })
    const project = (projects.body.results as Json[]).find((p) => p.name === DEMO_PROJECT_NAME)
    projectId = project.id
    simulationId = (project.simulations as Json[]).find((s) => s.name === DEMO_SIMULATION_NAME).id
    organizationId = (
      await db()
        .selectFrom('simulations')
        .select('organization_id')
        .where('id', '=', simulationId)
        .executeTakeFirstOrThrow()
    ).organization_id
    const coarse = await server.request('PUT', `/api/simulations/${simulationId}`, {
      token: manager,
      body: { settings: { particleDiameter: 0.02, endTime: 0.06, outputTimeInterval: 0.01 } },
    })
    expect(coarse.status).toBe(200)
  })
  afterAll(async () => {
    await server?.close()
  })

  it("makes a real run's simulation size and the organization's consumption the bytes on disk", async () => {
    expect((await consumed()).consumed).toBe(0)
    const path = `/api/simulations/${simulationId}`
    const discretized = await server.request('POST', `${path}/discretizations`, {
      token: manager,
      body: {},
    })
    expect(discretized.status, JSON.stringify(discretized.body)).toBe(201)
    await waitFor(`${path}/discretizations`, (r) => !['scheduled', 'running'].includes(r.state))
    const started = await server.request('POST', `${path}/jobs`, {
      token: manager,
      body: { cores: 1, solver_id: 1 },
    })
    expect(started.status, JSON.stringify(started.body)).toBe(201)
    const done = await waitFor(path, (s) => ['completed', 'failed', 'stopped'].includes(s.state))
    expect(done.state).toBe('completed')
    const onDisk = simulationBytesOnDisk(simulationId)
    expect(onDisk).toBeGreaterThan(100_000)
    expect((await readSimulation(simulationId)).size).toBe(onDisk)
    expect((await consumed()).consumed).toBe(organizationBytesOnDisk())
    const project = (await server.request('GET', `/api/projects/${projectId}`, { token: manager }))
      .body
    expect(project.size).toBe(onDisk)
  }, 200_000)

  it('deletes a simulation with its files and the uploads only it used, keeping shared ones', async () => {
    const own = await uploadCsv('own.csv', 'time,acc_x\n0,0\n1,1\n')
    const shared = await uploadCsv('shared.csv', 'time,acc_x\n0,0\n2,2\n')
    expect([own.status, shared.status]).toEqual([201, 201])
    const before = await consumed()
    expect(before.consumed).toBe(organizationBytesOnDisk())
    const create = async (name: string, fileId: number) => {
      const created = await server.request('POST', `/api/projects/${projectId}/simulations`, {
        token: manager,
        body: { name },
      })
      expect(created.status).toBe(201)
      const id = created.body.id as number
      const set = await server.request('PUT', `/api/simulations/${id}`, {
        token: manager,
        body: { settings: { accelerationFileId: fileId } },
      })
      expect(set.status, JSON.stringify(set.body)).toBe(200)
      return id
    }
    const ownId = own.body.id as number
    const sharedId = shared.body.id as number
    const first = await create('uses own and shared', ownId)
    await create('uses shared', sharedId)
    await server.request('PUT', `/api/simulations/${first}`, {
      token: manager,
      body: { settings: { accelerationFileId: ownId } },
    })
    // 'first' uses own.csv; a clone of the demo uses nothing; the run's simulation has outputs.
    const second = (
      await server.request('POST', `/api/projects/${projectId}/simulations`, {
        token: manager,
        body: { name: 'also shared' },
      })
    ).body.id as number
    await server.request('PUT', `/api/simulations/${second}`, {
      token: manager,
      body: { settings: { accelerationFileId: sharedId } },
    })
    const ownPath = join(server.dataDir, 'uploads', String(organizationId), `${ownId}.csv`)
    expect(existsSync(ownPath)).toBe(true)
    expect(
      (await server.request('DELETE', `/api/simulations/${first}`, { token: manager })).status,
    ).toBe(200)
    expect(existsSync(ownPath)).toBe(false)
    const uploads = await db().selectFrom('uploads').select('id').execute()
    expect(uploads.map((u) => u.id)).toEqual([sharedId])

    const runPath = join(server.dataDir, 'simulations', String(simulationId))
    expect(existsSync(runPath)).toBe(true)
    expect(
      (await server.request('DELETE', `/api/simulations/${simulationId}`, { token: manager }))
        .status,
    ).toBe(200)
    expect(existsSync(runPath)).toBe(false)
    expect(existsSync(join(server.dataDir, 'discretizations', String(simulationId)))).toBe(false)
    expect((await consumed()).consumed).toBe(organizationBytesOnDisk())

    // A project takes its simulations' files and the uploads only they used.
    expect(
      (await server.request('DELETE', `/api/projects/${projectId}`, { token: manager })).status,
    ).toBe(200)
    expect(await db().selectFrom('uploads').select('id').execute()).toEqual([])
    expect((await consumed()).consumed).toBe(0)
    expect(organizationBytesOnDisk()).toBe(0)
  }, 60_000)

  it("refuses an upload beyond the organization's storage with its message, unless enforcement is off", async () => {
    const used = await uploadCsv('first.csv', 'time,acc_x\n0,0\n1,1\n')
    expect(used.status).toBe(201)
    const available = (await consumed()).consumed + 10
    await db()
      .updateTable('organizations')
      .set({ storage_available_bytes: available })
      .where('id', '=', organizationId)
      .execute()
    const files = () => bytesUnder(join(server.dataDir, 'uploads'))
    const filesBefore = files()
    const refused = await uploadCsv('second.csv', 'time,acc_x\n0,0\n1,1\n')
    expect(refused.status).toBe(413)
    expect(refused.body).toMatchObject({
      code: 'storage_full',
      description: storageFullMessage((await consumed()).consumed, available),
    })
    expect(files()).toBe(filesBefore)
    // A run is refused too while nothing is left.
    const project = await server.request('POST', '/api/projects', {
      token: manager,
      body: { name: 'Full storage' },
    })
    const simulation = await server.request(
      'POST',
      `/api/projects/${project.body.id}/simulations`,
      {
        token: manager,
        body: { name: 'No room' },
      },
    )
    await db()
      .updateTable('organizations')
      .set({ storage_available_bytes: (await consumed()).consumed })
      .where('id', '=', organizationId)
      .execute()
    const run = await server.request('POST', `/api/simulations/${simulation.body.id}/jobs`, {
      token: manager,
      body: { cores: 1, solver_id: 1 },
    })
    expect(run.status).toBe(413)
    expect(run.body.code).toBe('storage_full')

    const features = JSON.parse(
      (
        await db()
          .selectFrom('organizations')
          .select('features')
          .where('id', '=', organizationId)
          .executeTakeFirstOrThrow()
      ).features,
    ) as string[]
    await db()
      .updateTable('organizations')
      .set({ features: JSON.stringify([...features, 'no_storage_limit_enforcement']) })
      .where('id', '=', organizationId)
      .execute()
    expect((await uploadCsv('third.csv', 'time,acc_x\n0,0\n1,1\n')).status).toBe(201)
  })

  it('sweeps the directories of deleted simulations, stray uploads and cut .part files at start', async () => {
    const orphanRun = join(server.dataDir, 'simulations', '987654', 'runs', '1')
    mkdirSync(orphanRun, { recursive: true })
    writeFileSync(join(orphanRun, 'log.jsonl'), 'x'.repeat(1000))
    const uploadsDir = join(server.dataDir, 'uploads', String(organizationId))
    mkdirSync(uploadsDir, { recursive: true })
    writeFileSync(join(uploadsDir, '987654.mesh'), 'stray')
    const cut = join(uploadsDir, '55.csv.123-abcd.part')
    writeFileSync(cut, 'half an upload')
    const kept = (await db().selectFrom('uploads').select('id').execute()).length
    // A second start on the same database and data directory (the first app is still up).
    const restarted = await buildApp({
      db: db(),
      dataDir: server.dataDir,
      distDir: join(server.dataDir, 'no-dist'),
    })
    await restarted.close()
    expect(existsSync(join(server.dataDir, 'simulations', '987654'))).toBe(false)
    expect(existsSync(join(uploadsDir, '987654.mesh'))).toBe(false)
    expect(existsSync(cut)).toBe(false)
    expect((await db().selectFrom('uploads').select('id').execute()).length).toBe(kept)
    expect(readdirSync(uploadsDir).length).toBe(kept)
  })
})
