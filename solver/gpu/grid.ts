/**
 * The GPU backend's cell grid (see README.md, 'The grid').
 */
import type { Box } from '../sph/grid.ts'
import type { GridShape } from './passes.ts'
import { gridShape } from './passes.ts'

/** A y range over which the domain repeats (options.periodicY). */
export interface PeriodY {
  min: number
  max: number
}

/**
 * The cell grid of the GPU: fixed for the run, cells one support wide, the 27-cell stencil.
 * Periodic along y (as the CPU's grid.ts), the grid spans exactly one period in whole cells
 * (`cellSizeY` = period / ny, one narrower cell if the period is) and the stencil reaches
 * `reachY` cells along y, through the period's images.
 */
export interface GpuGrid {
  origin: [number, number, number]
  cellSize: number
  cellSizeY: number
  dims: [number, number, number]
  /** The period along y, or null. */
  periodY: PeriodY | null
  /** Cells the stencil reaches along y each way: 1 unless a period is narrower than a cell. */
  reachY: number
  shape: GridShape
}

/** Cells of 2h (a hair wider) over the reference box; larger cells where there would be too many. */
export function gpuGrid(
  box: Box,
  support: number,
  particles: number,
  periodY: PeriodY | null = null,
): GpuGrid {
  const maxCells = Math.max(8 * particles, 1 << 16)
  const origin: [number, number, number] = [...box.min]
  const period = periodY ? periodY.max - periodY.min : 0
  if (periodY) origin[1] = periodY.min
  let cellSize = support * (1 + 1e-5)
  let cellSizeY = cellSize
  let dims: [number, number, number] = [1, 1, 1]
  for (;;) {
    dims = [0, 1, 2].map((c) =>
      Math.max(1, Math.floor((box.max[c]! - box.min[c]!) / cellSize) + 1),
    ) as [number, number, number]
    if (periodY) {
      dims[1] = Math.max(1, Math.floor(period / cellSize))
      cellSizeY = period / dims[1]
    } else cellSizeY = cellSize
    if (dims[0] * dims[1] * dims[2] <= maxCells) break
    cellSize *= Math.cbrt((dims[0] * dims[1] * dims[2]) / maxCells) * 1.01
  }
  return {
    origin,
    cellSize,
    cellSizeY,
    dims,
    periodY,
    reachY: periodY ? Math.max(1, Math.ceil(support / cellSizeY)) : 1,
    shape: gridShape(dims[0] * dims[1] * dims[2]),
  }
}
