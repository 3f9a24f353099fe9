import type { Kysely } from 'kysely'
import type { Mesh, VolumeClip, VolumeClipBulkUpdate } from '../../../domain/meshes.ts'
import { checkAppearance, defaultAppearance, makeUniqueName } from '../../../domain/parts.ts'
import {
  SENSOR_ROUTES,
  VOLUME_CLIP_MESH_KINDS,
  VOLUME_CLIP_MESH_MESSAGE,
} from '../../../domain/rest/sensorRoutes.ts'
import { listVolumeClips, readAppearance } from '../../clips/store.ts'
import type { Database, SimulationRow } from '../../db/schema.ts'
import { toFlag } from '../../db/schema.ts'
import { readSimulationMesh } from '../../meshes/store.ts'
import { refuseField, refuseIssues } from '../../setup/issues.ts'
import { findObjectSimulation, listObjectNames } from '../../sensors/access.ts'
import { findAccessibleSimulation } from '../access.ts'
import { notFound } from '../apiError.ts'
import type { AreaHandlers } from '../context.ts'

/*
 * Volume clips (domain/rest/sensorRoutes.ts): a mesh masking the particles of one material or all,
 * named uniquely against parts, sensors and other clips.
 */

type Db = Kysely<Database>

/** Whether a volume clip can mask with a mesh of this kind. */
export function isClipKind(kind: Mesh['kind']): boolean {
  return (VOLUME_CLIP_MESH_KINDS as readonly string[]).includes(kind)
}

async function readClipRow(db: Db, id: number) {
  return db.selectFrom('volume_clips').selectAll().where('id', '=', id).executeTakeFirst()
}

/** A mesh of the simulation a volume clip can mask with (400 otherwise). */
async function readClipMesh(db: Db, simulationId: number, meshId: number): Promise<Mesh> {
  const mesh = await readSimulationMesh(db, simulationId, meshId)
  if (!isClipKind(mesh.kind)) throw refuseField('meshId', VOLUME_CLIP_MESH_MESSAGE)
  return mesh
}

/** Applies one volume clip update inside a transaction. */
async function applyClipUpdate(
  db: Db,
  simulation: SimulationRow,
  update: VolumeClipBulkUpdate[number],
  index: number,
  nowIso: string,
): Promise<void> {
  const row = await readClipRow(db, update.id)
  if (!row || row.simulation_id !== simulation.id) throw notFound('Volume clip')
  if (update.meshId !== undefined) await readClipMesh(db, simulation.id, update.meshId)
  if (update.materialId !== undefined && update.materialId !== null)
    await assertMaterialExists(db, simulation.id, update.materialId)
  const appearance = { ...readAppearance(row.appearance, index), ...update.appearance }
  const appearanceErrors = checkAppearance(appearance).filter((i) => i.level === 'error')
  if (appearanceErrors.length > 0) throw refuseIssues(appearanceErrors)
  const name =
    update.name !== undefined
      ? makeUniqueName(
          update.name,
          await listObjectNames(db, simulation.id, { table: 'volume_clips', id: update.id }),
        )
      : row.name
  await db
    .updateTable('volume_clips')
    .set({
      name,
      mesh_id: update.meshId ?? row.mesh_id,
      material_id: update.materialId !== undefined ? update.materialId : row.material_id,
      inverted: update.inverted !== undefined ? toFlag(update.inverted) : row.inverted,
      appearance: JSON.stringify(appearance),
      updated_at: nowIso,
    })
    .where('id', '=', update.id)
    .execute()
}

async function assertMaterialExists(db: Db, simulationId: number, materialId: number) {
  const material = await db
    .selectFrom('materials')
    .select(['id'])
    .where('simulation_id', '=', simulationId)
    .where('material_id', '=', materialId)
    .executeTakeFirst()
  if (!material)
    throw refuseField('materialId', `Material ${materialId} does not exist in this simulation.`)
}

/** Deletes a mesh nobody uses any more (a sensor's or clip's own mesh). */
export async function deleteOrphanMesh(db: Db, meshId: number | null): Promise<void> {
  if (meshId === null) return
  const [sensor, clip] = await Promise.all([
    db.selectFrom('sensors').select(['id']).where('mesh_id', '=', meshId).executeTakeFirst(),
    db.selectFrom('volume_clips').select(['id']).where('mesh_id', '=', meshId).executeTakeFirst(),
  ])
  if (!sensor && !clip) await db.deleteFrom('meshes').where('id', '=', meshId).execute()
}

async function findClip(db: Db, simulationId: number, id: number): Promise<VolumeClip> {
  const clip = (await listVolumeClips(db, simulationId)).find((c) => c.id === id)
  if (!clip) throw notFound('Volume clip')
  return clip
}

/** The volume clip handlers of SENSOR_ROUTES. */
export const volumeClipHandlers: Pick<
  AreaHandlers<typeof SENSOR_ROUTES>,
  'listVolumeClips' | 'createVolumeClip' | 'updateVolumeClips' | 'deleteVolumeClip'
> = {
  listVolumeClips: async ({ params }, { db, user }) => {
    const simulation = await findAccessibleSimulation(db, user, params.id)
    return listVolumeClips(db, simulation.id)
  },
  createVolumeClip: async ({ params, body }, { db, user, clock }) => {
    const simulation = await findAccessibleSimulation(db, user, params.id)
    await readClipMesh(db, simulation.id, body.meshId)
    if (body.materialId !== null) await assertMaterialExists(db, simulation.id, body.materialId)
    const count = (await listVolumeClips(db, simulation.id)).length
    const appearance = { ...defaultAppearance(count), ...body.appearance }
    const appearanceErrors = checkAppearance(appearance).filter((i) => i.level === 'error')
    if (appearanceErrors.length > 0) throw refuseIssues(appearanceErrors)
    const name = makeUniqueName(body.name, await listObjectNames(db, simulation.id))
    const nowIso = clock.nowIso()
    const { id } = await db
      .insertInto('volume_clips')
      .values({
        simulation_id: simulation.id,
        name,
        mesh_id: body.meshId,
        material_id: body.materialId,
        inverted: toFlag(body.inverted),
        appearance: JSON.stringify(appearance),
        created_at: nowIso,
        updated_at: nowIso,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    return findClip(db, simulation.id, id)
  },
  updateVolumeClips: async ({ params, body }, { db, user, clock }) => {
    const simulation = await findAccessibleSimulation(db, user, params.id)
    const nowIso = clock.nowIso()
    await db.transaction().execute(async (trx) => {
      const existing = await listVolumeClips(trx, simulation.id)
      for (const update of body)
        await applyClipUpdate(
          trx,
          simulation,
          update,
          Math.max(
            0,
            existing.findIndex((c) => c.id === update.id),
          ),
          nowIso,
        )
    })
    const wanted = new Set(body.map((u) => u.id))
    return (await listVolumeClips(db, simulation.id)).filter((c) => wanted.has(c.id))
  },
  deleteVolumeClip: async ({ params }, { db, user }) => {
    const row = await readClipRow(db, params.id)
    await findObjectSimulation(db, user, row?.simulation_id, 'Volume clip')
    await db.deleteFrom('volume_clips').where('id', '=', params.id).execute()
    await deleteOrphanMesh(db, row!.mesh_id)
    return { id: params.id }
  },
}
