import { createHash } from 'node:crypto'
import type { Kysely } from 'kysely'
import { readDiscretizationSummary } from '../../domain/discretization.ts'
import { MESH_FILE_VERSION } from '../../domain/meshFile.ts'
import { POINT_CLOUD_FILE_VERSION } from '../../domain/pointCloudFile.ts'
import type { PartFiles, Shape } from '../../domain/parts.ts'
import {
  PART_MESH_PATH,
  PART_POINTCLOUD_PATH,
  setupFileUrl,
} from '../../domain/rest/setupSchemas.ts'
import type { Database } from '../db/schema.ts'
import { findLatestDoneDiscretization, parseJson } from '../jobs/records.ts'

/*
 * The download fields of a part (domain/parts.ts PartFiles). The mesh hash covers only what
 * shapes the mesh in the part's own coordinates — the shape type, the STL upload (an upload's
 * file never changes), the cube's dimensions, flipNormals — so moving, turning or scaling a part
 * keeps its URL and the browser its cached mesh. A point cloud is named by the discretization
 * job that wrote it.
 */

type Db = Kysely<Database>

/** A part's point cloud in the latest successful discretization. */
export interface PartPointCloudRef {
  jobId: number
  count: number
}

function shortHash(key: unknown): string {
  return createHash('sha256').update(JSON.stringify(key)).digest('hex').slice(0, 16)
}

/** The own-coordinate mesh of a shape as hashed: null when the shape has no mesh. */
function meshKey(shape: Shape): object | null {
  const common = { format: MESH_FILE_VERSION, flipNormals: shape.flipNormals }
  switch (shape.type) {
    case 'plane':
      return { ...common, type: 'plane' }
    case 'stl_cube': {
      const dimensions = shape.dimensions
      if (dimensions.some((d) => d === null || !(d > 0))) return null
      return { ...common, type: 'stl_cube', dimensions }
    }
    case 'stl':
      return shape.fileId === null ? null : { ...common, type: 'stl', fileId: shape.fileId }
    default:
      return null
  }
}

/** The hash of a shape's own-coordinate mesh, or null when it has none. */
export function partMeshHash(shape: Shape): string | null {
  const key = meshKey(shape)
  return key === null ? null : shortHash(key)
}

/** The ETag (and URL version) of a part's point cloud of discretization `jobId`. */
export function pointCloudHash(partId: number, cloud: PartPointCloudRef): string {
  return shortHash({ format: POINT_CLOUD_FILE_VERSION, partId, ...cloud })
}

/**
 * The ETag of a pointcloud part's preview before any discretization: the reference output's
 * particles placed as the part places them. Null while the part names no reference output.
 */
export function referencePreviewHash(partId: number, shape: Shape): string | null {
  if (shape.type !== 'pointcloud') return null
  if (shape.refSimulationId === null || shape.refSimulationOutput === null) return null
  return shortHash({
    format: POINT_CLOUD_FILE_VERSION,
    partId,
    preview: [shape.refSimulationId, shape.refSimulationOutput],
    placement: [shape.translation, shape.rotation],
  })
}

/**
 * The download fields of a part with this shape and point cloud. A pointcloud part without
 * particles from a discretization offers its reference output's particles (count unknown: null).
 */
export function partFilesOf(
  part: { id: number; shape: Shape },
  pointCloud: PartPointCloudRef | undefined,
): PartFiles {
  const meshHash = partMeshHash(part.shape)
  const preview = pointCloud ? null : referencePreviewHash(part.id, part.shape)
  return {
    meshUrl: meshHash === null ? null : setupFileUrl(PART_MESH_PATH, part.id, meshHash),
    meshHash,
    pointcloudUrl: pointCloud
      ? setupFileUrl(PART_POINTCLOUD_PATH, part.id, pointCloudHash(part.id, pointCloud))
      : preview && setupFileUrl(PART_POINTCLOUD_PATH, part.id, preview),
    pointcloudCount: pointCloud?.count ?? null,
  }
}

/** The point clouds of the parts of a simulation's latest successful discretization, by part id. */
export async function readPartPointClouds(
  db: Db,
  simulationId: number,
): Promise<Map<number, PartPointCloudRef>> {
  const job = await findLatestDoneDiscretization(db, simulationId)
  const summary = job ? readDiscretizationSummary(parseJson(job.result)) : null
  const clouds = new Map<number, PartPointCloudRef>()
  if (!job || !summary) return clouds
  for (const part of summary.parts)
    if (part.particleCount > 0)
      clouds.set(part.partId, { jobId: job.id, count: part.particleCount })
  return clouds
}
