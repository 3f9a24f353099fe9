import { expect, it } from 'vitest'
import { checkRunStart, createRunSolverConfig } from '../../solver/run/runConfig.ts'
import { writeRunOutput } from '../../solver/run/outputs.ts'
import { PARTICLE_KIND } from '../../solver/sph/particles.ts'
import { createSolver } from '../../solver/sph/SphSolver.ts'
import { describeEachDialect } from '../../tests/integration/harness.ts'
import { checkSetupForRun } from '../api/handlers/runChecks.ts'
import { loadRunSetup } from './loadRunSetup.ts'
import { useSetupApi } from './setupApiTesting.ts'

/*
 * The air drag domain (issue 16 item 8) through the product's own path: settings.airDrag and the
 * domain stored through the API (kinds constant, table and simulation), read by the run's setup
 * loader (server/setup/loadRunSetup.ts: the velocity table, the reference simulation's output)
 * and turned into the solver's input (solver/run createRunSolverConfig), which the solver runs:
 * two droplets in the domain are carried by its air.
 */
describeEachDialect('the air drag domain reaches the solver', (dialect) => {
  const t = useSetupApi(dialect, 'Air drag run')
  const { api, createSimulation, createPart } = t
  const db = () => t.server.database.handle.db

  /** A reference simulation whose output 0 holds three particles moving at 6 m/s along y. */
  async function referenceWithOutput() {
    const reference = await createSimulation('Wind tunnel')
    const nowIso = new Date().toISOString()
    const run = await db()
      .insertInto('runs')
      .values({
        simulation_id: reference.id,
        state: 'completed',
        cores: 1,
        solver_id: 1,
        last_output: 0,
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
        outputNo: 0,
        timeS: 0,
      },
      {
        timeS: 0,
        step: 0,
        count,
        particleIds: Int32Array.from([0, 1, 2]),
        positions: Float64Array.from([0, 0, 0, 0.3, 0, 0, -0.3, 0, 0]),
        velocities: Float64Array.from([0, 6, 0, 0, 6, 0, 0, 6, 0]),
        pressure: new Float64Array(count),
        density: new Float64Array(count).fill(1.2),
        mass: new Float64Array(count).fill(1e-6),
        kind: new Uint8Array(count).fill(PARTICLE_KIND.fluid),
        partId: new Int32Array(count).fill(1),
        materialId: new Int32Array(count),
      },
      { material: () => 'Air', part: () => 'Air' },
    )
    return reference
  }

  it('runs the constant, table and simulation kinds from what the API stored', async () => {
    const simulation = await createSimulation('Spray in the wind')
    const id = simulation.id
    const settings = await api('PUT', `/simulations/${id}/settings`, {
      airDrag: true,
      particleDiameter: 0.002,
      endTime: 0.1,
      outputTimeInterval: 0.01,
    })
    expect(settings.status, settings.text).toBe(200)
    const fluid = await createPart(id, {
      name: 'Spray',
      materialId: 0,
      component: { type: 'filling' },
      shape: { type: 'stl_cube', dimensions: [0.01, 0.01, 0.01] },
    })
    // two droplets farther apart than the support, inside the domain (a 1 m box at the origin)
    const particles = {
      positions: Float64Array.from([0, 0, 0.1, 0.1, 0, 0.1]),
      kinds: Uint8Array.from([0, 0]),
      partIds: Int32Array.from([fluid.id, fluid.id]),
      materialIds: Int32Array.from([0, 0]),
    }
    const runWith = async () => {
      const setup = await loadRunSetup(db(), t.server.dataDir, id)
      // what a run's job hands on (its data directory, ids and signal play no part here)
      const options = { setup, particles, threads: 1 } as unknown as Parameters<
        typeof checkRunStart
      >[0]
      const problems = checkRunStart(options)
      const config = createRunSolverConfig(options)
      if (problems.length > 0) return { problems, config, velocity: null }
      const solver = await createSolver(config)
      try {
        solver.runUntil(0.02)
        return { problems, config, velocity: Array.from(solver.snapshot().velocities.slice(0, 3)) }
      } finally {
        await solver.dispose()
      }
    }

    // no domain stored yet: the run is refused, never run without air
    expect((await runWith()).problems).toContain('Air drag needs the air drag domain.')

    const path = `/simulations/${id}/air_drag_domain`
    const constant = await api('PUT', path, { kind: 'constant', velocity: [4, 0, 0] })
    expect(constant.status, constant.text).toBe(200)
    const windy = await runWith()
    expect(windy.problems).toEqual([])
    // the discretization and run checks see the stored domain (they blocked every start before)
    const stored = await loadRunSetup(db(), t.server.dataDir, id)
    expect((await checkSetupForRun(db(), stored)).map((i) => i.message)).not.toContain(
      'Air drag domain is required',
    )
    expect(windy.config.airDrag).toMatchObject({
      min: [-0.5, -0.5, -0.5],
      max: [0.5, 0.5, 0.5],
      uniform: { timesS: [0], velocities: [4, 0, 0] },
    })
    // carried along x by the wind while falling
    expect(windy.velocity![0]).toBeGreaterThan(0.01)
    expect(windy.velocity![2]).toBeLessThan(0)

    const table = await api('POST', `/simulations/${id}/datatables`, {
      kind: 'airDrag',
      headers: ['time', 'vel_x', 'vel_y', 'vel_z'],
      table: { time: [0, 1], vel_x: [0, 0], vel_y: [-8, -8], vel_z: [0, 0] },
    })
    expect(table.status, table.text).toBe(201)
    const tabled = await api('PUT', path, { kind: 'table', cellSize: 0.1, tableId: table.body.id })
    expect(tabled.status, tabled.text).toBe(200)
    const gusty = await runWith()
    expect(gusty.problems).toEqual([])
    expect(gusty.config.airDrag?.uniform).toEqual({
      timesS: [0, 1],
      velocities: [0, -8, 0, 0, -8, 0],
    })
    expect(gusty.velocity![1]).toBeLessThan(-0.01)

    const reference = await referenceWithOutput()
    const sampled = await api('PUT', path, {
      kind: 'simulation',
      cellSize: 0.25,
      refSimulationId: reference.id,
      outputRange: false,
      outputSingle: 0,
    })
    expect(sampled.status, sampled.text).toBe(200)
    const tunnel = await runWith()
    expect(tunnel.problems).toEqual([])
    expect(tunnel.config.airDrag?.grid).toMatchObject({ cellSize: 0.25, dims: [4, 4, 4] })
    // the droplets stand in the cell (0 … 0.25 m up) the reference's air crosses at 6 m/s along y
    expect(tunnel.velocity![1]).toBeGreaterThan(0.01)

    // a multiphase setup cannot take air drag (spec/setup.md §5)
    const setup = await loadRunSetup(db(), t.server.dataDir, id)
    setup.settings = { ...setup.settings, multiphase: true, densityLimiter: false }
    const options = { setup, particles, threads: 1 } as unknown as Parameters<
      typeof checkRunStart
    >[0]
    expect(checkRunStart(options).join(' ')).toContain('airDrag with multiphase')
  })
})
