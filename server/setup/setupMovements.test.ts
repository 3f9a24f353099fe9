import { expect, it } from 'vitest'
import { keyframeWarning } from '../../domain/movements.ts'
import { DEMO_PROJECT_NAME } from '../db/demoAccounts.ts'
import { DEMO_DAM_BREAK } from './demoSetup.ts'
import { checkRunnableSetup, loadRunSetup } from './loadRunSetup.ts'
import { useSetupApi } from './setupApiTesting.ts'
import { describeEachDialect, type Json } from '../../tests/integration/harness.ts'

describeEachDialect('setup API: movements, datatables, clone, run setup', (dialect) => {
  const t = useSetupApi(dialect, 'Setup movements')
  const { api, createSimulation, createPart, expectRefused } = t

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
    expect((await api('GET', path, undefined, t.other)).status).toBe(404)
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

  it('seeds the dam break with a runnable setup: water, a tank, an obstacle and the water column', async () => {
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
    const setup = await loadRunSetup(t.server.database.handle.db, t.server.dataDir, simulationId)
    expect(setup.settings).toMatchObject({
      particleDiameter: DEMO_DAM_BREAK.particleDiameter,
      endTime: DEMO_DAM_BREAK.endTime,
      calcDomainActive: true,
    })
    expect(setup.materials).toEqual([
      expect.objectContaining({ id: 0, name: 'Water', speedOfSound: DEMO_DAM_BREAK.speedOfSound }),
    ])
    const [tank, obstacle, column] = setup.parts
    expect(tank?.component.type).toBe('rigid')
    expect(obstacle?.component.type).toBe('rigid')
    const obstacleBox = obstacle?.shape.info?.boundingBox
    expect(obstacleBox?.min[0]).toBeCloseTo(DEMO_DAM_BREAK.obstacleMin[0], 6)
    expect(obstacleBox && obstacleBox.max[2] - obstacleBox.min[2]).toBeCloseTo(
      DEMO_DAM_BREAK.obstacleSize[2],
      6,
    )
    expect(column?.component).toMatchObject({
      type: 'filling',
      height: DEMO_DAM_BREAK.columnHeight,
    })
    const box = column?.shape.info?.boundingBox
    expect(box && box.max[2] - box.min[2]).toBeCloseTo(DEMO_DAM_BREAK.columnHeight, 6)
    expect(box && box.max[0] - box.min[0]).toBeCloseTo(DEMO_DAM_BREAK.columnLength, 6)
    expect(box && box.max[1] - box.min[1]).toBeCloseTo(DEMO_DAM_BREAK.depth, 6)
    expect(setup.meshes).toEqual({})
    expect(await checkRunnableSetup(t.server.database.handle.db, simulationId)).toMatchObject({
      runnable: true,
    })
  })

  it('tells the jobs that an incomplete setup cannot run, with the spec message', async () => {
    const simulation = await createSimulation('Not ready')
    const check = await checkRunnableSetup(t.server.database.handle.db, simulation.id)
    expect(check.runnable).toBe(false)
    expect(check.message).toBe(
      'There are errors in your setup. Please check the Input Validation bar.',
    )
    expect(check.issues).toContainEqual({
      level: 'info',
      field: 'parts',
      message: 'Add your first object',
    })
    await expect(
      loadRunSetup(t.server.database.handle.db, t.server.dataDir, 987654),
    ).rejects.toThrow('Simulation 987654 not found.')
  })

  it('describes every setup call in the OpenAPI document', async () => {
    const reply = await t.server.request('GET', '/api/openapi.json')
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
