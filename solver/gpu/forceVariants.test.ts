/**
 * The force pass variants (forceVariants.ts) against the CPU solver and against the base kernel:
 * the same pairs (interaction counts), the same derivatives within float32 tolerance, for the
 * generalized and Riemann walls and with the other kernel and no hydrostatic diffusion term (the
 * lean body's pipeline constants); the list variants with a list of 4 (flushed mid-row many times
 * per row) as with the default. Runs on SwiftShader where no GPU is (vitest.config.ts).
 */
import { beforeAll, describe, expect, it } from 'vitest'
import type { SolverOptions } from '../sph/config.ts'
import type { GpuContext } from './device.ts'
import { findGpu, gpuUnavailableReason } from './device.ts'
import { createGpuSolver } from './GpuSolver.ts'
import { FORCE_VARIANTS } from './forceVariants.ts'
import { compareForces, cpuForces, damBreak } from './agreementCases.ts'

let gpu: GpuContext | null = null
beforeAll(async () => {
  gpu = await findGpu()
  if (!gpu) console.warn(`GPU tests skipped: ${gpuUnavailableReason()}`)
})

const CASES: { name: string; options: Partial<SolverOptions> }[] = [
  { name: 'generalized walls', options: {} },
  { name: 'Riemann walls', options: { boundary: 'riemann', riemannWallNormal: 'wall' } },
  {
    name: 'cubic kernel, Molteni diffusion',
    options: { kernel: 'cubic', densityDiffusion: 'molteni' },
  },
]

describe('force pass variants', () => {
  for (const { name, options } of CASES) {
    it(`each variant agrees with the CPU and the base kernel (${name})`, async (t) => {
      if (!gpu) return t.skip(`no WebGPU adapter: ${gpuUnavailableReason()}`)
      const config = damBreak(options)
      const cpu = await cpuForces(config)
      const solver = await createGpuSolver(config, gpu)
      try {
        const base = await solver.forcePass(1)
        for (const variant of FORCE_VARIANTS) {
          solver.useForceVariant(variant)
          const run = await solver.forcePass(1)
          expect(run.interactionsPerPass, variant).toBe(base.interactionsPerPass)
          const toCpu = compareForces(config, cpu, run.derivatives)
          // the base kernel's tolerance (GpuSolver.test.ts)
          expect(toCpu.acceleration, variant).toBeLessThan(1e-4)
          expect(toCpu.densityRate, variant).toBeLessThan(1e-4)
          // the same sums in another order or form: float32 rounding of the largest term
          const toBase = compareForces(config, base.derivatives, run.derivatives)
          expect(toBase.acceleration, variant).toBeLessThan(1e-5)
          expect(toBase.densityRate, variant).toBeLessThan(1e-5)
        }
      } finally {
        await solver.dispose()
      }
    })
  }

  it('the list variants give the same sums with a list of 4 (flushed mid-row)', async (t) => {
    if (!gpu) return t.skip(`no WebGPU adapter: ${gpuUnavailableReason()}`)
    const config = damBreak()
    const solver = await createGpuSolver(config, gpu)
    try {
      for (const variant of ['list', 'listLean'] as const) {
        solver.useForceVariant(variant)
        const full = await solver.forcePass(1)
        solver.useForceVariant(variant, 4)
        const small = await solver.forcePass(1)
        expect(small.interactionsPerPass, variant).toBe(full.interactionsPerPass)
        const error = compareForces(config, full.derivatives, small.derivatives)
        // the same pairs in the same order: only the sort's order within a cell may differ
        expect(error.acceleration, variant).toBeLessThan(1e-6)
        expect(error.densityRate, variant).toBeLessThan(1e-6)
      }
    } finally {
      await solver.dispose()
    }
  })
})
