import { expect, it } from 'vitest'
import { DATATABLE_MESSAGES } from '../../domain/datatable.ts'
import { PART_MESSAGES } from '../../domain/parts.ts'
import { decodePointCloudFile } from '../../domain/pointCloudFile.ts'
import { writeRunOutput } from '../../solver/run/outputs.ts'
import { PARTICLE_KIND } from '../../solver/sph/index.ts'
import { describeEachDialect } from '../../tests/integration/harness.ts'
import { DEMO_USERS } from '../db/demoAccounts.ts'
import { loadRunSetup } from './loadRunSetup.ts'
import { useSetupApi } from './setupApiTesting.ts'

/*
 * Pointcloud parts and initial distribution tables through the API, on both databases: the
 * reference must be a simulation the editing user sees (another organization's or, for a
 * contributor, another's project: refused as not found), its output's particles reach the
 * discretizer (loadRunSetup) with the reference's particle diameter, and the part's point cloud
 * download previews them before any discretization.
 */

const REFERENCE = {
  positions: [0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9],
  velocities: [1, 0, 0, 0, 2, 0, 0, 0, 3],
  pressure: [10, 20, 30],
  density: [1000, 1001, 1002],
}

describeEachDialect('setup API: pointcloud parts and initial distribution tables', (dialect) => {
  const t = useSetupApi(dialect, 'Pointclouds')
  const { api, createSimulation, createPart, expectRefused } = t
  const db = () => t.server.database.handle.db

  /** A simulation with a completed run whose output 1 holds REFERENCE's 3 fluid particles. */
  const createReference = async (name: string) => {
    const reference = await createSimulation(name)
    expect(
      (await api('PUT', `/simulations/${reference.id}/settings`, { particleDiameter: 0.05 }))
        .status,
    ).toBe(200)
    const nowIso = new Date().toISOString()
    const run = await db()
      .insertInto('runs')
      .values({
        simulation_id: reference.id,
        state: 'completed',
        cores: 1,
        solver_id: 1,
        last_output: 1,
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
    const count = 3
    await writeRunOutput(
      {
        dataDir: t.server.dataDir,
        simulationId: reference.id,
        runId: run.id,
        outputNo: 1,
        timeS: 0.1,
      },
      {
        timeS: 0.1,
        step: 10,
        count,
        particleIds: Int32Array.from([0, 1, 2]),
        positions: Float64Array.from(REFERENCE.positions),
        velocities: Float64Array.from(REFERENCE.velocities),
        pressure: Float64Array.from(REFERENCE.pressure),
        density: Float64Array.from(REFERENCE.density),
        mass: new Float64Array(count).fill(0.125),
        kind: new Uint8Array(count).fill(PARTICLE_KIND.fluid),
        partId: new Int32Array(count).fill(1),
        materialId: new Int32Array(count),
      },
      { material: () => 'Fluid 1', part: () => 'Part' },
    )
    return reference
  }
  const pointcloud = (refSimulationId: number) => ({
    name: 'Cloud',
    component: { type: 'flow' },
    shape: { type: 'pointcloud', refSimulationId, refSimulationOutput: 1 },
  })

  it("hands the reference output's particles to the discretizer and previews them", async () => {
    const reference = await createReference('Reference run')
    const simulation = await createSimulation('Restart from a pointcloud')
    const part = await createPart(simulation.id, pointcloud(reference.id))
    const setup = await loadRunSetup(db(), t.server.dataDir, simulation.id)
    expect(setup.settings.particleDiameter).toBe(0.05)
    const cloud = setup.pointClouds?.[part.id]
    expect(cloud).toMatchObject({ refSimulationId: reference.id, refSimulationOutput: 1, count: 3 })
    // rows are stratified in the output: compare as sets of particles
    const rows = (c: NonNullable<typeof cloud>) =>
      [0, 1, 2]
        .map((i) =>
          [
            ...c.positions.subarray(i * 3, i * 3 + 3),
            ...c.velocities!.subarray(i * 3, i * 3 + 3),
            c.pressures![i],
            c.densities![i],
          ].map((value) => Math.round(value! * 1e4) / 1e4),
        )
        .sort((a, b) => a[0]! - b[0]!)
    expect(rows(cloud!)).toEqual(
      [0, 1, 2].map((i) => [
        ...REFERENCE.positions.slice(i * 3, i * 3 + 3),
        ...REFERENCE.velocities.slice(i * 3, i * 3 + 3),
        REFERENCE.pressure[i],
        REFERENCE.density[i],
      ]),
    )
    // before any discretization the part's point cloud is the reference's, placed
    const url = part.pointcloudUrl as string
    expect(url).toMatch(new RegExp(`^/api/parts/${part.id}/pointcloud\\?v=[0-9a-f]{16}$`))
    const download = await fetch(`${t.server.baseUrl}${url}`, {
      headers: { authorization: `Bearer ${t.manager}` },
    })
    expect(download.status).toBe(200)
    const bytes = new Uint8Array(await download.arrayBuffer())
    expect(decodePointCloudFile(bytes).count).toBe(3)
    // another organization's user cannot download it
    expect((await api('GET', `/parts/${part.id}/pointcloud`, undefined, t.other)).status).toBe(404)
  })

  it("refuses a reference in another organization or, for a contributor, another's project", async () => {
    const reference = await createReference('Manager reference')
    // another organization: its own simulation naming the demo organization's reference
    const otherProject = await api('POST', '/projects', { name: 'Other org' }, t.other)
    const otherSimulation = await api(
      'POST',
      `/projects/${otherProject.body.id as number}/simulations`,
      { name: 'Foreign reference' },
      t.other,
    )
    expectRefused(
      await api(
        'POST',
        `/simulations/${otherSimulation.body.id as number}/parts`,
        pointcloud(reference.id),
        t.other,
      ),
      PART_MESSAGES.referenceNotFound,
    )
    // a contributor in their own project cannot name the manager's simulation
    const contributor = (await t.server.login(DEMO_USERS.contributor.email)).accessToken
    const project = await api('POST', '/projects', { name: 'Contributor project' }, contributor)
    const own = await api(
      'POST',
      `/projects/${project.body.id as number}/simulations`,
      { name: 'Contributor simulation' },
      contributor,
    )
    const refused = await api(
      'POST',
      `/simulations/${own.body.id as number}/parts`,
      pointcloud(reference.id),
      contributor,
    )
    expectRefused(refused, PART_MESSAGES.referenceNotFound)
    expect(refused.body.errors[0].path).toBe('shape.refSimulationId')
  })

  it('hands the initial distribution table to the discretizer; a missing one is flagged', async () => {
    const simulation = await createSimulation('Initial distribution')
    const table = await api('POST', `/simulations/${simulation.id}/datatables`, {
      kind: 'initialDistribution',
      headers: ['pos_x', 'pos_y', 'pos_z', 'vel_x'],
      table: { pos_x: [0, 1], pos_y: [0, 0], pos_z: [0, 0], vel_x: [1, 2] },
    })
    expect(table.status, table.text).toBe(201)
    const part = await createPart(simulation.id, {
      name: 'Block',
      component: {
        type: 'flow',
        initialDistribution: true,
        initialDistributionTableId: table.body.id,
      },
      shape: { type: 'stl_cube' },
    })
    const setup = await loadRunSetup(db(), t.server.dataDir, simulation.id)
    expect(setup.datatables?.[table.body.id as number]).toEqual({
      headers: ['pos_x', 'pos_y', 'pos_z', 'vel_x'],
      table: { pos_x: [0, 1], pos_y: [0, 0], pos_z: [0, 0], vel_x: [1, 2] },
    })
    expectRefused(
      await api('PUT', `/parts/${part.id}`, {
        component: { type: 'flow', initialDistributionTableId: 987654 },
      }),
      DATATABLE_MESSAGES.tableNotFound,
    )
  })
})
