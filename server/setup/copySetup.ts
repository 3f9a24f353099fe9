import type { Kysely } from 'kysely'
import type { Database } from '../db/schema.ts'
import { copySensorsAndClips } from '../sensors/copy.ts'
import { copySetupObjects } from './copyObjects.ts'
import { parseJsonColumn } from './views.ts'

/*
 * A clone copies the setup: materials, datatables, parts, movements and their links (and the
 * meshes, sensors and volume clips, server/sensors/copy.ts; refinement zones, the air drag
 * domain and the periodic boundary, copyObjects.ts), with every
 * id reference (tables, movements, parts) pointing at the copies. Uploads belong to the
 * organization and are shared, not copied.
 */

type Db = Kysely<Database>

function remap(value: unknown, ids: ReadonlyMap<number, number>): number | null {
  return typeof value === 'number' ? (ids.get(value) ?? null) : null
}

/** Copies the setup of simulation `fromId` into the fresh simulation `toId` (caller's transaction). */
export async function copySetup(
  db: Db,
  fromId: number,
  toId: number,
  nowIso: string,
): Promise<void> {
  const tables = new Map<number, number>()
  for (const row of await db
    .selectFrom('datatables')
    .selectAll()
    .where('simulation_id', '=', fromId)
    .orderBy('id')
    .execute()) {
    const { id } = await db
      .insertInto('datatables')
      .values({
        organization_id: row.organization_id,
        simulation_id: toId,
        kind: row.kind,
        headers: row.headers,
        columns: row.columns,
        created_at: nowIso,
        updated_at: nowIso,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    tables.set(row.id, id)
  }

  for (const row of await db
    .selectFrom('materials')
    .selectAll()
    .where('simulation_id', '=', fromId)
    .execute()) {
    const properties = (parseJsonColumn(row.properties) ?? {}) as Record<string, unknown>
    for (const key of ['viscosityShearRateTableId', 'viscosityTemperatureTableId'])
      if (key in properties) properties[key] = remap(properties[key], tables)
    await db
      .insertInto('materials')
      .values({
        simulation_id: toId,
        material_id: row.material_id,
        properties: JSON.stringify(properties),
        created_at: nowIso,
      })
      .execute()
  }

  const parts = new Map<number, number>()
  const partRows = await db
    .selectFrom('parts')
    .selectAll()
    .where('simulation_id', '=', fromId)
    .orderBy('id')
    .execute()
  const components = new Map<number, Record<string, unknown>>()
  for (const row of partRows) {
    const component = (parseJsonColumn(row.component) ?? {}) as Record<string, unknown>
    for (const key of ['ioTableId', 'initialDistributionTableId'])
      if (key in component) component[key] = remap(component[key], tables)
    const { id } = await db
      .insertInto('parts')
      .values({
        simulation_id: toId,
        organization_id: row.organization_id,
        created_by: row.created_by,
        name: row.name,
        kind: row.kind,
        material_id: row.material_id,
        seed_point: row.seed_point,
        component: JSON.stringify(component),
        shape: row.shape,
        appearance: row.appearance,
        warnings: row.warnings,
        created_at: nowIso,
        updated_at: nowIso,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    parts.set(row.id, id)
    components.set(id, component)
  }

  const movements = new Map<number, number>()
  for (const row of await db
    .selectFrom('movements')
    .selectAll()
    .where('simulation_id', '=', fromId)
    .orderBy('id')
    .execute()) {
    const partId = parts.get(row.part_id)
    if (partId === undefined) continue
    const { id } = await db
      .insertInto('movements')
      .values({
        simulation_id: toId,
        part_id: partId,
        type: row.type,
        name: row.name,
        motion: row.motion,
        created_at: nowIso,
        updated_at: nowIso,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    movements.set(row.id, id)
  }
  if (movements.size > 0) {
    const links = await db
      .selectFrom('movement_links')
      .selectAll()
      .where('follower_id', 'in', [...movements.keys()])
      .execute()
    for (const link of links) {
      const leader = movements.get(link.leader_id)
      const follower = movements.get(link.follower_id)
      if (leader !== undefined && follower !== undefined)
        await db
          .insertInto('movement_links')
          .values({ leader_id: leader, follower_id: follower })
          .execute()
    }
  }

  // A moving wall's velocity condition names a movement: point it at the copy.
  for (const [partId, component] of components) {
    if (typeof component.velocityConditionMovementId !== 'number') continue
    component.velocityConditionMovementId = remap(component.velocityConditionMovementId, movements)
    await db
      .updateTable('parts')
      .set({ component: JSON.stringify(component) })
      .where('id', '=', partId)
      .execute()
  }

  await copySensorsAndClips(db, fromId, toId, nowIso)
  await copySetupObjects(db, fromId, toId, nowIso, tables)
}
