import type { Kysely } from 'kysely'
import { encodeMeshFile, type TriangleMesh } from '../../domain/meshFile.ts'
import type { ComponentType } from '../../domain/parts.ts'
import { checkMeshHealth, countTriangles } from '../../solver/geometry/mesh.ts'
import type { SessionUser } from '../api/context.ts'
import type { Database, SimulationRow } from '../db/schema.ts'
import { createStoredPart, updateStoredParts } from '../setup/parts.ts'
import { readPart } from '../setup/store.ts'
import type { UploadInfo } from '../setup/views.ts'
import { uploadStoredPath, writeStoredFile } from '../storage/files.ts'

/*
 * Setup parts made from assembly parts (spec/setup.md §2: each tessellated part appears in the
 * Setup view). A tessellated mesh is stored as STL uploads are (server/storage: an `uploads` row
 * of kind 'stl' and its DMSH file in metres, named after the STEP file), and the setup part is an
 * 'stl' shape pointing at it, so GET /parts/{id}/mesh serves it and its meshUrl changes with each
 * tessellation. A new setup part takes the assembly part's name and component type; a
 * re-tessellation replaces only the mesh, keeping where the part was moved, turned or scaled.
 */

type Db = Kysely<Database>

interface SetupPartContext {
  db: Db
  dataDir: string
  nowIso: string
}

/** Stores a tessellated mesh as an STL upload of the organization; returns the upload id. */
export async function storeTessellatedMesh(
  context: SetupPartContext,
  upload: { organizationId: number; uploaderId: number | null; fileName: string },
  mesh: TriangleMesh,
): Promise<number> {
  const bytes = encodeMeshFile(mesh)
  const info: UploadInfo = {
    nbrOfTriangles: countTriangles(mesh),
    watertight: checkMeshHealth(mesh).watertight,
  }
  const { id } = await context.db
    .insertInto('uploads')
    .values({
      organization_id: upload.organizationId,
      uploader_id: upload.uploaderId,
      kind: 'stl',
      file_name: upload.fileName,
      unit: 'm',
      size_bytes: bytes.length,
      stored_path: '',
      info: JSON.stringify(info),
      created_at: context.nowIso,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  const storedPath = uploadStoredPath(upload.organizationId, id, 'stl')
  await context.db
    .updateTable('uploads')
    .set({ stored_path: storedPath })
    .where('id', '=', id)
    .execute()
  // Written last: inside the caller's transaction, a failed write rolls the row back.
  await writeStoredFile(context.dataDir, storedPath, bytes)
  return id
}

/**
 * Points the setup part `setupPartId` (when it still exists) at the upload, or makes a new setup
 * part of it. Returns the setup part's id.
 */
export async function placeTessellatedMesh(
  context: SetupPartContext & { simulation: SimulationRow; user: SessionUser },
  setupPartId: number | null,
  part: { name: string; componentType: ComponentType },
  uploadId: number,
): Promise<number> {
  const { db, simulation } = context
  const shape = { type: 'stl' as const, fileId: uploadId }
  const existing =
    setupPartId === null
      ? undefined
      : await db
          .selectFrom('parts')
          .select('id')
          .where('id', '=', setupPartId)
          .where('simulation_id', '=', simulation.id)
          .executeTakeFirst()
  if (existing) {
    await updateStoredParts(context, [{ id: existing.id, shape }])
    return existing.id
  }
  const created = await createStoredPart(context, context.user, {
    name: part.name,
    component: { type: part.componentType },
    shape,
  })
  return created.id
}

/** A rename or another component type of an assembly part, carried to its setup part. */
export async function syncSetupPart(
  context: SetupPartContext & { assembly: { simulation_id: number } },
  setupPartId: number,
  change: { name?: string | undefined; componentType?: ComponentType | undefined },
): Promise<void> {
  const simulation = await context.db
    .selectFrom('simulations')
    .selectAll()
    .where('id', '=', context.assembly.simulation_id)
    .executeTakeFirstOrThrow()
  const exists = await context.db
    .selectFrom('parts')
    .select('id')
    .where('id', '=', setupPartId)
    .executeTakeFirst()
  if (!exists) return
  await updateStoredParts({ ...context, simulation }, [
    {
      id: setupPartId,
      ...(change.name !== undefined && { name: change.name }),
      ...(change.componentType !== undefined && { component: { type: change.componentType } }),
    },
  ])
}

/**
 * The tessellation's warnings shown on the setup part it made (its Information folder), in place
 * of those of an earlier tessellation; the part's other warnings (mesh health, discretizer) stay.
 */
export async function carryTessellationWarnings(
  db: Kysely<Database>,
  setupPartId: number,
  warnings: readonly { errorCode: string; message: string }[],
): Promise<void> {
  const part = await readPart(db, setupPartId)
  const kept = part.warnings.filter((w) => !w.errorCode.startsWith(TESSELLATION_CODE_PREFIX))
  const carried = warnings.map(({ errorCode, message }) => ({ errorCode, message }))
  await db
    .updateTable('parts')
    .set({ warnings: JSON.stringify([...kept, ...carried]) })
    .where('id', '=', setupPartId)
    .execute()
}

/** Every tessellation warning's errorCode starts so (TESSELLATION_WARNING_CODES). */
export const TESSELLATION_CODE_PREFIX = 'tessellation_'
