import type { Kysely } from 'kysely'
import {
  VARIABLE_NAME_TAKEN_MESSAGE,
  type Variable,
  type VariableCreate,
} from '../../domain/dashboards.ts'
import { findAccessibleSimulation } from '../api/access.ts'
import { ApiError, notFound } from '../api/apiError.ts'
import type { SessionUser } from '../api/context.ts'
import { isUniqueViolation } from '../db/connect.ts'
import type { Database } from '../db/schema.ts'
import type { DashboardVariableRow } from './tables.ts'
import { nameKey } from './views.ts'

/* Variables of a simulation (table dashboard_variables), shown in its variables tile. */

function toVariable(row: DashboardVariableRow): Variable {
  return {
    id: row.id,
    simulationId: row.simulation_id,
    name: row.name,
    value: row.value,
    unit: row.unit,
  }
}

export async function listVariables(
  db: Kysely<Database>,
  simulationId: number,
): Promise<Variable[]> {
  const rows = await db
    .selectFrom('dashboard_variables')
    .selectAll()
    .where('simulation_id', '=', simulationId)
    .orderBy('id')
    .execute()
  return rows.map(toVariable)
}

/** Adds a variable; a name in use is 400. */
export async function createVariable(
  db: Kysely<Database>,
  simulationId: number,
  body: Required<VariableCreate>,
  nowIso: string,
): Promise<Variable> {
  try {
    const row = await db
      .insertInto('dashboard_variables')
      .values({
        simulation_id: simulationId,
        name: body.name,
        name_key: nameKey(body.name),
        value: body.value,
        unit: body.unit,
        created_at: nowIso,
        updated_at: nowIso,
      })
      .returningAll()
      .executeTakeFirstOrThrow()
    return toVariable(row)
  } catch (error) {
    if (isUniqueViolation(error))
      throw new ApiError('duplicate_key', VARIABLE_NAME_TAKEN_MESSAGE, [
        { path: 'name', message: VARIABLE_NAME_TAKEN_MESSAGE },
      ])
    throw error
  }
}

/** Removes a variable of a simulation the user sees, else 404. */
export async function deleteVariable(
  db: Kysely<Database>,
  user: SessionUser,
  id: number,
): Promise<void> {
  const row = await db
    .selectFrom('dashboard_variables')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst()
  if (!row) throw notFound('Variable')
  try {
    await findAccessibleSimulation(db, user, row.simulation_id)
  } catch {
    throw notFound('Variable')
  }
  await db.deleteFrom('dashboard_variables').where('id', '=', row.id).execute()
}
