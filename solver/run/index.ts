/** A simulation run as a job worker calls it (see types.ts for the contract). */
export {
  runSimulation,
  checkRunStart,
  createRunSolverConfig,
  solverMaterialOf,
} from './runSimulation.ts'
export { fluidObjectId, wallObjectId, WALL_COLUMNS } from './outputs.ts'
export { decodeRunCheckpoint, encodeRunCheckpoint, RunCheckpointError } from './runCheckpoint.ts'
export type { RunCheckpointHeader } from './runCheckpoint.ts'
export { RUN_END_REASONS, RUN_STOP_MESSAGES } from './types.ts'
export type {
  RunCondition,
  RunCredits,
  RunEndReason,
  RunEndState,
  RunLogLine,
  RunParticles,
  RunResult,
  RunSimulation,
  RunSimulationOptions,
} from './types.ts'
