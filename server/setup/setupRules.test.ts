import * as v from 'valibot'
import { expect, it } from 'vitest'
import { DATATABLE_MESSAGES, DatatableErrorBodySchema } from '../../domain/datatable.ts'
import { PART_MESSAGES } from '../../domain/parts.ts'
import { SETUP_LOCKED_MESSAGE, UPLOADED_SETUP_MESSAGE } from '../../domain/rest/setupRoutes.ts'
import { SETTINGS_MESSAGES } from '../../domain/settingsRules.ts'
import { describeEachDialect } from '../../tests/integration/harness.ts'
import { useSetupApi } from './setupApiTesting.ts'

/*
 * Defects found by trying the setup API as a new user (issue 11, item 7), each fixed and held
 * here on both databases: missing datatables, discretizing a locked setup, out-of-range values
 * replaced by others, the datatable 400 body, stale mesh-health warnings, the material limit
 * without multiphase, air drag without a domain, and pointcloud references without outputs.
 */

const openBoundaryTable = { headers: ['time', 'prs'], table: { time: [0, 1], prs: [0, 0] } }

describeEachDialect('setup API: rules the editor relies on', (dialect) => {
  const t = useSetupApi(dialect, 'Setup rules')
  const { api, createSimulation, createPart, expectRefused } = t
  const db = () => t.server.database.handle.db

  const createTable = async (simulationId: number) => {
    const reply = await api('POST', `/simulations/${simulationId}/datatables`, {
      kind: 'openBoundary',
      ...openBoundaryTable,
    })
    expect(reply.status, reply.text).toBe(201)
    return reply.body.id as number
  }
  const outletWith = (ioTableId: number) => ({
    name: 'Outlet',
    component: {
      type: 'openboundary',
      ioDirection: 'outflow',
      ioProfileKind: 'field',
      ioTableId,
    },
    shape: { type: 'plane' },
  })

  it('refuses a part naming a datatable that does not exist, and flags one left behind', async () => {
    const simulation = await createSimulation('Missing table')
    const elsewhere = await createSimulation('Table elsewhere')
    const foreignTable = await createTable(elsewhere.id)
    for (const ioTableId of [987654, foreignTable]) {
      const reply = await api('POST', `/simulations/${simulation.id}/parts`, outletWith(ioTableId))
      expectRefused(reply, PART_MESSAGES.tableNotFound)
      expect(reply.body.errors[0].path).toBe('part.component.ioTableId')
    }
    const tableId = await createTable(simulation.id)
    const part = await createPart(simulation.id, outletWith(tableId))
    // a table gone from under a stored part (no API deletes one; a broken row or an old clone)
    await db().deleteFrom('datatables').where('id', '=', tableId).execute()
    const validation = await api('GET', `/simulations/${simulation.id}/setup_validation`)
    expect(validation.body.runnable).toBe(false)
    expect(validation.body.issues).toContainEqual({
      level: 'error',
      field: `parts.${part.id}.component.ioTableId`,
      message: DATATABLE_MESSAGES.tableNotFound,
    })
    const discretize = await api('POST', `/simulations/${simulation.id}/discretizations`, {})
    expect(discretize.status).toBe(400)
    expect(discretize.body.description).toBe(SETTINGS_MESSAGES.discretizationBlockedText)
    expect(discretize.body.errors).toContainEqual({
      path: `parts.${part.id}.component.ioTableId`,
      message: DATATABLE_MESSAGES.tableNotFound,
    })
    const viscosity = await api('PUT', `/simulations/${simulation.id}/materials/0`, {
      viscosityKind: 'shear_rate',
      viscosityShearRateTableId: 987654,
    })
    expectRefused(viscosity, DATATABLE_MESSAGES.tableNotFound)
  })

  it('refuses a discretization of a locked or uploaded setup like every other edit (409)', async () => {
    const simulation = await createSimulation('Locked discretization')
    const path = `/simulations/${simulation.id}/discretizations`
    await db()
      .updateTable('simulations')
      .set({ setup_locked: 1 })
      .where('id', '=', simulation.id)
      .execute()
    expectRefused(await api('POST', path, {}), SETUP_LOCKED_MESSAGE, 409)
    await db()
      .updateTable('simulations')
      .set({ setup_locked: 0, uploaded_setup: 1 })
      .where('id', '=', simulation.id)
      .execute()
    expectRefused(await api('POST', path, {}), UPLOADED_SETUP_MESSAGE, 409)
    expect((await api('GET', path)).body).toBeNull()
  })

  it('refuses an edit that leaves the field it changes out of range, whatever was stored', async () => {
    const simulation = await createSimulation('Out of range')
    const material = `/simulations/${simulation.id}/materials/0`
    const settings = `/simulations/${simulation.id}/settings`
    // without thermodynamics the conductivity is not checked, so 11 is stored
    expect((await api('PUT', material, { thermalConductivity: 11 })).status).toBe(200)
    expect((await api('PUT', settings, { thermodynamics: true })).status).toBe(200)
    const twelve = await api('PUT', material, { thermalConductivity: 12 })
    expect(twelve.status).toBe(400)
    expect(twelve.body.errors[0]).toMatchObject({ path: 'material.thermalConductivity' })
    expect(twelve.body.errors[0].message).toMatch(/at most 10/)
    expect((await api('GET', material)).body.thermalConductivity).toBe(11)
    // a field left alone keeps its old error without blocking the rest of the form
    const unrelated = await api('PUT', material, { density: 1001, thermalConductivity: 11 })
    expect(unrelated.status).toBe(200)
    expect((await api('PUT', material, { thermalConductivity: 0.6 })).status).toBe(200)

    // the same for a part's boundary condition and for the settings
    await api('PUT', settings, { thermodynamics: false })
    const wall = await createPart(simulation.id, {
      name: 'Heated wall',
      component: { type: 'rigid', thermoKind: 'heat_flux', heatFlux: 2e6 },
      shape: { type: 'plane' },
    })
    await api('PUT', settings, { thermodynamics: true })
    const hotter = await api('PUT', `/parts/${wall.id}`, {
      component: { type: 'rigid', heatFlux: 3e6 },
    })
    expect(hotter.status).toBe(400)
    expect(hotter.body.errors[0].path).toBe('part.component.heatFlux')
    expect((await api('PUT', `/parts/${wall.id}`, { name: 'Renamed wall' })).status).toBe(200)

    const gravity = await api('PUT', `/simulations/${simulation.id}`, {
      settings: { gravity: [0, 0, -2000] },
    })
    expect(gravity.status).toBe(200)
    expectRefused(
      await api('PUT', settings, { gravity: [0, 0, -3000] }),
      'Gravity must be at least -1000.',
    )
    expect((await api('PUT', settings, { endTime: 2 })).status).toBe(200)
  })

  it('answers a broken table with globalErrors and cellErrors as its contract says', async () => {
    const simulation = await createSimulation('Table errors')
    const tableId = await createTable(simulation.id)
    const reply = await api('PUT', `/datatables/${tableId}/json`, {
      headers: ['time', 'prs', 'speed'],
      table: { time: [0, 1], prs: [0, null], speed: [1, 2] },
    })
    expect(reply.status).toBe(400)
    const body = v.parse(DatatableErrorBodySchema, reply.body)
    expect(body).toMatchObject({ code: 'validation_error', description: 'Validation failed' })
    expect(body.globalErrors).toEqual(['speed is not a known attribute name'])
    expect(body.cellErrors).toEqual([
      { row: 1, column: 'prs', message: DATATABLE_MESSAGES.cellNotNumber },
    ])
    expect(body.errors).toContainEqual({
      path: 'table.prs.1',
      message: DATATABLE_MESSAGES.cellNotNumber,
    })
    const stored = await api('GET', `/datatables/${tableId}`)
    expect(stored.body.headers).toEqual(['time', 'prs'])
  })

  it('keeps the mesh-health warnings in step with the stored shape info', async () => {
    const simulation = await createSimulation('Shape info')
    const part = await createPart(simulation.id, {
      name: 'Box',
      component: { type: 'rigid' },
      shape: { type: 'stl_cube', dimensions: [1, 1, 1] },
    })
    const info = part.shape.info
    const hole = { center: [0, 0, 0.5], size: 0.1 }
    const holed = await api('PUT', `/parts/${part.id}/shape_info`, { ...info, holes: [hole] })
    expect(holed.status).toBe(200)
    expect(holed.body).toMatchObject({
      hasWarnings: true,
      warnings: [
        { errorCode: 'mesh_holes', message: 'The mesh has 1 hole: it is not watertight.' },
      ],
    })
    const fixed = await api('PUT', `/parts/${part.id}/shape_info`, { ...info, holes: [] })
    expect(fixed.body).toMatchObject({ hasWarnings: false, warnings: [] })
    expect((await api('GET', `/parts/${part.id}`)).body.warnings).toEqual([])
  })

  it('tells why a sixth material is refused, with and without multiphase', async () => {
    const simulation = await createSimulation('Five materials')
    const base = `/simulations/${simulation.id}/materials`
    for (const id of [1, 2, 3, 4]) expect((await api('PUT', `${base}/${id}`, {})).status).toBe(200)
    expectRefused(await api('PUT', `${base}/5`, {}), SETTINGS_MESSAGES.singlePhaseMaxMaterials)
    expect(SETTINGS_MESSAGES.singlePhaseMaxMaterials).toMatch(/only material 0/i)
    expect(
      (await api('PUT', `/simulations/${simulation.id}/settings`, { multiphase: true })).status,
    ).toBe(200)
    expectRefused(await api('PUT', `${base}/5`, {}), SETTINGS_MESSAGES.multiphaseMaxMaterials)
  })

  it('switches air drag on (its domain is then required) but not under multiphase', async () => {
    const simulation = await createSimulation('Air drag')
    const settings = `/simulations/${simulation.id}/settings`
    expect((await api('PUT', settings, { airDrag: true })).status).toBe(200)
    const validation = await api('GET', `/simulations/${simulation.id}/setup_validation`)
    expect((validation.body.issues as { message: string }[]).map((i) => i.message)).toContain(
      'Air drag domain is required',
    )
    expect((await api('PUT', settings, { airDrag: false })).status).toBe(200)
    await api('PUT', settings, { multiphase: true })
    expectRefused(
      await api('PUT', settings, { airDrag: true }),
      SETTINGS_MESSAGES.multiphaseAirDrag,
    )
    expect((await api('GET', settings)).body.settings.airDrag).toBe(false)
    expect((await api('PUT', settings, { airDrag: false })).status).toBe(200)
  })

  it('refuses a pointcloud part whose reference simulation has no such output', async () => {
    const simulation = await createSimulation('Pointcloud part')
    const reference = await createSimulation('Reference without outputs')
    const pointcloud = (shape: object) => ({
      name: 'Cloud',
      component: { type: 'flow' },
      shape: { type: 'pointcloud', ...shape },
    })
    const none = await api(
      'POST',
      `/simulations/${simulation.id}/parts`,
      pointcloud({ refSimulationId: reference.id, refSimulationOutput: 0 }),
    )
    expectRefused(none, PART_MESSAGES.referenceWithoutOutputs)
    expect(none.body.errors[0].path).toBe('shape.refSimulationId')
    expectRefused(
      await api(
        'POST',
        `/simulations/${simulation.id}/parts`,
        pointcloud({ refSimulationId: 987654, refSimulationOutput: 0 }),
      ),
      PART_MESSAGES.referenceNotFound,
    )
    const nowIso = new Date().toISOString()
    const run = await db()
      .insertInto('runs')
      .values({
        simulation_id: reference.id,
        state: 'completed',
        cores: 1,
        solver_id: 1,
        last_output: 9,
        created_at: nowIso,
        updated_at: nowIso,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await db()
      .updateTable('simulations')
      .set({ active_run_id: run.id, state: 'completed' })
      .where('id', '=', reference.id)
      .execute()
    expectRefused(
      await api(
        'POST',
        `/simulations/${simulation.id}/parts`,
        pointcloud({ refSimulationId: reference.id, refSimulationOutput: 10 }),
      ),
      'The simulation only has 10 outputs.',
    )
    const part = await createPart(
      simulation.id,
      pointcloud({ refSimulationId: reference.id, refSimulationOutput: 9 }),
    )
    expect(part.shape).toMatchObject({ refSimulationId: reference.id, refSimulationOutput: 9 })
  })
})
