import { existsSync, readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { decodeMeshFile, type TriangleMesh } from '../../domain/meshFile.ts'
import { decodePointCloudFile } from '../../domain/pointCloudFile.ts'
import { buildBoxMesh, computeMeshVolume } from '../../solver/geometry/mesh.ts'
import { encodeBinaryStl } from '../../solver/geometry/stl.ts'
import { describeEachDialect, type Json } from '../../tests/integration/harness.ts'
import { SETUP_FILE_CACHE_CONTROL } from './fileRoutes.ts'
import { flippedMeshStoredPath } from './meshFiles.ts'
import { startSetupTestServer, type JsonObject, type SetupTestServer } from './testServer.ts'

/*
 * The binary downloads of the Setup editor (docs/setup-editor.md "Binary downloads"): part
 * meshes in their own coordinates, part point clouds of the latest successful discretization,
 * placed sensor/clip/refinement meshes; their URLs in the JSON, ETags, access and cleanup.
 */

const water = { name: 'Water', component: { type: 'filling' } }
const cubeShape = (dimensions: number[], extra: object = {}) => ({
  type: 'stl_cube',
  dimensions,
  ...extra,
})
/** Signed volume of a decoded mesh: positive when its triangles wind outwards. */
const volumeOf = (mesh: TriangleMesh) => computeMeshVolume(mesh)

describeEachDialect('setup binary downloads', (dialect) => {
  let server: SetupTestServer
  const api = (...args: Parameters<SetupTestServer['api']>) => server.api(...args)
  const download = (url: string, headers: Record<string, string> = {}, token?: string | null) =>
    api('GET', url.replace(/^\/api/, ''), { headers, ...(token !== undefined && { token }) })

  beforeAll(async () => {
    server = await startSetupTestServer(dialect)
  })
  afterAll(async () => {
    await server?.close()
  })

  it("serves a cube part's mesh in its own coordinates with an ETag, and 304 when unchanged", async () => {
    const simulation = await server.createSimulation('Cube mesh')
    const part = await server.createPart(simulation, {
      ...water,
      shape: cubeShape([2, 1, 0.5], { translation: [5, 5, 5], rotation: [0, 0, 30] }),
    })
    expect(part.meshUrl).toBe(`/api/parts/${part.id}/mesh?v=${part.meshHash}`)
    const reply = await download(part.meshUrl as string)
    expect(reply.status).toBe(200)
    expect(reply.headers.get('content-type')).toBe('application/octet-stream')
    expect(reply.headers.get('etag')).toBe(`"${part.meshHash}"`)
    expect(reply.headers.get('cache-control')).toBe(SETUP_FILE_CACHE_CONTROL)
    const mesh = decodeMeshFile(reply.bytes)
    expect(mesh.indices.length / 3).toBe(12)
    const xs = [...mesh.positions].filter((_, i) => i % 3 === 0)
    expect([Math.min(...xs), Math.max(...xs)]).toEqual([-1, 1])
    expect(volumeOf(mesh)).toBeCloseTo(1, 6)
    const again = await download(part.meshUrl as string, { 'if-none-match': `"${part.meshHash}"` })
    expect(again.status).toBe(304)
    expect(again.bytes.length).toBe(0)
  })

  it('keeps the mesh hash when the part moves and changes it with dimensions or flipNormals', async () => {
    const simulation = await server.createSimulation('Mesh hash')
    const part = await server.createPart(simulation, { ...water, shape: cubeShape([1, 1, 1]) })
    const update = async (shape: object) =>
      (await api('PUT', `/parts/${part.id}`, { body: { shape } })).body as JsonObject
    const moved = await update(
      cubeShape([1, 1, 1], { translation: [3, 0, 0], rotation: [10, 20, 30], scale: [2, 2, 2] }),
    )
    expect(moved.meshHash).toBe(part.meshHash)
    expect(moved.meshUrl).toBe(part.meshUrl)
    const resized = await update(cubeShape([1, 2, 1]))
    expect(resized.meshHash).not.toBe(part.meshHash)
    const flipped = await update(cubeShape([1, 2, 1], { flipNormals: true }))
    expect(flipped.meshHash).not.toBe(resized.meshHash)
    const old = await download(resized.meshUrl as string, {
      'if-none-match': `"${resized.meshHash}"`,
    })
    expect(old.status).toBe(200)
    // flipNormals is applied to the served winding: the mesh turns inside out, as the solver sees it
    expect(volumeOf(decodeMeshFile(old.bytes))).toBeCloseTo(-2, 6)
  })

  it('streams an STL part as the stored upload and its flipped copy from a cached file', async () => {
    const simulation = await server.createSimulation('STL mesh')
    const box = buildBoxMesh([100, 200, 300])
    const fileId = await server.uploadStl('box.stl', encodeBinaryStl(box))
    const part = await server.createPart(simulation, {
      name: 'Tank',
      component: { type: 'rigid' },
      shape: { type: 'stl', fileId, translation: [1, 2, 3] },
    })
    const reply = await download(part.meshUrl as string)
    expect(reply.status).toBe(200)
    const upload = await server.database.handle.db
      .selectFrom('uploads')
      .select('stored_path')
      .where('id', '=', fileId)
      .executeTakeFirstOrThrow()
    expect(reply.bytes).toEqual(
      new Uint8Array(readFileSync(join(server.dataDir, upload.stored_path))),
    )
    expect(volumeOf(decodeMeshFile(reply.bytes))).toBeCloseTo(100 * 200 * 300, 0)

    const flipped = (
      await api('PUT', `/parts/${part.id}`, { body: { shape: { type: 'stl', flipNormals: true } } })
    ).body
    expect(flipped.meshHash).not.toBe(part.meshHash)
    const organization = flipped.organizationId as number
    const cached = join(server.dataDir, flippedMeshStoredPath(organization, fileId))
    expect(existsSync(cached)).toBe(false)
    const [first, second] = await Promise.all([
      download(flipped.meshUrl as string),
      download(flipped.meshUrl as string),
    ])
    expect(first.bytes).toEqual(second.bytes)
    expect(existsSync(cached)).toBe(true)
    const mesh = decodeMeshFile(first.bytes)
    expect(volumeOf(mesh)).toBeCloseTo(-100 * 200 * 300, 0)
    expect(mesh.positions).toEqual(decodeMeshFile(reply.bytes).positions)
  })

  it('has no mesh URL for empty and pointcloud parts, and answers 404 there', async () => {
    const simulation = await server.createSimulation('No mesh')
    const empty = await server.createPart(simulation, {
      name: 'Nothing yet',
      component: { type: 'rigid' },
      shape: { type: 'empty' },
    })
    expect(empty).toMatchObject({ meshUrl: null, meshHash: null, pointcloudUrl: null })
    const reply = await api('GET', `/parts/${empty.id}/mesh`)
    expect(reply.status).toBe(404)
    expect(reply.body.code).toBe('resource_not_found')
    expect((await api('GET', `/parts/${empty.id}/pointcloud`)).status).toBe(404)
  })

  it('needs a token (401) and hides parts and meshes out of reach (404), as the JSON routes do', async () => {
    const simulation = await server.createSimulation('Private files')
    const part = await server.createPart(simulation, { ...water, shape: cubeShape([1, 1, 1]) })
    const mesh = (
      await api('POST', `/simulations/${simulation}/meshes`, { body: { kind: 'sphere' } })
    ).body
    for (const path of [
      `/parts/${part.id}/mesh`,
      `/parts/${part.id}/pointcloud`,
      `/meshes/${mesh.id}/mesh`,
    ]) {
      expect((await api('GET', path, { token: null })).status, path).toBe(401)
      expect((await api('GET', path, { token: server.other })).status, path).toBe(404)
      // a contributor sees only the projects they created, like the JSON routes
      expect((await api('GET', path, { token: server.contributor })).status, path).toBe(404)
      expect((await api('GET', path, { token: 'not-a-token' })).status, path).toBe(401)
    }
    expect((await api('GET', `/parts/${part.id}/mesh`)).status).toBe(200)
    expect((await api('GET', '/parts/abc/mesh')).status).toBe(400)
  })

  it('serves sensor, clip and refinement meshes placed, and none for a point', async () => {
    const simulation = await server.createSimulation('Placed meshes')
    const created = await api('POST', `/simulations/${simulation}/meshes`, {
      body: { kind: 'cube', dimensions: [2, 2, 2], center: [10, 0, 0], translation: [0, 5, 0] },
    })
    const cube = created.body
    expect(cube.meshUrl).toMatch(new RegExp(`^/api/meshes/${cube.id}/mesh\\?v=[0-9a-f]{16}$`))
    const reply = await download(cube.meshUrl as string)
    expect(reply.status).toBe(200)
    const mesh = decodeMeshFile(reply.bytes)
    expect(mesh.indices.length / 3).toBe(cube.nbrOfTriangles)
    const xs = [...mesh.positions].filter((_, i) => i % 3 === 0)
    const ys = [...mesh.positions].filter((_, i) => i % 3 === 1)
    expect([Math.min(...xs), Math.max(...xs)]).toEqual([9, 11])
    expect([Math.min(...ys), Math.max(...ys)]).toEqual([4, 6])
    expect(reply.headers.get('etag')).toBe(`"${(cube.meshUrl as string).split('v=')[1]}"`)
    const moved = (
      await api('PUT', `/meshes/${cube.id}`, { body: { kind: 'cube', translation: [0, 6, 0] } })
    ).body
    expect(moved.meshUrl).not.toBe(cube.meshUrl)
    expect((await api('GET', `/meshes/${cube.id}`)).body.meshUrl).toBe(moved.meshUrl)
    const point = (
      await api('POST', `/simulations/${simulation}/meshes`, { body: { kind: 'point' } })
    ).body
    expect(point.meshUrl).toBeNull()
    expect((await api('GET', `/meshes/${point.id}/mesh`)).status).toBe(404)
  })

  it('writes the point clouds of a discretization and serves them with the summary', async () => {
    const simulation = await server.createSimulation('Point clouds')
    const part = await server.createPart(simulation, {
      ...water,
      shape: cubeShape([0.5, 0.5, 0.5], { translation: [1, 2, 3] }),
    })
    const record = await server.discretize(simulation)
    expect(record.state).toBe('done')
    expect(record.summary).toEqual({
      particleCount: 4,
      fluidCount: 4,
      wallCount: 0,
      parts: [{ partId: part.id, name: 'Water', role: 'fluid', particleCount: 4 }],
    })
    const listed = (await api('GET', `/simulations/${simulation}/parts`)).body as Json[]
    const withCloud = listed[0]
    expect(withCloud.pointcloudCount).toBe(4)
    expect(withCloud.pointcloudUrl).toMatch(
      new RegExp(`^/api/parts/${part.id}/pointcloud\\?v=[0-9a-f]{16}$`),
    )
    expect((await api('GET', `/parts/${part.id}`)).body.pointcloudUrl).toBe(withCloud.pointcloudUrl)
    const reply = await download(withCloud.pointcloudUrl as string)
    expect(reply.status).toBe(200)
    const cloud = decodePointCloudFile(reply.bytes)
    expect(cloud.count).toBe(4)
    expect([...cloud.positions.slice(0, 3)]).toEqual([1, 2, 3])
    const tag = `"${(withCloud.pointcloudUrl as string).split('v=')[1]}"`
    expect(reply.headers.get('etag')).toBe(tag)
    expect(
      (await download(withCloud.pointcloudUrl as string, { 'if-none-match': tag })).status,
    ).toBe(304)
  })

  it('keeps only the latest successful discretization’s files, and drops a deleted simulation’s', async () => {
    const simulation = await server.createSimulation('Newer clouds')
    const part = await server.createPart(simulation, { ...water, shape: cubeShape([1, 1, 1]) })
    const directory = join(server.dataDir, 'discretizations', String(simulation))
    const first = await server.discretize(simulation)
    expect(readdirSync(directory)).toEqual([String(first.id)])
    const firstUrl = (await api('GET', `/parts/${part.id}`)).body.pointcloudUrl as string

    server.script.discretizationErrors = ['The part is outside the deletion boundary.']
    try {
      const failed = await server.discretize(simulation)
      expect(failed.state).toBe('failed')
      expect(failed.summary).toBeNull()
    } finally {
      server.script.discretizationErrors = []
    }
    // a failed discretization leaves the parts with the particles of the last good one
    expect((await api('GET', `/parts/${part.id}`)).body.pointcloudUrl).toBe(firstUrl)
    expect(readdirSync(directory)).toEqual([String(first.id)])

    server.script.pointsPerPart = 6
    try {
      const second = await server.discretize(simulation)
      // the older files go right after the job is marked done
      await expect.poll(() => readdirSync(directory)).toEqual([String(second.id)])
    } finally {
      server.script.pointsPerPart = 4
    }
    const after = (await api('GET', `/parts/${part.id}`)).body
    expect(after.pointcloudCount).toBe(6)
    expect(after.pointcloudUrl).not.toBe(firstUrl)
    expect((await download(firstUrl)).status).toBe(200)
    expect(decodePointCloudFile((await download(firstUrl)).bytes).count).toBe(6)

    expect((await api('DELETE', `/simulations/${simulation}`)).status).toBe(200)
    expect(existsSync(directory)).toBe(false)
  })

  it('leaves no reference behind when a part is deleted or the simulation cloned', async () => {
    const simulation = await server.createSimulation('Delete and clone')
    const kept = await server.createPart(simulation, { ...water, shape: cubeShape([1, 1, 1]) })
    const gone = await server.createPart(simulation, {
      name: 'Wall',
      component: { type: 'rigid' },
      shape: cubeShape([2, 2, 2]),
    })
    const movement = await api('POST', `/parts/${gone.id}/movements`, {
      body: {
        type: 'translatory',
        name: 'translation 1',
        start: 0,
        end: null,
        acc: 0,
        vel: 1,
        virtualMovement: false,
        direction: [1, 0, 0],
      },
    })
    expect(movement.status).toBe(201)
    const job = await server.discretize(simulation)
    const goneFile = join(
      server.dataDir,
      'discretizations',
      String(simulation),
      String(job.id),
      `part-${gone.id}.dpcl`,
    )
    expect(existsSync(goneFile)).toBe(true)
    expect((await api('DELETE', `/parts/${gone.id}`)).status).toBe(200)
    expect(existsSync(goneFile)).toBe(false)
    expect((await api('GET', `/parts/${gone.id}/pointcloud`)).status).toBe(404)
    expect((await api('GET', `/simulations/${simulation}/movements`)).body).toEqual([])
    expect((await api('GET', `/parts/${kept.id}/pointcloud`)).status).toBe(200)

    const clone = (await api('POST', `/simulations/${simulation}`)).body
    const cloned = (await api('GET', `/simulations/${clone.id}/parts`)).body as Json[]
    expect(cloned).toHaveLength(1)
    const copy = cloned[0]
    // the copy has the same mesh but no particles of its own yet
    expect(copy).toMatchObject({
      meshHash: kept.meshHash,
      pointcloudUrl: null,
      pointcloudCount: null,
    })
    expect(copy.meshUrl).toBe(`/api/parts/${copy.id}/mesh?v=${kept.meshHash}`)
    expect((await download(copy.meshUrl as string)).status).toBe(200)
  })

  it('describes the three downloads in the OpenAPI document', async () => {
    const document = (await api('GET', '/openapi.json')).body
    for (const path of [
      '/api/parts/{id}/mesh',
      '/api/parts/{id}/pointcloud',
      '/api/meshes/{id}/mesh',
    ])
      expect(document.paths[path]?.get?.responses?.[304], path).toBeDefined()
  })
})
