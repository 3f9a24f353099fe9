import type { Kysely } from 'kysely'
import type { SETUP_OBJECT_ROUTES } from '../../../domain/rest/setupObjectRoutes.ts'
import type { Database, SimulationRow } from '../../db/schema.ts'
import { findObjectSimulation } from '../../sensors/access.ts'
import {
  assertSetupEditable,
  findEditableSimulation,
  findReadableSimulation,
  touchSimulation,
} from '../../setup/access.ts'
import { updateStoredAirDragDomain } from '../../setup/airDragDomain.ts'
import { readAirDragDomain } from '../../setup/airDragRead.ts'
import {
  createStoredPeriodic,
  findPeriodicRow,
  listPeriodics,
  updateStoredPeriodic,
} from '../../setup/periodics.ts'
import {
  createStoredRefinement,
  findRefinement,
  listRefinements,
  updateStoredRefinement,
} from '../../setup/refinements.ts'
import type { SessionUser } from '../context.ts'
import type { AreaHandlers } from '../context.ts'

/*
 * Refinement zones, the air drag domain and periodic boundaries (domain/rest/setupObjectRoutes.ts).
 * Reading: whoever sees the simulation; editing: as any setup edit (server/setup/access.ts), each
 * in one transaction. An object of a simulation the user cannot see is 404.
 */

type Db = Kysely<Database>

/** The simulation of a stored object if the user may edit its setup (404 when not visible). */
async function findEditableOwner(
  db: Db,
  user: SessionUser,
  simulationId: number | undefined,
  what: string,
): Promise<SimulationRow> {
  const simulation = await findObjectSimulation(db, user, simulationId, what)
  await assertSetupEditable(db, user, simulation)
  return simulation
}

async function refinementOwner(db: Db, id: number): Promise<number | undefined> {
  const row = await db
    .selectFrom('refinements')
    .select(['simulation_id'])
    .where('id', '=', id)
    .executeTakeFirst()
  return row?.simulation_id
}

/** Deletes a mesh nothing uses any more (a refinement zone's own mesh). */
async function deleteUnusedMesh(db: Db, meshId: number | null): Promise<void> {
  if (meshId === null) return
  for (const table of ['sensors', 'volume_clips', 'refinements'] as const) {
    const user = await db
      .selectFrom(table)
      .select(['id'])
      .where('mesh_id', '=', meshId)
      .executeTakeFirst()
    if (user) return
  }
  await db.deleteFrom('meshes').where('id', '=', meshId).execute()
}

/** The handlers of SETUP_OBJECT_ROUTES. */
export const setupObjectHandlers: AreaHandlers<typeof SETUP_OBJECT_ROUTES> = {
  listRefinements: async ({ params }, { db, user }) =>
    listRefinements(db, (await findReadableSimulation(db, user, params.id)).id),

  createRefinement: async ({ params, body }, { db, user, clock }) =>
    db.transaction().execute(async (trx) => {
      const simulation = await findEditableSimulation(trx, user, params.id)
      const refinement = await createStoredRefinement(trx, simulation, body, clock.nowIso())
      await touchSimulation(trx, simulation, clock.nowIso())
      return refinement
    }),

  updateRefinements: async ({ params, body }, { db, user, clock }) =>
    db.transaction().execute(async (trx) => {
      const simulation = await findEditableSimulation(trx, user, params.id)
      for (const { id, ...update } of body)
        await updateStoredRefinement(trx, simulation, id, update, clock.nowIso())
      await touchSimulation(trx, simulation, clock.nowIso())
      const wanted = new Set(body.map((u) => u.id))
      return (await listRefinements(trx, simulation.id)).filter((r) => wanted.has(r.id))
    }),

  updateRefinement: async ({ params, body }, { db, user, clock }) =>
    db.transaction().execute(async (trx) => {
      const owner = await refinementOwner(trx, params.id)
      const simulation = await findEditableOwner(trx, user, owner, 'Refinement zone')
      await updateStoredRefinement(trx, simulation, params.id, body, clock.nowIso())
      await touchSimulation(trx, simulation, clock.nowIso())
      return findRefinement(trx, simulation.id, params.id)
    }),

  deleteRefinement: async ({ params }, { db, user, clock }) =>
    db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('refinements')
        .selectAll()
        .where('id', '=', params.id)
        .executeTakeFirst()
      const simulation = await findEditableOwner(trx, user, row?.simulation_id, 'Refinement zone')
      await trx.deleteFrom('refinements').where('id', '=', params.id).execute()
      await deleteUnusedMesh(trx, row!.mesh_id)
      await touchSimulation(trx, simulation, clock.nowIso())
      return { id: params.id }
    }),

  getAirDragDomain: async ({ params }, { db, user }) =>
    readAirDragDomain(db, (await findReadableSimulation(db, user, params.id)).id),

  updateAirDragDomain: async ({ params, body }, { db, user, clock }) =>
    db.transaction().execute(async (trx) => {
      const simulation = await findEditableSimulation(trx, user, params.id)
      const domain = await updateStoredAirDragDomain(trx, user, simulation, body, clock.nowIso())
      await touchSimulation(trx, simulation, clock.nowIso())
      return domain
    }),

  listPeriodics: async ({ params }, { db, user }) =>
    listPeriodics(db, (await findReadableSimulation(db, user, params.id)).id),

  createPeriodic: async ({ params, body }, { db, user, clock }) =>
    db.transaction().execute(async (trx) => {
      const simulation = await findEditableSimulation(trx, user, params.id)
      const periodic = await createStoredPeriodic(trx, simulation, body, clock.nowIso())
      await touchSimulation(trx, simulation, clock.nowIso())
      return periodic
    }),

  updatePeriodic: async ({ params, body }, { db, user, clock }) =>
    db.transaction().execute(async (trx) => {
      const row = await findPeriodicRow(trx, params.id)
      const simulation = await findEditableOwner(trx, user, row?.simulation_id, 'Periodic boundary')
      const periodic = await updateStoredPeriodic(trx, simulation, params.id, body, clock.nowIso())
      await touchSimulation(trx, simulation, clock.nowIso())
      return periodic
    }),

  deletePeriodic: async ({ params }, { db, user, clock }) =>
    db.transaction().execute(async (trx) => {
      const row = await findPeriodicRow(trx, params.id)
      const simulation = await findEditableOwner(trx, user, row?.simulation_id, 'Periodic boundary')
      await trx.deleteFrom('periodics').where('id', '=', params.id).execute()
      await touchSimulation(trx, simulation, clock.nowIso())
      return { id: params.id }
    }),
}
