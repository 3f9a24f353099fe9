/**
 * The contract of a simulation run: what the job worker hands to `runSimulation(options)` and what
 * it gets back. The run discretizes nothing itself: it takes the particles of a discretization,
 * runs the SPH solver, writes outputs, checkpoints and log lines under the run directory of
 * domain/output/layout.ts, and obeys the stop conditions, the credits and the abort signal.
 *
 * Units follow the log conventions of domain/constants.ts (TIME_UNIT_CONVERSIONS): log times and
 * runtimes in milliseconds; condition thresholds in THRESHOLD_UNITS of domain/conditions.ts
 * (time ms, runtime minutes, credits, particles).
 */
import type {
  ConditionAction,
  ConditionOperator,
  ConditionValueType,
} from '../../domain/conditions.ts'
import type { OutputManifest } from '../../domain/output/layout.ts'
import type { RunNumerics } from '../../domain/runNumerics.ts'
import type { SolverOptions, SolverParticles } from '../sph/config.ts'
import type { RunSetup } from '../setup.ts'
import type { RunBackendKind } from './runBackend.ts'

/**
 * The particles a run starts from. Structurally the solver's input (solver/sph SolverParticles:
 * positions xyz, kinds 0 fluid / 1 wall, part ids, material ids, optional velocities and
 * pressures); the discretizer's result satisfies it.
 */
export type RunParticles = SolverParticles

/** A stop or warning condition as the run watches it (a stored Condition of domain/conditions.ts). */
export interface RunCondition {
  /** The stored condition's id, reported back when it triggers; any number for ad-hoc ones. */
  id: number
  action: ConditionAction
  valueType: ConditionValueType
  operator: ConditionOperator
  /** In THRESHOLD_UNITS: time ms, runtime minutes, credits, particle count. */
  threshold: number
}

/** How the run counts credits: consumedAtStart + threads × runtime hours × perCoreHour. */
export interface RunCredits {
  /** Credits this simulation had consumed before this run (or before the resumed part). */
  consumedAtStart: number
  /** Credits per core-hour of runtime. */
  perCoreHour: number
  /**
   * Credits the organization has left when the run starts; the run stops with
   * RUN_STOP_MESSAGES.credits once the run itself has consumed them. null: no limit.
   */
  available: number | null
}

/** Options of `runSimulation`. Everything is plain data or a callback: no database. */
export interface RunSimulationOptions {
  setup: RunSetup
  /** The discretization's particles (solver/discretizer), in the order the solver numbers them. */
  particles: RunParticles
  /** Root data directory; files go under layout.runDirectory(simulationId, runId). */
  dataDir: string
  simulationId: number
  runId: number
  /** Threads of the solver (the calling thread is one of them); the job's cores. */
  threads: number
  /**
   * The solver: 'cpu' (solver/sph, default) or 'gpu' (solver/gpu, WebGPU; refused with a message
   * where no adapter can be had or the setup needs what it does not run yet).
   */
  backend?: RunBackendKind
  /**
   * Resume from the checkpoint written with this output (layout.checkpointFile of this run, or
   * of `resumeFromRunId` when given). The next output written is resumeFromOutput + 1.
   * Absent or null: start at time 0 with output 0.
   */
  resumeFromOutput?: number | null
  /** Run whose checkpoint to resume from (a resumed simulation may continue a previous run). */
  resumeFromRunId?: number | null
  /**
   * Stops the run cleanly: the step under way is finished, a checkpoint and an output of the
   * current state are NOT forced (the last checkpoint stays the one of the last output), and the
   * promise resolves with reason 'user'.
   */
  signal: AbortSignal
  /** Stop and warning conditions (spec/results.md §5), checked after every step. */
  conditions?: readonly RunCondition[]
  credits?: RunCredits | null
  /** Called with every log line, after it was appended to layout.runLogFile. */
  onLog?: (line: RunLogLine) => void
  /** Called once an output is completely written (its manifest.json is on disk). */
  onOutput?: (manifest: OutputManifest) => void
  /** Called once when a condition triggers (stop conditions also end the run). */
  onCondition?: (condition: RunCondition, value: number) => void
  /** Milliseconds between progress log lines (outputs always log). Default 1000. */
  logIntervalMs?: number
  /** Numerical options beyond the settings (tests, validation, bench). Default: none. */
  solverOptions?: Partial<SolverOptions>
}

/** Why a run ended. */
export const RUN_END_REASONS = [
  'end_time',
  'user',
  'condition',
  'credits',
  'no_fluid',
  'unsupported',
  'error',
] as const
/** One reason a run ended. */
export type RunEndReason = (typeof RUN_END_REASONS)[number]

/** Terminal state of a run, as the simulation states of spec/results.md §4 name them. */
export type RunEndState = 'completed' | 'stopped' | 'failed'

/** What `runSimulation` resolves with. It rejects only on unexpected (programming or I/O) errors. */
export interface RunResult {
  state: RunEndState
  reason: RunEndReason
  /** A person-readable sentence (RUN_STOP_MESSAGES, or the refusal listing unsupported settings). */
  message: string
  /** The condition that stopped the run (reason 'condition'). */
  condition: RunCondition | null
  /** Simulated time reached, s. */
  timeS: number
  /** Runtime of the simulation, including resumed parts, ms. */
  runtimeMs: number
  /** Last output written (its checkpoint is the resume point); null when none was. */
  lastOutputNo: number | null
  /** Particles (fluid + wall) at the end. */
  particles: number
  /** Total credits consumed by the simulation (consumedAtStart + this run's). */
  creditsConsumed: number
  /** Fluid particles deleted so far (left the calculation domain or became invalid). */
  deletedParticles: number
}

/**
 * One line of layout.runLogFile (JSON per line) and of onLog. Its first fields are domain's
 * LogSchema (projects.ts: progress, time, runtime, runtimeLeft, particles, output).
 */
export interface RunLogLine {
  /** Fraction of the end time reached, 0 to 1. */
  progress: number
  /** Simulated time, ms. */
  time: number
  /** Runtime so far (including resumed parts), ms. */
  runtime: number
  /** Estimated runtime until the end time, ms; null before it can be estimated. */
  runtimeLeft: number | null
  /** Particles in the calculation (fluid + wall). */
  particles: number
  /** Last output written (−1 before the first). */
  output: number
  /** Last time step, s. */
  dt: number
  step: number
  fluidParticles: number
  deletedParticles: number
  creditsConsumed: number
  /** Wall-clock time of the line, ISO 8601. */
  at: string
  /** Severity; progress lines are INFO (domain/constants.ts LOG_LEVELS). */
  level: 'INFO' | 'WARN' | 'ERROR' | 'SUCCESS'
  /** A message for non-progress lines (start, numerical parameters, output, warning, stop). */
  message?: string
  /** The line after the start: the numerical parameters of the run (also in numerics.json). */
  numerics?: RunNumerics
  /**
   * Process CPU time ÷ wall time since the stepping began (progress and end lines): the cores the
   * run keeps busy (the whole process: other runs in it count too).
   */
  coresBusy?: number
}

/**
 * Messages with which a run ends or warns. spec/results.md names the credits one
 * ('Not enough credits left...'); the others are ours.
 */
export const RUN_STOP_MESSAGES = {
  endTime: 'Simulation completed: end time reached.',
  user: 'Simulation stopped by user.',
  credits: 'Not enough credits left...',
  noFluid: 'Simulation stopped: no fluid particles left in the calculation domain.',
  condition: {
    time: 'Simulation stopped: physical time limit reached.',
    runtime: 'Simulation stopped: runtime limit reached.',
    credits: 'Simulation stopped: credit limit reached.',
    particle_nbr: 'Simulation stopped: particle count limit reached.',
  },
  warning: {
    time: 'Warning: physical time limit reached.',
    runtime: 'Warning: runtime limit reached.',
    credits: 'Warning: credit limit reached.',
    particle_nbr: 'Warning: particle count limit reached.',
  },
} as const satisfies {
  endTime: string
  user: string
  credits: string
  noFluid: string
  condition: Record<ConditionValueType, string>
  warning: Record<ConditionValueType, string>
}

/** The signature the job worker calls. */
export type RunSimulation = (options: RunSimulationOptions) => Promise<RunResult>
