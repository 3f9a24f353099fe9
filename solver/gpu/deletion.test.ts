/**
 * Deletion on the GPU (calcDomainActive, as the CPU's sort: grid.ts CellSorter) against the CPU:
 * fluid that starts outside the calculation domain and fluid that leaves it during the steps is
 * removed from both backends, the same particles, with the same counts in the step reports; the
 * particles kept agree within float32 tolerance; a checkpoint after deletions resumes on either
 * backend. Runs on SwiftShader where no GPU is (vitest.config.ts); skipped, saying why, without an
 * adapter.
 */
import { afterAll, describe, expect, it } from 'vitest'
import type { SolverConfig } from '../sph/config.ts'
import { createSolver } from '../sph/SphSolver.ts'
import type { Solver } from '../sph/SphSolver.ts'
import { PARTICLE_KIND } from '../sph/particles.ts'
import type { SolverSnapshot, SolverStepReport } from '../sph/solverTypes.ts'
import { supportedSettings } from '../sph/scenarios.ts'
import { useGpu } from './testGpu.ts'
import { createGpuSolver } from './GpuSolver.ts'
import { gpuUnsupportedSettings } from './support.ts'
import { damBreak } from '../sph/testScenarios.ts'

const device = useGpu()

const cpuSolvers: Solver[] = []
afterAll(async () => {
  for (const solver of cpuSolvers) await solver.dispose()
})

const DP = 0.01
const FLUID = PARTICLE_KIND.fluid

/**
 * The small swirling dam break of cpuAgreement.ts (a column 6 × 6 × 8 particles, dp 1 cm, in an
 * open tank 12 × 6 × 12) thrown upwards at 1 m/s: the calculation domain ends 1.5 mm above the column's top layer, so its particles
 * leave it one after another within a few steps, and 2 mm before the column's first layer in x,
 * so that layer (48 particles) starts outside it.
 */
function leavingColumn(): SolverConfig {
  const base = damBreak()
  const velocities = Float64Array.from(base.particles.velocities!)
  for (let i = 0; i < base.particles.kinds.length; i++)
    if (base.particles.kinds[i] === FLUID) velocities[3 * i + 2] = velocities[3 * i + 2]! + 1
  return {
    ...base,
    settings: supportedSettings(DP, {
      calcDomainActive: true,
      calcDomainMin: [0.007, -0.05, -0.05],
      calcDomainMax: [0.17, 0.11, 0.0765],
    }),
    particles: { ...base.particles, velocities },
  }
}

/** The largest distance between the same particles of two snapshots holding the same ids, in dp. */
function largestDifference(a: SolverSnapshot, b: SolverSnapshot): number {
  let largest = 0
  for (let s = 0; s < a.count; s++) {
    const d = Math.hypot(
      a.positions[3 * s]! - b.positions[3 * s]!,
      a.positions[3 * s + 1]! - b.positions[3 * s + 1]!,
      a.positions[3 * s + 2]! - b.positions[3 * s + 2]!,
    )
    largest = Math.max(largest, d)
  }
  return largest / DP
}

describe('deletion outside the calculation domain on the GPU', () => {
  it('is no longer refused', () => {
    expect(gpuUnsupportedSettings(leavingColumn())).toEqual([])
  })

  it('deletes the same particles as the CPU, at the same steps, and keeps the rest in step', async (t) => {
    const gpu = device.need(t)
    const config = leavingColumn()
    const cpu = await createSolver(config)
    cpuSolvers.push(cpu)
    const solver = await createGpuSolver(config, gpu)
    // the first layer in x starts outside: both backends delete it before the first step
    expect(solver.report()).toMatchObject({
      deletedOutside: 48,
      deletedInvalid: 0,
      particleCount: cpu.report().particleCount,
      fluidCount: cpu.report().fluidCount,
    })
    expect(cpu.report().deletedOutside).toBe(48)
    const initial = await solver.snapshot()
    expect(Array.from(initial.particleIds)).toEqual(Array.from(cpu.snapshot().particleIds))

    const cpuReports: SolverStepReport[] = []
    for (let s = 0; s < 8; s++) cpuReports.push(cpu.step())
    const gpuReports: SolverStepReport[] = []
    await solver.runUntil(cpu.report().timeS, { onStep: (r) => gpuReports.push(r) })
    // the top layer leaves during the steps, step by step as on the CPU
    const deleted = (reports: typeof cpuReports) =>
      reports.map((r) => [r.deletedOutside, r.particleCount, r.fluidCount])
    expect(deleted(gpuReports)).toEqual(deleted(cpuReports))
    expect(cpuReports.at(-1)!.deletedOutside).toBeGreaterThan(48)
    expect(solver.report().timeS).toBe(cpu.report().timeS)

    const a = cpu.snapshot()
    const b = await solver.snapshot()
    expect(b.count).toBe(a.count)
    expect(Array.from(b.particleIds)).toEqual(Array.from(a.particleIds))
    // float32 against float64 over 8 steps (NUMERICS.md 'The GPU backend')
    expect(largestDifference(a, b)).toBeLessThan(1e-4)

    // a checkpoint after the deletions resumes on either backend with the same particles (both
    // delete at the restore what left the domain in the last step, as their next sort would)
    const bytes = await solver.checkpoint()
    const resumed = await createGpuSolver(config, gpu)
    resumed.restore(bytes)
    const onCpu = await createSolver(config)
    cpuSolvers.push(onCpu)
    onCpu.restore(bytes)
    const counts = (r: SolverStepReport) => [
      r.deletedOutside,
      r.deletedInvalid,
      r.particleCount,
      r.fluidCount,
      r.timeS,
    ]
    expect(counts(resumed.report())).toEqual(counts(onCpu.report()))
    const again = await resumed.snapshot()
    const cpuAgain = onCpu.snapshot()
    expect(Array.from(again.particleIds)).toEqual(Array.from(cpuAgain.particleIds))
    // the fluid's state is the checkpoint's on both (walls: the CPU puts them at their rest
    // position in double precision, the GPU keeps its float32 copy of it)
    const fluid = (snapshot: SolverSnapshot, field: 'positions' | 'velocities') =>
      Array.from(snapshot[field]).filter((_, c) => snapshot.kind[Math.floor(c / 3)] === FLUID)
    expect(fluid(again, 'positions')).toEqual(fluid(cpuAgain, 'positions'))
    expect(fluid(again, 'velocities')).toEqual(fluid(cpuAgain, 'velocities'))
    await solver.dispose()
    await resumed.dispose()
  })
})
