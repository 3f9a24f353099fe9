import { afterAll, beforeAll, expect, it } from 'vitest'
import type { Project, Simulation } from '../../domain/projects.ts'
import {
  CAMERA_UP_MESSAGE,
  VECTOR_COMPONENTS_MESSAGE,
  defaultViewportState,
  type ViewportState,
} from '../../domain/results.ts'
import { DEMO_USERS, OTHER_ORGANIZATION_USER } from '../db/demoAccounts.ts'
import {
  describeEachDialect,
  startTestServer,
  type TestServer,
} from '../../tests/integration/harness.ts'

const SAVED: ViewportState = {
  ...defaultViewportState(),
  camera: {
    position: [1.5, -2, 0.75],
    target: [0.5, 0.25, 0.1],
    up: [0, 0, 1],
    mode: 'orthographic',
  },
  colorMap: { scheme: 'diverging', attribute: 'pressure', subAttribute: null, min: 0, max: 2500 },
  output: 4,
  coordinateSystem: false,
  clippingPlane: { enabled: true, axis: 'y', flipped: true, offsetM: 0.2 },
  parts: { 'wall-1': { visible: false, viewMode: 'wireframe' } },
  materials: { 'fluid-0': { visible: true, displayMode: 'particles_circles' } },
}

describeEachDialect('viewport state API', (dialect) => {
  let server: TestServer
  let manager: string
  let other: string
  let simulation: Simulation

  const api = (method: string, path: string, body?: unknown, token = manager) =>
    server.request(method, `/api${path}`, { token, ...(body !== undefined && { body }) })

  beforeAll(async () => {
    server = await startTestServer(dialect)
    manager = (await server.login(DEMO_USERS.manager.email)).accessToken
    other = (await server.login(OTHER_ORGANIZATION_USER.email)).accessToken
    const project = (await api('POST', '/projects', { name: 'Viewport state' })).body as Project
    const created = await api('POST', `/projects/${project.id}/simulations`, { name: 'Tank' })
    expect(created.status, created.text).toBe(201)
    simulation = created.body as Simulation
  })
  afterAll(async () => {
    await server?.close()
  })

  it('answers state null before anything is saved, for both the setup and the results view', async () => {
    for (const path of ['viewport_state', 'runs/viewport_state']) {
      const reply = await api('GET', `/simulations/${simulation.id}/${path}`)
      expect(reply.status).toBe(200)
      expect(reply.body.state).toBeNull()
      expect(reply.body.updatedAt).toBeNull()
    }
  })

  it('saves and reads back the results view state, kept apart from the setup view state', async () => {
    const put = await api('PUT', `/simulations/${simulation.id}/runs/viewport_state`, SAVED)
    expect(put.status, put.text).toBe(200)
    expect(put.body).toMatchObject({ simulationId: simulation.id, mode: 'post', state: SAVED })
    const post = await api('GET', `/simulations/${simulation.id}/runs/viewport_state`)
    expect(post.body.state).toEqual(SAVED)
    expect(typeof post.body.updatedAt).toBe('string')
    const pre = await api('GET', `/simulations/${simulation.id}/viewport_state`)
    expect(pre.body.state).toBeNull()
  })

  it('replaces the saved state on the next save, and the setup view saves its own', async () => {
    const next: ViewportState = { ...SAVED, output: 7, colorMap: null }
    await api('PUT', `/simulations/${simulation.id}/runs/viewport_state`, next)
    const pre: ViewportState = { ...defaultViewportState(), coordinateSystem: false }
    expect((await api('PUT', `/simulations/${simulation.id}/viewport_state`, pre)).status).toBe(200)
    expect(
      (await api('GET', `/simulations/${simulation.id}/runs/viewport_state`)).body.state,
    ).toEqual(next)
    expect((await api('GET', `/simulations/${simulation.id}/viewport_state`)).body.state).toEqual(
      pre,
    )
  })

  it('refuses a camera whose up vector is not normalized, or a vector without three components', async () => {
    const tilted = { ...SAVED, camera: { ...SAVED.camera, up: [0, 0, 2] } }
    const reply = await api('PUT', `/simulations/${simulation.id}/runs/viewport_state`, tilted)
    expect(reply.status).toBe(400)
    expect(JSON.stringify(reply.body)).toContain(CAMERA_UP_MESSAGE)
    const flat = { ...SAVED, camera: { ...SAVED.camera, position: [1, 2] } }
    const second = await api('PUT', `/simulations/${simulation.id}/runs/viewport_state`, flat)
    expect(second.status).toBe(400)
    expect(JSON.stringify(second.body)).toContain(VECTOR_COMPONENTS_MESSAGE)
    // Nothing of the refused saves was stored.
    const stored = await api('GET', `/simulations/${simulation.id}/runs/viewport_state`)
    expect(stored.body.state.camera).toEqual(SAVED.camera)
  })

  it("refuses an unknown colour attribute and hides another organization's simulation", async () => {
    const wrong = { ...SAVED, colorMap: { ...SAVED.colorMap, attribute: 'colour' } }
    const reply = await api('PUT', `/simulations/${simulation.id}/runs/viewport_state`, wrong)
    expect(reply.status).toBe(400)
    expect(JSON.stringify(reply.body)).toContain('colour is not a known attribute name')
    expect(
      (await api('GET', `/simulations/${simulation.id}/runs/viewport_state`, undefined, other))
        .status,
    ).toBe(404)
    expect(
      (await api('PUT', `/simulations/${simulation.id}/viewport_state`, SAVED, other)).status,
    ).toBe(404)
  })

  it('forgets the results view state on DELETE and keeps the setup view state', async () => {
    const path = `/simulations/${simulation.id}/runs/viewport_state`
    await api('PUT', path, SAVED)
    const reply = await api('DELETE', path)
    expect(reply.status).toBe(200)
    expect(reply.body).toMatchObject({ mode: 'post', state: null })
    expect((await api('GET', path)).body.state).toBeNull()
    expect(
      (await api('GET', `/simulations/${simulation.id}/viewport_state`)).body.state,
    ).not.toBeNull()
    expect((await api('DELETE', `/simulations/${simulation.id}/viewport_state`)).status).toBe(200)
    expect((await api('GET', `/simulations/${simulation.id}/viewport_state`)).body.state).toBeNull()
  })

  it('drops the saved states with their simulation', async () => {
    expect((await api('DELETE', `/simulations/${simulation.id}`)).status).toBe(200)
    expect((await api('GET', `/simulations/${simulation.id}/runs/viewport_state`)).status).toBe(404)
  })
})
