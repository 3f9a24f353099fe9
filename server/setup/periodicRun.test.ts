import { expect, it } from 'vitest'
import { sliceFrame } from '../../domain/periodic.ts'
import { unsupportedObjectsMessage } from '../../domain/rest/setupObjectRoutes.ts'
import { discretize } from '../../solver/discretizer/discretize.ts'
import { checkRunStart, createRunSolverConfig } from '../../solver/run/runConfig.ts'
import { PARTICLE_KIND } from '../../solver/sph/particles.ts'
import { insideSlice } from '../../solver/sph/rotationalSlice.ts'
import { createSolver } from '../../solver/sph/SphSolver.ts'
import { loadRunSetup } from './loadRunSetup.ts'
import { useSetupApi } from './setupApiTesting.ts'
import { describeEachDialect } from '../../tests/integration/harness.ts'

/*
 * The rotational periodic boundary (issue 16 item 7) through the product's own path: the
 * boundary made through the API, read by the run's setup loader, the discretization cut to its
 * slice, and the solver running the slice with the fluid kept in it.
 */
describeEachDialect('the periodic boundary reaches the solver', (dialect) => {
  const t = useSetupApi(dialect, 'Periodic run')
  const { api, createSimulation, createPart, expectRefused } = t

  it('runs a 90° slice of a block of water on a floor and refuses gravity across its axis', async () => {
    const simulation = await createSimulation('Quarter tank')
    const id = simulation.id
    const settings = await api('PUT', `/simulations/${id}/settings`, {
      particleDiameter: 0.01,
      endTime: 0.01,
      outputTimeInterval: 0.001,
    })
    expect(settings.status, settings.text).toBe(200)
    await createPart(id, {
      name: 'Water',
      materialId: 0,
      component: { type: 'filling' },
      shape: { type: 'stl_cube', dimensions: [0.1, 0.1, 0.06], translation: [0, 0, 0.03] },
    })
    await createPart(id, {
      name: 'Floor',
      component: { type: 'rigid' },
      shape: { type: 'plane', scale: [0.3, 0.3, 1] },
    })
    const created = await api('POST', `/simulations/${id}/periodics`, {
      center: [0, 0, 0],
      axis: [0, 0, 1],
      sliceRotation: 0,
      sliceAngle: 90,
    })
    expect(created.status, created.text).toBe(201)
    const setup = await loadRunSetup(t.server.database.handle.db, t.server.dataDir, id)
    expect(setup.periodics).toHaveLength(1)
    const whole = discretize({ ...setup, periodics: [] })
    const particles = discretize(setup)
    expect(particles.errors).toEqual([])
    // a quarter of the block and of the floor: the lattice is symmetric about the axis
    expect(particles.fluidCount).toBe(whole.fluidCount / 4)
    const slice = sliceFrame(setup.periodics![0]!)!
    const p = particles.positions
    for (let i = 0; i < particles.count; i++)
      expect(insideSlice(slice, p[3 * i]!, p[3 * i + 1]!, p[3 * i + 2]!)).toBe(true)
    const options = { setup, particles, threads: 1 } as unknown as Parameters<
      typeof checkRunStart
    >[0]
    expect(checkRunStart(options)).toEqual([])
    const config = createRunSolverConfig(options)
    expect(config.rotationalPeriodic).toEqual(slice)
    const solver = await createSolver(config)
    try {
      const report = solver.runUntil(0.01)
      expect(report.fluidCount).toBe(particles.fluidCount)
      expect(report.particleCount).toBe(particles.count)
      const s = solver.snapshot()
      expect(s.count).toBe(particles.count)
      let fluid = 0
      for (let i = 0; i < s.count; i++) {
        if (s.kind[i] !== PARTICLE_KIND.fluid) continue
        fluid++
        const q = s.positions
        expect(insideSlice(slice, q[3 * i]!, q[3 * i + 1]!, q[3 * i + 2]!)).toBe(true)
      }
      expect(fluid).toBe(particles.fluidCount)
    } finally {
      await solver.dispose()
    }

    // gravity across the axis: the slices would not see the same flow (the start route and the
    // job's own check both refuse it)
    await api('PUT', `/simulations/${id}/settings`, { gravity: [1, 0, -9.81] })
    const refusal =
      'periodic boundary with gravity across its axis (every slice must see the same flow)'
    expectRefused(
      await api('POST', `/simulations/${id}/jobs`, { cores: 1, solver_id: 1 }),
      unsupportedObjectsMessage([refusal]),
    )
    const tilted = await loadRunSetup(t.server.database.handle.db, t.server.dataDir, id)
    expect(checkRunStart({ ...options, setup: tilted })).toContain(
      `Unsupported setup objects: ${refusal}.`,
    )
  })
})
