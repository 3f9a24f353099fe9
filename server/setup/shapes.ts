import type { Kysely } from 'kysely'
import {
  PART_MESSAGES,
  referenceOutputsMessage,
  type Shape,
  type ShapeInfo,
  type ShapeType,
  type ShapeUpdate,
} from '../../domain/parts.ts'
import type { Vec3 } from '../../domain/vector.ts'
import {
  buildBoxMesh,
  buildPlaneMesh,
  computeShapeInfo,
  transformMesh,
  type TriangleMesh,
} from '../../solver/geometry/mesh.ts'
import { findAccessibleSimulation } from '../api/access.ts'
import { ApiError } from '../api/apiError.ts'
import type { SessionUser } from '../api/context.ts'
import type { Database } from '../db/schema.ts'
import { readStoredMesh } from '../storage/files.ts'
import { refuseField } from './issues.ts'

/*
 * Shapes of parts: defaults per type, the stored mesh behind an 'stl' shape, the reference
 * simulation behind a 'pointcloud' shape, and the geometry facts (ShapeInfo) of the placed mesh,
 * recomputed whenever the shape changes.
 */

type Db = Kysely<Database>

/** A new shape of `type`: unit placement; a 1 m cube; full resolution. */
export function defaultShape(type: ShapeType): Shape {
  const common = {
    translation: [0, 0, 0] as Vec3,
    scale: [1, 1, 1] as Vec3,
    rotation: [0, 0, 0] as Vec3,
    flipNormals: false,
    info: null,
  }
  switch (type) {
    case 'plane':
      return { type, ...common }
    case 'stl':
      return { type, ...common, resolution: 1, fileId: null, fileName: null, fileExtension: null }
    case 'stl_cube':
      return { type, ...common, dimensions: [1, 1, 1] }
    case 'pointcloud':
      return {
        type,
        ...common,
        refSimulationId: null,
        refSimulationOutput: null,
        splittingRatio: 1,
      }
    case 'empty':
      return { type, ...common }
  }
}

/** `update` over `existing` when the type stays, else over the type's defaults. */
export function mergeShape(existing: Shape | undefined, update: ShapeUpdate): Shape {
  const base = existing?.type === update.type ? existing : defaultShape(update.type)
  return { ...base, ...update } as Shape
}

/** The STL upload behind a shape's fileId, checked to belong to the organization. */
export async function findStlUpload(
  db: Db,
  organizationId: number,
  fileId: number,
): Promise<{ id: number; file_name: string; stored_path: string }> {
  const upload = await db
    .selectFrom('uploads')
    .select(['id', 'file_name', 'stored_path', 'kind'])
    .where('id', '=', fileId)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst()
  if (!upload || upload.kind !== 'stl')
    throw refuseField('shape.fileId', 'The STL file was not found.')
  return upload
}

/** The shape's mesh in its own coordinates, or null for shapes without one (empty, pointcloud, unset). */
export async function loadShapeMesh(
  db: Db,
  dataDir: string,
  organizationId: number,
  shape: Shape,
): Promise<TriangleMesh | null> {
  switch (shape.type) {
    case 'plane':
      return buildPlaneMesh()
    case 'stl_cube': {
      const d = shape.dimensions
      if (d.some((c) => c === null || !(c > 0))) return null
      return buildBoxMesh(d as Vec3)
    }
    case 'stl': {
      if (shape.fileId === null) return null
      const upload = await findStlUpload(db, organizationId, shape.fileId)
      return readStoredMesh(dataDir, upload.stored_path)
    }
    default:
      return null
  }
}

/** Geometry facts of the placed mesh, or null when the shape has no mesh or an unset placement. */
export function placedShapeInfo(shape: Shape, mesh: TriangleMesh | null): ShapeInfo | null {
  if (!mesh) return null
  const placement = [...shape.translation, ...shape.rotation, ...shape.scale]
  if (placement.some((c) => c !== null && !Number.isFinite(c))) return null
  return computeShapeInfo(transformMesh(mesh, shape))
}

/**
 * Fills the file name and extension of an 'stl' shape from its upload (refused when the upload is
 * not the organization's STL) and recomputes the shape's info.
 */
export async function resolveShape(
  db: Db,
  dataDir: string,
  organizationId: number,
  shape: Shape,
): Promise<Shape> {
  let resolved = shape
  if (shape.type === 'stl' && shape.fileId !== null) {
    const upload = await findStlUpload(db, organizationId, shape.fileId)
    const dot = upload.file_name.lastIndexOf('.')
    resolved = {
      ...shape,
      fileName: dot > 0 ? upload.file_name.slice(0, dot) : upload.file_name,
      fileExtension: dot > 0 ? upload.file_name.slice(dot + 1).toLowerCase() : null,
    }
  }
  if (shape.type === 'pointcloud') await assertReferenceOutputs(db, organizationId, shape)
  const mesh = await loadShapeMesh(db, dataDir, organizationId, resolved)
  return { ...resolved, info: placedShapeInfo(resolved, mesh) }
}

/**
 * A pointcloud part may only name a simulation the editing user sees (its organization; a
 * contributor only their own projects): else the reference is refused as not found.
 */
export async function assertReferenceReadable(
  db: Db,
  user: SessionUser,
  refSimulationId: number,
): Promise<void> {
  await findAccessibleSimulation(db, user, refSimulationId).catch((error: unknown) => {
    if (error instanceof ApiError && error.code === 'resource_not_found')
      throw refuseField('shape.refSimulationId', PART_MESSAGES.referenceNotFound)
    throw error
  })
}

/**
 * A pointcloud part takes its particles from an output of another simulation of the
 * organization: that simulation must exist and have written outputs, and the output must be one
 * of them (outputs count from 0 up to the active run's last).
 */
async function assertReferenceOutputs(
  db: Db,
  organizationId: number,
  shape: Extract<Shape, { type: 'pointcloud' }>,
): Promise<void> {
  if (shape.refSimulationId === null) return
  const reference = await db
    .selectFrom('simulations')
    .leftJoin('runs', 'runs.id', 'simulations.active_run_id')
    .select(['simulations.id', 'runs.last_output'])
    .where('simulations.id', '=', shape.refSimulationId)
    .where('simulations.organization_id', '=', organizationId)
    .executeTakeFirst()
  if (!reference) throw refuseField('shape.refSimulationId', PART_MESSAGES.referenceNotFound)
  if (reference.last_output === null)
    throw refuseField('shape.refSimulationId', PART_MESSAGES.referenceWithoutOutputs)
  const output = shape.refSimulationOutput
  if (output !== null && output > reference.last_output)
    throw refuseField(
      'shape.refSimulationOutput',
      referenceOutputsMessage(reference.last_output + 1),
    )
}
