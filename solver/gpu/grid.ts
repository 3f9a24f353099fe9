/**
 * The GPU backend's cell grid (see README.md, 'The grid').
 */
import type { Box } from '../sph/grid.ts'
import type { GridShape } from './passes.ts'
import { gridShape } from './passes.ts'

/** The cell grid of the GPU: fixed for the run, cells one support wide, the 27-cell stencil. */
export interface GpuGrid {
  origin: [number, number, number]
  cellSize: number
  dims: [number, number, number]
  shape: GridShape
}

/** Cells of 2h (a hair wider) over the reference box; larger cells where there would be too many. */
export function gpuGrid(box: Box, support: number, particles: number): GpuGrid {
  const maxCells = Math.max(8 * particles, 1 << 16)
  let cellSize = support * (1 + 1e-5)
  let dims: [number, number, number] = [1, 1, 1]
  for (;;) {
    dims = [0, 1, 2].map((c) =>
      Math.max(1, Math.floor((box.max[c]! - box.min[c]!) / cellSize) + 1),
    ) as [number, number, number]
    if (dims[0] * dims[1] * dims[2] <= maxCells) break
    cellSize *= Math.cbrt((dims[0] * dims[1] * dims[2]) / maxCells) * 1.01
  }
  return {
    origin: [...box.min],
    cellSize,
    dims,
    shape: gridShape(dims[0] * dims[1] * dims[2]),
  }
}
