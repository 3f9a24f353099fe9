import { expect, it } from 'vitest'
import { createSolver } from '../../solver/sph/SphSolver.ts'
import { createGpuSolver } from '../../solver/gpu/GpuSolver.ts'
import { findGpu, gpuUnavailableReason } from '../../solver/gpu/device.ts'
import { openChannelRun } from './openChannelRun.ts'
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

  it('runs an inlet and an outlet on the GPU as on the CPU', async (context) => {
    const gpu = await findGpu()
    if (!gpu) return context.skip(`no WebGPU adapter: ${gpuUnavailableReason()}`)
    const { inlet, config } = await openChannelRun(t)
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
