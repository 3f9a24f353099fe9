import { expect, it } from 'vitest'
import { checkRunStart, createRunSolverConfig } from '../../solver/run/runConfig.ts'
import { PARTICLE_KIND } from '../../solver/sph/particles.ts'
import { createSolver } from '../../solver/sph/SphSolver.ts'
import { loadRunSetup } from './loadRunSetup.ts'
import { useSetupApi } from './setupApiTesting.ts'
import { describeEachDialect } from '../../tests/integration/harness.ts'

/*
 * Multiphase and surface tension (issue 16 items 1 and 2) through the product's own path: the
 * settings and a second material stored through the API, two fluid parts of different
 * materials, read by the run's setup loader (server/setup/loadRunSetup.ts) and turned into the
 * solver's input (solver/run createRunSolverConfig), which the solver runs with each particle's
 * material.
 */
describeEachDialect('multiphase and surface tension reach the solver', (dialect) => {
  const t = useSetupApi(dialect, 'Multiphase run')
  const { api, createSimulation, createPart } = t

  it('hands the solver both materials, the multiphase and surface tension settings and sigma', async () => {
    const simulation = await createSimulation('Oil on water')
    const id = simulation.id
    const settings = await api('PUT', `/simulations/${id}/settings`, {
      multiphase: true,
      densityLimiter: false,
      surfaceTension: true,
      sigma: 0.03,
      shifting: 'lyu21',
      particleDiameter: 0.01,
      endTime: 0.01,
      outputTimeInterval: 0.001,
    })
    expect(settings.status, settings.text).toBe(200)
    const oil = await api('PUT', `/simulations/${id}/materials/1`, { density: 800 })
    expect(oil.status, oil.text).toBe(200)
    const water = await createPart(id, {
      name: 'Water',
      materialId: 0,
      component: { type: 'filling' },
      shape: { type: 'stl_cube', dimensions: [0.1, 0.1, 0.1] },
    })
    const layer = await createPart(id, {
      name: 'Oil',
      materialId: 1,
      component: { type: 'filling' },
      shape: { type: 'stl_cube', dimensions: [0.1, 0.1, 0.1] },
    })
    const floor = await createPart(id, {
      name: 'Floor',
      component: { type: 'rigid' },
      shape: { type: 'plane' },
    })
    const setup = await loadRunSetup(t.server.database.handle.db, t.server.dataDir, id)
    // a water particle under an oil particle, above four of the floor
    const particles = {
      positions: Float64Array.from([
        ...[0, 0, 0.005, 0, 0, 0.015],
        ...[0, 0, -0.005, 0.01, 0, -0.005, 0, 0.01, -0.005, 0.01, 0.01, -0.005],
      ]),
      kinds: Uint8Array.from([0, 0, 1, 1, 1, 1]),
      partIds: Int32Array.from([water.id, layer.id, floor.id, floor.id, floor.id, floor.id]),
      materialIds: Int32Array.from([0, 1, -1, -1, -1, -1]),
    }
    // what a run's job hands on (its data directory, ids and signal play no part here)
    const options = { setup, particles, threads: 1 } as unknown as Parameters<
      typeof checkRunStart
    >[0]
    expect(checkRunStart(options)).toEqual([])
    const config = createRunSolverConfig(options)
    expect(config.settings).toMatchObject({ multiphase: true, surfaceTension: true, sigma: 0.03 })
    expect(config.materials.map((m) => [m.id, m.density])).toEqual([
      [0, setup.materials[0]!.density],
      [1, 800],
    ])
    const solver = await createSolver(config)
    try {
      const { phases, surfaceTension } = solver.describe().constants
      expect(phases?.materialIds).toEqual([0, 1])
      expect(phases?.referenceDensity[1]).toBe(800)
      expect(surfaceTension).toBe(0.03)
      solver.step()
      const snapshot = solver.snapshot()
      const fluid = Array.from(snapshot.materialId).filter(
        (_, i) => snapshot.kind[i] === PARTICLE_KIND.fluid,
      )
      expect(fluid).toEqual([0, 1])
    } finally {
      await solver.dispose()
    }

    // a contact angle other than 90° under surface tension is refused at start, by name
    const rigid = setup.parts.find((p) => p.id === floor.id)!
    const tilted = {
      ...setup,
      parts: setup.parts.map((p) =>
        p === rigid ? { ...p, component: { ...p.component, contactAngle: 60 } } : p,
      ),
    }
    expect(checkRunStart({ ...options, setup: tilted })).toContain(
      'Unsupported parts: contact angle 60° of part "Floor" (only 90° is implemented).',
    )
  })
})
