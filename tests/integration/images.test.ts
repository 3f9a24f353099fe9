import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Simulation } from '../../domain/projects.ts'
import { IMAGE_FORMAT_MESSAGE, type Image } from '../../domain/rest/imageRoutes.ts'
import { DEMO_USERS, OTHER_ORGANIZATION_USER } from '../../server/db/demoAccounts.ts'
import { describeEachDialect, startTestServer, type TestServer } from './harness.ts'

/** A PNG's signature followed by some bytes: the server recognises images by their signature. */
const PNG_BYTES = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('IHDR and the rest of a screenshot'),
])

describeEachDialect('images (post image of Save Image)', (dialect) => {
  let server: TestServer
  let manager: string
  let simulation: Simulation

  const upload = async (
    file: Buffer | null,
    fields: Record<string, string> = {},
    token: string | null = manager,
  ) => {
    const form = new FormData()
    for (const [key, value] of Object.entries(fields)) form.append(key, value)
    if (file) form.append('file', new Blob([file]), 'view.png')
    const response = await fetch(`${server.baseUrl}/api/client-upload/images`, {
      method: 'POST',
      headers: token === null ? {} : { authorization: `Bearer ${token}` },
      body: form,
    })
    return {
      status: response.status,
      body: (await response.json()) as Image & { code?: string; description?: string },
    }
  }
  const download = (id: number, token = manager) =>
    fetch(`${server.baseUrl}/api/images/${id}`, { headers: { authorization: `Bearer ${token}` } })
  const storedImageFiles = () => {
    const root = join(server.dataDir, 'images')
    if (!existsSync(root)) return []
    return readdirSync(root, { recursive: true }).filter((name) => String(name).includes('.'))
  }

  beforeAll(async () => {
    server = await startTestServer(dialect)
    manager = (await server.login(DEMO_USERS.manager.email)).accessToken
    const projects = await server.request('GET', '/api/projects?pageLimit=50', { token: manager })
    const projectId = (projects.body as { results: { id: number }[] }).results[0]?.id
    const reply = await server.request('POST', `/api/projects/${projectId}/simulations`, {
      token: manager,
      body: { name: 'Post image' },
    })
    simulation = reply.body as Simulation
  })
  afterAll(async () => {
    await server?.close()
  })

  it('stores an uploaded PNG under its name and gives the same bytes back', async () => {
    const reply = await upload(PNG_BYTES, { name: 'Dam break output 3.png' })
    expect(reply.status).toBe(201)
    expect(reply.body).toMatchObject({
      name: 'Dam break output 3.png',
      contentType: 'image/png',
      sizeBytes: PNG_BYTES.length,
      url: `/api/images/${reply.body.id}`,
    })
    const response = await download(reply.body.id)
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('image/png')
    expect(Buffer.from(await response.arrayBuffer()).equals(PNG_BYTES)).toBe(true)
  })

  it("becomes the simulation's post image with PUT /simulations/{id}", async () => {
    const image = (await upload(PNG_BYTES, { name: 'view.png' })).body
    const reply = await server.request('PUT', `/api/simulations/${simulation.id}`, {
      token: manager,
      body: { postImageId: image.id },
    })
    expect(reply.status).toBe(200)
    const read = await server.request('GET', `/api/simulations/${simulation.id}`, {
      token: manager,
    })
    expect((read.body as Simulation).postImageId).toBe(image.id)
  })

  it('refuses a file that is not a PNG or JPEG and stores nothing', async () => {
    const before = storedImageFiles().length
    const reply = await upload(Buffer.from('<html>not a picture</html>'), { name: 'x.png' })
    expect(reply.status).toBe(400)
    expect(reply.body.description).toBe(IMAGE_FORMAT_MESSAGE)
    expect(storedImageFiles().length).toBe(before)
  })

  it('asks for the file and for a session', async () => {
    const missing = await upload(null, { name: 'nothing' })
    expect(missing.status).toBe(400)
    expect(missing.body.code).toBe('body_keys_missing')
    const anonymous = await upload(PNG_BYTES, {}, null)
    expect(anonymous.status).toBe(401)
  })

  it("hides one organization's images from another (404)", async () => {
    const image = (await upload(PNG_BYTES)).body
    const other = (await server.login(OTHER_ORGANIZATION_USER.email)).accessToken
    expect((await download(image.id, other)).status).toBe(404)
    const removed = await fetch(`${server.baseUrl}/api/images/${image.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${other}` },
    })
    expect(removed.status).toBe(404)
    expect((await download(image.id)).status).toBe(200)
  })

  it('deletes an image, its file, and clears it as post image', async () => {
    const image = (await upload(PNG_BYTES, { name: 'gone.png' })).body
    await server.request('PUT', `/api/simulations/${simulation.id}`, {
      token: manager,
      body: { postImageId: image.id },
    })
    const before = storedImageFiles().length
    const removed = await fetch(`${server.baseUrl}/api/images/${image.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${manager}` },
    })
    expect(removed.status).toBe(204)
    expect((await download(image.id)).status).toBe(404)
    expect(storedImageFiles().length).toBe(before - 1)
    const read = await server.request('GET', `/api/simulations/${simulation.id}`, {
      token: manager,
    })
    expect((read.body as Simulation).postImageId).toBeNull()
  })
  it('clears a deleted image from the dashboard tiles that showed it', async () => {
    const image = (await upload(PNG_BYTES, { name: 'tile.png' })).body
    const views = await server.request('GET', `/api/simulations/${simulation.id}/dashboards`, {
      token: manager,
    })
    const viewId = (views.body as { id: number }[])[0]!.id
    const tile = await server.request('POST', `/api/dashboards/${viewId}/tiles`, {
      token: manager,
      body: { type: 'image', imageId: image.id },
    })
    expect(tile.body).toMatchObject({ type: 'image', imageId: image.id })
    const removed = await fetch(`${server.baseUrl}/api/images/${image.id}`, {
      method: 'DELETE',
      headers: { authorization: `Bearer ${manager}` },
    })
    expect(removed.status).toBe(204)
    const tiles = await server.request('GET', `/api/dashboards/${viewId}/tiles`, { token: manager })
    const shown = (tiles.body as { id: number; imageId: number | null }[]).find(
      (t) => t.id === (tile.body as { id: number }).id,
    )
    expect(shown?.imageId).toBeNull()
  })
  it('is described in the OpenAPI document', async () => {
    const doc = (await server.request('GET', '/api/openapi.json')).body
    expect(doc.paths['/api/client-upload/images'].post.operationId).toBe('uploadImage')
    expect(doc.paths['/api/images/{id}'].get.operationId).toBe('getImage')
    expect(doc.paths['/api/images/{id}'].delete.operationId).toBe('deleteImage')
  })
})
