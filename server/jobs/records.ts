import type { Kysely, Selectable } from 'kysely'
import * as v from 'valibot'
import type { RunCondition } from '../../domain/rest/runRoutes.ts'
import { RunLogLineSchema, type RunLogLine, type RunRecord } from '../../domain/rest/runRoutes.ts'
import {
  CONDITION_ACTIONS,
  CONDITION_OPERATORS,
  CONDITION_VALUE_TYPES,
} from '../../domain/conditions.ts'
import { readDiscretizationSummary, type Discretization } from '../../domain/discretization.ts'
import { JOB_STATES, type JobState } from '../../domain/jobs.ts'
import { SIMULATION_STATES, type SimulationState } from '../../domain/simulationState.ts'
import {
  fromFlag,
  type ConditionsTable,
  type Database,
  type JobsTable,
  type RunsTable,
} from '../db/schema.ts'
import type { PartMessage } from './types.ts'

type Db = Kysely<Database>

/** Simulation states in which a run is under way (a second start is refused). */
export const ACTIVE_SIMULATION_STATES = [
  'creating',
  'launching',
  'running',
  'stopping',
] as const satisfies readonly SimulationState[]

/** Job states of a job that has not ended. */
export const ACTIVE_JOB_STATES = ['scheduled', 'running'] as const satisfies readonly JobState[]

export function parseJson(text: string | null): unknown {
  if (text === null) return null
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

function readMessages(text: string): PartMessage[] {
  const value = parseJson(text)
  if (!Array.isArray(value)) return []
  return value.filter(
    (item: unknown): item is PartMessage =>
      typeof item === 'object' &&
      item !== null &&
      typeof (item as { description?: unknown }).description === 'string',
  )
}

function readJobState(state: string): JobState {
  return JOB_STATES.find((s) => s === state) ?? 'unknown'
}

function readSimulationState(state: string): SimulationState {
  return SIMULATION_STATES.find((s) => s === state) ?? 'failed'
}

/** The latest log line stored on a run, if it parses. */
export function readLogLine(text: string | null): RunLogLine | null {
  const result = v.safeParse(RunLogLineSchema, parseJson(text))
  return result.success ? result.output : null
}

export function toRunRecord(row: Selectable<RunsTable>): RunRecord {
  return {
    id: row.id,
    simulationId: row.simulation_id,
    state: readSimulationState(row.state),
    cores: row.cores,
    solverId: row.solver_id,
    resumedFromOutput: row.resumed_from_output,
    lastOutput: row.last_output,
    creditsConsumed: row.credits_consumed,
    simulationHours: row.simulation_hours,
    message: row.message,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    createdAt: row.created_at,
  }
}

export function toDiscretization(row: Selectable<JobsTable>): Discretization {
  return {
    id: row.id,
    simulationId: row.simulation_id,
    state: readJobState(row.state),
    progress: row.progress,
    errors: readMessages(row.errors),
    warnings: readMessages(row.warnings),
    summary: row.state === 'done' ? readDiscretizationSummary(parseJson(row.result)) : null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

export function toRunCondition(row: Selectable<ConditionsTable>): RunCondition {
  return {
    id: row.id,
    runId: row.run_id,
    action: CONDITION_ACTIONS.find((a) => a === row.action) ?? 'warning',
    valueType: CONDITION_VALUE_TYPES.find((t) => t === row.value_type) ?? 'time',
    operator: CONDITION_OPERATORS.find((o) => o === row.operator) ?? '>=',
    threshold: row.threshold,
    triggered: fromFlag(row.triggered),
  }
}

/** The latest discretization job of a simulation. */
export async function findLatestDiscretization(
  db: Db,
  simulationId: number,
): Promise<Selectable<JobsTable> | undefined> {
  return db
    .selectFrom('jobs')
    .selectAll()
    .where('simulation_id', '=', simulationId)
    .where('kind', '=', 'discretization')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst()
}

/** The latest discretization job of a simulation that succeeded (its point clouds are the parts'). */
export async function findLatestDoneDiscretization(
  db: Db,
  simulationId: number,
): Promise<Selectable<JobsTable> | undefined> {
  return db
    .selectFrom('jobs')
    .selectAll()
    .where('simulation_id', '=', simulationId)
    .where('kind', '=', 'discretization')
    .where('state', '=', 'done')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst()
}

/** The simulation's latest log line (of its active run), for GET /simulations/{id}.log. */
export async function findActiveRunLog(
  db: Db,
  activeRunId: number | null,
): Promise<RunLogLine | null> {
  if (activeRunId === null) return null
  const run = await db
    .selectFrom('runs')
    .select('last_log')
    .where('id', '=', activeRunId)
    .executeTakeFirst()
  return run ? readLogLine(run.last_log) : null
}
