import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { OUTPUT_MANIFEST_FILE, objectFile, outputDirectory } from '../../domain/output/layout.ts'
import { readBundle, readObjectStream } from '../../domain/output/reader.ts'
import { outputBundleUrl, type OutputManifestList } from '../../domain/rest/resultsRoutes.ts'
import { SYNTHETIC_RUN_OBJECT_IDS, writeSyntheticRun } from '../../scripts/writeSyntheticRun.ts'
import {
  describeEachDialect,
  startTestServer,
  type TestServer,
} from '../../tests/integration/harness.ts'
import { DEMO_USERS, OTHER_ORGANIZATION_USER } from '../db/demoAccounts.ts'
import { BUNDLE_CACHE_CONTROL } from './bundleRoute.ts'

const RUN_ID = 4
const PARTICLES = 2_000

describeEachDialect('results: output manifests and bundles over HTTP', (dialect) => {
  let server: TestServer
  let manager: string
  let simulationId: number

  const get = async (path: string, token: string | null = manager, headers = {}) =>
    fetch(`${server.baseUrl}${path}`, {
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    })

  const listManifests = (query = '', token = manager) =>
    server.request<OutputManifestList>(
      'GET',
      `/api/simulations/${simulationId}/output_manifests${query}`,
      { token },
    )

  beforeAll(async () => {
    server = await startTestServer(dialect)
    manager = (await server.login(DEMO_USERS.manager.email)).accessToken
    const projects = await server.request<{ results: { id: number }[] }>(
      'GET',
      '/api/projects?pageLimit=50',
      { token: manager },
    )
    const created = await server.request<{ id: number }>(
      'POST',
      `/api/projects/${projects.body.results[0]?.id}/simulations`,
      { token: manager, body: { name: 'Dam break results' } },
    )
    simulationId = created.body.id
  })
  afterAll(async () => {
    await server?.close()
  })

  it('lists no outputs and no run for a simulation that never ran', async () => {
    const reply = await listManifests()
    expect(reply.status).toBe(200)
    expect(reply.body).toEqual({ simulationId, runId: null, outputs: [] })
  })

  it('lists the complete outputs of the run on disk in output order, leaving out one still being written', async () => {
    await writeSyntheticRun({
      dataDir: server.dataDir,
      simulationId,
      runId: RUN_ID,
      outputCount: 3,
      particles: PARTICLES,
    })
    rmSync(join(server.dataDir, outputDirectory(simulationId, RUN_ID, 2), OUTPUT_MANIFEST_FILE))
    const reply = await listManifests()
    expect(reply.status).toBe(200)
    const body = reply.body
    expect(body.runId).toBe(RUN_ID)
    expect(body.outputs.map((output) => output.outputNo)).toEqual([0, 1])
    expect(body.outputs[1]?.timeS).toBeCloseTo(0.05)
    const fluid = body.outputs[0]?.objects.find(
      (object) => object.objectId === SYNTHETIC_RUN_OBJECT_IDS.fluid,
    )
    expect(fluid).toMatchObject({ kind: 'fluid', particleCount: { full: PARTICLES } })
  })

  it('prefers the active run named by the simulation over the newest directory', async () => {
    await writeSyntheticRun({
      dataDir: server.dataDir,
      simulationId,
      runId: RUN_ID + 1,
      outputCount: 1,
      particles: 500,
    })
    await server.database.handle.db
      .updateTable('simulations')
      .set({ state: 'completed', active_run_id: RUN_ID })
      .where('id', '=', simulationId)
      .execute()
    expect((await listManifests()).body.runId).toBe(RUN_ID)
    const other = await listManifests(`?runId=${RUN_ID + 1}`)
    expect(other.body.outputs).toHaveLength(1)
  })

  it('streams every object of an output as a DIVB bundle whose entries are the files on disk', async () => {
    const response = await get(outputBundleUrl(simulationId, RUN_ID, 1, { dataset: 'full' }))
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/octet-stream')
    expect(response.headers.get('cache-control')).toBe(BUNDLE_CACHE_CONTROL)
    expect(response.headers.get('etag')).toMatch(/^"[\w-]+"$/)
    expect(response.headers.get('cross-origin-embedder-policy')).toBe('require-corp')
    const bytes = new Uint8Array(await response.arrayBuffer())
    expect(Number(response.headers.get('content-length'))).toBe(bytes.length)
    const entries = readBundle(bytes)
    expect(entries.map((entry) => entry.objectId).sort()).toEqual(
      [SYNTHETIC_RUN_OBJECT_IDS.fluid, SYNTHETIC_RUN_OBJECT_IDS.wall, 'clip-1'].sort(),
    )
    for (const entry of entries) {
      const onDisk = readFileSync(
        join(server.dataDir, objectFile(simulationId, RUN_ID, 1, entry.objectId, 'full')),
      )
      expect(Buffer.from(entry.bytes).equals(onDisk)).toBe(true)
      expect(entry).toMatchObject({ outputNo: 1, dataset: 'full' })
    }
    const fluid = entries.find((entry) => entry.objectId === SYNTHETIC_RUN_OBJECT_IDS.fluid)!
    expect(readObjectStream(fluid.bytes).rowCount).toBe(PARTICLES)
  })

  it('serves only the requested objects of the requested dataset', async () => {
    const url = outputBundleUrl(simulationId, RUN_ID, 0, {
      dataset: 'fast',
      objectIds: [SYNTHETIC_RUN_OBJECT_IDS.fluid],
    })
    const entries = readBundle(new Uint8Array(await (await get(url)).arrayBuffer()))
    expect(entries).toHaveLength(1)
    expect(entries[0]).toMatchObject({ objectId: SYNTHETIC_RUN_OBJECT_IDS.fluid, dataset: 'fast' })
    expect(readObjectStream(entries[0]!.bytes).meta.dataset).toBe('fast')
  })

  it('answers 304 Not Modified to a matching If-None-Match, and a different tag per dataset', async () => {
    const url = outputBundleUrl(simulationId, RUN_ID, 0, { dataset: 'full' })
    const tag = (await get(url)).headers.get('etag')!
    const again = await get(url, manager, { 'if-none-match': tag })
    expect(again.status).toBe(304)
    expect((await again.arrayBuffer()).byteLength).toBe(0)
    const fast = await get(outputBundleUrl(simulationId, RUN_ID, 0, { dataset: 'fast' }))
    expect(fast.headers.get('etag')).not.toBe(tag)
  })

  it('answers one byte range with 206 and exactly those bytes, a range past the end with 416', async () => {
    const url = outputBundleUrl(simulationId, RUN_ID, 1, { dataset: 'full' })
    const full = await get(url)
    expect(full.headers.get('accept-ranges')).toBe('bytes')
    const tag = full.headers.get('etag')!
    const whole = new Uint8Array(await full.arrayBuffer())
    const part = await get(url, manager, { range: 'bytes=100-4099' })
    expect(part.status).toBe(206)
    expect(part.headers.get('content-range')).toBe(`bytes 100-4099/${whole.length}`)
    expect(part.headers.get('content-length')).toBe('4000')
    expect(part.headers.get('etag')).toBe(tag)
    expect(part.headers.get('cache-control')).toBe(BUNDLE_CACHE_CONTROL)
    const bytes = new Uint8Array(await part.arrayBuffer())
    expect(Buffer.from(bytes).equals(Buffer.from(whole.subarray(100, 4100)))).toBe(true)
    const tail = await get(url, manager, { range: 'bytes=-10', 'if-range': tag })
    expect(tail.status).toBe(206)
    expect(Buffer.from(await tail.arrayBuffer()).equals(Buffer.from(whole.subarray(-10)))).toBe(
      true,
    )
    // A stale If-Range gets the whole (new) body.
    const stale = await get(url, manager, { range: 'bytes=0-9', 'if-range': '"old"' })
    expect(stale.status).toBe(200)
    expect((await stale.arrayBuffer()).byteLength).toBe(whole.length)
    const past = await get(url, manager, { range: `bytes=${whole.length}-` })
    expect(past.status).toBe(416)
    expect(past.headers.get('content-range')).toBe(`bytes */${whole.length}`)
    const other = (await server.login(OTHER_ORGANIZATION_USER.email)).accessToken
    expect((await get(url, other, { range: 'bytes=0-9' })).status).toBe(404)
  })

  it('answers 404 with a clear body for a missing output, an incomplete one and an unknown object', async () => {
    const missing = await get(outputBundleUrl(simulationId, RUN_ID, 9, { dataset: 'full' }))
    expect(missing.status).toBe(404)
    expect(await missing.json()).toMatchObject({
      code: 'resource_not_found',
      description: `Output 9 of run ${RUN_ID} was not found.`,
    })
    expect((await get(outputBundleUrl(simulationId, RUN_ID, 2, { dataset: 'full' }))).status).toBe(
      404,
    )
    const unknown = await get(
      outputBundleUrl(simulationId, RUN_ID, 0, { dataset: 'full', objectIds: ['nope'] }),
    )
    expect(unknown.status).toBe(404)
    expect(await unknown.json()).toMatchObject({ description: 'Output 0 has no object nope.' })
  })

  it('refuses an unknown dataset, a missing token and another organization', async () => {
    const bad = await get(
      `/api/simulations/${simulationId}/runs/${RUN_ID}/outputs/0/bundle?dataset=surface`,
    )
    expect(bad.status).toBe(400)
    const url = outputBundleUrl(simulationId, RUN_ID, 0, { dataset: 'full' })
    expect((await get(url, null)).status).toBe(401)
    const other = (await server.login(OTHER_ORGANIZATION_USER.email)).accessToken
    expect((await get(url, other)).status).toBe(404)
    const listed = await server.request(
      'GET',
      `/api/simulations/${simulationId}/output_manifests`,
      {
        token: other,
      },
    )
    expect(listed.status).toBe(404)
  })
})
