/**
 * Run calls of spec/results.md §7 and the run lifecycle's texts (§2 "Start and stop forms", §4
 * "Simulation states", §8 start errors): jobs, solvers, logs, outputs, stop and warning
 * conditions, discretizations.
 */
import * as v from 'valibot'
import { idParamSchema, idQuerySchema } from '../ids.ts'
import { ConditionCreateSchema, ConditionSchema } from '../conditions.ts'
import { DiscretizationCreateSchema, DiscretizationSchema } from '../discretization.ts'
import { IdParamSchema, SimulationSchema } from '../projects.ts'
import type { RouteDef } from '../rest.ts'
import { OutputInfoSchema } from '../results.ts'
import { RunNumericsReplySchema } from '../runNumerics.ts'
import { SIMULATION_STATES } from '../simulationState.ts'
import {
  HistoryQuerySchema,
  LogListSchema,
  LogQuerySchema,
  RunHistorySchema,
} from './runLogSchemas.ts'

export * from './runLogSchemas.ts'

/**
 * Why the organization cannot start another run now (spec/results.md §3 Organization:
 * maximumSimulationsExceeded, freeInstanceOccupied; our words, the spec's start errors are not
 * shown in full): the start form shows them and the start call refuses with them.
 */
export const START_LIMIT_TEXTS = {
  maximumSimulations:
    'Your organization runs as many simulations as its subscription allows. Start this one when another has finished.',
  freeInstanceOccupied:
    'The free instance of your subscription is running another simulation. Start this one when it has finished.',
} as const

/** Texts of the run button, its dialogs and the start and stop errors (exact spec wording). */
export const RUN_TEXTS = {
  run: 'Run',
  stop: 'Stop',
  resume: 'Resume',
  restart: 'Restart',
  stopping: 'Stopping...',
  stopTitle: 'Stop simulation?',
  stopConfirm: 'Yes, stop',
  stopCancel: 'No, continue',
  stopResumableText:
    'The simulation stops after its current step. You can resume it later from its last output.',
  stopNotResumableText:
    'The simulation stops after its current step. Resuming is possible only if the simulation is resumable; otherwise it has to be restarted from the 0th output.',
  stoppingToastTitle: 'Simulation is now stopping',
  stoppingToastText: 'It usually takes a few minutes. You will be notified once it stops.',
  stopFailedTitle: 'Simulation could not be stopped',
  stopFailedText: 'Please try again in a few moments',
  startFailed: 'Starting simulation failed',
  notEnoughCredits: 'Not enough credits left...',
  startBlocked: 'You need to fix errors and provide missing inputs before running the simulation.',
  noSolver: 'No solver available',
  restartTitle: 'Restart simulation?',
  restartText:
    'The simulation starts again from the 0th output. Outputs of the previous run are replaced.',
  restartConfirm: 'Yes, restart',
  restartAfterEdit: 'After editing Setup, the simulation has to be restarted from the 0th output.',
  alreadyRunning: 'The simulation is already running.',
  notRunning: 'The simulation is not running.',
  notResumable: 'The simulation cannot be resumed. Restart it from the 0th output.',
  resumeSolverMismatch: 'A resumed run keeps the solver type (CPU or GPU) of the original.',
  tooManyCores: (maxCores: number) => `Your subscription allows at most ${maxCores} cores.`,
  unknownSolver: 'The chosen solver does not exist.',
  solverChoiceNotIncluded:
    'Your subscription does not include the choice between the GPU and CPU solvers: start the run on the default solver.',
  coresGpuHint: 'The GPU solver runs on the card; cores apply to the CPU solver only.',
  creditsStop: 'The simulation stopped: not enough credits left.',
  serverRestartFailed: 'The server restarted while the job was running.',
  editSetup: 'Edit Setup',
  unlockTitle: 'Edit Setup?',
  unlockText:
    'Unlocking the setup makes resuming from the last output impossible. This cannot be undone.',
  unlockConfirm: 'Yes, edit setup',
  unlockWhileRunning: 'The setup cannot be unlocked while the simulation is running.',
  lockedTooltip: 'The setup is locked by a run. Use Edit Setup to change it.',
} as const

/**
 * Credits a run consumes per core and hour of wall time. Two cores burn 120 credits an hour,
 * the rate behind the spec's "estimated budget hours = credits / 120" (spec/account.md §9).
 */
export const CREDITS_PER_CORE_HOUR = 60

/** Credits for `cores` running `durationMs` of wall time. */
export function creditsForCoreTime(cores: number, durationMs: number): number {
  return (cores * Math.max(0, durationMs) * CREDITS_PER_CORE_HOUR) / 3_600_000
}

/** A solver a run can use (GET /solvers). */
export const SolverSchema = v.object({
  id: v.number(),
  name: v.string(),
  latest: v.boolean(),
  gpu: v.boolean(),
})
/** A solver a run can use. */
export type Solver = v.InferOutput<typeof SolverSchema>

const boolFromQuery = v.pipe(
  v.union([v.boolean(), v.picklist(['true', 'false', '1', '0'])]),
  v.transform((value) => value === true || value === 'true' || value === '1'),
)

/** GET /solvers query. */
export const SolverListQuerySchema = v.object({
  gpu: v.optional(boolFromQuery),
  activeOnly: v.optional(boolFromQuery, true),
})

/** POST /simulations/{id}/jobs body. */
export const JobStartSchema = v.strictObject({
  cores: v.pipe(
    v.number('cores must be a number'),
    v.integer('cores must be a whole number'),
    v.minValue(1, 'cores must be at least 1'),
  ),
  solver_id: v.pipe(v.number('solver_id must be a number'), v.integer()),
})
/** POST /simulations/{id}/jobs body. */
export type JobStart = v.InferOutput<typeof JobStartSchema>

/** POST /simulations/{id}/jobs query: resume from the last output instead of output 0. */
export const JobStartQuerySchema = v.object({ resume: v.optional(boolFromQuery, false) })

/** One run of a simulation (GET /simulations/{id}/jobs), newest first. */
export const RunRecordSchema = v.object({
  id: v.number(),
  simulationId: v.number(),
  state: v.picklist(SIMULATION_STATES),
  cores: v.number(),
  solverId: v.number(),
  /** The output the run was resumed from; null when it started at output 0. */
  resumedFromOutput: v.nullable(v.number()),
  lastOutput: v.nullable(v.number()),
  creditsConsumed: v.number(),
  /** Core-hours. */
  simulationHours: v.number(),
  /** Why it stopped or failed, in words; null while running or after a normal end. */
  message: v.nullable(v.string()),
  startedAt: v.nullable(v.string()),
  endedAt: v.nullable(v.string()),
  createdAt: v.string(),
})
/** One run of a simulation. */
export type RunRecord = v.InferOutput<typeof RunRecordSchema>

/** GET /simulations/{id}/conditions query: -1 (default) lists the conditions of the next run. */
export const ConditionListQuerySchema = v.object({
  runId: v.optional(
    v.union(
      [
        v.pipe(v.union([v.literal('-1'), v.literal(-1)]), v.transform(Number)),
        idQuerySchema('runId'),
      ],
      'runId must be -1 (the next run) or a run id',
    ),
    -1,
  ),
})

/** A condition with the run it belongs to (-1: the next run). */
export const RunConditionSchema = v.object({
  ...ConditionSchema.entries,
  runId: v.number(),
})
/** A condition with the run it belongs to. */
export type RunCondition = v.InferOutput<typeof RunConditionSchema>

const DeletedSchema = v.object({ id: v.number() })

/** Path parameters of a run's own calls: the simulation and the run. */
export const RunParamsSchema = v.object({
  id: idParamSchema('id'),
  runId: idParamSchema('runId'),
})

/** Run calls of spec/results.md §7: jobs, solvers, logs, outputs, stop and warning conditions. */
export const RUN_ROUTES = {
  startJob: {
    method: 'POST',
    path: '/simulations/{id}/jobs',
    summary: 'Start a run (resume=true: from the last output), or restart one from output 0',
    auth: true,
    status: 201,
    params: IdParamSchema,
    query: JobStartQuerySchema,
    body: JobStartSchema,
    response: SimulationSchema,
  },
  stopJob: {
    method: 'DELETE',
    path: '/simulations/{id}/jobs',
    summary: 'Stop the running simulation after its current step',
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: SimulationSchema,
  },
  listJobs: {
    method: 'GET',
    path: '/simulations/{id}/jobs',
    summary: 'Runs of a simulation, newest first',
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: v.array(RunRecordSchema),
  },
  getRunNumerics: {
    method: 'GET',
    path: '/simulations/{id}/jobs/{runId}/numerics',
    summary:
      'The numerical parameters a run used: kernel, h/dp, c0 and its rule, viscosity, density diffusion, CFL, integrator, shifting, walls, particles (null before it started)',
    auth: true,
    status: 200,
    params: RunParamsSchema,
    response: RunNumericsReplySchema,
  },
  listSolvers: {
    method: 'GET',
    path: '/solvers',
    summary: 'Solvers a run can use',
    auth: true,
    status: 200,
    query: SolverListQuerySchema,
    response: v.array(SolverSchema),
  },
  listLogs: {
    method: 'GET',
    path: '/simulations/{id}/logs',
    summary: 'Log lines of the active run (or runId)',
    auth: true,
    status: 200,
    params: IdParamSchema,
    query: LogQuerySchema,
    response: LogListSchema,
  },
  getRunHistory: {
    method: 'GET',
    path: '/simulations/{id}/history',
    summary:
      'The log of the active run (or runId) with levels; DEBUG entries (progress lines) only for admins',
    auth: true,
    status: 200,
    params: IdParamSchema,
    query: HistoryQuerySchema,
    response: RunHistorySchema,
  },
  listOutputs: {
    method: 'GET',
    path: '/simulations/{id}/outputs',
    summary: 'Outputs of the active run',
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: v.array(OutputInfoSchema),
  },
  listConditions: {
    method: 'GET',
    path: '/simulations/{id}/conditions',
    summary: 'Stop and warning conditions of a run (-1: the next run)',
    auth: true,
    status: 200,
    params: IdParamSchema,
    query: ConditionListQuerySchema,
    response: v.array(RunConditionSchema),
  },
  createCondition: {
    method: 'POST',
    path: '/simulations/{id}/conditions',
    summary: 'Add a stop or warning condition',
    auth: true,
    status: 201,
    params: IdParamSchema,
    body: ConditionCreateSchema,
    response: RunConditionSchema,
  },
  updateCondition: {
    method: 'PUT',
    path: '/conditions/{id}',
    summary: 'Edit a condition',
    auth: true,
    status: 200,
    params: IdParamSchema,
    body: ConditionCreateSchema,
    response: RunConditionSchema,
  },
  deleteCondition: {
    method: 'DELETE',
    path: '/conditions/{id}',
    summary: 'Remove a condition',
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: DeletedSchema,
  },
  unlockSetup: {
    method: 'DELETE',
    path: '/simulations/{id}/setup_lock',
    summary: 'Unlock the setup for editing (irreversible: the run can no longer be resumed)',
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: SimulationSchema,
  },
  getDiscretization: {
    method: 'GET',
    path: '/simulations/{id}/discretizations',
    summary: 'The latest discretization (null when none ran)',
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: v.nullable(DiscretizationSchema),
  },
  startDiscretization: {
    method: 'POST',
    path: '/simulations/{id}/discretizations',
    summary: 'Discretize the setup into particles',
    auth: true,
    status: 201,
    params: IdParamSchema,
    body: DiscretizationCreateSchema,
    response: DiscretizationSchema,
  },
  cancelDiscretization: {
    method: 'DELETE',
    path: '/simulations/{id}/discretizations',
    summary: 'Cancel the running discretization',
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: DiscretizationSchema,
  },
} as const satisfies Record<string, RouteDef>
