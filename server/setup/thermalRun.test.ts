import { expect, it } from 'vitest'
import { checkRunStart, createRunSolverConfig } from '../../solver/run/runConfig.ts'
import { PARTICLE_KIND } from '../../solver/sph/particles.ts'
import { createSolver } from '../../solver/sph/SphSolver.ts'
import { loadRunSetup } from './loadRunSetup.ts'
import { useSetupApi } from './setupApiTesting.ts'
import { describeEachDialect } from '../../tests/integration/harness.ts'

/*
 * Thermodynamics and the viscosity tables (issue 16 items 3 and 4) through the product's own
 * path: the settings, the material's thermal fields and viscosity table, a fluid part's initial
 * temperature and a wall's set temperature, stored through the API, read by the run's setup
 * loader (server/setup/loadRunSetup.ts) and turned into the solver's input (solver/run
 * createRunSolverConfig), which the solver accepts and runs.
 */
describeEachDialect('thermodynamics and viscosity tables reach the solver', (dialect) => {
  const t = useSetupApi(dialect, 'Thermal run')
  const { api, createSimulation, createPart } = t

  it('hands the solver the temperatures, conductivity, heat capacity and viscosity table', async () => {
    const simulation = await createSimulation('Heated channel')
    const id = simulation.id
    const settings = await api('PUT', `/simulations/${id}/settings`, {
      thermodynamics: true,
      ambientTemperature: 293,
      particleDiameter: 0.01,
      endTime: 0.01,
      outputTimeInterval: 0.001,
    })
    expect(settings.status, settings.text).toBe(200)
    const table = await api('POST', `/simulations/${id}/datatables`, {
      kind: 'viscosityShearRate',
      headers: ['shear_rate', 'kinematic_viscosity'],
      table: { shear_rate: [10, 0.1, 1], kinematic_viscosity: [1e-5, 1e-3, 1e-4] },
    })
    expect(table.status, table.text).toBe(201)
    const tableId = table.body.id as number
    const material = await api('PUT', `/simulations/${id}/materials/0`, {
      thermalConductivity: 0.6,
      specificHeatCapacity: 4186,
      viscosityKind: 'shear_rate',
      viscosityShearRateTableId: tableId,
    })
    expect(material.status, material.text).toBe(200)
    const fluid = await createPart(id, {
      name: 'Warm water',
      materialId: 0,
      component: { type: 'filling', initialTemperature: 310 },
      shape: { type: 'stl_cube', dimensions: [0.1, 0.1, 0.1] },
    })
    const wall = await createPart(id, {
      name: 'Hot floor',
      component: { type: 'rigid', thermoKind: 'temperature', boundaryTemperature: 350 },
      shape: { type: 'plane' },
    })
    const setup = await loadRunSetup(t.server.database.handle.db, t.server.dataDir, id)
    // two fluid particles of the filling above four of the floor
    const particles = {
      positions: Float64Array.from([
        ...[0, 0, 0.01, 0.01, 0, 0.01],
        ...[0, 0, -0.005, 0.01, 0, -0.005, 0, 0.01, -0.005, 0.01, 0.01, -0.005],
      ]),
      kinds: Uint8Array.from([0, 0, 1, 1, 1, 1]),
      partIds: Int32Array.from([fluid.id, fluid.id, wall.id, wall.id, wall.id, wall.id]),
      materialIds: Int32Array.from([0, 0, -1, -1, -1, -1]),
    }
    // what a run's job hands on (its data directory, ids and signal play no part here)
    const options = { setup, particles, threads: 1 } as unknown as Parameters<
      typeof checkRunStart
    >[0]
    expect(checkRunStart(options)).toEqual([])
    const config = createRunSolverConfig(options)
    expect(config.settings.thermodynamics).toBe(true)
    expect(config.materials[0]).toMatchObject({
      thermalConductivity: 0.6,
      specificHeatCapacity: 4186,
      viscosityKind: 'shear_rate',
      // the rows ordered by shear rate; ν's largest is the time-step limit's ν
      viscosityTable: { x: [0.1, 1, 10], nu: [1e-3, 1e-4, 1e-5] },
      kinematicViscosity: 1e-3,
    })
    expect(config.parts).toContainEqual({
      id: wall.id,
      wallCondition: 'no_slip',
      wallTemperature: 350,
    })
    expect(Array.from(config.particles.temperatures!).slice(0, 2)).toEqual([310, 310])
    const solver = await createSolver(config)
    try {
      solver.step()
      const snapshot = solver.snapshot()
      const fluidTemperatures = Array.from(snapshot.temperature!).filter(
        (_, i) => snapshot.kind[i] === PARTICLE_KIND.fluid,
      )
      // the two particles warm from the floor at 350 K
      expect(fluidTemperatures.every((value) => value > 310 && value < 350)).toBe(true)
      expect(snapshot.kinematicViscosity).toBeDefined()
    } finally {
      await solver.dispose()
    }

    // without thermodynamics a temperature viscosity cannot run
    await api('PUT', `/simulations/${id}/settings`, { thermodynamics: false })
    const cold = await loadRunSetup(t.server.database.handle.db, t.server.dataDir, id)
    cold.materials[0]!.viscosityKind = 'temperature'
    expect(checkRunStart({ ...options, setup: cold })).toContain(
      'Temperature-dependent viscosity requires the Heat Transfer Model.',
    )
  })
})
