/**
 * Multiphase and surface tension on the GPU (multiphaseShaders.ts) against the CPU
 * (solver/sph/multiphase.ts, surfaceTension.ts): (a) the small swirling dam break of
 * cpuAgreement.ts with its column's upper half a light fluid (1000 and 100 kg/m³, their dynamic
 * viscosities 20 times apart) under generalized walls, (b) the same under Riemann walls, (c) a
 * drop of a second fluid (500 kg/m³) in a closed box full of the first, without gravity, with
 * surface tension and a background pressure, (d) case (a) in a rotating frame with free-slip
 * walls mirrored into the viscous sums. One force pass and 8 steps agree within float32
 * tolerance; a GPU checkpoint resumes on the GPU and restores on the CPU with each particle's
 * phase. Sensors in a stratified column read each phase's own hydrostatic pressure; surface
 * tension's capillary limit sets the step of a small drop. Runs on lavapipe or SwiftShader where
 * no GPU is.
 */
import { describe, expect, it } from 'vitest'
import { PARTICLE_KIND } from '../sph/particles.ts'
import { createSolver, solverInternals } from '../sph/SphSolver.ts'
import { capillaryTimeStepLimit } from '../sph/timeStep.ts'
import type { SolverSnapshot } from '../sph/solverTypes.ts'
import { useGpu } from './testGpu.ts'
import { checkpointRoundTrip, expectCpuAgreement, snapshotDifferences } from './cpuAgreement.ts'
import {
  capillaryDrop,
  drop,
  LAYER_DEPTH,
  layered,
  layeredRotatingFreeSlip,
  stratifiedColumn,
} from './multiphaseCases.ts'
import { layeredHydrostatic } from '../sph/testScenarios.ts'
import { createGpuSolver } from './GpuSolver.ts'
import { gpuUnsupportedSettings } from './support.ts'

const device = useGpu()

const CASES = [
  { name: 'two densities, generalized walls', config: () => layered() },
  { name: 'two densities, Riemann walls', config: () => layered(true) },
  { name: 'a drop with surface tension and a background pressure', config: drop },
  { name: 'a rotating frame, free-slip walls mirrored', config: layeredRotatingFreeSlip },
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
      const gpu = device.need(t)
      const { steps } = await expectCpuAgreement(make(), gpu)
      // each fluid particle's material and its own Tait pressure, as the CPU writes them
      const fluid = fluidDifferences(steps.cpu, steps.gpu)
      expect(fluid.phases).toBe(0)
      expect(fluid.pressure).toBeLessThan(1e-3)
      expect(new Set(steps.gpu.materialId)).toEqual(new Set([-1, 1, 2]))
    })
  }

  it('sensors read each phase with its own equation of state: a stratified column at rest', async (t) => {
    const gpu = device.need(t)
    const solver = await createGpuSolver(stratifiedColumn(), gpu)
    // mid-depth of each layer, 4 dp (beyond the support, 3 dp) from the interface and the surface
    const heights = [0.5 * LAYER_DEPTH, 1.5 * LAYER_DEPTH]
    const points = Float64Array.from(heights.flatMap((z) => [0.04, 0.015, z]))
    const probes = solver.attachProbes(points)
    const start = new Float64Array(4)
    const readings: number[][] = [[], []]
    for (const [k, z] of heights.entries()) {
      expect(probes.start(points.subarray(3 * k, 3 * k + 3), start)).toBe(true)
      readings[k]!.push(start[0]! / layeredHydrostatic(z, LAYER_DEPTH) - 1)
    }
    await solver.runUntil(0.05)
    await solver.step()
    const values = (await probes.read([0])).get(0)!
    await solver.dispose()
    for (const [k, z] of heights.entries())
      readings[k]!.push(values[8 * k]! / layeredHydrostatic(z, LAYER_DEPTH) - 1)
    console.log('stratified column, probe / ρ_k g depth − 1 (start, 0.05 s):', readings)
    for (const reading of readings.flat()) expect(Math.abs(reading)).toBeLessThan(0.03)
  })

  it('takes the capillary limit as the step of a small drop with a large σ, as the CPU', async (t) => {
    const gpu = device.need(t)
    const config = capillaryDrop()
    const solver = await createGpuSolver(config, gpu)
    const cpu = await createSolver(config)
    const capillary = capillaryTimeStepLimit(solverInternals(cpu).constants)
    for (let s = 0; s < 3; s++) {
      const dt = (await solver.step()).dtS
      expect(Math.abs(dt / capillary - 1)).toBeLessThan(1e-6)
      expect(cpu.step().dtS).toBe(capillary)
    }
    await solver.dispose()
    await cpu.dispose()
  })

  it('resumes on the GPU and restores on the CPU from its checkpoint, phases kept', async (t) => {
    const gpu = device.need(t)
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
