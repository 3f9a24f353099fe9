import type { Kysely } from 'kysely'
import {
  checkAirDragDomain,
  defaultAirDragDomain,
  type AirDragDomain,
  type AirDragDomainUpdate,
} from '../../domain/airDrag.ts'
import {
  AIR_DRAG_TABLE_NOT_FOUND_MESSAGE,
  REFERENCE_NOT_FOUND_MESSAGE,
} from '../../domain/rest/setupObjectRoutes.ts'
import { findAccessibleSimulation } from '../api/access.ts'
import type { SessionUser } from '../api/context.ts'
import type { Database, SimulationRow } from '../db/schema.ts'
import { refuseField, refuseIssues } from './issues.ts'
import { changedFields, newErrors, readDatatableInfos } from './store.ts'
import { readStoredAirDragDomain } from './airDragRead.ts'

/*
 * The air drag domain (spec/setup.md §3 "Air drag domain", §5): one per simulation, stored as
 * JSON. An edit is refused (400, nothing stored) for the §5 errors it introduces or leaves on a
 * field it changes; missing values (info) are kept for the Input Validation bar.
 */

type Db = Kysely<Database>

/** Outputs (0 … N−1) of a simulation's active run: 0 before it wrote one. */
async function countOutputs(db: Db, simulation: SimulationRow): Promise<number> {
  if (simulation.active_run_id === null) return 0
  const run = await db
    .selectFrom('runs')
    .select(['last_output'])
    .where('id', '=', simulation.active_run_id)
    .executeTakeFirst()
  return run?.last_output === null || run === undefined ? 0 : run.last_output + 1
}

/** The §5 context: the simulation's tables and the reference simulation's outputs. */
async function ruleContext(
  db: Db,
  user: SessionUser,
  simulation: SimulationRow,
  domain: AirDragDomain,
) {
  const tables = await readDatatableInfos(db, simulation.id)
  if (domain.tableId !== null && !tables.some((t) => t.id === domain.tableId))
    throw refuseField('airDrag.tableId', AIR_DRAG_TABLE_NOT_FOUND_MESSAGE)
  let referenceOutputCount: number | undefined
  if (domain.kind === 'simulation' && domain.refSimulationId !== null) {
    let reference: SimulationRow
    try {
      reference = await findAccessibleSimulation(db, user, domain.refSimulationId)
    } catch {
      throw refuseField('airDrag.refSimulationId', REFERENCE_NOT_FOUND_MESSAGE)
    }
    referenceOutputCount = await countOutputs(db, reference)
  }
  return {
    tableRowCount: (id: number) => tables.find((t) => t.id === id)?.resultCount,
    referenceOutputCount,
  }
}

/** Defines or changes the air drag domain (in the caller's transaction). */
export async function updateStoredAirDragDomain(
  db: Db,
  user: SessionUser,
  simulation: SimulationRow,
  update: AirDragDomainUpdate,
  nowIso: string,
): Promise<AirDragDomain> {
  const stored = await readStoredAirDragDomain(db, simulation.id)
  const before = stored ?? defaultAirDragDomain(0)
  const next: AirDragDomain = { ...before, ...update }
  const context = await ruleContext(db, user, simulation, next)
  const broken = newErrors(
    stored ? checkAirDragDomain(before, context) : [],
    checkAirDragDomain(next, context),
    changedFields('airDrag', stored ?? {}, update),
  )
  if (broken.length > 0) throw refuseIssues(broken)
  const { id: _id, ...definition } = next
  if (stored) {
    await db
      .updateTable('air_drag_domains')
      .set({ definition: JSON.stringify(definition), updated_at: nowIso })
      .where('id', '=', stored.id)
      .execute()
    return { ...next, id: stored.id }
  }
  const { id } = await db
    .insertInto('air_drag_domains')
    .values({
      simulation_id: simulation.id,
      definition: JSON.stringify(definition),
      created_at: nowIso,
      updated_at: nowIso,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return { ...next, id }
}
