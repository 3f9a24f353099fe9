/**
 * Issue 13 item 4 (numbers): JSON 1e999 (Infinity once parsed) was stored as null with 200 and was
 * a 500 on movements; on PostgreSQL an id above 2³¹ − 1 or a fraction (1.5, 1e308) in a path, a
 * query or a body was a 500. Every such input is now a 400 naming the field, and a well-formed id
 * that does not exist a 404, on both databases.
 */
import { afterAll, beforeAll, expect, it } from 'vitest'
import { ID_MAX } from '../../domain/ids.ts'
import { DEMO_USERS } from '../../server/db/demoAccounts.ts'
import { describeEachDialect, startTestServer, type Json, type TestServer } from './harness.ts'

const TOO_BIG = String(ID_MAX + 1)

describeEachDialect('hostile numbers and ids', (dialect) => {
  let server: TestServer
  let manager: string
  let simulationId: number
  let partId: number
  let projectId: number

  const api = (method: string, path: string, body?: unknown) =>
    server.request(method, `/api${path}`, { token: manager, ...(body !== undefined && { body }) })
  /** Sends the JSON text as is: JSON.stringify cannot write 1e999. */
  const raw = (method: string, path: string, text: string) =>
    server.request(method, `/api${path}`, {
      token: manager,
      rawBody: text,
      contentType: 'application/json',
    })
  const expect400 = (reply: { status: number; body: Json; text: string }, path: string) => {
    expect(reply.status, reply.text).toBe(400)
    expect(reply.body.code).toBe('validation_error')
    expect(reply.body.errors?.[0]?.path).toBe(path)
    expect(reply.body.description).toContain(path.split('.').pop())
  }

  beforeAll(async () => {
    server = await startTestServer(dialect)
    manager = (await server.login(DEMO_USERS.manager.email)).accessToken
    projectId = (await api('POST', '/projects', { name: 'Hostile numbers' })).body.id as number
    const simulation = await api('POST', `/projects/${projectId}/simulations`, { name: 'Numbers' })
    simulationId = simulation.body.id as number
    const part = await api('POST', `/simulations/${simulationId}/parts`, {
      name: 'Paddle',
      component: { type: 'rigid' },
      shape: { type: 'stl_cube', dimensions: [0.1, 1, 1] },
    })
    expect(part.status, part.text).toBe(201)
    partId = part.body.id as number
  })
  afterAll(async () => {
    await server?.close()
  })

  it('refuses 1e999 in settings with 400 naming the field and keeps the stored value', async () => {
    const before = (await api('GET', `/simulations/${simulationId}/settings`)).body
    const reply = await raw('PUT', `/simulations/${simulationId}/settings`, '{"endTime":1e999}')
    expect400(reply, 'endTime')
    expect(reply.body.description).toBe('endTime must be a finite number')
    expect((await api('GET', `/simulations/${simulationId}/settings`)).body.settings.endTime).toBe(
      before.settings.endTime,
    )
    const nested = await raw(
      'PUT',
      `/simulations/${simulationId}`,
      '{"settings":{"gravity":[0,0,-1e999]}}',
    )
    expect400(nested, 'settings.gravity.2')
  })

  it('refuses 1e999 in a material and in a movement with 400, not 500', async () => {
    expect400(
      await raw('PUT', `/simulations/${simulationId}/materials/0`, '{"density":1e999}'),
      'density',
    )
    const movement = await raw(
      'POST',
      `/parts/${partId}/movements`,
      '{"type":"translatory","name":"slide","start":0,"end":0.5,"acc":0,"vel":-1e999,' +
        '"virtualMovement":false,"direction":[1,0,0]}',
    )
    expect400(movement, 'vel')
    expect((await api('GET', `/parts/${partId}/movements`)).body).toEqual([])
  })

  it('answers 400 for an id past 2^31 - 1 in a path and a query, 404 for a missing one', async () => {
    for (const path of [
      `/simulations/${TOO_BIG}`,
      `/projects/${TOO_BIG}`,
      `/parts/${TOO_BIG}/movements`,
      `/simulations/${simulationId}/jobs/${TOO_BIG}/numerics`,
      `/simulations/${simulationId}/custom_sensors?runId=${TOO_BIG}`,
      `/simulations/${simulationId}/logs?runId=${TOO_BIG}`,
      `/projects?projectIds=${TOO_BIG}`,
    ]) {
      const reply = await api('GET', path)
      expect(reply.status, `${path}: ${reply.text}`).toBe(400)
      expect(reply.body.description).toMatch(/must be a whole number from \d to 2147483647/)
    }
    expect((await api('GET', `/simulations/${ID_MAX}`)).status).toBe(404)
    expect((await api('GET', `/parts/${ID_MAX}/movements`)).status).toBe(404)
    const image = await server.request('GET', `/api/images/${TOO_BIG}`, { token: manager })
    expect(image.status).toBe(400)
    expect(image.body.code).toBe('validation_error')
    const mesh = await server.request('GET', `/api/parts/${TOO_BIG}/mesh`, { token: manager })
    expect(mesh.status).toBe(400)
  })

  it('answers 400 for body ids that are fractions, huge or past 2^31 - 1', async () => {
    for (const bad of [1.5, 1e308, ID_MAX + 1, 0, -3]) {
      expect400(
        await api('PUT', `/simulations/${simulationId}/move`, { projectId: bad }),
        'projectId',
      )
      expect400(
        await api('PUT', `/simulations/${simulationId}`, { postImageId: bad }),
        'postImageId',
      )
      expect400(
        await api('PUT', `/simulations/${simulationId}/settings`, { accelerationFileId: bad }),
        'accelerationFileId',
      )
      expect400(
        await api('PUT', `/simulations/${simulationId}/custom_sensors`, [{ id: bad, name: 'x' }]),
        '0.id',
      )
      expect400(
        await api('PUT', `/simulations/${simulationId}/parts`, [{ id: bad, name: 'x' }]),
        '0.id',
      )
    }
    // Well-formed ids that do not exist: the routes' own 404 / refusal, never a 500.
    expect(
      (await api('PUT', `/simulations/${simulationId}/move`, { projectId: ID_MAX })).status,
    ).toBe(404)
    expect((await api('PUT', `/simulations/${simulationId}`, { postImageId: ID_MAX })).status).toBe(
      404,
    )
  })

  it('answers 400 for mesh, sensor and volume clip ids that are fractions, huge or past 2^31 - 1', async () => {
    // domain/meshes.ts took any number as an id: SQLite answered 404 'Mesh not found' and
    // PostgreSQL the database's generic out-of-range refusal.
    const path = `/simulations/${simulationId}`
    const plate = await api('POST', `${path}/meshes`, {
      kind: 'rectangle',
      width: 0.1,
      height: 0.1,
    })
    const box = await api('POST', `${path}/meshes`, { kind: 'cube', dimensions: [0.1, 0.1, 0.1] })
    expect([plate.status, box.status], plate.text + box.text).toEqual([201, 201])
    const sensor = await api('POST', `${path}/custom_sensors`, {
      name: 'Plate',
      kind: 'surface',
      meshId: plate.body.id,
    })
    const clip = await api('POST', `${path}/volume_clips`, { name: 'Box', meshId: box.body.id })
    expect([sensor.status, clip.status], sensor.text + clip.text).toEqual([201, 201])
    for (const bad of [1.5, 1e308, ID_MAX + 1, 0, -3]) {
      expect400(
        await api('POST', `${path}/custom_sensors`, { name: 'S', kind: 'surface', meshId: bad }),
        'meshId',
      )
      expect400(await api('PUT', `/custom_sensors/${sensor.body.id}`, { meshId: bad }), 'meshId')
      expect400(await api('POST', `${path}/volume_clips`, { name: 'C', meshId: bad }), 'meshId')
      expect400(await api('PUT', `${path}/volume_clips`, [{ id: bad, name: 'x' }]), '0.id')
      expect400(
        await api('PUT', `${path}/volume_clips`, [{ id: clip.body.id, meshId: bad }]),
        '0.meshId',
      )
      expect400(await api('POST', `${path}/meshes`, { kind: 'complex', fileId: bad }), 'fileId')
      expect400(
        await api('PUT', `/meshes/${plate.body.id}`, { kind: 'complex', fileId: bad }),
        'fileId',
      )
    }
    for (const bad of [1.5, 1e308, ID_MAX + 1, -1])
      expect400(
        await api('POST', `${path}/volume_clips`, {
          name: 'C',
          meshId: box.body.id,
          materialId: bad,
        }),
        'materialId',
      )
    // A well-formed mesh id that does not exist is the route's 404.
    const missing = await api('POST', `${path}/volume_clips`, { name: 'C', meshId: ID_MAX })
    expect(missing.status, missing.text).toBe(404)
  })

  it('refuses NUL characters with 400 (PostgreSQL answered 500) and keeps nothing', async () => {
    const reply = await api('POST', '/projects', { name: 'Bad\u0000name' })
    expect400(reply, 'name')
    expect(reply.body.description).toBe('name must not contain a NUL character')
    expect((await api('GET', '/projects?q=%00')).status).toBe(400)
  })

  it('answers 414 and 431 with the product error body', async () => {
    const long = await server.request('GET', `/api/simulations/${'x'.repeat(3000)}`, {
      token: manager,
    })
    expect(long.status).toBe(414)
    expect(long.body).toEqual({
      code: 'wrong_input',
      title: 'Wrong input',
      description: 'The request URL is too long',
    })
    const headers = await server.request('GET', '/api/projects', {
      token: manager,
      headers: { 'x-padding': 'y'.repeat(20_000) },
    })
    expect(headers.status).toBe(431)
    expect(headers.body).toEqual({
      code: 'wrong_input',
      title: 'Wrong input',
      description: 'The request headers or URL are too large',
    })
    expect(headers.headers.get('cross-origin-opener-policy')).toBe('same-origin')
  })
})
