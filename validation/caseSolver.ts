/**
 * The solver a validation case drives, on either backend (the CPU's solver/sph or the GPU's
 * solver/gpu): the calls the cases make, asynchronous because the GPU answers so. A case builds one SolverConfig and runs it
 * through `withSolver`; which backend runs it is the validation's choice (`useCaseBackend`), so no
 * case holds a second copy of its physics or metrics per backend. On the GPU a config it refuses
 * (gpuUnsupportedSettings) throws NotRunOnBackend before anything is allocated.
 */
import type { Vec3 } from '../domain/vector.ts'
import type { GpuProbeReader } from '../solver/gpu/probes.ts'
import type { GpuSolver } from '../solver/gpu/GpuSolver.ts'
import { gpuUnsupportedSettings } from '../solver/gpu/support.ts'
import type { RunBackendKind } from '../solver/run/runBackend.ts'
import type { SolverConfig, SolverOptions, SphConstants } from '../solver/sph/config.ts'
import { createPressureSampler } from '../solver/sph/probes.ts'
import { createSolver } from '../solver/sph/SphSolver.ts'
import type { Solver, SolverSnapshot, SolverStepReport } from '../solver/sph/solverTypes.ts'

/** Pressure time series at fixed points, sampled after every step of runUntil. */
export interface CasePressureSampler {
  readonly points: readonly Readonly<Vec3>[]
  /** Solver times of the samples, s. */
  readonly timesS: number[]
  /** values[k][s]: the pressure at point k in sample s, Pa (0 where dry). */
  readonly values: number[][]
}

/** What a case calls on its solver. */
export interface CaseSolver {
  readonly backend: RunBackendKind
  /** The constants the cases read (h, the kernel's factor) and what else the backend says. */
  describe(): { constants: SphConstants }
  report(): SolverStepReport
  /** Steps until the time reaches timeS exactly; `sampler` samples after every step. */
  runUntil(timeS: number, sampler?: CasePressureSampler): Promise<SolverStepReport>
  snapshot(): Promise<SolverSnapshot>
  /** A sampler of the pressure at `points` for runUntil (solver/sph probes.ts on either backend). */
  pressureSampler(points: readonly Readonly<Vec3>[]): CasePressureSampler
}

/** A case's config that the chosen backend does not run; the message is the refusal's reason. */
export class NotRunOnBackend extends Error {
  readonly backend: RunBackendKind
  constructor(backend: RunBackendKind, reason: string) {
    super(reason)
    this.backend = backend
    this.name = 'NotRunOnBackend'
  }
}

let caseBackend: RunBackendKind = 'cpu'

/** The backend every following withSolver runs on (the CPU unless chosen). */
export function useCaseBackend(kind: RunBackendKind): void {
  caseBackend = kind
}

let caseSolverOptions: Partial<SolverOptions> = {}

/**
 * Solver options every following withSolver lays over the case's own (`validate
 * --solver-options`): to see whether an answer moves with an incidental numerical choice.
 */
export function useCaseSolverOptions(options: Partial<SolverOptions>): void {
  caseSolverOptions = { ...options }
}


/** The CPU solver as a case solver: its own runUntil and sampler, as before the GPU existed. */
function cpuCaseSolver(solver: Solver): CaseSolver {
  const samplers = new WeakMap<CasePressureSampler, () => void>()
  return {
    backend: 'cpu',
    describe: () => solver.describe(),
    report: () => solver.report(),
    runUntil(timeS, sampler) {
      const sample = sampler && samplers.get(sampler)
      return Promise.resolve(solver.runUntil(timeS, sample ? { onStep: sample } : {}))
    },
    snapshot: () => Promise.resolve(solver.snapshot()),
    pressureSampler(points) {
      const sampler = createPressureSampler(solver, points)
      samplers.set(sampler, () => sampler.sample())
      return sampler
    },
  }
}

/**
 * The GPU solver as a case solver: batches of steps towards the target (advance), a sampler's
 * points probed on the GPU after every step (GpuSolver.attachProbes, as a run's sensors) and
 * every step of a batch read back after it. One sampler per solver: the probes are its points.
 */
function gpuCaseSolver(solver: GpuSolver): CaseSolver {
  const probes = new WeakMap<CasePressureSampler, GpuProbeReader>()
  const reached = (timeS: number) => solver.report().timeS >= timeS
  return {
    backend: 'gpu',
    describe: () => solver.describe(),
    report: () => solver.report(),
    async runUntil(timeS, sampler) {
      const reader = sampler && probes.get(sampler)
      while (!reached(timeS)) {
        const steps = await solver.advance(timeS)
        if (!sampler || !reader) continue
        const values = await reader.read(steps.map((_, k) => k))
        steps.forEach((step, k) => {
          const at = values.get(k)!
          sampler.timesS.push(step.timeS)
          // 8 floats per point: p, vx, vy, vz, wet; a dry point reads 0, as the CPU's sampler
          sampler.values.forEach((series, p) => series.push(at[8 * p + 4]! > 0 ? at[8 * p]! : 0))
        })
      }
      return solver.report()
    },
    snapshot: () => solver.snapshot(),
    pressureSampler(points) {
      const sampler: CasePressureSampler = { points, timesS: [], values: points.map(() => []) }
      probes.set(sampler, solver.attachProbes(new Float64Array(points.flat())))
      return sampler
    },
  }
}

/**
 * Runs body with a solver made from config on the chosen backend (useCaseBackend), disposing it
 * afterwards. On the GPU a config it refuses throws NotRunOnBackend with the reason.
 */
export async function withSolver<T>(
  config: SolverConfig,
  body: (solver: CaseSolver) => T | Promise<T>,
): Promise<T> {
  if (Object.keys(caseSolverOptions).length > 0)
    config = { ...config, options: { ...config.options, ...caseSolverOptions } }
  if (caseBackend === 'cpu') {
    const solver = await createSolver(config)
    try {
      return await body(cpuCaseSolver(solver))
    } finally {
      await solver.dispose()
    }
  }
  const refused = gpuUnsupportedSettings(config)
  if (refused.length > 0) throw new NotRunOnBackend('gpu', refused.join(', '))
  // loaded only for the GPU: a CPU validation never touches WebGPU
  const { createGpuSolver } = await import('../solver/gpu/GpuSolver.ts')
  const solver = await createGpuSolver(config)
  try {
    return await body(gpuCaseSolver(solver))
  } finally {
    await solver.dispose()
  }
}
