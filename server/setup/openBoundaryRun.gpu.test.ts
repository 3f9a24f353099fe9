import { expect, it } from 'vitest'
import { discretize } from '../../solver/discretizer/discretize.ts'
import { checkRunStart, createRunSolverConfig } from '../../solver/run/runConfig.ts'
import { createSolver } from '../../solver/sph/SphSolver.ts'
import { createGpuSolver } from '../../solver/gpu/GpuSolver.ts'
import { findGpu, gpuUnavailableReason } from '../../solver/gpu/device.ts'
import { loadRunSetup } from './loadRunSetup.ts'
import { useSetupApi } from './setupApiTesting.ts'
import { describeEachDialect } from '../../tests/integration/harness.ts'

/*
 * Open boundaries on the GPU (issue 21, solver/gpu/openBoundaries.ts) through the product's own
 * path, as openBoundaryRun.test.ts on the CPU: an inlet and an outlet made through the API beside
 * a block of water, read by the run's setup loader, discretized into buffers and run on both
 * backends: the same counts, inflow mass and buffers, positions within float32 tolerance.
 */
describeEachDialect('open boundaries reach the GPU solver', (dialect) => {
  const t = useSetupApi(dialect, 'Open boundary run')
  const { api, createSimulation, createPart } = t

  it('runs an inlet and an outlet on the GPU as on the CPU', async (context) => {
    const gpu = await findGpu()
    if (!gpu) return context.skip(`no WebGPU adapter: ${gpuUnavailableReason()}`)
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
    const cpu = await createSolver(config)
    const solver = await createGpuSolver(config, gpu)
    try {
      // 0.12 s at 0.1 m/s: the inlet's first layer (dp/2 behind the plane) entered
      const a = cpu.runUntil(0.12)
      const b = await solver.runUntil(0.12)
      expect(b.openBoundary!.inflowMass).toBeGreaterThan(0)
      expect(b.openBoundary!.inflowMass).toBeCloseTo(a.openBoundary!.inflowMass, 9)
      expect(b.particleCount).toBe(a.particleCount)
      expect(b.fluidCount).toBe(a.fluidCount)
      const s = await solver.snapshot()
      const c = cpu.snapshot()
      const inletBuffer = s.partId.filter((p, i) => p === inlet.id && s.kind[i] === 2).length
      expect(inletBuffer).toBe(4 * 25)
      // each particle to the nearest of its kind on the other backend (new ids differ)
      let worst = 0
      for (let i = 0; i < c.count; i++) {
        let best = Infinity
        for (let j = 0; j < s.count; j++) {
          if (s.kind[j] !== c.kind[i]) continue
          const d = [0, 1, 2].map((k) => c.positions[3 * i + k]! - s.positions[3 * j + k]!)
          best = Math.min(best, Math.hypot(...d))
        }
        worst = Math.max(worst, best)
      }
      console.log(
        `open boundaries from the API, 0.12 s: positions within ${(worst / 0.01).toExponential(2)} dp of the CPU's`,
      )
      expect(worst / 0.01).toBeLessThan(1e-3)
    } finally {
      await cpu.dispose()
      await solver.dispose()
    }
  })
})
