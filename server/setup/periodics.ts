import type { Kysely } from 'kysely'
import * as v from 'valibot'
import {
  checkPeriodicBoundary,
  PeriodicBoundarySchema,
  roundDegrees,
  type PeriodicBoundary,
  type PeriodicBoundaryCreate,
  type PeriodicBoundaryUpdate,
} from '../../domain/periodic.ts'
import { PERIODIC_EXISTS_MESSAGE } from '../../domain/rest/setupObjectRoutes.ts'
import { ApiError, notFound } from '../api/apiError.ts'
import type { Database, SimulationRow } from '../db/schema.ts'
import { refuseIssues } from './issues.ts'
import { parseJsonColumn } from './views.ts'

/*
 * Periodic boundaries (spec/setup.md §3 "Periodic boundary", §5): a rotational slice, one per
 * simulation, stored as JSON with its angles rounded to 5 decimals. Errors of §5 refuse an edit;
 * the warnings (below 15°, not dividing 360°) are the Input Validation bar's.
 */

type Db = Kysely<Database>

function toPeriodic(row: { id: number; definition: string }): PeriodicBoundary | null {
  const stored = parseJsonColumn(row.definition)
  const parsed = v.safeParse(PeriodicBoundarySchema, {
    ...(typeof stored === 'object' && stored !== null ? stored : {}),
    id: row.id,
  })
  return parsed.success ? parsed.output : null
}

/** The periodic boundaries of a simulation (at most one). */
export async function listPeriodics(db: Db, simulationId: number): Promise<PeriodicBoundary[]> {
  const rows = await db
    .selectFrom('periodics')
    .select(['id', 'definition'])
    .where('simulation_id', '=', simulationId)
    .orderBy('id')
    .execute()
  return rows.flatMap((row) => toPeriodic(row) ?? [])
}

/** A periodic boundary row with its simulation id, or undefined. */
export async function findPeriodicRow(db: Db, id: number) {
  return db.selectFrom('periodics').selectAll().where('id', '=', id).executeTakeFirst()
}

function rounded(periodic: PeriodicBoundary): PeriodicBoundary {
  const round = (x: number | null) => (x === null ? null : roundDegrees(x))
  return {
    ...periodic,
    sliceAngle: round(periodic.sliceAngle),
    sliceRotation: round(periodic.sliceRotation),
  }
}

function refuseErrors(periodic: PeriodicBoundary): void {
  const errors = checkPeriodicBoundary(periodic).filter((i) => i.level === 'error')
  if (errors.length > 0) throw refuseIssues(errors)
}

/** Adds the periodic boundary; 409 when the simulation has one. */
export async function createStoredPeriodic(
  db: Db,
  simulation: SimulationRow,
  body: PeriodicBoundaryCreate,
  nowIso: string,
): Promise<PeriodicBoundary> {
  if ((await listPeriodics(db, simulation.id)).length > 0)
    throw new ApiError('conflict', PERIODIC_EXISTS_MESSAGE)
  const periodic = rounded({ id: 0, ...body })
  refuseErrors(periodic)
  const { id: _id, ...definition } = periodic
  const { id } = await db
    .insertInto('periodics')
    .values({
      simulation_id: simulation.id,
      definition: JSON.stringify(definition),
      created_at: nowIso,
      updated_at: nowIso,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return { ...periodic, id }
}

/** Changes the periodic boundary `id` of the simulation. */
export async function updateStoredPeriodic(
  db: Db,
  simulation: SimulationRow,
  id: number,
  update: PeriodicBoundaryUpdate,
  nowIso: string,
): Promise<PeriodicBoundary> {
  const current = (await listPeriodics(db, simulation.id)).find((p) => p.id === id)
  if (!current) throw notFound('Periodic boundary')
  const next = rounded({ ...current, ...update })
  refuseErrors(next)
  const { id: _id, ...definition } = next
  await db
    .updateTable('periodics')
    .set({ definition: JSON.stringify(definition), updated_at: nowIso })
    .where('id', '=', id)
    .execute()
  return next
}
