import { expect, it } from 'vitest'
import { PART_MESSAGES } from '../../domain/parts.ts'
import { SETTINGS_MESSAGES } from '../../domain/settingsRules.ts'
import { useSetupApi } from './setupApiTesting.ts'
import { describeEachDialect } from '../../tests/integration/harness.ts'

describeEachDialect('setup API: parts', (dialect) => {
  const t = useSetupApi(dialect, 'Setup parts')
  const { api, createSimulation, createPart, expectRefused } = t

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
      // A wall starts see-through: a tank would hide the fluid inside it.
      appearance: { color: '#2D69B2', opacity: 0.35, translucent: true, visibility: true },
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
    expect(water).toMatchObject({
      name: 'Tank (1)',
      materialId: 0,
      component: { height: 0.4 },
      appearance: { opacity: 1, translucent: false },
    })
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
        await t.server.request('POST', `/api${base}`, {
          token: t.manager,
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

  it('stores a moved seed point alone, keeping the shape, its mesh URL and the other fields', async () => {
    const simulation = await createSimulation('Seed point')
    const part = await createPart(simulation.id, {
      name: 'Water',
      component: { type: 'filling', height: 0.3 },
      shape: { type: 'stl_cube', dimensions: [1, 1, 1], translation: [2, 0, 0] },
    })
    const moved = await api('PUT', `/parts/${part.id}`, { seedPoint: [2.1, 0.2, -0.1] })
    expect(moved.status).toBe(200)
    expect(moved.body).toMatchObject({
      seedPoint: [2.1, 0.2, -0.1],
      shape: part.shape,
      component: part.component,
      meshUrl: part.meshUrl,
    })
    const cleared = await api('PUT', `/parts/${part.id}`, { seedPoint: null })
    expect(cleared.body.seedPoint).toBeNull()
    expect((await api('PUT', `/parts/${part.id}`, { seedPoint: [1, 2] })).status).toBe(400)
  })
})
