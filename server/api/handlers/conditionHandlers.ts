import type { Kysely } from 'kysely'
import {
  canEditConditions,
  checkConditionThreshold,
  type ConditionCreate,
} from '../../../domain/conditions.ts'
import type { Simulation } from '../../../domain/projects.ts'
import type { RUN_ROUTES } from '../../../domain/rest/runRoutes.ts'
import type { RunLogLine } from '../../../domain/rest/runRoutes.ts'
import type { Database, SimulationRow } from '../../db/schema.ts'
import { readLogLine, toRunCondition } from '../../jobs/records.ts'
import { findAccessibleSimulation } from '../access.ts'
import { ApiError, notFound } from '../apiError.ts'
import type { AreaHandlers, SessionUser } from '../context.ts'
import { readSettings } from '../views.ts'
import { conflict } from './runChecks.ts'

/* Alerts and stop conditions of a run (spec/results.md §5): the conditions calls of RUN_ROUTES. */

type Db = Kysely<Database>
type Handlers = AreaHandlers<typeof RUN_ROUTES>

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
  // The next run goes on from the active run only when it can be resumed; a restart begins at
  // time 0 (issue 14: a Restart's time alert was compared with the previous run's end).
  const continuesActiveRun = simulation.setup_locked === 1 && simulation.resumable === 1
  const runId =
    body.runId !== -1 ? body.runId : continuesActiveRun ? simulation.active_run_id : null
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

const listConditions: Handlers['listConditions'] = async ({ params, query }, { db, user }) => {
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

const createCondition: Handlers['createCondition'] = async (
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

const updateCondition: Handlers['updateCondition'] = async (
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

const deleteCondition: Handlers['deleteCondition'] = async ({ params }, { db, user }) => {
  const { condition, simulation } = await findAccessibleCondition(db, user, params.id)
  if (!canEditConditions(simulation.state as Simulation['state']))
    throw conflict('Alerts cannot be edited while the simulation is running.')
  await db.deleteFrom('conditions').where('id', '=', condition.id).execute()
  return { id: condition.id }
}
/** The conditions handlers of RUN_ROUTES. */
export const conditionHandlers = {
  listConditions,
  createCondition,
  updateCondition,
  deleteCondition,
} satisfies Partial<Handlers>
