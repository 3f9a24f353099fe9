import type { OutputManifest } from '../../domain/output/layout.ts'
import type { RunCondition, RunLogLine, RunResult } from '../../solver/run/types.ts'
import type { RunSetup } from '../../solver/setup.ts'
import type { DiscretizationOutcome, SimulationJobInput } from './types.ts'

/** workerData of a job thread. */
export type JobWorkerData =
  { kind: 'discretization'; setup: RunSetup } | { kind: 'simulation'; input: SimulationJobInput }

/** Parent → job thread. */
export type JobWorkerCommand = { type: 'abort' }

/** Job thread → parent. */
export type JobWorkerMessage =
  | { type: 'progress'; progress: number }
  | { type: 'started' }
  | { type: 'log'; line: RunLogLine }
  | { type: 'output'; manifest: OutputManifest }
  | { type: 'condition'; condition: RunCondition; value: number }
  | { type: 'discretized'; outcome: DiscretizationOutcome }
  | { type: 'done'; result: RunResult }
  | { type: 'error'; message: string }
