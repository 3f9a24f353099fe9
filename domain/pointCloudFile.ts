/**
 * The stored form of a part's point cloud (its particles from the latest discretization, world
 * metres): a 16-byte little-endian header — magic "DPCL", version, point count, reserved 0 — then
 * Float32 xyz per point. Written by the discretization job, served as is by
 * GET /parts/{id}/pointcloud and decoded by the browser's data workers.
 */

/** "DPCL" as a little-endian uint32. */
export const POINT_CLOUD_FILE_MAGIC = 0x4c435044
export const POINT_CLOUD_FILE_VERSION = 1
export const POINT_CLOUD_FILE_HEADER_BYTES = 16

/** A stored point cloud that cannot be read. */
export class PointCloudFileError extends Error {
  override name = 'PointCloudFileError'
}

/** The stored bytes of `count` points given as xyz (any numeric array of length 3·count). */
export function encodePointCloudFile(positions: ArrayLike<number>): Uint8Array {
  const count = Math.floor(positions.length / 3)
  const bytes = new Uint8Array(POINT_CLOUD_FILE_HEADER_BYTES + count * 12)
  const view = new DataView(bytes.buffer)
  view.setUint32(0, POINT_CLOUD_FILE_MAGIC, true)
  view.setUint32(4, POINT_CLOUD_FILE_VERSION, true)
  view.setUint32(8, count, true)
  view.setUint32(12, 0, true)
  const xyz = new Float32Array(bytes.buffer, POINT_CLOUD_FILE_HEADER_BYTES, count * 3)
  for (let i = 0; i < count * 3; i++) xyz[i] = positions[i]!
  return bytes
}

/**
 * The points of stored bytes as xyz (a fresh array, independent of `bytes`). Throws
 * PointCloudFileError for a wrong magic or version, or a size that does not match the count.
 */
export function decodePointCloudFile(bytes: Uint8Array): {
  positions: Float32Array
  count: number
} {
  if (bytes.length < POINT_CLOUD_FILE_HEADER_BYTES)
    throw new PointCloudFileError('Point cloud file is shorter than its header.')
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (view.getUint32(0, true) !== POINT_CLOUD_FILE_MAGIC)
    throw new PointCloudFileError('Not a point cloud file.')
  const version = view.getUint32(4, true)
  if (version !== POINT_CLOUD_FILE_VERSION)
    throw new PointCloudFileError(`Point cloud file version ${version} is not supported.`)
  const count = view.getUint32(8, true)
  const expected = POINT_CLOUD_FILE_HEADER_BYTES + count * 12
  if (bytes.length !== expected)
    throw new PointCloudFileError(
      `Point cloud file has ${bytes.length} bytes where its count needs ${expected}.`,
    )
  const positions = new Float32Array(count * 3)
  for (let i = 0, offset = POINT_CLOUD_FILE_HEADER_BYTES; i < count * 3; i++, offset += 4)
    positions[i] = view.getFloat32(offset, true)
  return { positions, count }
}
