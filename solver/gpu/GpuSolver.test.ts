/**
 * The GPU backend against the CPU solver on small cases, step by step, within float32 tolerance:
 * derivatives after one force pass (generalized and Riemann walls, the cubic kernel with Molteni
 * diffusion, a moving fluid), positions and densities after steps of a small dam break, and what
 * it refuses. Runs on SwiftShader where no GPU is (vitest.config.ts sets its env); skipped,
 * saying why, where no adapter can be had.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SolverConfig, SolverOptions } from '../sph/config.ts'
import { SolverSetupError } from '../sph/config.ts'
import { createSolver, solverInternals } from '../sph/SphSolver.ts'
import type { Solver } from '../sph/SphSolver.ts'
import { PARTICLE_KIND } from '../sph/particles.ts'
import { buildTankParticles, supportedSettings, WATER } from '../sph/scenarios.ts'
import type { GpuContext } from './device.ts'
import { findGpu, gpuUnavailableReason } from './device.ts'
import { createGpuSolver } from './GpuSolver.ts'
import { gpuFitProblem, gpuMemoryNeeded, gpuUnsupportedSettings } from './support.ts'
import type { SolverOpenBoundary } from '../sph/openBoundaryZone.ts'

let gpu: GpuContext | null = null
beforeAll(async () => {
  gpu = await findGpu()
  if (!gpu) console.warn(`GPU tests skipped: ${gpuUnavailableReason()}`)
})

const cpuSolvers: Solver[] = []
afterAll(async () => {
  for (const solver of cpuSolvers) await solver.dispose()
})

/**
 * A small dam break: a column 6 × 6 × 8 particles (dp 1 cm) at one end of a tank 12 × 6 × 12
 * with three wall layers (about 2,000 particles, most of them walls); the fluid moves (a swirl)
 * so that viscosity and the walls' no-slip work too.
 */
function damBreak(options: Partial<SolverOptions> = {}): SolverConfig {
  const dp = 0.01
  const particles = buildTankParticles({
    dp,
    tank: [0.12, 0.06, 0.12],
    fluidMin: [0, 0, 0],
    fluidMax: [0.06, 0.06, 0.08],
    closed: false,
    wallLayers: 3,
  })
  const n = particles.kinds.length
  const velocities = new Float64Array(3 * n)
  for (let i = 0; i < n; i++) {
    if (particles.kinds[i] !== PARTICLE_KIND.fluid) continue
    const x = particles.positions[3 * i]!
    const z = particles.positions[3 * i + 2]!
    velocities[3 * i] = 0.3 * Math.sin(60 * z)
    velocities[3 * i + 2] = -0.3 * Math.sin(50 * x)
  }
  return {
    settings: supportedSettings(dp),
    materials: [WATER],
    particles: { ...particles, velocities },
    options: { hydrostaticInitialisation: true, threads: 1, ...options },
  }
}

async function cpuForces(config: SolverConfig): Promise<Float64Array> {
  const solver = await createSolver(config)
  solver.measureInteractionPass('forces', 1)
  const internals = solverInternals(solver)
  const a = internals.arrays
  const n = internals.count()
  const out = new Float64Array(4 * n)
  for (let i = 0; i < n; i++) {
    const o = 4 * a.particleId[i]!
    out.set([a.accX[i]!, a.accY[i]!, a.accZ[i]!, a.drho[i]!], o)
  }
  await solver.dispose()
  return out
}

/** Largest difference of the fluid particles' (a, dρ/dt) over the largest CPU value of each. */
function compareForces(config: SolverConfig, cpu: ArrayLike<number>, gpuValues: ArrayLike<number>) {
  let maxA = 0
  let maxD = 0
  let errA = 0
  let errD = 0
  const kinds = config.particles.kinds
  for (let id = 0; id < kinds.length; id++) {
    if (kinds[id] !== PARTICLE_KIND.fluid) continue
    const o = 4 * id
    maxA = Math.max(maxA, Math.hypot(cpu[o]!, cpu[o + 1]!, cpu[o + 2]!))
    maxD = Math.max(maxD, Math.abs(cpu[o + 3]!))
    errA = Math.max(
      errA,
      Math.hypot(
        cpu[o]! - gpuValues[o]!,
        cpu[o + 1]! - gpuValues[o + 1]!,
        cpu[o + 2]! - gpuValues[o + 2]!,
      ),
    )
    errD = Math.max(errD, Math.abs(cpu[o + 3]! - gpuValues[o + 3]!))
  }
  return { acceleration: errA / maxA, densityRate: errD / maxD, maxA, maxD }
}

describe('GPU backend', () => {
  it.skipIf(!process.env.VK_ICD_FILENAMES && !process.env.DIVE_GPU_TESTS)(
    'finds an adapter where the test env provides one',
    () => {
      // vitest.config.ts gives this project SwiftShader's env where chromium is installed
      expect(gpu, gpuUnavailableReason() ?? '').not.toBeNull()
      expect(gpu!.info.name.length).toBeGreaterThan(0)
    },
  )

  const forceCases: { name: string; options: Partial<SolverOptions> }[] = [
    { name: 'generalized walls', options: {} },
    { name: 'riemann walls', options: { boundary: 'riemann', riemannWallNormal: 'wall' } },
    // the other kernel and diffusion branches of the pair body
    {
      name: 'cubic kernel, Molteni diffusion',
      options: { kernel: 'cubic', densityDiffusion: 'molteni' },
    },
  ]
  for (const { name, options } of forceCases) {
    it(`one force pass agrees with the CPU within float32 tolerance (${name})`, async (t) => {
      if (!gpu) return t.skip(`no WebGPU adapter: ${gpuUnavailableReason()}`)
      const config = damBreak(options)
      const cpu = await cpuForces(config)
      const solver = await createGpuSolver(config, gpu)
      const { derivatives } = await solver.forcePass()
      await solver.dispose()
      const error = compareForces(config, cpu, derivatives)
      // float32 sums of ~50 pair terms that largely cancel (hydrostatic balance): a few 1e-6 of
      // the largest term; measured ~1e-5 of the largest acceleration (see NUMERICS.md)
      expect(error.acceleration).toBeLessThan(1e-4)
      expect(error.densityRate).toBeLessThan(1e-4)
    })
  }

  for (const shifting of ['zero', 'lyu21'] as const) {
    it(`positions and densities after 8 steps of a dam break agree with the CPU (shifting ${shifting})`, async (t) => {
      if (!gpu) return t.skip(`no WebGPU adapter: ${gpuUnavailableReason()}`)
      const base = damBreak()
      const config = { ...base, settings: { ...base.settings, shifting } }
      const cpu = await createSolver(config)
      cpuSolvers.push(cpu)
      for (let s = 0; s < 8; s++) cpu.step()
      const end = cpu.report().timeS
      const solver = await createGpuSolver(config, gpu)
      const report = await solver.runUntil(end)
      expect(report.timeS).toBe(end)
      // the GPU chooses dt from float32 maxima: the same steps to the same time
      expect(report.step).toBe(8)
      const a = cpu.snapshot()
      const b = await solver.snapshot()
      await solver.dispose()
      const dp = config.settings.particleDiameter!
      let maxMove = 0
      let errX = 0
      let errRho = 0
      let errWallP = 0
      let maxWallP = 0
      for (let i = 0; i < a.count; i++) {
        if (a.kind[i] !== PARTICLE_KIND.fluid) {
          maxWallP = Math.max(maxWallP, Math.abs(a.pressure[i]!))
          errWallP = Math.max(errWallP, Math.abs(a.pressure[i]! - b.pressure[i]!))
          continue
        }
        const p0 = config.particles.positions
        maxMove = Math.max(
          maxMove,
          Math.hypot(
            a.positions[3 * i]! - p0[3 * i]!,
            a.positions[3 * i + 1]! - p0[3 * i + 1]!,
            a.positions[3 * i + 2]! - p0[3 * i + 2]!,
          ),
        )
        errX = Math.max(
          errX,
          Math.hypot(
            a.positions[3 * i]! - b.positions[3 * i]!,
            a.positions[3 * i + 1]! - b.positions[3 * i + 1]!,
            a.positions[3 * i + 2]! - b.positions[3 * i + 2]!,
          ),
        )
        errRho = Math.max(errRho, Math.abs(a.density[i]! - b.density[i]!) / a.density[i]!)
      }
      // the particles moved a visible part of dp; the backends part by float32 rounding only
      expect(maxMove / dp).toBeGreaterThan(0.01)
      expect(errX / dp).toBeLessThan(1e-4)
      expect(errRho).toBeLessThan(1e-5)
      expect(errWallP / maxWallP).toBeLessThan(1e-3)
    })
  }

  it('a checkpoint resumes on either backend', async (t) => {
    if (!gpu) return t.skip(`no WebGPU adapter: ${gpuUnavailableReason()}`)
    const config = damBreak()
    const solver = await createGpuSolver(config, gpu)
    await solver.step()
    const bytes = await solver.checkpoint()
    const before = await solver.snapshot()
    const resumed = await createGpuSolver(config, gpu)
    resumed.restore(bytes)
    const after = await resumed.snapshot()
    expect(after.timeS).toBe(before.timeS)
    expect(after.positions).toEqual(before.positions)
    const cpu = await createSolver(config)
    cpuSolvers.push(cpu)
    cpu.restore(bytes)
    expect(cpu.report().timeS).toBe(before.timeS)
    expect(cpu.snapshot().positions).toEqual(before.positions)
    await solver.dispose()
    await resumed.dispose()
  })

  it('refuses what it does not implement, before creating anything', async () => {
    const config = damBreak()
    expect(gpuUnsupportedSettings(config)).toEqual([])
    const heat = { ...config, settings: { ...config.settings, thermodynamics: true } }
    expect(gpuUnsupportedSettings(heat)).toEqual(['thermodynamics (not yet on GPU)'])
    await expect(createGpuSolver(heat, gpu ?? undefined)).rejects.toThrow(SolverSetupError)
    const dp = config.settings.particleDiameter!
    const spacings = Array.from(config.particles.kinds, (_, i) => (i === 0 ? dp / 2 : dp))
    const refined = { ...config, particles: { ...config.particles, spacings } }
    expect(gpuUnsupportedSettings(refined)).toEqual(['refinement (not yet on GPU)'])
    const inlet: SolverOpenBoundary = {
      partId: 9,
      direction: 'inflow',
      origin: [0, 0, 0],
      normal: [1, 0, 0],
      thickness: 4 * dp,
      profile: { timesS: [0], velocities: [[0.1, 0, 0]], pressures: [0] },
    }
    const open = { ...config, openBoundaries: [inlet] }
    expect(gpuUnsupportedSettings(open)).toEqual(['open boundaries (not yet on GPU)'])
    const shearThinning = {
      ...config,
      materials: [{ ...WATER, viscosityKind: 'shear_rate' as const }],
    }
    expect(gpuUnsupportedSettings(shearThinning)).toEqual([
      `viscosity shear_rate of material ${WATER.id} (GPU: constant viscosity only)`,
    ])
    const dynamic = { ...config, options: { ...config.options, boundary: 'dynamic' as const } }
    expect(gpuUnsupportedSettings(dynamic)).toEqual([
      'boundary: dynamic (GPU: generalized and Riemann walls)',
    ])
  })

  it('refuses a case larger than the card’s buffers, with the numbers', () => {
    const card = {
      name: 'Small card',
      fallback: false,
      maxBufferSize: 128 * 2 ** 20,
      maxStorageBufferBindingSize: 128 * 2 ** 20,
    }
    expect(gpuFitProblem(4_000_000, 1_000_000, card)).toBeNull()
    expect(gpuFitProblem(5_000_000, 1_000_000, card)).toBe(
      'This case does not fit the GPU Small card: 5,000,000 particles need buffers of 152.6 MiB, the card allows 128 MiB (at most 4,194,304 particles). Run it on the CPU.',
    )
  })

  it('counts the walls’ rest positions of moving parts in the GPU memory', () => {
    // 196 bytes per particle, 16 more with moving parts, 8 per cell (and one more cell entry)
    expect(gpuMemoryNeeded(1_000_000, 99)).toEqual({ bytes: 196_000_800, largestBuffer: 32e6 })
    expect(gpuMemoryNeeded(1_000_000, 99, true)).toEqual({
      bytes: 212_000_800,
      largestBuffer: 32e6,
    })
  })
})
