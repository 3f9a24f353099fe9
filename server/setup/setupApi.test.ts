import { expect, it } from 'vitest'
import {
  MATERIAL_NOT_DELETABLE_MESSAGE,
  SETUP_LOCKED_MESSAGE,
  UPLOADED_SETUP_MESSAGE,
} from '../../domain/rest/setupRoutes.ts'
import { SETTINGS_MESSAGES } from '../../domain/settingsRules.ts'
import { DEMO_USERS } from '../db/demoAccounts.ts'
import { useSetupApi } from './setupApiTesting.ts'
import { describeEachDialect, type Json } from '../../tests/integration/harness.ts'

describeEachDialect('setup API: settings, access, materials', (dialect) => {
  const t = useSetupApi(dialect, 'Setup API')
  const { api, createSimulation, createPart, expectRefused } = t

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
    expect(
      (await api('GET', `/simulations/${simulation.id}/parts`, undefined, t.other)).status,
    ).toBe(404)
    expect(
      (await api('PUT', `/simulations/${simulation.id}/materials/0`, { density: 1 }, t.other))
        .status,
    ).toBe(404)
    expect(
      (await api('GET', `/simulations/${simulation.id}/settings`, undefined, 'nope')).status,
    ).toBe(401)
    const noToken = await t.server.request('GET', `/api/simulations/${simulation.id}/materials`)
    expect(noToken.status).toBe(401)
  })

  it('lets a contributor edit the setup of their own simulations only', async () => {
    const contributor = (await t.server.login(DEMO_USERS.contributor.email)).accessToken
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
    const db = t.server.database.handle.db
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
    expectRefused(await api('PUT', `${base}/5`, {}), SETTINGS_MESSAGES.singlePhaseMaxMaterials)
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
})
