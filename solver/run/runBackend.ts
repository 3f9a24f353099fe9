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
import { cpuSensorReader, type SensorPointReader } from './sensorSeries.ts'

/** Which solver runs: the CPU's threads or the GPU. */
export const RUN_BACKENDS = ['cpu', 'gpu'] as const
/** One backend. */
export type RunBackendKind = (typeof RUN_BACKENDS)[number]

/** The solver a run drives, whichever backend it is. */
export interface RunBackend {
  kind: RunBackendKind
  /** The GPU adapter's name ('NVIDIA H200', 'SwiftShader driver 5.0.0'); null on the CPU. */
  adapter: string | null
  /** The CPU solver, for what reads its particles in place; null on the GPU. */
  cpu: Solver | null
  /** The run's sensor points (sensorSeries.ts sensorPoints), probed at the solver's rate. */
  sensors(points: Float64Array): RunSensorProbes
  describe(): SolverDescription
  report(): SolverStepReport
  /** The speedup over one thread that the CPU's work split allows; undefined on the GPU. */
  expectedSpeedup(): number | undefined
  /** Steps towards `targetS`, never past it: the reports of the steps taken, in order. */
  advance(targetS: number): Promise<readonly SolverStepReport[]>
  /** The state of now for an output and its checkpoint, read whenever awaited (RunCapture). */
  capture(): RunCapture
  /**
   * Whether the run steps on while a capture is converted and written (the GPU: the copy is
   * taken on the GPU, the host is free while a batch runs); the CPU's capture is the work itself.
   */
  outputsOverlap: boolean
  restore(bytes: Uint8Array): void
  dispose(): Promise<void>
}

/** One moment's state (RunBackend.capture): the output's snapshot and its checkpoint. */
export interface RunCapture {
  /** The report of the moment captured. */
  report: SolverStepReport
  snapshot(): Promise<SolverSnapshot>
  checkpoint(): Promise<Uint8Array>
  /** Frees what the capture holds; snapshot() and checkpoint() may fail after. */
  release(): void
}

/**
 * The sensor points of a run: `read` for the sampler (sensorSeries.ts) reads the step `select`
 * chose of the last advance (-1: the state before the first step); on the GPU, `load` first reads
 * back the steps of the last advance where a sample is due (the sampler's `due`), and only those.
 */
export interface RunSensorProbes {
  read: SensorPointReader
  load(due: readonly boolean[]): Promise<void>
  select(step: number): void
}

/** The CPU solver as a backend: one step per advance, synchronous underneath. */
function cpuBackend(solver: Solver): RunBackend {
  return {
    kind: 'cpu',
    adapter: null,
    cpu: solver,
    // the probes read the solver's particles in place, after each step
    sensors: () => ({ read: cpuSensorReader(solver), load: () => Promise.resolve(), select() {} }),
    describe: () => solver.describe(),
    report: () => solver.report(),
    expectedSpeedup: () => solver.workSplit().expectedSpeedup,
    advance: (targetS) => Promise.resolve([solver.step(targetS - solver.report().timeS)] as const),
    capture: () => {
      const snapshot = solver.snapshot()
      const checkpoint = solver.checkpoint()
      return {
        report: solver.report(),
        snapshot: () => Promise.resolve(snapshot),
        checkpoint: () => Promise.resolve(checkpoint),
        release() {},
      }
    },
    outputsOverlap: false,
    restore: (bytes) => solver.restore(bytes),
    dispose: () => solver.dispose(),
  }
}

/**
 * The GPU's sensor points (GpuSolver.attachProbes): every step of a batch probed on the GPU, the
 * due steps' values read back after the batch; before the first step, the host's arrays.
 */
function gpuSensorProbes(solver: GpuSolver, points: Float64Array): RunSensorProbes {
  const probes = solver.attachProbes(points)
  let loaded = new Map<number, Float32Array>()
  let step = -1
  return {
    read(index, point, out) {
      if (step < 0) return probes.start(point, out)
      const values = loaded.get(step)
      if (!values) throw new Error(`The sensor values of step ${step} of the batch were not read.`)
      const at = 8 * index
      out[0] = values[at]!
      out[1] = values[at + 1]!
      out[2] = values[at + 2]!
      out[3] = values[at + 3]!
      return values[at + 4]! > 0
    },
    async load(due) {
      loaded = await probes.read(due.flatMap((take, k) => (take ? [k] : [])))
    },
    select(k) {
      step = k
    },
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
    sensors: (points) => gpuSensorProbes(solver, points),
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
    capture: () => solver.capture(),
    outputsOverlap: true,
    restore: (bytes) => solver.restore(bytes),
    dispose: () => solver.dispose(),
  }
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
