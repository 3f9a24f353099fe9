import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createDefaultMaterial } from '../../domain/materials.ts'
import { runDirectory } from '../../domain/output/layout.ts'
import type { Simulation } from '../../domain/projects.ts'
import { defaultExportRequest } from '../../domain/results.ts'
import { defaultSettings } from '../../domain/settings.ts'
import { storageFullMessage } from '../../domain/storage.ts'
import { DEMO_SIMULATION_NAME, DEMO_USERS } from '../../server/db/demoAccounts.ts'
import { refreshSimulationSize } from '../../server/storage/usage.ts'
import { runSimulation } from '../../solver/run/runSimulation.ts'
import { buildTankParticles, WATER_ID } from '../../solver/sph/scenarios.ts'
import { describeEachDialect, startTestServer, type TestServer } from './harness.ts'

/*
 * Storage (issue 13, after item 6): a discretization, an export and a clone are refused like an
 * upload when the organization's storage is full (no_storage_limit_enforcement lifts it); a
 * deleted simulation or project takes its post images (files and rows) unless another simulation
 * still shows them; a sensor recomputation leaves the simulation's size and the organization's
 * consumption equal to the bytes on disk. Runs are real solver outputs of a small still tank.
 */

const DP = 0.02
const WIDTH = 10 * DP
const DEPTH = 0.2
const RUN_ID = 1
const OUTPUTS = 3
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A PNG's signature followed by some bytes: the server recognises images by their signature. */
const PNG_BYTES = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('IHDR and the rest of a screenshot'),
])

/** Bytes of the files under `path` (0 when absent). */
function bytesUnder(path: string): number {
  if (!existsSync(path)) return 0
  const stats = statSync(path)
  if (stats.isFile()) return stats.size
  return readdirSync(path).reduce((sum, entry) => sum + bytesUnder(join(path, entry)), 0)
}

let runDir: string

beforeAll(async () => {
  runDir = mkdtempSync(join(tmpdir(), 'dive-storage-run-'))
  const water = createDefaultMaterial(WATER_ID, 1, '2026-01-01T00:00:00Z')
  const result = await runSimulation({
    setup: {
      simulationId: 1,
      settings: {
        ...defaultSettings(),
        particleDiameter: DP,
        endTime: 0.1,
        outputTimeInterval: 0.05,
      },
      materials: [{ ...water, speedOfSound: 1 }],
      parts: [],
      movements: [],
      meshes: {},
    },
    particles: buildTankParticles({
      dp: DP,
      tank: [WIDTH, WIDTH, DEPTH + 6 * DP],
      fluidMin: [0, 0, 0],
      fluidMax: [WIDTH, WIDTH, DEPTH],
      closed: false,
      wallLayers: 3,
    }),
    dataDir: runDir,
    simulationId: 1,
    runId: RUN_ID,
    threads: 1,
    signal: new AbortController().signal,
    solverOptions: { hydrostaticInitialisation: true },
  })
  expect(result.state).toBe('completed')
}, 120_000)
afterAll(() => {
  if (runDir) rmSync(runDir, { recursive: true, force: true })
})

describeEachDialect('storage: refusals, images and sensor results', (dialect) => {
  let server: TestServer
  let manager: string
  let organizationId: number
  let projectId: number

  const db = () => server.database.handle.db
  const api = (method: string, path: string, body?: unknown) =>
    server.request(method, `/api${path}`, { token: manager, ...(body !== undefined && { body }) })
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
    (await api('GET', '/storage_consumption/organization')).body as {
      consumed: number
      available: number
    }
  const setAvailable = (bytes: number) =>
    db()
      .updateTable('organizations')
      .set({ storage_available_bytes: bytes })
      .where('id', '=', organizationId)
      .execute()
  const setFeatures = (features: string[]) =>
    db()
      .updateTable('organizations')
      .set({ features: JSON.stringify(features) })
      .where('id', '=', organizationId)
      .execute()
  const waitFor = async <T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> => {
    const until = Date.now() + 120_000
    for (;;) {
      const value = await read()
      if (done(value) || Date.now() > until) return value
      await sleep(100)
    }
  }
  const active = (state: string | undefined) => state === 'scheduled' || state === 'running'

  /** A simulation whose active run is a copy of the tank run (its size measured, so true). */
  async function createSimulationWithRun(name: string): Promise<Simulation> {
    const created = await api('POST', `/projects/${projectId}/simulations`, {
      name,
      settings: { particleDiameter: DP },
    })
    expect(created.status, created.text).toBe(201)
    const simulation = created.body as Simulation
    cpSync(
      join(runDir, runDirectory(1, RUN_ID)),
      join(server.dataDir, runDirectory(simulation.id, RUN_ID)),
      { recursive: true },
    )
    await db()
      .updateTable('simulations')
      .set({ state: 'completed', active_run_id: RUN_ID })
      .where('id', '=', simulation.id)
      .execute()
    await refreshSimulationSize(db(), server.dataDir, simulation.id)
    return simulation
  }

  const uploadImage = async () => {
    const form = new FormData()
    form.append('file', new Blob([PNG_BYTES]), 'view.png')
    const response = await fetch(`${server.baseUrl}/api/client-upload/images`, {
      method: 'POST',
      headers: { authorization: `Bearer ${manager}` },
      body: form,
    })
    expect(response.status).toBe(201)
    return (await response.json()) as { id: number }
  }
  const imageIds = async () =>
    (await db().selectFrom('uploads').select('id').where('kind', '=', 'image').execute())
      .map((row) => row.id)
      .sort((a, b) => a - b)

  beforeAll(async () => {
    server = await startTestServer(dialect)
    manager = (await server.login(DEMO_USERS.manager.email)).accessToken
    organizationId = (
      await db()
        .selectFrom('users')
        .select('organization_id')
        .where('email', '=', DEMO_USERS.manager.email)
        .executeTakeFirstOrThrow()
    ).organization_id
    const project = await api('POST', '/projects', { name: 'Storage writes' })
    expect(project.status, project.text).toBe(201)
    projectId = project.body.id as number
  })
  afterAll(async () => {
    await server?.close()
  })

  it('refuses a discretization, an export and a clone when the storage is full, unless enforcement is off', async () => {
    const withRun = await createSimulationWithRun('Exported')
    const projects = await api('GET', '/projects?pageLimit=30')
    const demo = (projects.body.results as { simulations: Simulation[] }[])
      .flatMap((p) => p.simulations)
      .find((s) => s.name === DEMO_SIMULATION_NAME)!
    const coarse = await api('PUT', `/simulations/${demo.id}`, {
      settings: { particleDiameter: 0.02, endTime: 0.06, outputTimeInterval: 0.01 },
    })
    expect(coarse.status, coarse.text).toBe(200)

    const full = (await consumed()).consumed
    expect(full).toBeGreaterThan(0)
    await setAvailable(full)
    const refusal = { code: 'storage_full', description: storageFullMessage(full, full) }
    const simulationCount = async () =>
      (await db().selectFrom('simulations').select('id').execute()).length
    const before = { simulations: await simulationCount(), bytes: organizationBytesOnDisk() }

    const discretization = await api('POST', `/simulations/${demo.id}/discretizations`, {})
    expect(discretization.status, discretization.text).toBe(413)
    expect(discretization.body).toMatchObject(refusal)
    expect((await api('GET', `/simulations/${demo.id}/discretizations`)).body).toBeNull()

    const exportPath = `/simulations/${withRun.id}/user_exports`
    const exportBody = {
      ...defaultExportRequest(withRun.id, OUTPUTS - 1),
      allObjects: true,
      allAttributes: true,
    }
    const exported = await api('POST', exportPath, exportBody)
    expect(exported.status, exported.text).toBe(413)
    expect(exported.body).toMatchObject(refusal)
    expect((await api('GET', exportPath)).body.export).toBeNull()

    const clone = await api('POST', `/simulations/${demo.id}`)
    expect(clone.status, clone.text).toBe(413)
    expect(clone.body).toMatchObject(refusal)
    expect(await simulationCount()).toBe(before.simulations)
    expect(organizationBytesOnDisk()).toBe(before.bytes)

    // The organization's feature lifts the limit for all three.
    const features = JSON.parse(
      (
        await db()
          .selectFrom('organizations')
          .select('features')
          .where('id', '=', organizationId)
          .executeTakeFirstOrThrow()
      ).features,
    ) as string[]
    await setFeatures([...features, 'no_storage_limit_enforcement'])
    expect((await api('POST', `/simulations/${demo.id}`)).status).toBe(201)
    const started = await api('POST', `/simulations/${demo.id}/discretizations`, {})
    expect(started.status, started.text).toBe(201)
    const exporting = await api('POST', exportPath, exportBody)
    expect(exporting.status, exporting.text).toBe(201)
    const discretized = await waitFor(
      async () =>
        (await api('GET', `/simulations/${demo.id}/discretizations`)).body as { state: string },
      (body) => !active(body.state),
    )
    expect(discretized.state).toBe('done')
    const done = await waitFor(
      async () => (await api('GET', exportPath)).body as { export: { state: string } },
      (body) => !active(body.export.state),
    )
    expect(done.export.state).toBe('completed')
    await setFeatures(features)
    await setAvailable(10 * 1024 ** 3)
  }, 200_000)

  it('deletes post images with their simulation or project, keeping one another simulation shows', async () => {
    await setAvailable(10 * 1024 ** 3)
    const first = await uploadImage()
    const shared = await uploadImage()
    const unused = await uploadImage()
    const create = async (name: string, postImageId: number) => {
      const created = await api('POST', `/projects/${projectId}/simulations`, { name })
      expect(created.status, created.text).toBe(201)
      const id = created.body.id as number
      const set = await api('PUT', `/simulations/${id}`, { postImageId })
      expect(set.status, set.text).toBe(200)
      return id
    }
    const one = await create('Shows first', first.id)
    const two = await create('Shows shared', shared.id)
    const imagesDir = join(server.dataDir, 'images', String(organizationId))
    const files = () => readdirSync(imagesDir).sort()
    expect(files()).toHaveLength(3)
    expect((await consumed()).consumed).toBe(organizationBytesOnDisk())

    expect((await api('DELETE', `/simulations/${one}`)).status).toBe(200)
    expect(await imageIds()).toEqual([shared.id, unused.id])
    expect(files()).toEqual([`${shared.id}.png`, `${unused.id}.png`])
    expect((await consumed()).consumed).toBe(organizationBytesOnDisk())

    // Another simulation (of another project) shows the shared image: it stays with it.
    const other = await api('POST', '/projects', { name: 'Also shows shared' })
    const three = (await api('POST', `/projects/${other.body.id}/simulations`, { name: 'Three' }))
      .body.id as number
    expect((await api('PUT', `/simulations/${three}`, { postImageId: shared.id })).status).toBe(200)
    expect((await api('DELETE', `/simulations/${two}`)).status).toBe(200)
    expect(await imageIds()).toEqual([shared.id, unused.id])

    // The project takes its simulations' post images; an image nothing showed stays.
    expect((await api('DELETE', `/projects/${other.body.id}`)).status).toBe(200)
    expect(await imageIds()).toEqual([unused.id])
    expect(files()).toEqual([`${unused.id}.png`])
    expect((await consumed()).consumed).toBe(organizationBytesOnDisk())
  })

  it('keeps an image a dashboard tile of another simulation shows, and removes it with that one', async () => {
    await setAvailable(10 * 1024 ** 3)
    const image = await uploadImage()
    const created = async (name: string) =>
      (await api('POST', `/projects/${projectId}/simulations`, { name })).body.id as number
    const posted = await created('Post image')
    expect((await api('PUT', `/simulations/${posted}`, { postImageId: image.id })).status).toBe(200)
    const tiled = await created('Image tile')
    const views = await api('GET', `/simulations/${tiled}/dashboards`)
    expect(views.status, views.text).toBe(200)
    const viewId = (views.body as { id: number }[])[0]!.id
    const tile = await api('POST', `/dashboards/${viewId}/tiles`, {
      type: 'image',
      imageId: image.id,
    })
    expect(tile.status, tile.text).toBe(201)

    expect((await api('DELETE', `/simulations/${posted}`)).status).toBe(200)
    expect(await imageIds()).toContain(image.id)
    expect((await api('GET', `/images/${image.id}`)).status).toBe(200)
    expect((await api('DELETE', `/simulations/${tiled}`)).status).toBe(200)
    expect(await imageIds()).not.toContain(image.id)
    expect((await consumed()).consumed).toBe(organizationBytesOnDisk())
  })

  it("keeps the simulation's size and the consumption true after a sensor recomputation", async () => {
    await setAvailable(10 * 1024 ** 3)
    const simulation = await createSimulationWithRun('Sensors')
    const path = `/simulations/${simulation.id}`
    const sizeOf = async () => ((await api('GET', path)).body as Simulation).size
    expect(await sizeOf()).toBe(simulationBytesOnDisk(simulation.id))
    const sensor = await api('POST', `${path}/custom_sensors`, {
      name: 'Probe',
      kind: 'point',
      position: [WIDTH / 2, WIDTH / 2, 0.08],
    })
    expect(sensor.status, sensor.text).toBe(201)
    const before = simulationBytesOnDisk(simulation.id)
    for (let round = 0; round < 2; round++) {
      const started = await api('POST', `${path}/sensor_outputs/recomputation`)
      expect(started.status, started.text).toBe(201)
      const record = await waitFor(
        async () =>
          (await api('GET', `${path}/sensor_outputs/recomputation`)).body as { state: string },
        (body) => !active(body.state),
      )
      expect(record).toMatchObject({ state: 'done', outputsDone: OUTPUTS })
      // The sensor results are written, and counted.
      expect(simulationBytesOnDisk(simulation.id)).toBeGreaterThan(before)
      expect(await sizeOf()).toBe(simulationBytesOnDisk(simulation.id))
      expect((await consumed()).consumed).toBe(organizationBytesOnDisk())
    }
  }, 60_000)
})
