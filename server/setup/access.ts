import type { Kysely } from 'kysely'
import { hasPermission } from '../../domain/account.ts'
import { SETUP_LOCKED_MESSAGE, UPLOADED_SETUP_MESSAGE } from '../../domain/rest/setupRoutes.ts'
import { findAccessibleSimulation } from '../api/access.ts'
import { ApiError, notFound } from '../api/apiError.ts'
import type { SessionUser } from '../api/context.ts'
import type { Database, MovementRow, PartRow, SimulationRow } from '../db/schema.ts'
import { fromFlag } from '../db/schema.ts'

/*
 * Who may read and edit a setup. Reading: whoever sees the simulation (its organization; a
 * contributor only their own projects). Editing: a contributor only simulations they created or
 * that sit in their own project; and nobody while the setup is locked or was uploaded.
 */

type Db = Kysely<Database>

/** The simulation if the user may see it, else 404. */
export async function findReadableSimulation(
  db: Db,
  user: SessionUser,
  id: number,
): Promise<SimulationRow> {
  return findAccessibleSimulation(db, user, id)
}

/** Refuses edits of a locked or uploaded setup (409) and a contributor's edit of another's simulation (403). */
export async function assertSetupEditable(
  db: Db,
  user: SessionUser,
  simulation: SimulationRow,
): Promise<void> {
  if (!hasPermission(user.role, 'PROJECTS_VIEW_ALL') && simulation.creator_id !== user.id) {
    const project = await db
      .selectFrom('projects')
      .select('creator_id')
      .where('id', '=', simulation.project_id)
      .executeTakeFirst()
    if (project?.creator_id !== user.id)
      throw new ApiError('forbidden', 'Only the creator of this simulation may edit its setup.')
  }
  if (fromFlag(simulation.uploaded_setup)) throw new ApiError('conflict', UPLOADED_SETUP_MESSAGE)
  if (fromFlag(simulation.setup_locked)) throw new ApiError('conflict', SETUP_LOCKED_MESSAGE)
}

/** The simulation if the user may edit its setup now. */
export async function findEditableSimulation(
  db: Db,
  user: SessionUser,
  id: number,
): Promise<SimulationRow> {
  const simulation = await findAccessibleSimulation(db, user, id)
  await assertSetupEditable(db, user, simulation)
  return simulation
}

/** A part and its simulation, if the user may see the simulation (else 404). */
export async function findReadablePart(
  db: Db,
  user: SessionUser,
  partId: number,
): Promise<{ part: PartRow; simulation: SimulationRow }> {
  const part = await db
    .selectFrom('parts')
    .selectAll()
    .where('id', '=', partId)
    .where('organization_id', '=', user.organization_id)
    .executeTakeFirst()
  if (!part) throw notFound('Part')
  try {
    return { part, simulation: await findAccessibleSimulation(db, user, part.simulation_id) }
  } catch {
    throw notFound('Part')
  }
}

/** A part whose setup the user may edit now. */
export async function findEditablePart(
  db: Db,
  user: SessionUser,
  partId: number,
): Promise<{ part: PartRow; simulation: SimulationRow }> {
  const found = await findReadablePart(db, user, partId)
  await assertSetupEditable(db, user, found.simulation)
  return found
}

/** A movement and its simulation, if the user may see the simulation (else 404). */
export async function findReadableMovement(
  db: Db,
  user: SessionUser,
  movementId: number,
): Promise<{ movement: MovementRow; simulation: SimulationRow }> {
  const movement = await db
    .selectFrom('movements')
    .innerJoin('simulations', 'simulations.id', 'movements.simulation_id')
    .selectAll('movements')
    .where('movements.id', '=', movementId)
    .where('simulations.organization_id', '=', user.organization_id)
    .executeTakeFirst()
  if (!movement) throw notFound('Movement')
  try {
    return {
      movement,
      simulation: await findAccessibleSimulation(db, user, movement.simulation_id),
    }
  } catch {
    throw notFound('Movement')
  }
}

/** A movement whose setup the user may edit now. */
export async function findEditableMovement(
  db: Db,
  user: SessionUser,
  movementId: number,
): Promise<{ movement: MovementRow; simulation: SimulationRow }> {
  const found = await findReadableMovement(db, user, movementId)
  await assertSetupEditable(db, user, found.simulation)
  return found
}

/** Marks a simulation (and its project) as edited now. */
export async function touchSimulation(
  db: Db,
  simulation: Pick<SimulationRow, 'id' | 'project_id'>,
  nowIso: string,
): Promise<void> {
  await db
    .updateTable('simulations')
    .set({ updated_at: nowIso })
    .where('id', '=', simulation.id)
    .execute()
  await db
    .updateTable('projects')
    .set({ updated_at: nowIso })
    .where('id', '=', simulation.project_id)
    .execute()
}
