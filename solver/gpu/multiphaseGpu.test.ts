/**
 * Multiphase and surface tension on the GPU (multiphaseShaders.ts) against the CPU
 * (solver/sph/multiphase.ts, surfaceTension.ts): (a) the small swirling dam break of
 * cpuAgreement.ts with its column's upper half a light fluid (1000 and 100 kg/m³, their dynamic
 * viscosities 20 times apart) under generalized walls, (b) the same under Riemann walls, (c) a
 * drop of a second fluid (500 kg/m³) in a closed box full of the first, without gravity, with
 * surface tension and a background pressure. One force pass and 8 steps agree within float32
 * tolerance; a GPU checkpoint resumes on the GPU and restores on the CPU with each particle's
 * phase. Runs on lavapipe or SwiftShader where no GPU is.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { PARTICLE_KIND } from '../sph/particles.ts'
import type { SolverSnapshot } from '../sph/solverTypes.ts'
import type { GpuContext } from './device.ts'
import { findGpu, gpuUnavailableReason } from './device.ts'
import { checkpointRoundTrip, expectCpuAgreement, snapshotDifferences } from './cpuAgreement.ts'
import { drop, layered } from './multiphaseCases.ts'
import { gpuUnsupportedSettings } from './support.ts'

let gpu: GpuContext | null = null
beforeAll(async () => {
  gpu = await findGpu()
  if (!gpu) console.warn(`GPU tests skipped: ${gpuUnavailableReason()}`)
})

const CASES = [
  { name: 'two densities, generalized walls', config: () => layered() },
  { name: 'two densities, Riemann walls', config: () => layered(true) },
  { name: 'a drop with surface tension and a background pressure', config: drop },
] as const

/** Over the fluid: phases that differ, and the largest pressure difference over the largest. */
function fluidDifferences(cpu: SolverSnapshot, gpuSnapshot: SolverSnapshot) {
  let phases = 0
  let maxP = 0
  let errP = 0
  for (let i = 0; i < cpu.count; i++) {
    if (cpu.kind[i] !== PARTICLE_KIND.fluid) continue
    if (cpu.materialId[i] !== gpuSnapshot.materialId[i]) phases++
    maxP = Math.max(maxP, Math.abs(cpu.pressure[i]!))
    errP = Math.max(errP, Math.abs(cpu.pressure[i]! - gpuSnapshot.pressure[i]!))
  }
  return { phases, pressure: errP / maxP }
}

describe('GPU backend, multiphase and surface tension', () => {
  it('is no longer refused; the CPU refusals of their combinations stand', () => {
    for (const { config } of CASES) expect(gpuUnsupportedSettings(config())).toEqual([])
    const limited = layered()
    limited.settings = { ...limited.settings, densityLimiter: true }
    expect(gpuUnsupportedSettings(limited)).toContain('densityLimiter with multiphase')
  })

  for (const { name, config: make } of CASES) {
    it(`one force pass and 8 steps agree with the CPU (${name})`, async (t) => {
      if (!gpu) return t.skip(`no WebGPU adapter: ${gpuUnavailableReason()}`)
      const { steps } = await expectCpuAgreement(make(), gpu)
      // each fluid particle's material and its own Tait pressure, as the CPU writes them
      const fluid = fluidDifferences(steps.cpu, steps.gpu)
      expect(fluid.phases).toBe(0)
      expect(fluid.pressure).toBeLessThan(1e-3)
      expect(new Set(steps.gpu.materialId)).toEqual(new Set([-1, 1, 2]))
    })
  }

  it('resumes on the GPU and restores on the CPU from its checkpoint, phases kept', async (t) => {
    if (!gpu) return t.skip(`no WebGPU adapter: ${gpuUnavailableReason()}`)
    const config = drop()
    const { expected, atCheckpoint, onCpu, after } = await checkpointRoundTrip(config, gpu)
    const largestMove = (a: SolverSnapshot, b: SolverSnapshot) => snapshotDifferences(a, b).position
    expect(Array.from(onCpu.materialId)).toEqual(Array.from(atCheckpoint.materialId))
    expect(largestMove(onCpu, atCheckpoint)).toBeLessThan(1e-12)
    expect(Array.from(after.materialId)).toEqual(Array.from(expected.materialId))
    // bit for bit when the sort orders each cell alike, but its atomic counts need not (a
    // driver's threads): summation order, float32 rounding, the variable dt's last bits
    expect(Math.abs(after.timeS - expected.timeS)).toBeLessThan(1e-6 * expected.timeS)
    // (a float32 ulp of a coordinate here is 7.5e-9 m, 7.5e-7 dp)
    const dp = config.settings.particleDiameter!
    expect(largestMove(expected, atCheckpoint)).toBeGreaterThan(0.05 * dp)
    expect(largestMove(after, expected)).toBeLessThan(1e-5 * dp)
  })
})
