import type { Kysely } from 'kysely'
import type { Database } from '../db/schema.ts'
import { parseJsonColumn } from './views.ts'

/*
 * A clone's copy of the refinement zones, the air drag domain and the periodic boundary, after
 * the meshes were copied (server/sensors/copy.ts copies every mesh of the simulation in id order).
 */

type Db = Kysely<Database>

/** Copies the setup objects of `fromId` into `toId`; `tables` maps copied datatable ids. */
export async function copySetupObjects(
  db: Db,
  fromId: number,
  toId: number,
  nowIso: string,
  tables: ReadonlyMap<number, number>,
): Promise<void> {
  const meshIds = async (simulationId: number) =>
    (
      await db
        .selectFrom('meshes')
        .select(['id'])
        .where('simulation_id', '=', simulationId)
        .orderBy('id')
        .execute()
    ).map((row) => row.id)
  const [from, to] = await Promise.all([meshIds(fromId), meshIds(toId)])
  const meshes = new Map(from.map((id, i) => [id, to[i] ?? null]))
  const zones = await db
    .selectFrom('refinements')
    .selectAll()
    .where('simulation_id', '=', fromId)
    .orderBy('id')
    .execute()
  for (const { id: _id, simulation_id: _s, ...zone } of zones)
    await db
      .insertInto('refinements')
      .values({
        ...zone,
        simulation_id: toId,
        mesh_id: zone.mesh_id === null ? null : (meshes.get(zone.mesh_id) ?? null),
        created_at: nowIso,
        updated_at: nowIso,
      })
      .execute()
  for (const table of ['air_drag_domains', 'periodics'] as const) {
    const rows = await db
      .selectFrom(table)
      .selectAll()
      .where('simulation_id', '=', fromId)
      .orderBy('id')
      .execute()
    for (const row of rows) {
      const definition = (parseJsonColumn(row.definition) ?? {}) as Record<string, unknown>
      if (typeof definition.tableId === 'number')
        definition.tableId = tables.get(definition.tableId) ?? null
      await db
        .insertInto(table)
        .values({
          simulation_id: toId,
          definition: JSON.stringify(definition),
          created_at: nowIso,
          updated_at: nowIso,
        })
        .execute()
    }
  }
}
