/**
 * The air drag grid (domain/airDragGridFile.ts) as the results scene draws it: the box's outline
 * (its 12 edges as line segments) and a point at the centre of each cell. A grid of more cells
 * than `maxPoints` is drawn with every k-th cell along each axis (the same k on all three, the
 * smallest that fits), so the points stay a uniform lattice over the whole box. Pure: runs in Node.
 */
import type { AirDragGrid } from '../../domain/airDragGridFile.ts'

/** Most cell points drawn (a finer grid is drawn coarser). */
export const MAX_AIR_DRAG_GRID_POINTS = 100_000

/** What the scene draws of a grid. */
export interface AirDragGridGeometry {
  /** x y z of each end of the 12 edges, in turn (24 vertices). */
  outline: Float32Array
  /** x y z of each drawn cell centre. */
  points: Float32Array
  /** Every `stride`-th cell along each axis is drawn (1: all). */
  stride: number
}

/** The box's lower and upper corners. */
export function airDragGridBounds(grid: AirDragGrid): {
  min: [number, number, number]
  max: [number, number, number]
} {
  const max = grid.min.map((m, k) => m + grid.dims[k]! * grid.cellSize) as [number, number, number]
  return { min: [...grid.min], max }
}

/** The outline and the cell points of `grid` (at most `maxPoints` points). */
export function airDragGridGeometry(
  grid: AirDragGrid,
  maxPoints = MAX_AIR_DRAG_GRID_POINTS,
): AirDragGridGeometry {
  const { min, max } = airDragGridBounds(grid)
  const corner = (i: number) => [
    i & 1 ? max[0] : min[0],
    i & 2 ? max[1] : min[1],
    i & 4 ? max[2] : min[2],
  ]
  const edges = [0, 1, 2, 3, 4, 5, 6, 7, 0, 2, 1, 3, 4, 6, 5, 7, 0, 4, 1, 5, 2, 6, 3, 7]
  const outline = Float32Array.from(edges.flatMap(corner))
  const [nx, ny, nz] = grid.dims
  let stride = 1
  const drawn = (s: number) => Math.ceil(nx / s) * Math.ceil(ny / s) * Math.ceil(nz / s)
  while (drawn(stride) > maxPoints) stride++
  const points = new Float32Array(drawn(stride) * 3)
  let p = 0
  const h = grid.cellSize
  for (let k = 0; k < nz; k += stride)
    for (let j = 0; j < ny; j += stride)
      for (let i = 0; i < nx; i += stride) {
        points[p++] = min[0] + (i + 0.5) * h
        points[p++] = min[1] + (j + 0.5) * h
        points[p++] = min[2] + (k + 0.5) * h
      }
  return { outline, points, stride }
}
