import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Kysely } from 'kysely'
import * as v from 'valibot'
import {
  canEditConditions,
  checkConditionThreshold,
  type ConditionCreate,
} from '../../../domain/conditions.ts'
import { canDiscretize, DISCRETIZATION_BLOCKED } from '../../../domain/discretization.ts'
import type { FieldError } from '../../../domain/errors.ts'
import { OUTPUT_MANIFEST_FILE, runDirectory, runLogFile } from '../../../domain/output/layout.ts'
import type { Simulation } from '../../../domain/projects.ts'
import type { RUN_ROUTES } from '../../../domain/rest/runRoutes.ts'
import {
  LOG_KEYS,
  RUN_TEXTS,
  RunLogLineSchema,
  type LogKey,
  type RunLogLine,
  type Solver,
} from '../../../domain/rest/runRoutes.ts'
import type { OutputInfo } from '../../../domain/results.ts'
import { validateSetup } from '../../../domain/setupValidation.ts'
import { blocksRun, type Issue } from '../../../domain/validation.ts'
import type { RunSetup } from '../../../solver/setup.ts'
import type { Database, SimulationRow } from '../../db/schema.ts'
import { jobRunnerFor } from '../../jobs/services.ts'
import {
  ACTIVE_JOB_STATES,
  ACTIVE_SIMULATION_STATES,
  findLatestDiscretization,
  readLogLine,
  toDiscretization,
  toRunCondition,
  toRunRecord,
} from '../../jobs/records.ts'
import { loadSimulationView } from '../../jobs/views.ts'
import { listSensorOutputStates } from '../../sensors/store.ts'
import { readSettings } from '../views.ts'
import { ApiError, notFound } from '../apiError.ts'
import { findAccessibleSimulation } from '../access.ts'
import type { AreaHandlers, SessionUser } from '../context.ts'

type Db = Kysely<Database>

/** The CPU solver: the only one that can run here (no GPU solver on this server). */
export const CPU_SOLVER: Solver = { id: 1, name: 'Dive SPH (CPU)', latest: true, gpu: false }
const SOLVERS: readonly Solver[] = [CPU_SOLVER]

function isActiveState(state: string): boolean {
  return (ACTIVE_SIMULATION_STATES as readonly string[]).includes(state)
}

async function viewOf(db: Db, simulationId: number): Promise<Simulation> {
  const view = await loadSimulationView(db, simulationId)
  if (!view) throw notFound('Simulation')
  return view
}

/** Issues that block a run or a discretization: errors and missing (info) items. */
function blockingIssues(setup: RunSetup): Issue[] {
  const issues = validateSetup({
    settings: setup.settings,
    materials: setup.materials,
    parts: setup.parts,
    movements: setup.movements,
  })
  return blocksRun(issues) ? issues.filter((i) => i.level !== 'warning') : []
}

function blockedError(message: string, issues: readonly Issue[]): ApiError {
  const errors: FieldError[] = [
    { path: 'setup', message },
    ...issues.map((i) => ({ path: i.field, message: i.message })),
  ]
  return new ApiError('validation_error', message, errors)
}

/** The setup of a simulation, or a 400 with the reason it cannot be read (e.g. a missing STL). */
async function loadSetupOf(db: Db, simulationId: number): Promise<RunSetup> {
  try {
    return await jobRunnerFor(db).loadSetup(simulationId)
  } catch (error) {
    if (error instanceof Error && error.name === 'RunSetupError')
      throw new ApiError('wrong_input', error.message)
    throw error
  }
}

function conflict(message: string): ApiError {
  return new ApiError('conflict', message)
}

const startJob: AreaHandlers<typeof RUN_ROUTES>['startJob'] = async (
  { params, query, body },
  { db, user, clock },
) => {
  const simulation = await findAccessibleSimulation(db, user, params.id)
  if (isActiveState(simulation.state)) throw conflict(RUN_TEXTS.alreadyRunning)
  const solver = SOLVERS.find((s) => s.id === body.solver_id)
  if (!solver) throw new ApiError('wrong_input', RUN_TEXTS.unknownSolver)
  const organization = await db
    .selectFrom('organizations')
    .selectAll()
    .where('id', '=', simulation.organization_id)
    .executeTakeFirstOrThrow()
  if (body.cores > organization.subscription_max_cores)
    throw new ApiError('wrong_input', RUN_TEXTS.tooManyCores(organization.subscription_max_cores))
  if (!(organization.credits > 0)) throw new ApiError('wrong_input', RUN_TEXTS.notEnoughCredits)

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

  const issues = blockingIssues(await loadSetupOf(db, simulation.id))
  if (issues.length > 0) throw blockedError(RUN_TEXTS.startBlocked, issues)

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

const listSolvers: AreaHandlers<typeof RUN_ROUTES>['listSolvers'] = ({ query }) =>
  Promise.resolve(SOLVERS.filter((s) => query.gpu === undefined || s.gpu === query.gpu))

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

/** The lines of a run's log file (JSON lines; a torn last line is skipped). */
export function readRunLog(dataDir: string, simulationId: number, runId: number): RunLogLine[] {
  const path = join(dataDir, runLogFile(simulationId, runId))
  if (!existsSync(path)) return []
  const lines: RunLogLine[] = []
  for (const text of readFileSync(path, 'utf8').split('\n')) {
    if (text.trim() === '') continue
    let raw: unknown
    try {
      raw = JSON.parse(text)
    } catch {
      continue
    }
    const parsed = v.safeParse(RunLogLineSchema, raw)
    if (parsed.success) lines.push(parsed.output)
  }
  return lines
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

/** Outputs whose manifest is on disk (the manifest is written last: its presence = complete). */
export function listRunOutputs(dataDir: string, simulationId: number, runId: number): OutputInfo[] {
  const directory = join(dataDir, runDirectory(simulationId, runId), 'outputs')
  if (!existsSync(directory)) return []
  return readdirSync(directory)
    .filter((name) => /^\d+$/.test(name) && existsSync(join(directory, name, OUTPUT_MANIFEST_FILE)))
    .map(Number)
    .sort((a, b) => a - b)
    .map((outputNo) => ({
      outputNo,
      states: { visualization: 'ready', sensor: 'pending' },
      wallSensorState: 'unknown',
    }))
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

// ── Conditions ──────────────────────────────────────────────────────────────────────────────────

async function findAccessibleCondition(db: Db, user: SessionUser, id: number) {
  const condition = await db
    .selectFrom('conditions')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst()
  if (!condition) throw notFound('Condition')
  const simulation = await findAccessibleSimulation(db, user, condition.simulation_id).catch(() => {
    throw notFound('Condition')
  })
  return { condition, simulation }
}

/** Checks a condition against where the run stands (spec/results.md §5); throws its message. */
async function checkCondition(db: Db, simulation: SimulationRow, body: ConditionCreate) {
  if (!canEditConditions(simulation.state as Simulation['state']))
    throw conflict('Alerts cannot be edited while the simulation is running.')
  if (body.runId !== -1) {
    const run = await db
      .selectFrom('runs')
      .select('id')
      .where('id', '=', body.runId)
      .where('simulation_id', '=', simulation.id)
      .executeTakeFirst()
    if (!run) throw notFound('Run')
  }
  if (body.allowInvalidThreshold) return
  const settings = readSettings(simulation.settings)
  const runId = body.runId === -1 ? simulation.active_run_id : body.runId
  let line: RunLogLine | null = null
  if (runId !== null) {
    const run = await db
      .selectFrom('runs')
      .select('last_log')
      .where('id', '=', runId)
      .executeTakeFirst()
    line = readLogLine(run?.last_log ?? null)
  }
  const issues = checkConditionThreshold(body.valueType, body.threshold, {
    endTime: settings.endTime === null ? null : settings.endTime * 1000,
    time: line?.time,
    runtime: line === null ? undefined : line.runtime / 60_000,
    credits: simulation.credits_consumed,
    particle_nbr: line?.particles,
  })
  const first = issues[0]
  if (first)
    throw new ApiError(
      'validation_error',
      first.message,
      issues.map((i) => ({ path: i.field, message: i.message })),
    )
}

const listConditions: AreaHandlers<typeof RUN_ROUTES>['listConditions'] = async (
  { params, query },
  { db, user },
) => {
  const simulation = await findAccessibleSimulation(db, user, params.id)
  const rows = await db
    .selectFrom('conditions')
    .selectAll()
    .where('simulation_id', '=', simulation.id)
    .where('run_id', '=', query.runId)
    .orderBy('id')
    .execute()
  return rows.map(toRunCondition)
}

const createCondition: AreaHandlers<typeof RUN_ROUTES>['createCondition'] = async (
  { params, body },
  { db, user, clock },
) => {
  const simulation = await findAccessibleSimulation(db, user, params.id)
  await checkCondition(db, simulation, body)
  const nowIso = clock.nowIso()
  const row = await db
    .insertInto('conditions')
    .values({
      simulation_id: simulation.id,
      run_id: body.runId,
      action: body.action,
      value_type: body.valueType,
      operator: body.operator,
      threshold: body.threshold,
      triggered: 0,
      created_at: nowIso,
      updated_at: nowIso,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
  return toRunCondition(row)
}

const updateCondition: AreaHandlers<typeof RUN_ROUTES>['updateCondition'] = async (
  { params, body },
  { db, user, clock },
) => {
  const { condition, simulation } = await findAccessibleCondition(db, user, params.id)
  await checkCondition(db, simulation, body)
  const row = await db
    .updateTable('conditions')
    .set({
      run_id: body.runId,
      action: body.action,
      value_type: body.valueType,
      operator: body.operator,
      threshold: body.threshold,
      triggered: 0,
      updated_at: clock.nowIso(),
    })
    .where('id', '=', condition.id)
    .returningAll()
    .executeTakeFirstOrThrow()
  return toRunCondition(row)
}

const deleteCondition: AreaHandlers<typeof RUN_ROUTES>['deleteCondition'] = async (
  { params },
  { db, user },
) => {
  const { condition, simulation } = await findAccessibleCondition(db, user, params.id)
  if (!canEditConditions(simulation.state as Simulation['state']))
    throw conflict('Alerts cannot be edited while the simulation is running.')
  await db.deleteFrom('conditions').where('id', '=', condition.id).execute()
  return { id: condition.id }
}

// ── Discretizations ─────────────────────────────────────────────────────────────────────────────

const getDiscretization: AreaHandlers<typeof RUN_ROUTES>['getDiscretization'] = async (
  { params },
  { db, user },
) => {
  const simulation = await findAccessibleSimulation(db, user, params.id)
  const row = await findLatestDiscretization(db, simulation.id)
  return row ? toDiscretization(row) : null
}

const startDiscretization: AreaHandlers<typeof RUN_ROUTES>['startDiscretization'] = async (
  { params },
  { db, user, clock },
) => {
  const simulation = await findAccessibleSimulation(db, user, params.id)
  const latest = await findLatestDiscretization(db, simulation.id)
  if (latest && (ACTIVE_JOB_STATES as readonly string[]).includes(latest.state))
    throw conflict('A discretization is already running.')
  const runner = jobRunnerFor(db)
  const setup = await loadSetupOf(db, simulation.id)
  const issues = validateSetup({
    settings: setup.settings,
    materials: setup.materials,
    parts: setup.parts,
    movements: setup.movements,
  })
  if (!canDiscretize(issues))
    throw blockedError(
      DISCRETIZATION_BLOCKED.text,
      issues.filter((i) => i.level !== 'warning'),
    )
  const nowIso = clock.nowIso()
  const row = await db
    .insertInto('jobs')
    .values({
      simulation_id: simulation.id,
      kind: 'discretization',
      state: 'scheduled',
      created_at: nowIso,
      updated_at: nowIso,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
  runner.enqueue(row.id)
  runner.notifyDiscretizationChanged(simulation.id)
  return toDiscretization(row)
}

const cancelDiscretization: AreaHandlers<typeof RUN_ROUTES>['cancelDiscretization'] = async (
  { params },
  { db, user },
) => {
  const simulation = await findAccessibleSimulation(db, user, params.id)
  const latest = await findLatestDiscretization(db, simulation.id)
  if (!latest) throw notFound('Discretization')
  if (!(ACTIVE_JOB_STATES as readonly string[]).includes(latest.state))
    throw conflict('The discretization is not running.')
  const row = await jobRunnerFor(db).cancelDiscretization(latest.id)
  return toDiscretization(row)
}

/** Handlers of RUN_ROUTES, one per route. */
export const runHandlers: AreaHandlers<typeof RUN_ROUTES> = {
  startJob,
  stopJob,
  unlockSetup,
  listJobs,
  listSolvers,
  listLogs,
  listOutputs,
  listConditions,
  createCondition,
  updateCondition,
  deleteCondition,
  getDiscretization,
  startDiscretization,
  cancelDiscretization,
}
