import type { JobMessage } from '../../domain/jobs.ts'
import type { OutputManifest } from '../../domain/output/layout.ts'
import type { RunCondition, RunCredits, RunLogLine, RunResult } from '../../solver/run/types.ts'
import type { RunSetup } from '../../solver/setup.ts'
import type { RunBackendKind } from '../../solver/run/runBackend.ts'
import type { PartPointCloud } from '../storage/pointClouds.ts'

/** A discretization error or warning, tied to a part when it concerns one. */
export type PartMessage = JobMessage & { partId?: number | null }

/**
 * What a discretization job keeps: its messages, a small quality summary and the particles of
 * each part as DPCL bytes (written to the data directory; the particles themselves are not kept).
 */
export interface DiscretizationOutcome {
  errors: PartMessage[]
  warnings: PartMessage[]
  /** Particle counts and volumes as the discretizer reports them (JSON). */
  summary: unknown
  /** One per part with particles; empty when the discretization failed. */
  pointClouds: PartPointCloud[]
}

/** Everything a simulation job hands its executor (plain data: it crosses into a worker). */
export interface SimulationJobInput {
  setup: RunSetup
  dataDir: string
  simulationId: number
  runId: number
  threads: number
  /** The solver: 'cpu' or 'gpu' (of the job's solverId). */
  backend: RunBackendKind
  resumeFromOutput: number | null
  resumeFromRunId: number | null
  conditions: RunCondition[]
  credits: RunCredits
}

/** Progress a simulation executor reports while it runs. */
export interface SimulationJobCallbacks {
  /** The worker is up and the particles are built: the run is 'running' from now on. */
  onStarted(): void
  onLog(line: RunLogLine): void
  onOutput(manifest: OutputManifest): void
  onCondition(condition: RunCondition, value: number): void
}

/**
 * How jobs are executed. The default runs each job in a worker thread (workerExecutors.ts);
 * tests may pass in-process executors with scripted behaviour.
 */
export interface JobExecutors {
  /**
   * Runs a simulation until it ends. Aborting `signal` stops it cleanly (reason 'user'); aborting
   * with the reason SHUTDOWN_REASON ends the thread at once and leaves the rows as they are.
   */
  simulation(
    input: SimulationJobInput,
    callbacks: SimulationJobCallbacks,
    signal: AbortSignal,
  ): Promise<RunResult>
  discretization(
    setup: RunSetup,
    signal: AbortSignal,
    onProgress: (progress: number) => void,
  ): Promise<DiscretizationOutcome>
}

/** Abort reason of a server shutdown: jobs are left for the next start to resume. */
export const SHUTDOWN_REASON = 'server shutdown'

/** Loads what a run needs from the database and storage (server/setup/loadRunSetup.ts). */
export type SetupLoader = (simulationId: number) => Promise<RunSetup>

/** What the job runner tells the live channel. */
export interface JobEvents {
  simulationChanged(simulationId: number): void
  runLog(simulationId: number, runId: number, line: RunLogLine): void
  outputWritten(simulationId: number, runId: number, outputNo: number): void
  discretizationChanged(simulationId: number): void
  workloadStarted(simulationId: number, runId: number): void
  workloadInitialized(simulationId: number, runId: number): void
  workloadEnded(simulationId: number): void
  creditsConsumed(
    organizationId: number,
    transactionId: number,
    credits: number,
    organizationCredits: number,
  ): void
}

/** Input of a simulation job as stored in jobs.payload. */
export interface SimulationJobPayload {
  cores: number
  solverId: number
  resumeFromOutput: number | null
  resumeFromRunId: number | null
}

/**
 * The server's side of remote workers (issue 18): scheduled jobs go to the queue instead of this
 * process, and the running ones are reached through their worker (queue/remoteJobs.ts).
 */
export interface RemoteJobs {
  /** Hands a scheduled job to the queue. */
  dispatch(jobId: number, kind: string): Promise<void>
  /** Asks the worker running the job to stop it after its current step (as a user's stop). */
  abort(jobId: number): Promise<void>
  /** Whether a worker holds the job's lease (it runs it). */
  isLeased(jobId: number): Promise<boolean>
}

/** A worker process's side: every claim takes a lease that its heartbeat renews. */
export interface LeaseOptions {
  workerId: string
  ttlMs: number
}
