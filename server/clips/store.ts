import type { Kysely } from 'kysely'
import * as v from 'valibot'
import { defaultAppearance, AppearanceSchema, type Appearance } from '../../domain/parts.ts'
import { defaultMesh, type Mesh, type VolumeClip } from '../../domain/meshes.ts'
import type { Database, VolumeClipsTable } from '../db/schema.ts'
import { fromFlag } from '../db/schema.ts'
import { readMeshesById } from '../meshes/store.ts'
import { parseJsonColumn } from '../setup/views.ts'

/*
 * Volume clips (spec/setup.md §3 "Volume clip"): a mesh (cube, cylinder, sphere or plane) that
 * masks the particles of one material (materialId) or of all (null); inverted keeps the outside.
 */

type Db = Kysely<Database>
type ClipRow = Omit<VolumeClipsTable, 'id' | 'inverted'> & { id: number; inverted: number }

/** A stored appearance, merged over the defaults of the `index`-th object. */
export function readAppearance(text: string, index: number): Appearance {
  const stored = parseJsonColumn(text)
  const parsed = v.safeParse(AppearanceSchema, {
    ...defaultAppearance(index),
    ...(typeof stored === 'object' && stored !== null ? stored : {}),
  })
  return parsed.success ? parsed.output : defaultAppearance(index)
}

/** A clip row with its mesh as the API returns it. */
export function toVolumeClip(row: ClipRow, mesh: Mesh | undefined, index: number): VolumeClip {
  return {
    id: row.id,
    name: row.name,
    mesh: mesh ?? defaultMesh('cube', row.mesh_id ?? 0),
    appearance: readAppearance(row.appearance, index),
    materialId: row.material_id,
    inverted: fromFlag(row.inverted),
    kind: 'volumeClip',
  }
}

/** The volume clips of a simulation with their meshes, oldest first. */
export async function listVolumeClips(db: Db, simulationId: number): Promise<VolumeClip[]> {
  const rows = await db
    .selectFrom('volume_clips')
    .selectAll()
    .where('simulation_id', '=', simulationId)
    .orderBy('id')
    .execute()
  const meshes = await readMeshesById(
    db,
    rows.flatMap((row) => (row.mesh_id === null ? [] : [row.mesh_id])),
  )
  return rows.map((row, index) =>
    toVolumeClip(row, row.mesh_id === null ? undefined : meshes.get(row.mesh_id), index),
  )
}
