/**
 * Issue 13 items 1 and 5. Access: a contributor could read and delete a manager's image, and ids of
 * another organization were taken inside bodies; every id the caller may not see is refused exactly
 * like a missing one. Concurrency: two clones of one simulation at once both succeed with their
 * own names on both databases (PostgreSQL answered the second with 409).
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { ID_MAX } from '../../domain/ids.ts'
import { DEMO_USERS, OTHER_ORGANIZATION_USER } from '../../server/db/demoAccounts.ts'
import { describeEachDialect, startTestServer, type Json, type TestServer } from './harness.ts'

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('x'),
])
const STL =
  'solid t\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid t\n'
const CSV = 'time,ax,ay,az\n0,0,0,0\n1,0,0,1\n'

describeEachDialect('ids the caller may not see', (dialect) => {
  let server: TestServer
  let manager: string
  let contributor: string
  let other: string
  /** Ids of the other organization. */
  const foreign: Record<string, number> = {}
  let simulationId: number
  let partId: number

  const api = (method: string, path: string, body?: unknown, token = manager) =>
    server.request(method, `/api${path}`, { token, ...(body !== undefined && { body }) })
  const upload = async (path: string, name: string, bytes: Buffer | string, token: string) => {
    const form = new FormData()
    form.append('file', new Blob([bytes]), name)
    const response = await fetch(`${server.baseUrl}/api${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    })
    const body = (await response.json()) as Json
    expect(response.status, JSON.stringify(body)).toBe(201)
    return body.id as number
  }
  /** The reply to a foreign id equals the reply to a missing one (status and body). */
  const expectLikeMissing = async (
    send: (id: number) => Promise<{ status: number; body: Json; text: string }>,
    foreignId: number,
    label: string,
  ) => {
    const missing = await send(ID_MAX)
    const refused = await send(foreignId)
    expect(missing.status, `${label} missing: ${missing.text}`).toBeGreaterThanOrEqual(400)
    expect(missing.status, `${label} missing: ${missing.text}`).toBeLessThan(500)
    expect({ status: refused.status, body: refused.body }, label).toEqual({
      status: missing.status,
      body: missing.body,
    })
  }

  beforeAll(async () => {
    server = await startTestServer(dialect)
    manager = (await server.login(DEMO_USERS.manager.email)).accessToken
    contributor = (await server.login(DEMO_USERS.contributor.email)).accessToken
    other = (await server.login(OTHER_ORGANIZATION_USER.email)).accessToken
    const project = (await api('POST', '/projects', { name: 'Foreign ids' })).body
    simulationId = (await api('POST', `/projects/${project.id}/simulations`, { name: 'Mine' })).body
      .id as number
    partId = (
      await api('POST', `/simulations/${simulationId}/parts`, {
        name: 'Box',
        component: { type: 'rigid' },
        shape: { type: 'stl_cube', dimensions: [0.1, 0.1, 0.1] },
      })
    ).body.id as number
    const otherProject = (await api('POST', '/projects', { name: 'Theirs' }, other)).body
    foreign.project = otherProject.id as number
    const otherSimulation = (
      await api('POST', `/projects/${foreign.project}/simulations`, { name: 'Theirs' }, other)
    ).body
    foreign.simulation = otherSimulation.id as number
    foreign.image = await upload('/client-upload/images', 'theirs.png', PNG, other)
    foreign.stl = await upload('/client-upload/uploads', 'theirs.stl', STL, other)
    foreign.csv = await upload('/client-upload/uploads', 'theirs.csv', CSV, other)
    const table = await api(
      'POST',
      `/simulations/${foreign.simulation}/datatables`,
      { kind: 'default', headers: ['x', 'y'], table: { x: [0, 1, 2], y: [1, 2, 3] } },
      other,
    )
    expect(table.status, table.text).toBe(201)
    foreign.table = table.body.id as number
    const otherPart = await api(
      'POST',
      `/simulations/${foreign.simulation}/parts`,
      {
        name: 'Theirs',
        component: { type: 'rigid' },
        shape: { type: 'stl_cube', dimensions: [1, 1, 1] },
      },
      other,
    )
    foreign.part = otherPart.body.id as number
  })
  afterAll(async () => {
    await server?.close()
  })

  it("refuses a contributor the GET and DELETE of a manager's image like a missing one", async () => {
    const image = await upload('/client-upload/images', 'view.png', PNG, manager)
    expect((await api('PUT', `/simulations/${simulationId}`, { postImageId: image })).status).toBe(
      200,
    )
    for (const method of ['GET', 'DELETE']) {
      const missing = await api(method, `/images/${ID_MAX}`, undefined, contributor)
      const refused = await api(method, `/images/${image}`, undefined, contributor)
      expect(missing.status).toBe(404)
      expect({ status: refused.status, body: refused.body }).toEqual({
        status: missing.status,
        body: missing.body,
      })
    }
    expect((await api('GET', `/images/${image}`)).status).toBe(200)
    expect((await api('GET', `/simulations/${simulationId}`)).body.postImageId).toBe(image)
    // The contributor's own image stays theirs.
    const own = await upload('/client-upload/images', 'mine.png', PNG, contributor)
    expect((await api('GET', `/images/${own}`, undefined, contributor)).status).toBe(200)
  })

  it('refuses ids of another organization inside bodies like missing ones', async () => {
    const sim = `/simulations/${simulationId}`
    const cases: [
      string,
      (id: number) => Promise<{ status: number; body: Json; text: string }>,
      number,
    ][] = [
      ['postImageId', (id) => api('PUT', sim, { postImageId: id }), foreign.image!],
      ['move projectId', (id) => api('PUT', `${sim}/move`, { projectId: id }), foreign.project!],
      [
        'accelerationFileId',
        (id) => api('PUT', `${sim}/settings`, { accelerationFileId: id }),
        foreign.csv!,
      ],
      [
        'part shape.fileId',
        (id) => api('PUT', `/parts/${partId}`, { shape: { type: 'stl', fileId: id } }),
        foreign.stl!,
      ],
      [
        'mesh fileId',
        (id) => api('POST', `${sim}/meshes`, { kind: 'complex', name: 'Mesh', fileId: id }),
        foreign.stl!,
      ],
      [
        'material viscosityShearRateTableId',
        (id) => api('PUT', `${sim}/materials/0`, { viscosityShearRateTableId: id }),
        foreign.table!,
      ],
      [
        'part initialDistributionTableId',
        (id) =>
          api('POST', `${sim}/parts`, {
            name: 'Fluid',
            component: { type: 'fluid', initialDistributionTableId: id },
            shape: { type: 'stl_cube', dimensions: [0.1, 0.1, 0.1] },
          }),
        foreign.table!,
      ],
      [
        'bulk parts id',
        (id) => api('PUT', `${sim}/parts`, [{ id, name: 'Renamed' }]),
        foreign.part!,
      ],
      ['part movements', (id) => api('GET', `/parts/${id}/movements`), foreign.part!],
    ]
    for (const [label, send, foreignId] of cases) await expectLikeMissing(send, foreignId, label)
    const stored = (await api('GET', sim)).body
    expect(stored.projectId).not.toBe(foreign.project)
    expect(stored.postImageId).not.toBe(foreign.image)
    const theirs = (await api('GET', `/parts/${foreign.part}`, undefined, other)).body
    expect(theirs.name).toBe('Theirs')
  })

  it('gives concurrent clones of one simulation their own names', async () => {
    const replies = await Promise.all(
      Array.from({ length: 4 }, () => api('POST', `/simulations/${simulationId}`)),
    )
    expect(replies.map((reply) => reply.status)).toEqual([201, 201, 201, 201])
    expect(new Set(replies.map((reply) => reply.body.name as string))).toEqual(
      new Set(['Mine (copy)', 'Mine (copy 2)', 'Mine (copy 3)', 'Mine (copy 4)']),
    )
  })
})
