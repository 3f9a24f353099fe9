/**
 * The stored form of a mesh (what the setup API writes for an uploaded geometry, in metres):
 * a 16-byte little-endian header — magic "DMSH", version, vertex count, triangle count — then the
 * Float32 positions (xyz per vertex) and the Uint32 indices, each 4-byte aligned. Served as is by
 * GET /parts/{id}/mesh and decoded by the data workers, so it lives in domain/.
 */

/** A triangle mesh: xyz per vertex (metres) and three vertex indices per triangle. */
export interface TriangleMesh {
  positions: Float32Array
  indices: Uint32Array
}

/** "DMSH" as a little-endian uint32. */
export const MESH_FILE_MAGIC = 0x48534d44
export const MESH_FILE_VERSION = 1
export const MESH_FILE_HEADER_BYTES = 16

/** A stored mesh that cannot be read. */
export class MeshFileError extends Error {
  override name = 'MeshFileError'
}

/** The stored bytes of a mesh. */
export function encodeMeshFile(mesh: TriangleMesh): Uint8Array {
  const vertexCount = Math.floor(mesh.positions.length / 3)
  const triangleCount = Math.floor(mesh.indices.length / 3)
  const bytes = new Uint8Array(MESH_FILE_HEADER_BYTES + vertexCount * 12 + triangleCount * 12)
  const view = new DataView(bytes.buffer)
  view.setUint32(0, MESH_FILE_MAGIC, true)
  view.setUint32(4, MESH_FILE_VERSION, true)
  view.setUint32(8, vertexCount, true)
  view.setUint32(12, triangleCount, true)
  let offset = MESH_FILE_HEADER_BYTES
  for (let i = 0; i < vertexCount * 3; i++, offset += 4)
    view.setFloat32(offset, mesh.positions[i]!, true)
  for (let i = 0; i < triangleCount * 3; i++, offset += 4)
    view.setUint32(offset, mesh.indices[i]!, true)
  return bytes
}

/**
 * The mesh of stored bytes (fresh arrays, independent of `bytes`). Throws MeshFileError for a wrong
 * magic or version, a size that does not match the counts, or an index past the last vertex.
 */
export function decodeMeshFile(bytes: Uint8Array): TriangleMesh {
  if (bytes.length < MESH_FILE_HEADER_BYTES)
    throw new MeshFileError('Mesh file is shorter than its header.')
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (view.getUint32(0, true) !== MESH_FILE_MAGIC) throw new MeshFileError('Not a mesh file.')
  const version = view.getUint32(4, true)
  if (version !== MESH_FILE_VERSION)
    throw new MeshFileError(`Mesh file version ${version} is not supported.`)
  const vertexCount = view.getUint32(8, true)
  const triangleCount = view.getUint32(12, true)
  const expected = MESH_FILE_HEADER_BYTES + vertexCount * 12 + triangleCount * 12
  if (bytes.length !== expected)
    throw new MeshFileError(
      `Mesh file has ${bytes.length} bytes where its counts need ${expected}.`,
    )
  const positions = new Float32Array(vertexCount * 3)
  const indices = new Uint32Array(triangleCount * 3)
  let offset = MESH_FILE_HEADER_BYTES
  for (let i = 0; i < positions.length; i++, offset += 4)
    positions[i] = view.getFloat32(offset, true)
  for (let i = 0; i < indices.length; i++, offset += 4) {
    const index = view.getUint32(offset, true)
    if (index >= vertexCount)
      throw new MeshFileError(`Mesh file triangle ${Math.floor(i / 3)} refers to a missing vertex.`)
    indices[i] = index
  }
  return { positions, indices }
}
