import { afterAll, beforeAll, expect, it } from 'vitest'
import { keyframeWarning } from '../../domain/movements.ts'
import { PART_MESSAGES } from '../../domain/parts.ts'
import type { Project, Simulation } from '../../domain/projects.ts'
import {
  MATERIAL_NOT_DELETABLE_MESSAGE,
  SETUP_LOCKED_MESSAGE,
  UPLOADED_SETUP_MESSAGE,
} from '../../domain/rest/setupRoutes.ts'
import { SETTINGS_MESSAGES } from '../../domain/settingsRules.ts'
import { DEMO_PROJECT_NAME, DEMO_USERS, OTHER_ORGANIZATION_USER } from '../db/demoAccounts.ts'
import { DEMO_DAM_BREAK } from './demoSetup.ts'
import { checkRunnableSetup, loadRunSetup } from './loadRunSetup.ts'
import {
  describeEachDialect,
  startTestServer,
  type Json,
  type TestServer,
} from '../../tests/integration/harness.ts'

describeEachDialect('setup API', (dialect) => {
  let server: TestServer
  let manager: string
  let other: string
  let project: Project

  const api = (method: string, path: string, body?: unknown, token = manager) =>
    server.request(method, `/api${path}`, { token, ...(body !== undefined && { body }) })

  const createSimulation = async (name: string): Promise<Simulation> => {
    const reply = await api('POST', `/projects/${project.id}/simulations`, { name })
    expect(reply.status).toBe(201)
    return reply.body as Simulation
  }
  const createPart = async (simulationId: number, body: object) => {
    const reply = await api('POST', `/simulations/${simulationId}/parts`, body)
    expect(reply.status, reply.text).toBe(201)
    return reply.body as { id: number } & Record<string, Json>
  }
  const expectRefused = (reply: { status: number; body: Json }, message: string, status = 400) => {
    expect(reply.status).toBe(status)
    expect(reply.body.errors?.[0]?.message ?? reply.body.description).toBe(message)
  }

  beforeAll(async () => {
    server = await startTestServer(dialect)
    manager = (await server.login(DEMO_USERS.manager.email)).accessToken
    other = (await server.login(OTHER_ORGANIZATION_USER.email)).accessToken
    const reply = await api('POST', '/projects', { name: 'Setup API' })
    project = reply.body as Project
  })
  afterAll(async () => {
    await server?.close()
  })

  // ── Settings and calculation domain ──────────────────────────────────────────────────────────

  it('reads the default settings with the deletion-boundary warning', async () => {
    const simulation = await createSimulation('Settings defaults')
    const reply = await api('GET', `/simulations/${simulation.id}/settings`)
    expect(reply.status).toBe(200)
    expect(reply.body.settings.gravity).toEqual([0, 0, -9.81])
    expect(reply.body.issues).toContainEqual({
      level: 'warning',
      field: 'settings.calcDomainActive',
      message: SETTINGS_MESSAGES.addDeletionBoundary,
    })
  })

  it('refuses settings that break a rule and stores nothing', async () => {
    const simulation = await createSimulation('Settings refused')
    const path = `/simulations/${simulation.id}/settings`
    expectRefused(
      await api('PUT', path, { particleDiameter: -1, endTime: 3 }),
      'Particle diameter must be greater than 0.',
    )
    expectRefused(
      await api('PUT', path, { outputTimeInterval: 0.00005 }),
      'Total output number must be less than 10000. Now is 20000.',
    )
    expectRefused(
      await api('PUT', path, { endTime: 0.05 }),
      'Total output number must be more than 5. Now is 2.',
    )
    expectRefused(
      await api('PUT', path, { surfaceTension: true, shifting: 'zero', sigma: 0.072 }),
      SETTINGS_MESSAGES.surfaceTensionShifting,
    )
    expectRefused(
      await api('PUT', path, { gravity: [0, 0, -2000] }),
      'Gravity must be at least -1000.',
    )
    expect((await api('PUT', path, { noSuchSetting: 1 })).status).toBe(400)
    expect((await api('PUT', path, { endTime: 'soon' })).status).toBe(400)
    const stored = await api('GET', path)
    expect(stored.body.settings.endTime).toBe(1)
    expect(stored.body.settings.particleDiameter).toBe(0.01)
  })

  it('refuses a total output count above the limit with the count in the message', async () => {
    const simulation = await createSimulation('Output count')
    const reply = await api('PUT', `/simulations/${simulation.id}/settings`, {
      endTime: 10,
      outputTimeInterval: 0.0005,
    })
    expectRefused(reply, 'Total output number must be less than 10000. Now is 20000.')
  })

  it('switches multiphase on: a second material, advanced settings adjusted', async () => {
    const simulation = await createSimulation('Multiphase')
    const reply = await api('PUT', `/simulations/${simulation.id}/settings`, { multiphase: true })
    expect(reply.status).toBe(200)
    expect(reply.body.settings).toMatchObject({
      multiphase: true,
      densityLimiter: false,
      noRiemannWall: true,
    })
    expect(reply.body.adjustments).toEqual([
      'Disabled density limiter',
      'Enabled improved wall pressure treatment',
    ])
    const materials = await api('GET', `/simulations/${simulation.id}/materials`)
    expect((materials.body as { id: number }[]).map((m) => m.id)).toEqual([0, 1])
    const off = await api('PUT', `/simulations/${simulation.id}/settings`, { multiphase: false })
    expect(off.body.settings.densityLimiter).toBe(true)
    expect(off.body.adjustments).toEqual(['Enabled density limiter'])
  })

  it('forces shifting to lyu21 when surface tension is switched on', async () => {
    const simulation = await createSimulation('Surface tension')
    const path = `/simulations/${simulation.id}/settings`
    await api('PUT', path, { shifting: 'zero' })
    const reply = await api('PUT', path, { surfaceTension: true, sigma: 0.072 })
    expect(reply.status).toBe(200)
    expect(reply.body.settings).toMatchObject({ surfaceTension: true, shifting: 'lyu21' })
  })

  it('adds, checks and removes the calculation domain', async () => {
    const simulation = await createSimulation('Deletion boundary')
    const path = `/simulations/${simulation.id}/calc_domain`
    expectRefused(
      await api('PUT', path, { min: [0, 0, 0], max: [1, -1, 1] }),
      SETTINGS_MESSAGES.calcDomainOrder,
    )
    expect((await api('GET', path)).body.active).toBe(false)
    const added = await api('PUT', path, { min: [-1, -1, 0], max: [2, 1, 3] })
    expect(added.status).toBe(200)
    expect(added.body).toMatchObject({ active: true, min: [-1, -1, 0], max: [2, 1, 3], issues: [] })
    const removed = await api('DELETE', path)
    expect(removed.body.active).toBe(false)
    expect(removed.body.issues[0].message).toBe(SETTINGS_MESSAGES.addDeletionBoundary)
  })

  // ── Access ───────────────────────────────────────────────────────────────────────────────────

  it('hides a simulation of another organization (404) and needs a valid token (401)', async () => {
    const simulation = await createSimulation('Private setup')
    expect((await api('GET', `/simulations/${simulation.id}/parts`, undefined, other)).status).toBe(
      404,
    )
    expect(
      (await api('PUT', `/simulations/${simulation.id}/materials/0`, { density: 1 }, other)).status,
    ).toBe(404)
    expect(
      (await api('GET', `/simulations/${simulation.id}/settings`, undefined, 'nope')).status,
    ).toBe(401)
    const noToken = await server.request('GET', `/api/simulations/${simulation.id}/materials`)
    expect(noToken.status).toBe(401)
  })

  it('lets a contributor edit the setup of their own simulations only', async () => {
    const contributor = (await server.login(DEMO_USERS.contributor.email)).accessToken
    const own = await api('POST', '/projects', { name: 'Contributor setup' }, contributor)
    const simulation = await api(
      'POST',
      `/projects/${own.body.id as number}/simulations`,
      { name: 'Mine' },
      contributor,
    )
    const path = `/simulations/${simulation.body.id as number}/materials/0`
    expect((await api('PUT', path, { density: 1010 }, contributor)).status).toBe(200)
    const managers = await createSimulation('Not for contributors')
    expect(
      (await api('PUT', `/simulations/${managers.id}/materials/0`, { density: 1 }, contributor))
        .status,
    ).toBe(404)
    expect(
      (await api('GET', `/simulations/${managers.id}/parts`, undefined, contributor)).status,
    ).toBe(404)
  })

  it('refuses every setup edit of a locked or uploaded setup with the spec message', async () => {
    const simulation = await createSimulation('Locked')
    const part = await createPart(simulation.id, {
      name: 'Wall',
      component: { type: 'rigid' },
      shape: { type: 'stl_cube', dimensions: [1, 1, 1] },
    })
    const db = server.database.handle.db
    await db
      .updateTable('simulations')
      .set({ setup_locked: 1 })
      .where('id', '=', simulation.id)
      .execute()
    expectRefused(
      await api('PUT', `/simulations/${simulation.id}/settings`, { endTime: 2 }),
      SETUP_LOCKED_MESSAGE,
      409,
    )
    expectRefused(
      await api('PUT', `/parts/${part.id}`, { name: 'Renamed' }),
      SETUP_LOCKED_MESSAGE,
      409,
    )
    expectRefused(await api('DELETE', `/parts/${part.id}`), SETUP_LOCKED_MESSAGE, 409)
    expectRefused(
      await api('PUT', `/simulations/${simulation.id}`, { settings: { endTime: 2 } }),
      SETUP_LOCKED_MESSAGE,
      409,
    )
    expect(
      (await api('PUT', `/simulations/${simulation.id}`, { description: 'Still fine' })).status,
    ).toBe(200)
    expectRefused(
      await api('PUT', `/simulations/${simulation.id}/materials/0`, { density: 999 }),
      SETUP_LOCKED_MESSAGE,
      409,
    )
    expect((await api('GET', `/parts/${part.id}`)).body.name).toBe('Wall')
    await db
      .updateTable('simulations')
      .set({ setup_locked: 0, uploaded_setup: 1 })
      .where('id', '=', simulation.id)
      .execute()
    expectRefused(
      await api('POST', `/simulations/${simulation.id}/parts`, {
        name: 'More',
        component: { type: 'rigid' },
        shape: { type: 'plane' },
      }),
      UPLOADED_SETUP_MESSAGE,
      409,
    )
  })

  // ── Materials ────────────────────────────────────────────────────────────────────────────────

  it('always has material 0 and creates, checks and deletes materials', async () => {
    const simulation = await createSimulation('Materials')
    const base = `/simulations/${simulation.id}/materials`
    const list = await api('GET', base)
    expect(list.body).toEqual([
      expect.objectContaining({ id: 0, name: 'Fluid 1', density: 1000, viscosityKind: 'constant' }),
    ])
    expectRefused(await api('PUT', `${base}/0`, { density: 0 }), 'Density must be at least 0.001.')
    expectRefused(
      await api('PUT', `${base}/0`, { viscosityKind: 'temperature' }),
      'Temperature-dependent viscosity requires the Heat Transfer Model.',
    )
    expect((await api('PUT', `${base}/0`, { name: '' })).status).toBe(400)
    expect((await api('PUT', `${base}/0`, { density: '1000' })).status).toBe(400)
    const updated = await api('PUT', `${base}/0`, { name: 'Water', density: 998.2 })
    expect(updated.body).toMatchObject({ id: 0, name: 'Water', density: 998.2 })
    const created = await api('PUT', `${base}/2`, {
      name: 'Oil',
      density: 884.1,
      kinematicViscosity: 5.5e-4,
    })
    expect(created.status).toBe(200)
    expect(created.body).toMatchObject({ id: 2, name: 'Oil', gamma: 7 })
    expect((await api('GET', `${base}/2`)).body.name).toBe('Oil')
    expect((await api('GET', `${base}/9`)).status).toBe(404)
    expectRefused(await api('DELETE', `${base}/1`), MATERIAL_NOT_DELETABLE_MESSAGE)
    expect((await api('DELETE', `${base}/2`)).status).toBe(200)
    expect((await api('DELETE', `${base}/2`)).status).toBe(404)
    for (const id of [1, 2, 3, 4]) expect((await api('PUT', `${base}/${id}`, {})).status).toBe(200)
    expectRefused(await api('PUT', `${base}/5`, {}), SETTINGS_MESSAGES.multiphaseMaxMaterials)
  })

  it('lists real fluids as material presets', async () => {
    const reply = await api('GET', '/material_presets')
    expect(reply.status).toBe(200)
    const byName = new Map((reply.body as Json[]).map((p) => [p.name, p]))
    expect(byName.get('Water')).toMatchObject({
      density: 998.2,
      kinematicViscosity: 1.004e-6,
      gamma: 7,
    })
    expect(byName.get('Air')).toMatchObject({
      density: 1.204,
      gamma: 1.4,
      physicalSpeedOfSound: 343,
    })
    for (const name of ['Seawater', 'Glycerine', 'Honey', 'Engine oil (27 °C)'])
      expect(byName.has(name)).toBe(true)
  })

  // ── Parts ────────────────────────────────────────────────────────────────────────────────────

  it('creates parts of every shape and component with defaults, unique names and shape info', async () => {
    const simulation = await createSimulation('Parts')
    const tank = await createPart(simulation.id, {
      name: 'Tank',
      component: { type: 'rigid' },
      shape: { type: 'stl_cube', dimensions: [2, 1, 1], translation: [1, 0.5, 0.5] },
    })
    expect(tank).toMatchObject({
      name: 'Tank',
      kind: 'rigid',
      materialId: null,
      component: { type: 'rigid', velocityKind: 'no_slip', thermoKind: 'adiabatic' },
      appearance: { color: '#2D69B2', opacity: 1, visibility: true },
      hasWarnings: false,
    })
    expect(tank.shape.info).toMatchObject({
      nbrOfTriangles: 12,
      boundingBox: { min: [0, 0, 0], max: [2, 1, 1] },
      center: [1, 0.5, 0.5],
      holes: [],
    })
    const water = await createPart(simulation.id, {
      name: 'Tank',
      component: { type: 'filling', height: 0.4 },
      shape: { type: 'stl_cube', dimensions: [0.2, 1, 0.4] },
    })
    expect(water).toMatchObject({ name: 'Tank (1)', materialId: 0, component: { height: 0.4 } })
    const plane = await createPart(simulation.id, {
      name: 'Floor',
      component: { type: 'rigid' },
      shape: { type: 'plane', scale: [3, 2, 1] },
    })
    expect(plane.shape.info).toMatchObject({ isPlanar: true, normal: [0, 0, 1], surfaceArea: 6 })
    const inlet = await createPart(simulation.id, {
      name: 'Inlet',
      component: { type: 'openboundary', ioDirection: 'inflow', ioVelocity: 1 },
      shape: { type: 'plane' },
    })
    expect(inlet.component).toMatchObject({ ioType: 'riemann_velocity', ioProfileKind: 'constant' })
    const flow = await createPart(simulation.id, {
      name: 'Jet',
      component: { type: 'flow' },
      shape: { type: 'empty' },
    })
    expect(flow).toMatchObject({ materialId: 0, shape: { type: 'empty', info: null } })
    const list = await api('GET', `/simulations/${simulation.id}/parts`)
    expect((list.body as { name: string }[]).map((p) => p.name)).toEqual([
      'Tank',
      'Tank (1)',
      'Floor',
      'Inlet',
      'Jet',
    ])
    const validation = await api('GET', `/simulations/${simulation.id}/setup_validation`)
    expect(validation.body.runnable).toBe(false)
    expect(validation.body.message).toBe(SETTINGS_MESSAGES.discretizationBlockedText)
    expect(validation.body.issues).toContainEqual({
      level: 'error',
      field: `parts.${flow.id}.shape`,
      message: PART_MESSAGES.emptyGeometry,
    })
  })

  it('refuses parts that break a rule, and bad bodies, storing nothing', async () => {
    const simulation = await createSimulation('Bad parts')
    const base = `/simulations/${simulation.id}/parts`
    expectRefused(
      await api('POST', base, {
        name: 'Inlet',
        component: {
          type: 'openboundary',
          ioDirection: 'inflow',
          ioType: 'riemann_pressure',
          ioPressure: 1,
        },
        shape: { type: 'plane' },
      }),
      PART_MESSAGES.inletWithPressure,
    )
    expectRefused(
      await api('POST', base, {
        name: 'Fluid',
        materialId: 7,
        component: { type: 'filling' },
        shape: { type: 'empty' },
      }),
      'Material is required',
    )
    expectRefused(
      await api('POST', base, {
        name: 'Box',
        component: { type: 'rigid' },
        shape: { type: 'stl_cube', dimensions: [1, 0, 1] },
      }),
      'Dimensions must be greater than 0.',
    )
    expectRefused(
      await api('POST', base, {
        name: 'Mesh',
        component: { type: 'rigid' },
        shape: { type: 'stl', fileId: 99999 },
      }),
      'The STL file was not found.',
    )
    expectRefused(
      await api('POST', base, {
        name: 'Column',
        component: { type: 'filling', height: -0.1 },
        shape: { type: 'stl_cube' },
      }),
      'Fill height must be at least 0.',
    )
    const tooLong = await api('POST', base, {
      name: 'x'.repeat(101),
      component: { type: 'rigid' },
      shape: { type: 'plane' },
    })
    expect(tooLong.status).toBe(400)
    expect(
      (await api('POST', base, { name: 'No shape', component: { type: 'rigid' } })).status,
    ).toBe(400)
    expect(
      (
        await api('POST', base, {
          name: 'Odd',
          component: { type: 'lava' },
          shape: { type: 'plane' },
        })
      ).status,
    ).toBe(400)
    expect(
      (
        await server.request('POST', `/api${base}`, {
          token: manager,
          rawBody: '{"name":',
          contentType: 'application/json',
        })
      ).status,
    ).toBe(400)
    expect((await api('GET', base)).body).toEqual([])
  })

  it('updates parts one by one and in bulk, all or nothing', async () => {
    const simulation = await createSimulation('Part updates')
    const a = await createPart(simulation.id, {
      name: 'A',
      component: { type: 'filling' },
      shape: { type: 'plane' },
    })
    const b = await createPart(simulation.id, {
      name: 'B',
      component: { type: 'rigid' },
      shape: { type: 'plane' },
    })
    const renamed = await api('PUT', `/parts/${a.id}`, {
      name: 'B',
      seedPoint: [0.1, 0.2, 0.3],
      appearance: { color: '#FF0000' },
      component: { type: 'filling', height: 0.5 },
    })
    expect(renamed.status).toBe(200)
    expect(renamed.body).toMatchObject({
      name: 'B (1)',
      seedPoint: [0.1, 0.2, 0.3],
      appearance: { color: '#FF0000', opacity: 1 },
      component: { type: 'filling', height: 0.5 },
    })
    const bulkBad = await api('PUT', `/simulations/${simulation.id}/parts`, [
      { id: a.id, name: 'Renamed' },
      { id: b.id, component: { type: 'rigid', contactAngle: 5 }, appearance: { opacity: 2 } },
    ])
    expectRefused(bulkBad, 'Opacity must be at most 1.')
    expect((await api('GET', `/parts/${a.id}`)).body.name).toBe('B (1)')
    const bulk = await api('PUT', `/simulations/${simulation.id}/parts`, [
      { id: a.id, name: 'Renamed' },
      {
        id: b.id,
        component: {
          type: 'openboundary',
          ioDirection: 'outflow',
          ioType: 'riemann_pressure',
          ioPressure: 0,
        },
      },
    ])
    expect(bulk.status).toBe(200)
    expect((bulk.body as { name: string }[]).map((p) => p.name)).toEqual(['Renamed', 'B'])
    expect(bulk.body[1].component).toMatchObject({
      type: 'openboundary',
      ioType: 'riemann_pressure',
      ioPressure: 0,
    })
    await api('PUT', `/simulations/${simulation.id}/materials/2`, { name: 'Oil' })
    const reset = await api('PUT', `/simulations/${simulation.id}/parts/material_reset`, {
      materialId: 2,
    })
    expect((reset.body as { materialId: number }[]).map((p) => p.materialId)).toEqual([2, 2])
    expectRefused(
      await api('PUT', `/simulations/${simulation.id}/parts/material_reset`, { materialId: 4 }),
      'Material is required',
    )
    const info = {
      center: [0, 0, 0],
      normal: null,
      isPlanar: false,
      nbrOfTriangles: 4,
      holes: [{ center: [1, 0, 0], size: 0.1 }],
      nonManifold: [],
      surfaceArea: 2,
      boundingBox: { min: [-1, -1, -1], max: [1, 1, 1] },
    }
    const withInfo = await api('PUT', `/parts/${a.id}/shape_info`, info)
    expect(withInfo.body.shape.info).toEqual(info)
    expect((await api('DELETE', `/parts/${b.id}`)).status).toBe(200)
    expect((await api('GET', `/parts/${b.id}`)).status).toBe(404)
    expect((await api('PUT', `/parts/${b.id}`, { name: 'Ghost' })).status).toBe(404)
  })

  // ── Movements ────────────────────────────────────────────────────────────────────────────────

  it('adds movements with leaders and followers, refuses cycles and bad timing', async () => {
    const simulation = await createSimulation('Movements')
    const part = await createPart(simulation.id, {
      name: 'Paddle',
      component: { type: 'rigid' },
      shape: { type: 'stl_cube', dimensions: [0.1, 1, 1] },
    })
    const base = `/parts/${part.id}/movements`
    const slide = {
      type: 'translatory',
      name: 'translation 1',
      start: 0,
      end: 0.5,
      acc: 0,
      vel: 1,
      virtualMovement: false,
      direction: [1, 0, 0],
    }
    expectRefused(
      await api('POST', base, { ...slide, start: 0.6 }),
      'Start must be smaller than End.',
    )
    expectRefused(
      await api('POST', base, { ...slide, end: null, start: 2 }),
      'Start must be smaller than simulation end time.',
    )
    expectRefused(
      await api('POST', base, { ...slide, vel: 2000 }),
      'Velocity must be at most 1000.',
    )
    expectRefused(
      await api('POST', base, { ...slide, direction: [0, 0, 0] }),
      'Direction length cannot be equal to 0',
    )
    expect((await api('POST', base, { ...slide, type: 'wobble' })).status).toBe(400)
    const first = await api('POST', base, slide)
    expect(first.status).toBe(201)
    expect(first.body).toMatchObject({
      partId: part.id,
      type: 'translatory',
      parents: [],
      followers: [],
    })
    const spin = {
      type: 'rotatory',
      name: 'rotation 2',
      start: 0,
      end: null,
      acc: 0,
      vel: 1,
      virtualMovement: false,
      axis: [0, 0, 1],
      center: null,
      parents: [first.body.id],
    }
    const second = await api('POST', base, spin)
    expect(second.status).toBe(201)
    expect(second.body.parents).toEqual([first.body.id])
    expect((await api('GET', `/movements/${first.body.id}`)).body.followers).toEqual([
      second.body.id,
    ])
    expectRefused(
      await api('PUT', `/movements/${first.body.id}/followers/${first.body.id}`),
      'A movement cannot follow itself or one of its followers.',
    )
    expectRefused(
      await api('PUT', `/movements/${second.body.id}/followers/${first.body.id}`),
      'A movement cannot follow itself or one of its followers.',
    )
    expectRefused(
      await api('PUT', `/movements/${first.body.id}`, { parents: [second.body.id] }),
      'A movement cannot follow itself or one of its followers.',
    )
    const unlinked = await api('DELETE', `/movements/${first.body.id}/followers/${second.body.id}`)
    expect(unlinked.body.followers).toEqual([])
    expect(
      (await api('DELETE', `/movements/${first.body.id}/followers/${second.body.id}`)).status,
    ).toBe(404)
    const linked = await api('PUT', `/movements/${second.body.id}/followers/${first.body.id}`)
    expect(linked.body.followers).toEqual([first.body.id])
    const updated = await api('PUT', `/movements/${first.body.id}`, { vel: 2, end: 0.8 })
    expect(updated.body).toMatchObject({ vel: 2, end: 0.8, parents: [second.body.id] })
    expectRefused(
      await api('PUT', `/movements/${first.body.id}`, { end: 0 }),
      'Start must be smaller than End.',
    )
    expect((await api('PUT', `/movements/${first.body.id}`, { axis: [0, 1, 0] })).status).toBe(400)
    expect((await api('GET', `/simulations/${simulation.id}/movements`)).body).toHaveLength(2)
    expect((await api('GET', base)).body).toHaveLength(2)
    expect((await api('DELETE', `/movements/${second.body.id}`)).status).toBe(200)
    expect((await api('GET', `/movements/${first.body.id}`)).body.parents).toEqual([])
  })

  it('returns keyframes of a part, interpolated by default, with the 5000 warning', async () => {
    const simulation = await createSimulation('Keyframes')
    const part = await createPart(simulation.id, {
      name: 'Rotor',
      component: { type: 'rigid' },
      shape: { type: 'plane' },
    })
    const base = `/parts/${part.id}/movements`
    const empty = await api('GET', `${base}/keyframes`)
    expect(empty.body).toEqual({
      keyframes: [
        { time: 0, position: [0, 0, 0], rotation: [0, 0, 0, 1] },
        { time: 1, position: [0, 0, 0], rotation: [0, 0, 0, 1] },
      ],
      warning: null,
    })
    await api('POST', base, {
      type: 'rotatory',
      name: 'rotation 1',
      start: 0.2,
      end: null,
      acc: 0,
      vel: 1000,
      virtualMovement: false,
      axis: [0, 0, 1],
      center: [0, 0, 0],
    })
    const raw = await api('GET', `${base}/keyframes?interpolate=false`)
    expect((raw.body as { keyframes: { time: number }[] }).keyframes.map((k) => k.time)).toEqual([
      0, 0.2, 1,
    ])
    const dense = await api('GET', `${base}/keyframes`)
    expect(dense.body.keyframes).toHaveLength(5000)
    expect(dense.body.warning).toBe(keyframeWarning('Rotor'))
    expect((await api('GET', `${base}/keyframes?interpolate=maybe`)).status).toBe(400)
  })

  // ── Datatables ───────────────────────────────────────────────────────────────────────────────

  it('stores datatables and refuses NaN cells and wrong columns with Validation failed', async () => {
    const simulation = await createSimulation('Tables')
    const created = await api('POST', `/simulations/${simulation.id}/datatables`, {
      kind: 'openBoundary',
      headers: ['time', 'vel_x'],
      table: { time: [0, 1, 2], vel_x: [0, 0.5, 1] },
    })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ headers: ['time', 'vel_x'], resultCount: 3 })
    const path = `/datatables/${created.body.id}`
    const bad = await api('PUT', `${path}/json`, {
      headers: ['time', 'speed'],
      table: { time: [0, null], speed: [1, 2] },
    })
    expect(bad.status).toBe(400)
    expect(bad.body.description).toBe('Validation failed')
    expect(bad.body.errors).toContainEqual({
      path: 'table',
      message: 'speed is not a known attribute name',
    })
    expect(bad.body.errors).toContainEqual({
      path: 'table.time.1',
      message: 'This field requires a valid number.',
    })
    const page = await api('GET', `${path}?pageLimit=2&pageNumber=2`)
    expect(page.body).toMatchObject({
      table: { time: [2], vel_x: [1] },
      resultCount: 3,
      pageNumber: 2,
    })
    const ok = await api('PUT', `${path}/json`, {
      headers: ['time', 'prs'],
      table: { time: [0, 1], prs: [1, 2] },
    })
    expect(ok.body).toMatchObject({ headers: ['time', 'prs'], resultCount: 2 })
    expect((await api('GET', path, undefined, other)).status).toBe(404)
  })

  it('clones the whole setup with references pointing at the copies', async () => {
    const simulation = await createSimulation('To clone')
    await api('PUT', `/simulations/${simulation.id}/materials/2`, { name: 'Oil' })
    const table = await api('POST', `/simulations/${simulation.id}/datatables`, {
      kind: 'openBoundary',
      headers: ['time', 'vel_x'],
      table: { time: [0, 1], vel_x: [1, 2] },
    })
    const wall = await createPart(simulation.id, {
      name: 'Wall',
      component: { type: 'rigid' },
      shape: { type: 'plane' },
    })
    await createPart(simulation.id, {
      name: 'Inlet',
      materialId: 2,
      component: { type: 'openboundary', ioProfileKind: 'field', ioTableId: table.body.id },
      shape: { type: 'plane' },
    })
    const lead = await api('POST', `/parts/${wall.id}/movements`, {
      type: 'translatory',
      name: 'translation 1',
      start: 0,
      end: null,
      acc: 0,
      vel: 1,
      virtualMovement: true,
      direction: [1, 0, 0],
    })
    const follow = await api('POST', `/parts/${wall.id}/movements`, {
      type: 'rotatory',
      name: 'rotation 2',
      start: 0,
      end: null,
      acc: 0,
      vel: 1,
      virtualMovement: false,
      axis: [0, 0, 1],
      center: null,
      parents: [lead.body.id],
    })
    await api('PUT', `/parts/${wall.id}`, {
      component: {
        type: 'rigid',
        velocityKind: 'moving',
        velocityConditionMovementId: lead.body.id,
      },
    })
    const clone = await api('POST', `/simulations/${simulation.id}`)
    expect(clone.status).toBe(201)
    const id = clone.body.id as number
    const materials = await api('GET', `/simulations/${id}/materials`)
    expect((materials.body as { name: string }[]).map((m) => m.name)).toEqual(['Fluid 1', 'Oil'])
    const parts = (await api('GET', `/simulations/${id}/parts`)).body as Json[]
    expect(parts.map((p) => p.name as string)).toEqual(['Wall', 'Inlet'])
    const movements = (await api('GET', `/simulations/${id}/movements`)).body as Json[]
    expect(movements).toHaveLength(2)
    const [copiedLead, copiedFollow] = movements
    expect(copiedLead.id).not.toBe(lead.body.id)
    expect(copiedFollow.parents).toEqual([copiedLead.id])
    expect(copiedFollow.id).not.toBe(follow.body.id)
    expect(parts[0].component.velocityConditionMovementId).toBe(copiedLead.id)
    const copiedTable = parts[1].component.ioTableId as number
    expect(copiedTable).not.toBe(table.body.id)
    expect((await api('GET', `/datatables/${copiedTable}`)).body.table).toEqual({
      time: [0, 1],
      vel_x: [1, 2],
    })
    expect((await api('GET', `/simulations/${simulation.id}/parts`)).body).toHaveLength(2)
    expect((await api('DELETE', `/movements/${lead.body.id}`)).status).toBe(200)
    const original = await api('GET', `/parts/${wall.id}`)
    expect(original.body.component.velocityConditionMovementId).toBeNull()
  })

  // ── Demo, run setup, OpenAPI ─────────────────────────────────────────────────────────────────

  it('seeds the dam break with a runnable setup: water, a tank and a column twice as high as wide', async () => {
    const projects = await api('GET', '/projects?q=Demo')
    const demo = (projects.body.results as Json[]).find((p) => p.name === DEMO_PROJECT_NAME)
    const simulationId = demo.simulations[0].id as number
    const validation = await api('GET', `/simulations/${simulationId}/setup_validation`)
    expect(validation.body).toMatchObject({ runnable: true, message: null })
    expect(
      (validation.body as { issues: { level: string }[] }).issues.filter(
        (i) => i.level !== 'warning',
      ),
    ).toEqual([])
    const setup = await loadRunSetup(server.database.handle.db, server.dataDir, simulationId)
    expect(setup.settings).toMatchObject({
      particleDiameter: DEMO_DAM_BREAK.particleDiameter,
      endTime: DEMO_DAM_BREAK.endTime,
      calcDomainActive: true,
    })
    expect(setup.materials).toEqual([
      expect.objectContaining({ id: 0, name: 'Water', speedOfSound: DEMO_DAM_BREAK.speedOfSound }),
    ])
    const [tank, column] = setup.parts
    expect(tank?.component.type).toBe('rigid')
    expect(column?.component).toMatchObject({
      type: 'filling',
      height: DEMO_DAM_BREAK.columnHeight,
    })
    const box = column?.shape.info?.boundingBox
    expect(box && box.max[2] - box.min[2]).toBeCloseTo(2 * DEMO_DAM_BREAK.columnWidth, 6)
    expect(box && box.max[0] - box.min[0]).toBeCloseTo(DEMO_DAM_BREAK.columnWidth, 6)
    expect(setup.meshes).toEqual({})
    expect(await checkRunnableSetup(server.database.handle.db, simulationId)).toMatchObject({
      runnable: true,
    })
  })

  it('tells the jobs that an incomplete setup cannot run, with the spec message', async () => {
    const simulation = await createSimulation('Not ready')
    const check = await checkRunnableSetup(server.database.handle.db, simulation.id)
    expect(check.runnable).toBe(false)
    expect(check.message).toBe(
      'There are errors in your setup. Please check the Input Validation bar.',
    )
    expect(check.issues).toContainEqual({
      level: 'info',
      field: 'parts',
      message: 'Add your first object',
    })
    await expect(loadRunSetup(server.database.handle.db, server.dataDir, 987654)).rejects.toThrow(
      'Simulation 987654 not found.',
    )
  })

  it('describes every setup call in the OpenAPI document', async () => {
    const reply = await server.request('GET', '/api/openapi.json')
    const paths = reply.body.paths as Record<string, Record<string, unknown>>
    for (const [path, method] of [
      ['/api/simulations/{id}/settings', 'put'],
      ['/api/simulations/{id}/parts', 'post'],
      ['/api/simulations/{id}/materials/{materialId}', 'delete'],
      ['/api/parts/{id}/movements/keyframes', 'get'],
      ['/api/movements/{id}/followers/{followerId}', 'put'],
      ['/api/material_presets', 'get'],
      ['/api/client-upload/uploads', 'post'],
      ['/api/datatables/{id}/csv', 'put'],
    ] as const)
      expect(paths[path]?.[method], `${method} ${path}`).toBeDefined()
  })
})
