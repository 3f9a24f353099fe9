/**
 * The solver of a run behind one interface, on the CPU (solver/sph) or the GPU (solver/gpu). The
 * run loop awaits every call: the GPU answers asynchronously and steps in batches, so `advance`
 * hands back the reports of the steps it took (one on the CPU, up to a batch on the GPU).
 * Checkpoints are one format: a run resumes on either backend from the other's.
 */
import { resolveBoundary, resolveOptions } from '../sph/config.ts'
import type { SolverConfig } from '../sph/config.ts'
import { createSolver } from '../sph/SphSolver.ts'
import type {
  Solver,
  SolverDescription,
  SolverSnapshot,
  SolverStepReport,
} from '../sph/solverTypes.ts'
import type { GpuSolver } from '../gpu/GpuSolver.ts'
import type { RunSensor } from '../setup.ts'

/** Which solver runs: the CPU's threads or the GPU. */
export const RUN_BACKENDS = ['cpu', 'gpu'] as const
/** One backend. */
export type RunBackendKind = (typeof RUN_BACKENDS)[number]

/** The solver a run drives, whichever backend it is. */
export interface RunBackend {
  kind: RunBackendKind
  /** The GPU adapter's name ('NVIDIA H200', 'SwiftShader driver 5.0.0'); null on the CPU. */
  adapter: string | null
  /** The CPU solver, for what reads its particles in place (sensors); null on the GPU. */
  cpu: Solver | null
  describe(): SolverDescription
  report(): SolverStepReport
  /** The speedup over one thread that the CPU's work split allows; undefined on the GPU. */
  expectedSpeedup(): number | undefined
  /** Steps towards `targetS`, never past it: the reports of the steps taken, in order. */
  advance(targetS: number): Promise<readonly SolverStepReport[]>
  snapshot(): Promise<SolverSnapshot>
  checkpoint(): Promise<Uint8Array>
  restore(bytes: Uint8Array): void
  dispose(): Promise<void>
}

/** The CPU solver as a backend: one step per advance, synchronous underneath. */
function cpuBackend(solver: Solver): RunBackend {
  return {
    kind: 'cpu',
    adapter: null,
    cpu: solver,
    describe: () => solver.describe(),
    report: () => solver.report(),
    expectedSpeedup: () => solver.workSplit().expectedSpeedup,
    advance: (targetS) => Promise.resolve([solver.step(targetS - solver.report().timeS)] as const),
    snapshot: () => Promise.resolve(solver.snapshot()),
    checkpoint: () => Promise.resolve(solver.checkpoint()),
    restore: (bytes) => solver.restore(bytes),
    dispose: () => solver.dispose(),
  }
}

/** The GPU solver as a backend: one batch of steps (at most MAX_BATCH_STEPS) per advance. */
function gpuBackend(solver: GpuSolver, config: SolverConfig): RunBackend {
  const options = resolveOptions(config.options)
  const boundary = resolveBoundary(config.settings, options)
  return {
    kind: 'gpu',
    adapter: solver.gpu.info.name,
    cpu: null,
    describe: () => {
      const d = solver.describe()
      return {
        options: { ...options, threads: 1 },
        integrator: d.integrator,
        boundary,
        constants: d.constants,
        threads: 1,
        particleCount: d.particleCount,
        fixedDtS: d.fixedDtS,
      }
    },
    report: () => solver.report(),
    expectedSpeedup: () => undefined,
    advance: (targetS) => solver.advance(targetS),
    snapshot: () => solver.snapshot(),
    checkpoint: () => solver.checkpoint(),
    restore: (bytes) => solver.restore(bytes),
    dispose: () => solver.dispose(),
  }
}

/**
 * What the GPU backend refuses in a run besides the solver's settings (which createGpuSolver
 * refuses): sensors sampled while the run steps, which read the CPU solver's particles in place.
 */
export function gpuRunProblems(sensors: readonly RunSensor[] | undefined): string[] {
  const count = sensors?.length ?? 0
  if (count === 0) return []
  return [
    `The GPU solver does not sample sensors during the run yet (${count === 1 ? '1 sensor has' : `${count} sensors have`} a sample rate). Run on the CPU solver, or remove the sample rate.`,
  ]
}

/**
 * Creates the run's solver on the chosen backend. Refuses (SolverSetupError) what that backend
 * does not run, and the GPU where no adapter can be had (the message says why).
 */
export async function createRunBackend(
  kind: RunBackendKind,
  config: SolverConfig,
): Promise<RunBackend> {
  if (kind === 'cpu') return cpuBackend(await createSolver(config))
  // loaded only for GPU runs: a CPU run never touches WebGPU
  const { createGpuSolver } = await import('../gpu/GpuSolver.ts')
  return gpuBackend(await createGpuSolver(config), config)
}
