import { afterAll, beforeAll, expect, it } from 'vitest'
import {
  DEFAULT_VIEW_NAME,
  GRAPH_FILE_MESSAGE,
  TEMPLATE_NAME_TAKEN_MESSAGE,
  VIEW_NAME_TAKEN_MESSAGE,
  defaultGraphSettings,
  type DashboardTemplate,
  type DashboardTile,
  type DashboardView,
} from '../../domain/dashboards.ts'
import type { Simulation } from '../../domain/projects.ts'
import { DEMO_PROJECT_NAME, DEMO_USERS, OTHER_ORGANIZATION_USER } from '../db/demoAccounts.ts'
import {
  describeEachDialect,
  startTestServer,
  type TestServer,
} from '../../tests/integration/harness.ts'

describeEachDialect('dashboards (views, tiles, templates, variables, graphs)', (dialect) => {
  let server: TestServer
  let manager: string
  let contributor: string
  let other: string
  let simulation: Simulation

  const call = (method: string, path: string, token: string, body?: unknown) =>
    server.request(method, `/api${path}`, { token, ...(body !== undefined && { body }) })
  const uploadGraph = async (token: string, fields: Record<string, string>, csv: string) => {
    const form = new FormData()
    for (const [key, value] of Object.entries(fields)) form.append(key, value)
    form.append('file', new Blob([csv]), 'graph.csv')
    const response = await fetch(`${server.baseUrl}/api/graphs`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    })
    return { status: response.status, body: (await response.json()) as Record<string, unknown> }
  }

  beforeAll(async () => {
    server = await startTestServer(dialect)
    manager = (await server.login(DEMO_USERS.manager.email)).accessToken
    contributor = (await server.login(DEMO_USERS.contributor.email)).accessToken
    other = (await server.login(OTHER_ORGANIZATION_USER.email)).accessToken
    const projects = await call('GET', '/projects?pageLimit=50', manager)
    const projectId = (projects.body as { results: { id: number; name: string }[] }).results.find(
      (project) => project.name === DEMO_PROJECT_NAME,
    )?.id
    simulation = (
      await call('POST', `/projects/${projectId}/simulations`, manager, { name: 'Dash' })
    ).body as Simulation
  })
  afterAll(async () => {
    await server?.close()
  })

  it('gives a new simulation its default view with the default tiles, made once', async () => {
    const first = await call('GET', `/simulations/${simulation.id}/dashboards`, manager)
    expect(first.status).toBe(200)
    const views = first.body as DashboardView[]
    expect(views).toHaveLength(1)
    expect(views[0]).toMatchObject({ name: DEFAULT_VIEW_NAME, default: true })
    const tiles = views[0]?.tiles ?? []
    expect(tiles.map((tile) => tile.type)).toEqual([
      'details',
      'progress',
      'variables',
      'graph',
      'budget',
      'note',
      'graph',
      'job',
      'image',
      'graph',
    ])
    expect(tiles.filter((t) => t.type === 'graph').map((t) => t.graph?.source)).toEqual([
      { kind: 'log', graph: 'particles' },
      { kind: 'log', graph: 'runtimePerS' },
      { kind: 'log', graph: 'dt' },
    ])
    const again = await call('GET', `/simulations/${simulation.id}/dashboards`, manager)
    expect((again.body as DashboardView[]).map((view) => view.id)).toEqual([views[0]?.id])
  })

  it('adds views with unique, non-empty names of at most 100 characters', async () => {
    const path = `/simulations/${simulation.id}/dashboards`
    const added = await call('POST', path, manager, { name: 'Pressures' })
    expect(added.status).toBe(201)
    expect(added.body).toMatchObject({ name: 'Pressures', default: false, tiles: [] })
    const taken = await call('POST', path, manager, { name: ' pressures ' })
    expect(taken.status).toBe(409)
    expect(taken.body.description).toBe(VIEW_NAME_TAKEN_MESSAGE)
    expect((await call('POST', path, manager, { name: '   ' })).status).toBe(400)
    expect((await call('POST', path, manager, { name: 'x'.repeat(101) })).status).toBe(400)
    expect((await call('POST', path, manager, { name: 'x'.repeat(100) })).status).toBe(201)
  })

  it('places a tile at the bottom, never below its minimum size, and keeps a note', async () => {
    const views = (await call('GET', `/simulations/${simulation.id}/dashboards`, manager))
      .body as DashboardView[]
    const view = views[0] as DashboardView
    const graph = await call('POST', `/dashboards/${view.id}/tiles`, manager, {
      type: 'graph',
      w: 2,
      h: 1,
      graph: { ...defaultGraphSettings({ kind: 'log', graph: 'dt' }), logValues: true },
    })
    expect(graph.status).toBe(201)
    expect(graph.body).toMatchObject({ x: 0, y: 9999, w: 6, h: 2, type: 'graph' })
    expect((graph.body as DashboardTile).graph?.logValues).toBe(true)
    const noGraph = await call('POST', `/dashboards/${view.id}/tiles`, manager, { type: 'graph' })
    expect(noGraph.status).toBe(400)
    // an image id past the 32-bit id columns is the body's 400, not PostgreSQL's range error
    for (const imageId of [2 ** 31, 1.5]) {
      const badImage = await call('POST', `/dashboards/${view.id}/tiles`, manager, {
        type: 'image',
        imageId,
      })
      expect(badImage.status).toBe(400)
      expect(JSON.stringify(badImage.body)).toContain('imageId must be a whole number')
    }
    const note = await call('POST', `/dashboards/${view.id}/tiles`, manager, {
      type: 'note',
      text: 'Inlet opened at 0.2 s',
    })
    expect(note.body).toMatchObject({ w: 6, h: 2, text: 'Inlet opened at 0.2 s' })
    const edited = await call('PUT', `/dashboardtiles/${note.body.id}`, manager, {
      text: 'Inlet opened at 0.3 s',
      w: 1,
    })
    expect(edited.body).toMatchObject({ text: 'Inlet opened at 0.3 s', w: 3 })
    const moved = await call('PUT', `/dashboards/${view.id}`, manager, {
      tiles: [{ id: graph.body.id, x: 6, y: 7, w: 6, h: 3 }],
    })
    const movedTile = (moved.body as DashboardView).tiles.find((t) => t.id === graph.body.id)
    expect(movedTile).toMatchObject({ x: 6, y: 7, w: 6, h: 3 })
    expect((await call('DELETE', `/dashboardtiles/${graph.body.id}`, manager)).status).toBe(200)
    const tiles = await call('GET', `/dashboards/${view.id}/tiles`, manager)
    expect((tiles.body as DashboardTile[]).some((t) => t.id === graph.body.id)).toBe(false)
    expect((await call('DELETE', `/dashboards/${view.id}`, manager)).status).toBe(409)
  })

  it('saves a view as a template and makes a view from it', async () => {
    const views = (await call('GET', `/simulations/${simulation.id}/dashboards`, manager))
      .body as DashboardView[]
    const source = views[0] as DashboardView
    const saved = await call('POST', '/dashboardtemplates', manager, {
      name: 'Standard',
      dashboardId: source.id,
      copyCustom: false,
    })
    expect(saved.status).toBe(201)
    const template = saved.body as DashboardTemplate
    expect(template.tiles.map((t) => t.type)).toEqual(source.tiles.map((t) => t.type))
    expect(template.tiles.filter((t) => t.type === 'note').every((t) => t.text === '')).toBe(true)
    const taken = await call('POST', '/dashboardtemplates', manager, {
      name: 'STANDARD',
      dashboardId: source.id,
    })
    expect(taken.status).toBe(409)
    expect(taken.body.description).toBe(TEMPLATE_NAME_TAKEN_MESSAGE)
    const listed = await call('GET', '/dashboardtemplates', contributor)
    expect((listed.body as DashboardTemplate[]).map((t) => t.name)).toContain('Standard')
    const made = await call('POST', `/simulations/${simulation.id}/dashboards`, manager, {
      name: 'From template',
      templateId: template.id,
    })
    expect(made.status).toBe(201)
    expect((made.body as DashboardView).tiles.map((t) => t.type)).toEqual(
      template.tiles.map((t) => t.type),
    )
  })

  it('keeps variables with unique names', async () => {
    const path = `/simulations/${simulation.id}/variables`
    const added = await call('POST', path, manager, {
      name: 'Inlet speed',
      value: '2',
      unit: 'm/s',
    })
    expect(added.status).toBe(201)
    expect((await call('POST', path, manager, { name: 'inlet speed', value: '3' })).status).toBe(
      409,
    )
    expect((await call('GET', path, manager)).body).toEqual([added.body])
    expect((await call('DELETE', `/variables/${added.body.id}`, manager)).status).toBe(200)
    expect((await call('GET', path, manager)).body).toEqual([])
  })

  it('stores an uploaded CSV graph and removes its tiles with it', async () => {
    const refused = await uploadGraph(manager, { simulationId: String(simulation.id) }, 'a;b;c\n')
    expect(refused.status).toBe(400)
    expect(refused.body.description).toBe(GRAPH_FILE_MESSAGE)
    const uploaded = await uploadGraph(
      manager,
      { simulationId: String(simulation.id), name: 'Measured force' },
      'time;force\n0;1.5\n0.1;2.5\n',
    )
    expect(uploaded.status).toBe(201)
    expect(uploaded.body).toMatchObject({
      name: 'Measured force',
      xLabel: 'time',
      x: [0, 0.1],
      y: [1.5, 2.5],
    })
    const views = (await call('GET', `/simulations/${simulation.id}/dashboards`, manager))
      .body as DashboardView[]
    const tile = await call('POST', `/dashboards/${views[0]?.id}/tiles`, manager, {
      type: 'graph',
      graph: defaultGraphSettings({ kind: 'custom', graphId: uploaded.body.id as number }),
    })
    expect(tile.status).toBe(201)
    expect((await call('DELETE', `/graphs/${String(uploaded.body.id)}`, manager)).status).toBe(200)
    expect(
      (await call('GET', `/dashboards/${views[0]?.id}/tiles`, manager)).body,
    ).not.toContainEqual(tile.body)
  })

  it("answers 404 for another organization's dashboards and 403 for a template a contributor did not make", async () => {
    const views = (await call('GET', `/simulations/${simulation.id}/dashboards`, manager))
      .body as DashboardView[]
    const view = views[0] as DashboardView
    const tileId = view.tiles[0]?.id
    const variable = await call('POST', `/simulations/${simulation.id}/variables`, manager, {
      name: 'Private',
      value: '1',
    })
    const graph = await uploadGraph(manager, { simulationId: String(simulation.id) }, '0;1\n1;2\n')
    const template = (await call('GET', '/dashboardtemplates', manager)).body as DashboardTemplate[]
    const templateId = template[0]?.id
    const outside: [string, string, unknown?][] = [
      ['GET', `/simulations/${simulation.id}/dashboards`],
      ['POST', `/simulations/${simulation.id}/dashboards`, { name: 'Mine' }],
      ['PUT', `/dashboards/${view.id}`, { name: 'Mine' }],
      ['DELETE', `/dashboards/${view.id}`],
      ['GET', `/dashboards/${view.id}/tiles`],
      ['POST', `/dashboards/${view.id}/tiles`, { type: 'note' }],
      ['PUT', `/dashboardtiles/${tileId}`, { x: 1 }],
      ['DELETE', `/dashboardtiles/${tileId}`],
      ['DELETE', `/dashboardtemplates/${templateId}`],
      ['POST', '/dashboardtemplates', { name: 'Stolen', dashboardId: view.id }],
      ['GET', `/simulations/${simulation.id}/variables`],
      ['POST', `/simulations/${simulation.id}/variables`, { name: 'x', value: '1' }],
      ['DELETE', `/variables/${variable.body.id}`],
      ['GET', `/simulations/${simulation.id}/graphs`],
      ['DELETE', `/graphs/${String(graph.body.id)}`],
    ]
    for (const [method, path, body] of outside) {
      const reply = await call(method, path, other, body)
      expect(reply.status, `${method} ${path}`).toBe(404)
    }
    // A contributor sees only their own projects: the manager's simulation is out of reach too.
    expect(
      (await call('GET', `/simulations/${simulation.id}/dashboards`, contributor)).status,
    ).toBe(404)
    expect(
      (await uploadGraph(other, { simulationId: String(simulation.id) }, '0;1\n')).status,
    ).toBe(404)
    expect((await call('GET', '/dashboardtemplates', other)).body).toEqual([])
    expect((await call('DELETE', `/dashboardtemplates/${templateId}`, contributor)).status).toBe(
      403,
    )
    expect((await call('DELETE', `/dashboardtemplates/${templateId}`, manager)).status).toBe(200)
    expect(
      (await server.request('GET', `/api/simulations/${simulation.id}/dashboards`)).status,
    ).toBe(401)
  })
})
