import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Simulation } from '../../domain/projects.ts'
import type { Image } from '../../domain/rest/imageRoutes.ts'
import { DEMO_USERS, OTHER_ORGANIZATION_USER } from '../../server/db/demoAccounts.ts'
import { describeEachDialect, startTestServer, type TestServer } from './harness.ts'

/* GET /simulations/{id}/images: the images of one simulation (the image tiles' picker). */

const PNG_BYTES = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('IHDR and the rest of a screenshot'),
])

describeEachDialect("a simulation's images", (dialect) => {
  let server: TestServer
  let manager: string
  let contributor: string
  let other: string
  let simulation: Simulation
  let sibling: Simulation

  const upload = async (fields: Record<string, string>, token = manager) => {
    const form = new FormData()
    for (const [key, value] of Object.entries(fields)) form.append(key, value)
    form.append('file', new Blob([PNG_BYTES]), 'view.png')
    const response = await fetch(`${server.baseUrl}/api/client-upload/images`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    })
    return { status: response.status, body: (await response.json()) as Image }
  }
  const list = (simulationId: number, token: string | null = manager) =>
    server.request<Image[]>('GET', `/api/simulations/${simulationId}/images`, {
      token: token ?? undefined,
    })

  beforeAll(async () => {
    server = await startTestServer(dialect)
    manager = (await server.login(DEMO_USERS.manager.email)).accessToken
    contributor = (await server.login(DEMO_USERS.contributor.email)).accessToken
    other = (await server.login(OTHER_ORGANIZATION_USER.email)).accessToken
    // A project of the manager's own: a contributor cannot see it.
    const project = await server.request('POST', '/api/projects', {
      token: manager,
      body: { name: 'Manager pictures' },
    })
    const projectId = (project.body as { id: number }).id
    const create = async (name: string) =>
      (
        await server.request('POST', `/api/projects/${projectId}/simulations`, {
          token: manager,
          body: { name },
        })
      ).body as Simulation
    simulation = await create('Pictures')
    sibling = await create('Other pictures')
  })
  afterAll(async () => {
    await server?.close()
  })

  it('lists the images uploaded for the simulation and its post image, newest first', async () => {
    expect((await list(simulation.id)).body).toEqual([])
    const first = (await upload({ name: 'output 1.png', simulationId: String(simulation.id) })).body
    const second = (await upload({ name: 'output 2.png', simulationId: String(simulation.id) }))
      .body
    const elsewhere = (await upload({ name: 'other.png', simulationId: String(sibling.id) })).body
    const unattached = (await upload({ name: 'loose.png' })).body
    expect(first.id).toBeGreaterThan(0)
    const reply = await list(simulation.id)
    expect(reply.status).toBe(200)
    expect(reply.body.map((image) => image.name)).toEqual(['output 2.png', 'output 1.png'])
    expect(reply.body[0]).toMatchObject({ id: second.id, url: `/api/images/${second.id}` })
    // An image picked as post image (PUT postImageId) belongs to it too.
    await server.request('PUT', `/api/simulations/${simulation.id}`, {
      token: manager,
      body: { postImageId: unattached.id },
    })
    const ids = (await list(simulation.id)).body.map((image) => image.id)
    expect(ids).toContain(unattached.id)
    expect(ids).not.toContain(elsewhere.id)
    expect((await list(sibling.id)).body.map((image) => image.id)).toEqual([elsewhere.id])
  })

  it('refuses an upload for a simulation the user cannot see (404) or a bad id (400)', async () => {
    expect((await upload({ simulationId: String(simulation.id) }, other)).status).toBe(404)
    expect((await upload({ simulationId: String(simulation.id) }, contributor)).status).toBe(404)
    expect((await upload({ simulationId: 'one' })).status).toBe(400)
  })

  it('hides the list from another organization and from a contributor who cannot see the simulation (404), and asks for a session (401)', async () => {
    expect((await list(simulation.id, other)).status).toBe(404)
    expect((await list(simulation.id, contributor)).status).toBe(404)
    expect((await list(simulation.id, null)).status).toBe(401)
    expect((await list(999_999)).status).toBe(404)
  })

  it('lets a contributor see the images uploaded for their own simulation by someone else', async () => {
    const created = await server.request('POST', '/api/projects', {
      token: contributor,
      body: { name: 'Contributor pictures' },
    })
    const projectId = (created.body as { id: number }).id
    const own = (
      await server.request('POST', `/api/projects/${projectId}/simulations`, {
        token: contributor,
        body: { name: 'Mine' },
      })
    ).body as Simulation
    const byManager = (await upload({ name: 'for you.png', simulationId: String(own.id) })).body
    const listed = await list(own.id, contributor)
    expect(listed.status).toBe(200)
    expect(listed.body.map((image) => image.id)).toEqual([byManager.id])
    const bytes = await fetch(`${server.baseUrl}/api/images/${byManager.id}`, {
      headers: { authorization: `Bearer ${contributor}` },
    })
    expect(bytes.status).toBe(200)
  })
})
