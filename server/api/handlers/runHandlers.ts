import type { Kysely } from 'kysely'
import type { Simulation } from '../../../domain/projects.ts'
import type { RUN_ROUTES } from '../../../domain/rest/runRoutes.ts'
import {
  LOG_KEYS,
  RUN_TEXTS,
  type LogKey,
  type RunLogLine,
} from '../../../domain/rest/runRoutes.ts'
import { listRunOutputs, readRunLog, readRunNumerics } from './runFiles.ts'
import type { Database, SimulationRow } from '../../db/schema.ts'
import { jobRunnerFor } from '../../jobs/services.ts'
import { listSolvers as solversOfServer } from '../../jobs/solvers.ts'
import { parseJson } from '../../jobs/records.ts'
import { assertStorageAvailable } from '../../storage/usage.ts'
import { ACTIVE_SIMULATION_STATES, toRunRecord } from '../../jobs/records.ts'
import { readRunHistory } from '../../jobs/runHistory.ts'
import { loadRunLimits, startLimitMessage } from '../../runLimits/runLimits.ts'
import { loadSimulationView } from '../../jobs/views.ts'
import { listSensorOutputStates } from '../../sensors/store.ts'
import { ApiError, notFound } from '../apiError.ts'
import { findAccessibleSimulation } from '../access.ts'
import type { AreaHandlers } from '../context.ts'
import { conditionHandlers } from './conditionHandlers.ts'
import { discretizationHandlers } from './discretizationHandlers.ts'
import { blockedError, blockingIssues, conflict, loadSetupOf } from './runChecks.ts'
import { unsupportedObjectsMessage } from '../../../domain/rest/setupObjectRoutes.ts'
import { unsupportedSetupObjects } from '../../../solver/sph/support.ts'

type Db = Kysely<Database>

function isActiveState(state: string): boolean {
  return (ACTIVE_SIMULATION_STATES as readonly string[]).includes(state)
}

async function viewOf(db: Db, simulationId: number): Promise<Simulation> {
  const view = await loadSimulationView(db, simulationId)
  if (!view) throw notFound('Simulation')
  return view
}

const startJob: AreaHandlers<typeof RUN_ROUTES>['startJob'] = async (
  { params, query, body },
  { db, user, clock },
) => {
  const simulation = await findAccessibleSimulation(db, user, params.id)
  if (isActiveState(simulation.state)) throw conflict(RUN_TEXTS.alreadyRunning)
  const solvers = await solversOfServer()
  const solver = solvers.find((s) => s.id === body.solver_id)
  if (!solver) throw new ApiError('wrong_input', RUN_TEXTS.unknownSolver)
  const organization = await db
    .selectFrom('organizations')
    .selectAll()
    .where('id', '=', simulation.organization_id)
    .executeTakeFirstOrThrow()
  // The GPU/CPU choice is gated by the cpu feature: without it a new run takes the default
  // solver (the first listed); a resumed run keeps its own (checked below).
  const features = parseJson(organization.features)
  const mayChoose = Array.isArray(features) && features.includes('cpu')
  if (!mayChoose && !query.resume && solver.id !== solvers[0]?.id)
    throw new ApiError('forbidden', RUN_TEXTS.solverChoiceNotIncluded)
  if (body.cores > organization.subscription_max_cores)
    throw new ApiError('wrong_input', RUN_TEXTS.tooManyCores(organization.subscription_max_cores))
  if (!(organization.credits > 0)) throw new ApiError('wrong_input', RUN_TEXTS.notEnoughCredits)
  // The subscription's free instance or its maximum of simulations under way (server/runLimits/).
  const limitMessage = startLimitMessage(await loadRunLimits(db, organization))
  if (limitMessage !== null) throw conflict(limitMessage)
  // A run writes outputs: refused while the organization's storage is full (issue 13).
  await assertStorageAvailable(db, organization.id, 0)

  const runner = jobRunnerFor(db)
  const activeRun =
    simulation.active_run_id === null
      ? undefined
      : await db
          .selectFrom('runs')
          .selectAll()
          .where('id', '=', simulation.active_run_id)
          .executeTakeFirst()
  const resume = query.resume
  if (
    resume &&
    (!simulation.setup_locked ||
      !simulation.resumable ||
      !activeRun ||
      activeRun.last_output === null)
  )
    throw new ApiError('wrong_input', RUN_TEXTS.notResumable)
  if (resume && activeRun && activeRun.solver_id !== solver.id)
    throw new ApiError('wrong_input', RUN_TEXTS.resumeSolverMismatch)

  const setup = await loadSetupOf(db, simulation.id)
  const issues = await blockingIssues(db, setup)
  if (issues.length > 0) throw blockedError(RUN_TEXTS.startBlocked, issues)
  const unsupported = unsupportedSetupObjects(setup)
  if (unsupported.length > 0)
    throw new ApiError('wrong_input', unsupportedObjectsMessage(unsupported))

  const nowIso = clock.nowIso()
  const jobId = await db.transaction().execute(async (trx) => {
    // The state check and the switch to 'launching' are one statement: a second start loses.
    const claimed = await trx
      .updateTable('simulations')
      .set({ state: 'launching', updated_at: nowIso })
      .where('id', '=', simulation.id)
      .where('state', 'not in', ACTIVE_SIMULATION_STATES)
      .executeTakeFirst()
    if (Number(claimed.numUpdatedRows) !== 1) throw conflict(RUN_TEXTS.alreadyRunning)
    let runId: number
    if (resume && activeRun) {
      runId = activeRun.id
      await trx
        .updateTable('runs')
        .set({
          state: 'launching',
          cores: body.cores,
          resumed_from_output: activeRun.last_output,
          message: null,
          ended_at: null,
          updated_at: nowIso,
        })
        .where('id', '=', runId)
        .execute()
    } else {
      runId = (
        await trx
          .insertInto('runs')
          .values({
            simulation_id: simulation.id,
            state: 'launching',
            cores: body.cores,
            solver_id: solver.id,
            started_at: nowIso,
            created_at: nowIso,
            updated_at: nowIso,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id
      // The next run's conditions become this run's (the drafts stay for later runs).
      const drafts = await trx
        .selectFrom('conditions')
        .selectAll()
        .where('simulation_id', '=', simulation.id)
        .where('run_id', '=', -1)
        .execute()
      if (drafts.length > 0)
        await trx
          .insertInto('conditions')
          .values(
            drafts.map((d) => ({
              simulation_id: simulation.id,
              run_id: runId,
              action: d.action,
              value_type: d.value_type,
              operator: d.operator,
              threshold: d.threshold,
              triggered: 0,
              created_at: nowIso,
              updated_at: nowIso,
            })),
          )
          .execute()
    }
    const job = await trx
      .insertInto('jobs')
      .values({
        simulation_id: simulation.id,
        kind: 'simulation',
        state: 'scheduled',
        run_id: runId,
        payload: JSON.stringify({
          cores: body.cores,
          solverId: solver.id,
          resumeFromOutput: resume ? (activeRun?.last_output ?? null) : null,
          resumeFromRunId: resume ? runId : null,
        }),
        created_at: nowIso,
        updated_at: nowIso,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await trx
      .updateTable('simulations')
      .set({
        active_run_id: runId,
        setup_locked: 1,
        resumable: 0,
        cores: body.cores,
        gpu: solver.gpu ? 1 : 0,
        solver_name: solver.name,
        last_stop_condition: null,
        ...(!resume && { started_at: nowIso }),
      })
      .where('id', '=', simulation.id)
      .execute()
    return job.id
  })
  runner.enqueue(jobId)
  runner.notifySimulationChanged(simulation.id)
  return viewOf(db, simulation.id)
}

const stopJob: AreaHandlers<typeof RUN_ROUTES>['stopJob'] = async (
  { params },
  { db, user, clock },
) => {
  const simulation = await findAccessibleSimulation(db, user, params.id)
  if (simulation.state === 'stopping') return viewOf(db, simulation.id)
  if (!isActiveState(simulation.state)) throw conflict(RUN_TEXTS.notRunning)
  const result = await db
    .updateTable('simulations')
    .set({ state: 'stopping', updated_at: clock.nowIso() })
    .where('id', '=', simulation.id)
    .where('state', 'in', ['creating', 'launching', 'running'])
    .executeTakeFirst()
  if (Number(result.numUpdatedRows) !== 1) return viewOf(db, simulation.id)
  const runner = jobRunnerFor(db)
  runner.notifySimulationChanged(simulation.id)
  await runner.stopSimulation(simulation.id)
  return viewOf(db, simulation.id)
}

/** Unlocks the setup; the run can no longer be resumed (spec/results.md §2). */
const unlockSetup: AreaHandlers<typeof RUN_ROUTES>['unlockSetup'] = async (
  { params },
  { db, user, clock },
) => {
  const simulation = await findAccessibleSimulation(db, user, params.id)
  const result = await db
    .updateTable('simulations')
    .set({ setup_locked: 0, resumable: 0, updated_at: clock.nowIso() })
    .where('id', '=', simulation.id)
    .where('state', 'not in', ACTIVE_SIMULATION_STATES)
    .executeTakeFirst()
  if (Number(result.numUpdatedRows) !== 1) throw conflict(RUN_TEXTS.unlockWhileRunning)
  jobRunnerFor(db).notifySimulationChanged(simulation.id)
  return viewOf(db, simulation.id)
}

const listJobs: AreaHandlers<typeof RUN_ROUTES>['listJobs'] = async ({ params }, { db, user }) => {
  const simulation = await findAccessibleSimulation(db, user, params.id)
  const runs = await db
    .selectFrom('runs')
    .selectAll()
    .where('simulation_id', '=', simulation.id)
    .orderBy('id', 'desc')
    .execute()
  return runs.map(toRunRecord)
}

/** The solvers of this server (all active: activeOnly changes nothing), the default first. */
const listSolvers: AreaHandlers<typeof RUN_ROUTES>['listSolvers'] = async ({ query }) =>
  (await solversOfServer()).filter((s) => query.gpu === undefined || s.gpu === query.gpu)

async function findRunOf(db: Db, simulation: SimulationRow, runId: number | undefined) {
  const id = runId ?? simulation.active_run_id
  if (id === null) return null
  const run = await db
    .selectFrom('runs')
    .selectAll()
    .where('id', '=', id)
    .where('simulation_id', '=', simulation.id)
    .executeTakeFirst()
  if (!run) throw notFound('Run')
  return run
}

function pickKeys(line: RunLogLine, keys: readonly LogKey[]): Partial<RunLogLine> {
  const picked: Partial<Record<LogKey, number | null>> = {}
  for (const key of keys) picked[key] = line[key]
  return picked as Partial<RunLogLine>
}

const listLogs: AreaHandlers<typeof RUN_ROUTES>['listLogs'] = async (
  { params, query },
  { db, user, dataDir },
) => {
  const simulation = await findAccessibleSimulation(db, user, params.id)
  const run = await findRunOf(db, simulation, query.runId)
  if (!run) return { runId: null, lines: [] }
  const keys = query.key ?? LOG_KEYS
  return {
    runId: run.id,
    lines: readRunLog(dataDir, simulation.id, run.id).map((line) => pickKeys(line, keys)),
  }
}

/** The run's log with levels; progress lines (DEBUG) only for admins (spec/results.md §6). */
const getRunHistory: AreaHandlers<typeof RUN_ROUTES>['getRunHistory'] = async (
  { params, query },
  { db, user, dataDir },
) => {
  const simulation = await findAccessibleSimulation(db, user, params.id)
  const run = await findRunOf(db, simulation, query.runId)
  if (!run) return { runId: null, entries: [] }
  const end = { state: run.state, message: run.message, endedAt: run.ended_at }
  return {
    runId: run.id,
    entries: readRunHistory(dataDir, simulation.id, run.id, end, user.role === 'admin'),
  }
}

const getRunNumerics: AreaHandlers<typeof RUN_ROUTES>['getRunNumerics'] = async (
  { params },
  { db, user, dataDir },
) => {
  const simulation = await findAccessibleSimulation(db, user, params.id)
  const run = await findRunOf(db, simulation, params.runId)
  if (!run) throw notFound('Run')
  return { runId: run.id, numerics: readRunNumerics(dataDir, simulation.id, run.id) }
}

const listOutputs: AreaHandlers<typeof RUN_ROUTES>['listOutputs'] = async (
  { params },
  { db, user, dataDir },
) => {
  const simulation = await findAccessibleSimulation(db, user, params.id)
  if (simulation.active_run_id === null) return []
  const sensorStates = new Map(
    (await listSensorOutputStates(db, simulation.id, simulation.active_run_id)).map((s) => [
      s.outputNo,
      s.state,
    ]),
  )
  return listRunOutputs(dataDir, simulation.id, simulation.active_run_id).map((output) => ({
    ...output,
    states: { ...output.states, sensor: sensorStates.get(output.outputNo) ?? 'pending' },
  }))
}

export { listRunOutputs, readRunLog, readRunNumerics } from './runFiles.ts'

/** Handlers of RUN_ROUTES, one per route. */
export const runHandlers: AreaHandlers<typeof RUN_ROUTES> = {
  startJob,
  stopJob,
  unlockSetup,
  listJobs,
  getRunNumerics,
  listSolvers,
  listLogs,
  getRunHistory,
  listOutputs,
  ...conditionHandlers,
  ...discretizationHandlers,
}
