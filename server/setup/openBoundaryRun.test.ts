import { expect, it } from 'vitest'
import { discretize } from '../../solver/discretizer/discretize.ts'
import { checkRunStart, createRunSolverConfig } from '../../solver/run/runConfig.ts'
import { createSolver } from '../../solver/sph/SphSolver.ts'
import { loadRunSetup } from './loadRunSetup.ts'
import { useSetupApi } from './setupApiTesting.ts'
import { describeEachDialect } from '../../tests/integration/harness.ts'

/*
 * Open boundaries (issue 16 item 6) through the product's own path: an inlet and an outlet made
 * through the API beside a block of water, read by the run's setup loader, discretized into
 * buffers and run by the solver, which brings water in at the inlet's speed.
 */
describeEachDialect('open boundaries reach the solver', (dialect) => {
  const t = useSetupApi(dialect, 'Open boundary run')
  const { api, createSimulation, createPart } = t

  it('runs an inlet and an outlet and refuses an inlet with pressure', async () => {
    const simulation = await createSimulation('Channel')
    const id = simulation.id
    const settings = await api('PUT', `/simulations/${id}/settings`, {
      gravity: [0, 0, 0],
      particleDiameter: 0.01,
      endTime: 0.2,
      outputTimeInterval: 0.01,
    })
    expect(settings.status, settings.text).toBe(200)
    await createPart(id, {
      name: 'Water',
      materialId: 0,
      component: { type: 'filling' },
      shape: { type: 'stl_cube', dimensions: [0.1, 0.05, 0.05], translation: [0.05, 0.025, 0.025] },
    })
    // planes (normal +z) turned about y to face along x, at x = 0 and x = 0.1
    const face = (x: number) => ({
      type: 'plane',
      scale: [0.05, 0.05, 1],
      rotation: [0, 90, 0],
      translation: [x, 0.025, 0.025],
    })
    const inlet = await createPart(id, {
      name: 'Inlet',
      materialId: 0,
      component: {
        type: 'openboundary',
        ioDirection: 'inflow',
        ioType: 'riemann_velocity',
        ioVelocity: 0.1,
      },
      shape: face(0),
    })
    await createPart(id, {
      name: 'Outlet',
      materialId: 0,
      component: {
        type: 'openboundary',
        ioDirection: 'outflow',
        ioType: 'riemann_pressure',
        ioPressure: 0,
      },
      shape: face(0.1),
    })
    const setup = await loadRunSetup(t.server.database.handle.db, t.server.dataDir, id)
    const particles = discretize(setup)
    expect(particles.errors).toEqual([])
    const options = { setup, particles, threads: 1 } as unknown as Parameters<
      typeof checkRunStart
    >[0]
    expect(checkRunStart(options)).toEqual([])
    const config = createRunSolverConfig(options)
    expect(config.openBoundaries?.map((zone) => zone.direction)).toEqual(['inflow', 'outflow'])
    const solver = await createSolver(config)
    try {
      // 0.12 s at 0.1 m/s: the inlet's first layer (dp/2 behind the plane) entered
      const report = solver.runUntil(0.12)
      expect(report.openBoundary!.inflowMass).toBeGreaterThan(0)
      const s = solver.snapshot()
      const inletBuffer = s.partId.filter((p, i) => p === inlet.id && s.kind[i] === 2).length
      expect(inletBuffer).toBe(4 * 25)
    } finally {
      await solver.dispose()
    }

    // an inlet with pressure is refused with the spec's words
    const broken = await loadRunSetup(t.server.database.handle.db, t.server.dataDir, id)
    const part = broken.parts.find((p) => p.id === inlet.id)!
    if (part.component.type === 'openboundary') part.component.ioType = 'riemann_pressure'
    expect(checkRunStart({ ...options, setup: broken })).toContain(
      'Unsupported parts: open boundary part "Inlet" (An inlet with pressure is not allowed.).',
    )
  })
})
