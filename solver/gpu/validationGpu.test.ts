/**
 * The validation cases on the GPU backend (validation/caseSolver.ts, `validate --backend=gpu`):
 * one case run on both backends gives the same metrics within float32 tolerance, and a case whose
 * config the GPU refuses reports the refusal's reason. Runs on SwiftShader where no GPU is
 * (vitest.config.ts); skipped, saying why, without an adapter.
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  NotRunOnBackend,
  runHydrostaticCase,
  runRefinementCase,
  useCaseBackend,
  type HydrostaticOptions,
} from '../../validation/cases.ts'
import type { RunBackendKind } from '../run/runBackend.ts'
import { findGpu, gpuUnavailableReason } from './device.ts'

let available = false
beforeAll(async () => {
  available = (await findGpu()) !== null
  if (!available) console.warn(`GPU validation tests skipped: ${gpuUnavailableReason()}`)
})
afterEach(() => useCaseBackend('cpu'))

/**
 * The hydrostatic tank, coarse (10 × 10 × 5 fluid particles, 3,584 in all) and short (0.02 s:
 * some twenty steps, a second or two each on SwiftShader on the shared machine).
 */
const TANK: HydrostaticOptions = { dp: 0.04, depth: 0.2, endTimeS: 0.02 }

async function hydrostaticOn(backend: RunBackendKind) {
  useCaseBackend(backend)
  return (await runHydrostaticCase(TANK)).metrics
}

describe('the validation cases on the GPU backend', () => {
  it('gives the hydrostatic tank the same metrics as the CPU within float32 tolerance', async (context) => {
    if (!available) context.skip()
    const gpu = await hydrostaticOn('gpu')
    const cpu = await hydrostaticOn('cpu')
    expect(gpu.map((m) => m.metric)).toEqual(cpu.map((m) => m.metric))
    for (const [k, m] of gpu.entries()) {
      const reference = cpu[k]!
      // relative pressure errors (about 1e-2) and a surface offset in dp: float32 against
      // float64 over these steps; measured on SwiftShader (2026-11-28) 1.0e-6 (centre line),
      // 1.9e-6 (the floor: the GPU's probes), 6.2e-7 (surface), a tenth of this bound or less
      expect(Number.isFinite(reference.value), m.metric).toBe(true)
      expect(Math.abs(m.value - reference.value), m.metric).toBeLessThan(
        2e-5 * Math.max(1, Math.abs(reference.value)),
      )
      expect(m.tolerance).toBe(reference.tolerance)
      expect(m.ok).toBe(reference.ok)
    }
  }, 600_000)

  // the refusal comes before any adapter is sought: it needs none
  it('refuses a case the GPU does not run, with the reason, before running anything', async () => {
    useCaseBackend('gpu')
    // (the open channel runs on the GPU since 2026-11-28: openGpu.test.ts)
    const refinement = runRefinementCase({ particlesAcross: 6 })
    await expect(refinement).rejects.toThrow(NotRunOnBackend)
    await expect(refinement).rejects.toThrow('refinement (not yet on GPU)')
  })
})
