import type { Kysely } from 'kysely'
import type { Database } from '../db/schema.ts'

/**
 * Copies the meshes, sensors and volume clips of simulation `fromId` into `toId` (a clone: the
 * caller's transaction), each sensor and clip pointing at its mesh's copy. Samples are results of
 * a run, so they are not copied.
 */
export async function copySensorsAndClips(
  db: Kysely<Database>,
  fromId: number,
  toId: number,
  nowIso: string,
): Promise<void> {
  const meshes = new Map<number, number>()
  const meshRows = await db
    .selectFrom('meshes')
    .selectAll()
    .where('simulation_id', '=', fromId)
    .orderBy('id')
    .execute()
  for (const row of meshRows) {
    const { id } = await db
      .insertInto('meshes')
      .values({
        simulation_id: toId,
        kind: row.kind,
        definition: row.definition,
        nbr_of_triangles: row.nbr_of_triangles,
        created_at: nowIso,
        updated_at: nowIso,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    meshes.set(row.id, id)
  }
  const meshOf = (meshId: number | null) => (meshId === null ? null : (meshes.get(meshId) ?? null))
  const sensors = await db
    .selectFrom('sensors')
    .selectAll()
    .where('simulation_id', '=', fromId)
    .orderBy('id')
    .execute()
  for (const { id: _id, ...row } of sensors)
    await db
      .insertInto('sensors')
      .values({
        ...row,
        simulation_id: toId,
        mesh_id: meshOf(row.mesh_id),
        created_at: nowIso,
        updated_at: nowIso,
      })
      .execute()
  const clips = await db
    .selectFrom('volume_clips')
    .selectAll()
    .where('simulation_id', '=', fromId)
    .orderBy('id')
    .execute()
  for (const { id: _id, ...row } of clips)
    await db
      .insertInto('volume_clips')
      .values({
        ...row,
        simulation_id: toId,
        mesh_id: meshOf(row.mesh_id),
        created_at: nowIso,
        updated_at: nowIso,
      })
      .execute()
}
