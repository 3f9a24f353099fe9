/**
 * The GPU backend against the CPU solver on small cases, step by step, within float32 tolerance:
 * derivatives after one force pass (generalized and Riemann walls, the cubic kernel with Molteni
 * diffusion, a moving fluid), positions and densities after steps of a small dam break, and what
 * it refuses. Runs on SwiftShader where no GPU is (vitest.config.ts sets its env); skipped,
 * saying why, where no adapter can be had.
 */
import { afterAll, describe, expect, it } from 'vitest'
import type { SolverOptions } from '../sph/config.ts'
import { SolverSetupError } from '../sph/config.ts'
import { createSolver } from '../sph/SphSolver.ts'
import type { Solver } from '../sph/SphSolver.ts'
import { gpuUnavailableReason } from './device.ts'
import { useGpu } from './testGpu.ts'
import { createGpuSolver } from './GpuSolver.ts'
import { gpuFitProblem, gpuMemoryNeeded, gpuUnsupportedSettings } from './support.ts'
import { forcePassAgreement, stepAgreement } from './cpuAgreement.ts'
import { damBreak } from '../sph/testScenarios.ts'
import type { SolverOpenBoundary } from '../sph/openBoundaryZone.ts'

const device = useGpu()

const cpuSolvers: Solver[] = []
afterAll(async () => {
  for (const solver of cpuSolvers) await solver.dispose()
})

describe('GPU backend', () => {
  it.skipIf(!process.env.VK_ICD_FILENAMES && !process.env.DIVE_GPU_TESTS)(
    'finds an adapter where the test env provides one',
    () => {
      // vitest.config.ts gives this project SwiftShader's env where chromium is installed
      const gpu = device.found()
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
      const gpu = device.need(t)
      const config = damBreak(options)
      const error = await forcePassAgreement(config, gpu)
      // float32 sums of ~50 pair terms that largely cancel (hydrostatic balance): a few 1e-6 of
      // the largest term; measured ~1e-5 of the largest acceleration (see NUMERICS.md)
      expect(error.acceleration).toBeLessThan(1e-4)
      expect(error.densityRate).toBeLessThan(1e-4)
    })
  }

  for (const shifting of ['zero', 'lyu21'] as const) {
    it(`positions and densities after 8 steps of a dam break agree with the CPU (shifting ${shifting})`, async (t) => {
      const gpu = device.need(t)
      const base = damBreak()
      const config = { ...base, settings: { ...base.settings, shifting } }
      const steps = await stepAgreement(config, gpu, 8)
      expect(steps.gpuTimeS).toBe(steps.endTimeS)
      // the GPU chooses dt from float32 maxima: the same steps to the same time
      expect(steps.gpuSteps).toBe(8)
      const { maxMove, errX, errRho, errWallPressure } = steps
      const dp = config.settings.particleDiameter!
      // the particles moved a visible part of dp; the backends part by float32 rounding only
      expect(maxMove / dp).toBeGreaterThan(0.01)
      expect(errX / dp).toBeLessThan(1e-4)
      expect(errRho).toBeLessThan(1e-5)
      expect(errWallPressure).toBeLessThan(1e-3)
    })
  }

  it('a checkpoint resumes on either backend', async (t) => {
    const gpu = device.need(t)
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
    // multiphase and surface tension run on the GPU (multiphaseGpu.test.ts)
    const dp = config.settings.particleDiameter!
    const spacings = Array.from(config.particles.kinds, (_, i) => (i === 0 ? dp / 2 : dp))
    const refined = { ...config, particles: { ...config.particles, spacings } }
    expect(gpuUnsupportedSettings(refined)).toEqual(['refinement (not yet on GPU)'])
    await expect(createGpuSolver(refined, device.found() ?? undefined)).rejects.toThrow(
      SolverSetupError,
    )
    const inlet: SolverOpenBoundary = {
      partId: 9,
      direction: 'inflow',
      origin: [0, 0, 0],
      normal: [1, 0, 0],
      thickness: 4 * dp,
      profile: { timesS: [0], velocities: [[0.1, 0, 0]], pressures: [0] },
    }
    // open boundaries run on the GPU (openGpu.test.ts)
    const open = { ...config, openBoundaries: [inlet] }
    expect(gpuUnsupportedSettings(open)).toEqual([])
    // the wall options run on the GPU (wallsGpu.test.ts)
    const walls = {
      ...config,
      options: {
        ...config.options,
        boundary: 'riemann' as const,
        riemannWallNormal: 'fluid' as const,
        wallShear: 'logLaw' as const,
        freeSlipViscosity: 'mirror' as const,
      },
    }
    expect(gpuUnsupportedSettings(walls)).toEqual([])
    // the Symplectic scheme and dynamic boundary particles run (symplecticGpu.test.ts)
    const dynamic = {
      ...config,
      options: {
        ...config.options,
        boundary: 'dynamic' as const,
        integrator: 'symplectic' as const,
      },
    }
    expect(gpuUnsupportedSettings(dynamic)).toEqual([])
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

  it('counts the walls’ rest positions, their normals and the temperatures in the GPU memory', () => {
    // 196 bytes per particle, 16 more with moving parts, 16 more with thermodynamics or a
    // viscosity table, 8 per cell (and one more cell entry)
    expect(gpuMemoryNeeded(1_000_000, 99)).toEqual({ bytes: 196_000_800, largestBuffer: 32e6 })
    expect(gpuMemoryNeeded(1_000_000, 99, { moving: true })).toEqual({
      bytes: 212_000_800,
      largestBuffer: 32e6,
    })
    expect(gpuMemoryNeeded(1_000_000, 99, { moving: true, thermal: true })).toEqual({
      bytes: 228_000_800,
      largestBuffer: 32e6,
    })
    // riemannWallNormal 'fluid': the walls' normals, 16 more
    expect(gpuMemoryNeeded(1_000_000, 99, { wallNormals: true })).toEqual({
      bytes: 212_000_800,
      largestBuffer: 32e6,
    })
    // the Symplectic scheme: no RK4 sum, 32 less
    expect(gpuMemoryNeeded(1_000_000, 99, { symplectic: true })).toEqual({
      bytes: 164_000_800,
      largestBuffer: 32e6,
    })
  })
})
