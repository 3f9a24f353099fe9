/**
 * The solver's public types: what createSolver returns (Solver) and what it reports.
 */
import type { OpenBoundaryReport } from './openBoundary.ts'
import type { BoundaryKind, Integrator, SolverOptions, SphConstants } from './config.ts'

/** What one step did. Deletion counts are totals since the start of the run. */
export interface SolverStepReport {
  step: number
  timeS: number
  dtS: number
  particleCount: number
  fluidCount: number
  deletedOutside: number
  deletedInvalid: number
  /** Pair interactions (neighbours inside the support) in this step's force passes. */
  interactions: number
  /** With open boundaries: the mass through them so far (openBoundary.ts). */
  openBoundary?: OpenBoundaryReport
}

/** The particle state, ordered by particle id (the index in the creation input). */
export interface SolverSnapshot {
  timeS: number
  step: number
  count: number
  particleIds: Int32Array
  /** Interleaved x, y, z (3 × count). */
  positions: Float64Array
  velocities: Float64Array
  pressure: Float64Array
  density: Float64Array
  mass: Float64Array
  /** PARTICLE_KIND per particle. */
  /** PARTICLE_KIND, or OPEN_BOUNDARY_KIND (2, snapshot.ts) for an open boundary's buffer particle. */
  kind: Uint8Array
  partId: Int32Array
  /** Fluid material id; −1 for walls. */
  materialId: Int32Array
  /** Temperature, K (settings.thermodynamics; NaN for walls). */
  temperature?: Float64Array
  /** Kinematic viscosity, m²/s, of a temperature or shear-rate viscosity (NaN for walls). */
  kinematicViscosity?: Float64Array
}

export interface SolverDescription {
  options: SolverOptions
  /** The time integration scheme in use. */
  integrator: Integrator
  /** The wall treatment in use. */
  boundary: BoundaryKind
  constants: SphConstants
  threads: number
  particleCount: number
  /** The fixed time step (dynamicTimeStep off), or null. */
  fixedDtS: number | null
}

/**
 * How the last sort split the work over the threads (issue 22): the estimated largest over mean
 * per-thread work of the force pass and of the wall extrapolation (1: even; workSplit.ts), and
 * the speedup over one thread that the force pass's split allows, threads ÷ that ratio.
 */
export interface WorkSplitReport {
  threads: number
  forcesMaxOverMean: number
  wallsMaxOverMean: number
  expectedSpeedup: number
}

export interface RunHooks {
  onStep?: (report: SolverStepReport) => void
  /** Checked after every step; true stops the run early. */
  shouldStop?: () => boolean
}

export interface Solver {
  describe(): SolverDescription
  /** The state now, as a step report (the last step's dt and interactions; 0 before any step). */
  report(): SolverStepReport
  /** Advances by one time step, at most maxDtS long. */
  step(maxDtS?: number): SolverStepReport
  /** Steps until the time reaches timeS exactly (the last step is shortened) or a hook stops it. */
  runUntil(timeS: number, hooks?: RunHooks): SolverStepReport
  snapshot(): SolverSnapshot
  checkpoint(): Uint8Array
  /** Replaces the state by a checkpoint of a solver created from the same config. */
  restore(bytes: Uint8Array): void
  /**
   * For benchmarks: sorts, runs the pressure and wall passes once, then times `passes` force
   * passes (or the plain reference loop over the same pairs). Leaves the state unchanged apart
   * from the sort order.
   */
  measureInteractionPass(kind: 'forces' | 'reference', passes: number): PassMeasurement
  /** How the last sort split the work over the threads. */
  workSplit(): WorkSplitReport
  /** Ends the worker threads. */
  dispose(): Promise<void>
}

export interface PassMeasurement {
  /** Pair interactions (neighbours inside the support) over all passes. */
  interactions: number
  seconds: number
  /** CPU time of the process over the passes (all threads): robust on a busy machine. */
  cpuSeconds: number
  threads: number
}
