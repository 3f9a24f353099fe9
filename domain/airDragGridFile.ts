/**
 * The air drag grid as GET /simulations/{id}/air_drag_domain/grid serves it (spec/results.md
 * 'fetch an air drag grid binary by URL as an array buffer'): the air drag domain's box divided
 * into cubic cells of its cell size, ⌈size / cellSize⌉ per axis (airDragCellCount), from the
 * box's lower corner. A 72-byte little-endian header and nothing else (the cells follow from it):
 *
 *   0 magic "DAGR" (uint32)   4 version (uint32)   8, 12, 16 cells along x, y, z (uint32)
 *  20 kind (uint32: 0 constant, 1 table, 2 simulation)
 *  24, 32, 40 lower corner x, y, z (float64, m)   48 cell size (float64, m)
 *  56, 60, 64 the air's velocity at the start (float32, m/s; NaN when it varies over the cells:
 *     kind simulation, or is not known: a table without rows)   68 reserved 0
 */
import { AIR_DRAG_KINDS, type AirDragKind } from './airDrag.ts'

/** "DAGR" as a little-endian uint32. */
export const AIR_DRAG_GRID_FILE_MAGIC = 0x52474144
export const AIR_DRAG_GRID_FILE_VERSION = 1
export const AIR_DRAG_GRID_FILE_BYTES = 72

/** The grid a file describes. */
export interface AirDragGrid {
  dims: [number, number, number]
  kind: AirDragKind
  /** The box's lower corner, m. */
  min: [number, number, number]
  cellSize: number
  /** The air's velocity at the start, m/s, or null where it varies over the cells or is unknown. */
  velocity: [number, number, number] | null
}

/** A grid file that cannot be read. */
export class AirDragGridFileError extends Error {
  override name = 'AirDragGridFileError'
}

/** The file's bytes. */
export function encodeAirDragGridFile(grid: AirDragGrid): Uint8Array {
  const bytes = new Uint8Array(AIR_DRAG_GRID_FILE_BYTES)
  const view = new DataView(bytes.buffer)
  view.setUint32(0, AIR_DRAG_GRID_FILE_MAGIC, true)
  view.setUint32(4, AIR_DRAG_GRID_FILE_VERSION, true)
  grid.dims.forEach((n, k) => view.setUint32(8 + 4 * k, n, true))
  view.setUint32(20, AIR_DRAG_KINDS.indexOf(grid.kind), true)
  grid.min.forEach((value, k) => view.setFloat64(24 + 8 * k, value, true))
  view.setFloat64(48, grid.cellSize, true)
  for (let k = 0; k < 3; k++) view.setFloat32(56 + 4 * k, grid.velocity?.[k] ?? NaN, true)
  view.setUint32(68, 0, true)
  return bytes
}

/** The grid of a file's bytes; throws AirDragGridFileError for anything else. */
export function decodeAirDragGridFile(bytes: Uint8Array): AirDragGrid {
  if (bytes.length !== AIR_DRAG_GRID_FILE_BYTES)
    throw new AirDragGridFileError(
      `Air drag grid file has ${bytes.length} bytes where ${AIR_DRAG_GRID_FILE_BYTES} are expected.`,
    )
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  if (view.getUint32(0, true) !== AIR_DRAG_GRID_FILE_MAGIC)
    throw new AirDragGridFileError('Not an air drag grid file.')
  const version = view.getUint32(4, true)
  if (version !== AIR_DRAG_GRID_FILE_VERSION)
    throw new AirDragGridFileError(`Air drag grid file version ${version} is not supported.`)
  const dims = [0, 1, 2].map((k) => view.getUint32(8 + 4 * k, true)) as [number, number, number]
  const kind = AIR_DRAG_KINDS[view.getUint32(20, true)]
  if (kind === undefined) throw new AirDragGridFileError('Air drag grid file has an unknown kind.')
  const min = [0, 1, 2].map((k) => view.getFloat64(24 + 8 * k, true)) as [number, number, number]
  const cellSize = view.getFloat64(48, true)
  const velocity = [0, 1, 2].map((k) => view.getFloat32(56 + 4 * k, true)) as [
    number,
    number,
    number,
  ]
  if (!(cellSize > 0) || ![...min].every(Number.isFinite) || dims.some((n) => n < 1))
    throw new AirDragGridFileError('Air drag grid file has no valid cells.')
  return { dims, kind, min, cellSize, velocity: velocity.every(Number.isFinite) ? velocity : null }
}
