import { expect, it } from 'vitest'
import { AIR_DRAG_MESSAGES, tooManyCellsMessage } from '../../domain/airDrag.ts'
import {
  PERIODIC_EXISTS_MESSAGE,
  REFERENCE_NOT_FOUND_MESSAGE,
  REFINEMENT_MESH_MESSAGE,
} from '../../domain/rest/setupObjectRoutes.ts'
import { SETUP_LOCKED_MESSAGE } from '../../domain/rest/setupRoutes.ts'
import { SETTINGS_MESSAGES } from '../../domain/settingsRules.ts'
import { unsupportedObjectsMessage } from '../../domain/rest/setupObjectRoutes.ts'
import { DEMO_PROJECT_NAME, DEMO_USERS } from '../db/demoAccounts.ts'
import { checkRunStart } from '../../solver/run/runConfig.ts'
import { loadRunSetup } from './loadRunSetup.ts'
import { useSetupApi } from './setupApiTesting.ts'
import { describeEachDialect, type Json } from '../../tests/integration/harness.ts'

describeEachDialect(
  'setup API: refinement zones, air drag domain, periodic boundary',
  (dialect) => {
    const t = useSetupApi(dialect, 'Setup objects')
    const { api, createSimulation, expectRefused } = t

    const createMesh = async (simulationId: number, body: object) => {
      const reply = await api('POST', `/simulations/${simulationId}/meshes`, body)
      expect(reply.status, reply.text).toBe(201)
      return reply.body as { id: number }
    }
    const issuesOf = async (simulationId: number) =>
      (
        (await api('GET', `/simulations/${simulationId}/setup_validation`)).body as {
          issues: Json[]
        }
      ).issues as { field: string; message: string; level: string }[]

    it('adds, renames, changes and deletes refinement zones around a closed mesh', async () => {
      const simulation = await createSimulation('Refinements')
      const base = `/simulations/${simulation.id}/refinements`
      const cube = await createMesh(simulation.id, { kind: 'cube', dimensions: [0.2, 0.2, 0.2] })
      const disc = await createMesh(simulation.id, { kind: 'circle', radius: 0.1 })
      expectRefused(
        await api('POST', base, { name: 'Zone', meshId: disc.id }),
        REFINEMENT_MESH_MESSAGE,
      )
      expectRefused(
        await api('POST', base, { name: 'Zone', meshId: cube.id, level: 0 }),
        'Level must be greater than 0.',
      )
      expect((await api('POST', base, { name: 'Zone', meshId: 999_999 })).status).toBe(404)
      const created = await api('POST', base, { name: 'Zone', meshId: cube.id })
      expect(created.status, created.text).toBe(201)
      expect(created.body).toMatchObject({ name: 'Zone', kind: 'chiron', level: 0.3 })
      expect((created.body.mesh as { id: number; kind: string }).kind).toBe('cube')
      // Names are unique against the other objects: a second 'Zone' becomes 'Zone (1)'.
      const sphere = await createMesh(simulation.id, { kind: 'sphere', radius: 0.1 })
      const second = await api('POST', base, { name: 'Zone', meshId: sphere.id, level: 0.5 })
      expect(second.body.name).toBe('Zone (1)')
      const id = created.body.id as number
      expectRefused(
        await api('PUT', `/refinements/${id}`, { level: -1 }),
        'Level must be greater than 0.',
      )
      const changed = await api('PUT', `/refinements/${id}`, {
        level: 0.25,
        appearance: { color: '#25C189' },
      })
      expect(changed.status, changed.text).toBe(200)
      expect(changed.body).toMatchObject({ level: 0.25, appearance: { color: '#25C189' } })
      const bulk = await api('PUT', base, [
        { id, name: 'Fine zone' },
        { id: second.body.id, level: 0 },
      ])
      expectRefused(bulk, 'Level must be greater than 0.')
      // All or nothing: the first rename was not kept.
      expect(
        ((await api('GET', base)).body as Json[]).map((r) => (r as { name: string }).name),
      ).toEqual(['Zone', 'Zone (1)'])
      expect((await api('PUT', base, [{ id, name: 'Fine zone' }])).body).toMatchObject([
        { id, name: 'Fine zone' },
      ])
      expect((await api('DELETE', `/refinements/${second.body.id}`)).status).toBe(200)
      // The zone's own mesh goes with it.
      expect((await api('GET', `/meshes/${sphere.id}`)).status).toBe(404)
      expect(((await api('GET', base)).body as Json[]).length).toBe(1)
    })

    it('keeps multiphase and refinement zones apart (both ways)', async () => {
      const simulation = await createSimulation('Refinement multiphase')
      const settings = `/simulations/${simulation.id}/settings`
      const base = `/simulations/${simulation.id}/refinements`
      const cube = await createMesh(simulation.id, { kind: 'cube' })
      expect((await api('POST', base, { name: 'Zone', meshId: cube.id })).status).toBe(201)
      expectRefused(
        await api('PUT', settings, { multiphase: true }),
        SETTINGS_MESSAGES.multiphaseRefinement,
      )
      const other = await createSimulation('Multiphase first')
      expect(
        (await api('PUT', `/simulations/${other.id}/settings`, { multiphase: true })).status,
      ).toBe(200)
      const mesh = await createMesh(other.id, { kind: 'cube' })
      expectRefused(
        await api('POST', `/simulations/${other.id}/refinements`, {
          name: 'Zone',
          meshId: mesh.id,
        }),
        SETTINGS_MESSAGES.multiphaseRefinement,
      )
    })

    it('defines the air drag domain with the §5 rules and shows it on the validation bar', async () => {
      const simulation = await createSimulation('Air drag domain')
      const path = `/simulations/${simulation.id}/air_drag_domain`
      const initial = await api('GET', `${path}?cache=true`)
      expect(initial.status).toBe(200)
      expect(initial.body).toMatchObject({ id: 0, kind: 'constant', size: [1, 1, 1] })
      expect(
        (await api('PUT', `/simulations/${simulation.id}/settings`, { airDrag: true })).status,
      ).toBe(200)
      expect((await issuesOf(simulation.id)).map((i) => i.message)).toContain(
        'Air drag domain is required',
      )
      expectRefused(await api('PUT', path, { size: [1, 0, 1] }), 'Size must be greater than 0.')
      expectRefused(
        await api('PUT', path, { kind: 'table', size: [10, 10, 10], cellSize: 0.01 }),
        tooManyCellsMessage(1_000_000_000),
      )
      const saved = await api('PUT', path, { center: [0, 0, 1], velocity: [5, 0, 0] })
      expect(saved.status, saved.text).toBe(200)
      expect(saved.body.id).toBeGreaterThan(0)
      expect((await api('GET', path)).body).toMatchObject({
        center: [0, 0, 1],
        velocity: [5, 0, 0],
      })
      // Table kind: a table is required (info, kept) and must exist with at least 2 rows.
      expect((await api('PUT', path, { kind: 'table', cellSize: 0.1 })).status).toBe(200)
      expect((await issuesOf(simulation.id)).map((i) => i.message)).toContain(
        AIR_DRAG_MESSAGES.tableRequired,
      )
      expectRefused(await api('PUT', path, { tableId: 999_999 }), 'Table does not exist.')
      const table = await api('POST', `/simulations/${simulation.id}/datatables`, {
        kind: 'airDrag',
      })
      expect(table.status, table.text).toBe(201)
      expectRefused(await api('PUT', path, { tableId: table.body.id }), AIR_DRAG_MESSAGES.tableRows)
      // Simulation kind: the reference must be visible and have the outputs named.
      const reference = await createSimulation('Air drag reference')
      expectRefused(
        await api('PUT', path, { kind: 'simulation', refSimulationId: 999_999 }),
        REFERENCE_NOT_FOUND_MESSAGE,
      )
      expectRefused(
        await api('PUT', path, {
          kind: 'simulation',
          refSimulationId: reference.id,
          outputSingle: 3,
        }),
        'The simulation only has 0 outputs.',
      )
      const db = t.server.database.handle.db
      const run = await db
        .insertInto('runs')
        .values({
          simulation_id: reference.id,
          state: 'done',
          cores: 1,
          solver_id: 1,
          resumed_from_output: null,
          last_log: null,
          credit_transaction_id: null,
          message: null,
          ended_at: null,
          started_at: '2026-01-01T00:00:00.000Z',
          last_output: 9,
          created_at: '2026-01-01T00:00:00.000Z',
          updated_at: '2026-01-01T00:00:00.000Z',
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      await db
        .updateTable('simulations')
        .set({ active_run_id: run.id })
        .where('id', '=', reference.id)
        .execute()
      expectRefused(
        await api('PUT', path, {
          kind: 'simulation',
          refSimulationId: reference.id,
          outputRange: true,
          outputStart: 5,
          outputEnd: 2,
        }),
        AIR_DRAG_MESSAGES.endBeforeStart,
      )
      const ranged = await api('PUT', path, {
        kind: 'simulation',
        refSimulationId: reference.id,
        outputRange: true,
        outputStart: 2,
        outputEnd: 9,
      })
      expect(ranged.status, ranged.text).toBe(200)
      expect(
        (await api('PUT', `/simulations/${simulation.id}/settings`, { multiphase: true })).status,
      ).toBe(400)
    })

    it('adds one periodic boundary with the slice angle rules, rounded to 5 decimals', async () => {
      const simulation = await createSimulation('Periodic')
      const base = `/simulations/${simulation.id}/periodics`
      expectRefused(await api('POST', base, { sliceAngle: 0.5 }), 'Slice angle must be at least 1.')
      expectRefused(
        await api('POST', base, { sliceAngle: 121 }),
        'Slice angle must be at most 120.',
      )
      expectRefused(
        await api('POST', base, { sliceRotation: 360 }),
        'Slice rotation must be smaller than 360.',
      )
      expectRefused(
        await api('POST', base, { axis: [0, 0, 0] }),
        'Axis length cannot be equal to 0',
      )
      const created = await api('POST', base, { sliceAngle: 10.1234567, center: [0, 0, 0] })
      expect(created.status, created.text).toBe(201)
      expect(created.body).toMatchObject({
        type: 'rotational',
        sliceAngle: 10.12346,
        sliceRotation: 0,
      })
      const messages = (await issuesOf(simulation.id)).filter((i) =>
        i.field.startsWith('periodics'),
      )
      expect(messages.map((i) => [i.level, i.message])).toEqual([
        [
          'warning',
          'Slice angle below 15° can cause undesired particle distribution near the center.',
        ],
        ['warning', 'Slice angle should divide 360° evenly.'],
      ])
      expectRefused(await api('POST', base, {}), PERIODIC_EXISTS_MESSAGE, 409)
      const id = created.body.id as number
      expectRefused(
        await api('PUT', `/periodics/${id}`, { sliceAngle: 200 }),
        'Slice angle must be at most 120.',
      )
      const changed = await api('PUT', `/periodics/${id}`, { sliceAngle: 45, sliceRotation: -30 })
      expect(changed.body).toMatchObject({ sliceAngle: 45, sliceRotation: -30 })
      expect(
        (await issuesOf(simulation.id)).filter((i) => i.field.startsWith('periodics')),
      ).toEqual([])
      expect((await api('DELETE', `/periodics/${id}`)).status).toBe(200)
      expect((await api('GET', base)).body).toEqual([])
    })

    it('hides these objects from another organization (404) and refuses edits of a locked setup (409)', async () => {
      const simulation = await createSimulation('Objects access')
      const cube = await createMesh(simulation.id, { kind: 'cube' })
      const zone = await api('POST', `/simulations/${simulation.id}/refinements`, {
        name: 'Zone',
        meshId: cube.id,
      })
      const periodic = await api('POST', `/simulations/${simulation.id}/periodics`, {})
      const calls: [string, string, unknown?][] = [
        ['GET', `/simulations/${simulation.id}/refinements`],
        ['POST', `/simulations/${simulation.id}/refinements`, { name: 'X', meshId: cube.id }],
        ['PUT', `/simulations/${simulation.id}/refinements`, [{ id: zone.body.id, level: 1 }]],
        ['PUT', `/refinements/${zone.body.id}`, { level: 1 }],
        ['DELETE', `/refinements/${zone.body.id}`],
        ['GET', `/simulations/${simulation.id}/air_drag_domain`],
        ['PUT', `/simulations/${simulation.id}/air_drag_domain`, { center: [1, 1, 1] }],
        ['GET', `/simulations/${simulation.id}/periodics`],
        ['POST', `/simulations/${simulation.id}/periodics`, {}],
        ['PUT', `/periodics/${periodic.body.id}`, { sliceAngle: 60 }],
        ['DELETE', `/periodics/${periodic.body.id}`],
      ]
      for (const [method, path, body] of calls)
        expect((await api(method, path, body, t.other)).status, `${method} ${path}`).toBe(404)
      // A contributor sees only their own projects: the manager's simulation is not theirs (404).
      const contributor = (await t.server.login(DEMO_USERS.contributor.email)).accessToken
      for (const [method, path, body] of calls)
        expect((await api(method, path, body, contributor)).status, `${method} ${path}`).toBe(404)
      await t.server.database.handle.db
        .updateTable('simulations')
        .set({ setup_locked: 1 })
        .where('id', '=', simulation.id)
        .execute()
      for (const [method, path, body] of calls.filter(([m]) => m !== 'GET'))
        expectRefused(await api(method, path, body), SETUP_LOCKED_MESSAGE, 409)
      for (const [method, path] of calls.filter(([m]) => m === 'GET'))
        expect((await api(method, path)).status).toBe(200)
    })

    it('refuses to start a run whose setup has a refinement zone it cannot run or a periodic boundary with what it cannot run beside, naming them', async () => {
      const projects = await api('GET', '/projects?q=Demo')
      const demo = (projects.body.results as Json[]).find((p) => p.name === DEMO_PROJECT_NAME)
      const clone = await api('POST', `/simulations/${demo.simulations[0].id as number}`, {})
      expect(clone.status, clone.text).toBe(201)
      const id = clone.body.id as number
      const start = () => api('POST', `/simulations/${id}/jobs`, { cores: 1, solver_id: 1 })
      const cube = await createMesh(id, { kind: 'cube', dimensions: [0.1, 0.1, 0.1] })
      await api('POST', `/simulations/${id}/refinements`, {
        name: 'Near the gate',
        meshId: cube.id,
      })
      // the default level 0.3 runs (spacing dp/3); level 1 refines nothing and is refused
      const coarse = await createMesh(id, { kind: 'cube', dimensions: [0.1, 0.1, 0.1] })
      await api('POST', `/simulations/${id}/refinements`, {
        name: 'Coarse',
        level: 1,
        meshId: coarse.id,
      })
      await api('POST', `/simulations/${id}/periodics`, { sliceAngle: 90 })
      const names = [
        'refinement zone "Coarse" (level 1: the level is the spacing ratio and must round to 1/2, 1/3 or 1/4, from 0.23 to 0.66)',
        'periodic boundary with the deletion boundary (the slice is the domain)',
        'periodic boundary with refinement zones',
      ]
      expectRefused(await start(), unsupportedObjectsMessage(names))
      // The job refuses them too (solver/run checkRunStart), should a run get that far.
      const setup = await loadRunSetup(t.server.database.handle.db, t.server.dataDir, id)
      const problems = checkRunStart({
        setup,
        particles: { kinds: new Uint8Array([0]), materialIds: null },
      } as never)
      expect(problems).toContain(`Unsupported setup objects: ${names.join(', ')}.`)
      // A clone copies them, the zone with its own copy of the mesh.
      const copy = await api('POST', `/simulations/${id}`, {})
      const zones = await api('GET', `/simulations/${copy.body.id as number}/refinements`)
      expect(zones.body).toMatchObject([
        { name: 'Near the gate', mesh: { kind: 'cube' } },
        { name: 'Coarse', level: 1 },
      ])
      expect((zones.body as { mesh: { id: number } }[])[0]!.mesh.id).not.toBe(cube.id)
      const slices = await api('GET', `/simulations/${copy.body.id as number}/periodics`)
      expect(slices.body).toMatchObject([{ sliceAngle: 90 }])
    })
  },
)
