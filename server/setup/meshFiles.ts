import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { Kysely } from 'kysely'
import {
  MESH_FILE_HEADER_BYTES,
  MESH_FILE_MAGIC,
  MESH_FILE_VERSION,
  MeshFileError,
  encodeMeshFile,
  type TriangleMesh,
} from '../../domain/meshFile.ts'
import type { Mesh } from '../../domain/meshes.ts'
import type { Shape } from '../../domain/parts.ts'
import type { Vec3 } from '../../domain/vector.ts'
import { buildBoxMesh, buildPlaneMesh } from '../../solver/geometry/mesh.ts'
import type { Database } from '../db/schema.ts'
import { buildMeshTriangles } from '../meshes/triangles.ts'
import { resolveStoredPath, writeStoredFile } from '../storage/files.ts'

/*
 * The bytes behind the setup's binary downloads. A part's mesh is served in its own coordinates
 * (the browser places it): plane and cube are built here (a few triangles); an STL part is its
 * stored upload, already DMSH in metres, streamed from disk as is. flipNormals is applied to the
 * served winding (vertices b and c of every triangle swapped), the way solver/geometry
 * transformMesh turns the mesh for the discretizer, so what is drawn is what the solver sees; a
 * mirroring scale is left to the browser, which places the mesh and turns the front face with a
 * negative determinant as three.js does. A flipped STL is written once next to the uploads
 * (mesh-cache/{organizationId}/{uploadId}-flipped.mesh) and streamed from there after that.
 * A sensor, clip or refinement mesh is served placed (world metres, server/meshes/triangles.ts).
 */

type Db = Kysely<Database>

/** A stored file (absolute path) and its size. */
export interface StoredFile {
  path: string
  sizeBytes: number
}
/** What a download sends: bytes built now, or a stored file streamed from disk. */
export type FileSource = { bytes: Uint8Array } | StoredFile

/** Swaps the 2nd and 3rd vertex of every triangle: the normals turn round. */
function flipWinding(indices: Uint32Array): Uint32Array {
  const flipped = Uint32Array.from(indices)
  for (let i = 0; i + 2 < flipped.length; i += 3) {
    const b = flipped[i + 1]!
    flipped[i + 1] = flipped[i + 2]!
    flipped[i + 2] = b
  }
  return flipped
}

function meshBytes(mesh: TriangleMesh, flipNormals: boolean): Uint8Array {
  return encodeMeshFile(flipNormals ? { ...mesh, indices: flipWinding(mesh.indices) } : mesh)
}

/** Where the flipped copy of an STL upload is cached, relative to the data directory. */
export function flippedMeshStoredPath(organizationId: number, uploadId: number): string {
  return join('mesh-cache', String(organizationId), `${uploadId}-flipped.mesh`)
}

/** The stored DMSH bytes with every triangle's winding reversed (checked first). */
export function flipMeshFileBytes(bytes: Uint8Array): Uint8Array {
  const out = Uint8Array.from(bytes)
  const view = new DataView(out.buffer)
  if (out.length < MESH_FILE_HEADER_BYTES || view.getUint32(0, true) !== MESH_FILE_MAGIC)
    throw new MeshFileError('Not a mesh file.')
  if (view.getUint32(4, true) !== MESH_FILE_VERSION)
    throw new MeshFileError('Mesh file version is not supported.')
  const vertexCount = view.getUint32(8, true)
  const triangleCount = view.getUint32(12, true)
  const indicesAt = MESH_FILE_HEADER_BYTES + vertexCount * 12
  if (out.length !== indicesAt + triangleCount * 12)
    throw new MeshFileError('Mesh file size does not match its counts.')
  for (let t = 0; t < triangleCount; t++) {
    const b = indicesAt + t * 12 + 4
    const c = b + 4
    const vertexB = view.getUint32(b, true)
    view.setUint32(b, view.getUint32(c, true), true)
    view.setUint32(c, vertexB, true)
  }
  return out
}

/** A stored file of the data directory, or null when it is not there. */
export async function findStoredFile(
  dataDir: string,
  storedPath: string,
): Promise<StoredFile | null> {
  const path = resolveStoredPath(dataDir, storedPath)
  try {
    const info = await stat(path)
    return info.isFile() ? { path, sizeBytes: info.size } : null
  } catch {
    return null
  }
}

/** Flipped copies being written now, so concurrent first requests write one file. */
const flipping = new Map<string, Promise<void>>()

async function flippedUploadSource(
  dataDir: string,
  upload: { id: number; organization_id: number; stored_path: string },
): Promise<StoredFile | null> {
  const cachedPath = flippedMeshStoredPath(upload.organization_id, upload.id)
  const cached = await findStoredFile(dataDir, cachedPath)
  if (cached) return cached
  const original = await findStoredFile(dataDir, upload.stored_path)
  if (!original) return null
  let writing = flipping.get(cachedPath)
  if (!writing) {
    writing = readFile(original.path)
      .then((bytes) =>
        writeStoredFile(dataDir, cachedPath, flipMeshFileBytes(new Uint8Array(bytes))),
      )
      .finally(() => flipping.delete(cachedPath))
    flipping.set(cachedPath, writing)
  }
  await writing
  return findStoredFile(dataDir, cachedPath)
}

/** The DMSH of a part's shape in its own coordinates, or null when the shape has none. */
export async function partMeshSource(
  db: Db,
  dataDir: string,
  organizationId: number,
  shape: Shape,
): Promise<FileSource | null> {
  switch (shape.type) {
    case 'plane':
      return { bytes: meshBytes(buildPlaneMesh(), shape.flipNormals) }
    case 'stl_cube': {
      const d = shape.dimensions
      if (d.some((c) => c === null || !(c > 0))) return null
      return { bytes: meshBytes(buildBoxMesh(d as Vec3), shape.flipNormals) }
    }
    case 'stl': {
      if (shape.fileId === null) return null
      const upload = await db
        .selectFrom('uploads')
        .select(['id', 'organization_id', 'stored_path', 'kind'])
        .where('id', '=', shape.fileId)
        .where('organization_id', '=', organizationId)
        .executeTakeFirst()
      if (!upload || upload.kind !== 'stl') return null
      return shape.flipNormals
        ? flippedUploadSource(dataDir, upload)
        : findStoredFile(dataDir, upload.stored_path)
    }
    default:
      return null
  }
}

/** The DMSH of a generated mesh, placed (3 vertices per triangle), or null when it has none. */
export function placedMeshBytes(mesh: Mesh): Uint8Array | null {
  if (mesh.kind === 'point' || mesh.kind === 'complex') return null
  let triangles: Float64Array
  try {
    triangles = buildMeshTriangles(mesh)
  } catch {
    return null
  }
  if (triangles.length === 0) return null
  const indices = new Uint32Array(triangles.length / 3)
  for (let i = 0; i < indices.length; i++) indices[i] = i
  return meshBytes({ positions: Float32Array.from(triangles), indices }, mesh.flipNormals)
}
