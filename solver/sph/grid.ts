/**
 * Cell-linked lists: particles are sorted by cell (counting sort, stable) so that each cell is a
 * contiguous index range and a row of neighbouring cells along x is one range too.
 *
 * With reach 1, cells are at least 2h wide and the 27-cell stencil is 9 ranges; with reach r,
 * cells are at least 2h/r wide and the stencil is (2r + 1)² ranges covering a volume of
 * ((2r + 1)·2h/r)³ around a particle: (6h)³, (5h)³, (4.67h)³ for r = 1, 2, 3, so fewer
 * candidates per neighbour found.
 *
 * Coordinates outside the grid box are clamped to its edge cells: clamping is monotone and never
 * moves two particles more than `reach` cells apart when they are closer than 2h, so neighbours
 * are still found (only speed suffers if many pile up there).
 */
import type { ParticleArrays } from './particles.ts'
import type { PermuteScratch } from './permute.ts'
import { permuteScratchBytes, permuteStage, permuteStages, viewPermuteScratch } from './permute.ts'
import {
  blockCellsLength,
  boundBlockCells,
  boundParticles,
  computeCellKeys,
  foldBounds,
  foldCounts,
  SORT_KEY,
  sortBlockLength,
  writeCellGrid,
  writeSortHead,
} from './cellKeys.ts'
import { countCells, foldCellBases, scatterCells, splitCellRanges } from './cellCount.ts'

/** Layout of the shared grid parameter block (Float64Array). */
export const GRID_PARAM = {
  originX: 0,
  originY: 1,
  originZ: 2,
  cellSize: 3,
  nx: 4,
  ny: 5,
  nz: 6,
  particleCount: 7,
  cellCount: 8,
  /** Stencil reach in cells: neighbours lie within ±reach cells (cell size ≥ 2h / reach). */
  reach: 9,
  /** Counts the sorts: per-cell marks of the current sort equal it (see dryGeneration). */
  generation: 10,
  /** Cell size along y: cellSize, or the period / ny when y is periodic. */
  cellSizeY: 11,
  /** Period along y (0: not periodic). */
  periodY: 12,
  /** Stencil reach in cells along y (reach, or more when the period is under one cell). */
  reachY: 13,
} as const
export const GRID_PARAM_LENGTH = 14

/** Cells per block of the per-thread work estimate (workSplit.ts), and its values per block. */
export const WORK_BLOCK_CELLS = 2
export const WORK_STRIDE = 2

export interface Box {
  min: [number, number, number]
  max: [number, number, number]
}

export interface GridBuffers {
  params: SharedArrayBuffer
  /** cellStart[c] .. cellStart[c + 1] are the particles of cell c; length maxCells + 2. */
  cellStart: SharedArrayBuffer
  /** Fluid particles in the cells before c (prefix sums in cell order); length maxCells + 1. */
  fluidBefore: SharedArrayBuffer
  /**
   * Per cell: the sort generation in which its stencil was found to hold no fluid (wall passes
   * skip such cells until the next sort); length maxCells.
   */
  dryGeneration: SharedArrayBuffer
  /** Per block of WORK_BLOCK_CELLS cells: the estimated work of two passes (workSplit.ts). */
  work: SharedArrayBuffer
  maxCells: number
}

export function allocateGridBuffers(maxCells: number): GridBuffers {
  return {
    params: new SharedArrayBuffer(GRID_PARAM_LENGTH * 8),
    cellStart: new SharedArrayBuffer((maxCells + 2) * 4),
    fluidBefore: new SharedArrayBuffer((maxCells + 1) * 4),
    dryGeneration: new SharedArrayBuffer(Math.max(maxCells, 1) * 4),
    work: new SharedArrayBuffer(
      WORK_STRIDE * (Math.ceil(Math.max(maxCells, 1) / WORK_BLOCK_CELLS) + 1) * 8,
    ),
    maxCells,
  }
}

export interface SortRequest {
  count: number
  /** The support radius 2h. */
  support: number
  /** Stencil reach in cells (1 or 2): cells are at least support / reach wide. */
  reach: number
  /** Grid box limit; particles beyond it are clamped into its edge cells. */
  referenceBox: Box
  /** Fluid particles outside this box are deleted (calculation domain), or null. */
  deletionBox: Box | null
  /**
   * Periodic along y: positions are wrapped into [min, max) and the grid spans exactly one
   * period, so that a stencil can reach across it (see fillStencilRows). null: not periodic.
   */
  periodicY?: { min: number; max: number } | null
}

export interface SortResult {
  count: number
  /** Fluid particles removed because they left the calculation domain. */
  deletedOutside: number
  /** Particles removed because a coordinate was not finite. */
  deletedInvalid: number
  /** Fluid particles kept. */
  fluidCount: number
}

/** What a CellSorter runs on all threads (a PhaseRunner's phases; see its constructor). */
export interface ParallelSort {
  threads: number
  /** The sort block (cellKeys.ts) the threads read and write. */
  block: Float64Array
  /** boundParticles over `count` particles, each thread its sortRange. */
  bounds: (count: number) => void
  /** computeCellKeys and boundBlockCells over `count` particles, each thread its sortRange. */
  keys: (count: number) => void
  /** countCells, then scatterCells, each thread its cells (cellCount.ts). */
  count: () => void
  scatter: () => void
  /** The counting sort's per-cell counts, then cursors (shared; maxCells + 2). */
  cursor: Int32Array
  permutation: Int32Array
  /** permuteStage `stage` on all threads, over the block's SORT_KEY.kept particles. */
  permute: (stage: number) => void
}

/** Sorts particles by cell, drops deleted ones, and fills the grid parameters and cell starts. */
export class CellSorter {
  #arrays: ParticleArrays
  #params: Float64Array
  #cellStart: Int32Array
  #fluidBefore: Int32Array
  #maxCells: number
  #cursor: Int32Array
  /** The blocks' cell bounds of the sort's scans when it runs alone (cellKeys.ts). */
  #blockCells: Int32Array
  #permutation: Int32Array
  /** The permutation's scratch when the sorter runs alone (permute.ts). */
  #scratch: PermuteScratch | null
  #permuteStages: number
  #parallel: ParallelSort | null
  /** The per-particle loops' parameters and results (cellKeys.ts), shared with the threads. */
  #block: Float64Array

  /**
   * With `parallel`, the per-particle loops run on all threads (`bounds`, `keys`, over the shared
   * `block`), and so does the counting sort (`count`, `scatter`, through the shared `cursor`)
   * into the shared `parallel.permutation`; `parallel.permute(stage)` applies it to the particle
   * fields, stage by stage (see permuteStage). Without it, the sorting thread does all of it alone.
   */
  constructor(arrays: ParticleArrays, grid: GridBuffers, parallel?: ParallelSort) {
    this.#arrays = arrays
    this.#params = new Float64Array(grid.params)
    this.#cellStart = new Int32Array(grid.cellStart)
    this.#fluidBefore = new Int32Array(grid.fluidBefore)
    this.#maxCells = grid.maxCells
    this.#cursor = parallel?.cursor ?? new Int32Array(grid.maxCells + 2)
    this.#blockCells = new Int32Array(parallel ? 0 : blockCellsLength(arrays.capacity))
    const capacity = Math.max(arrays.capacity, 1)
    this.#permutation = parallel?.permutation ?? new Int32Array(capacity)
    this.#scratch = parallel
      ? null
      : viewPermuteScratch(new ArrayBuffer(permuteScratchBytes(capacity, 1)), capacity, 1)
    this.#permuteStages = permuteStages(parallel?.threads ?? 1)
    this.#parallel = parallel ?? null
    this.#block = parallel?.block ?? new Float64Array(sortBlockLength(1))
  }

  sort(request: SortRequest): SortResult {
    const a = this.#arrays
    const count = request.count
    const ref = request.referenceBox
    const periodic = request.periodicY ?? null
    const periodY = periodic ? periodic.max - periodic.min : 0
    if (periodic && !(periodY > 0)) throw new RangeError('The periodic y range must not be empty.')
    const block = this.#block
    writeSortHead(block, count, periodic)
    if (this.#parallel) this.#parallel.bounds(count)
    else boundParticles(a, 0, count, block, 0)
    const slots = this.#parallel?.threads ?? 1
    let [minX, minY, minZ, maxX, maxY, maxZ] = foldBounds(block, slots)
    if (!(minX <= maxX)) {
      minX = maxX = ref.min[0]
      minY = maxY = ref.min[1]
      minZ = maxZ = ref.min[2]
    }
    minX = Math.min(Math.max(minX, ref.min[0]), ref.max[0])
    maxX = Math.min(Math.max(maxX, minX), ref.max[0])
    minY = Math.min(Math.max(minY, ref.min[1]), ref.max[1])
    maxY = Math.min(Math.max(maxY, minY), ref.max[1])
    minZ = Math.min(Math.max(minZ, ref.min[2]), ref.max[2])
    maxZ = Math.min(Math.max(maxZ, minZ), ref.max[2])
    if (periodic) {
      minY = periodic.min
      maxY = periodic.max
    }

    // a hair wider than support / reach: rounding in (x − origin) / size must never put two
    // particles closer than the support more than `reach` cells apart
    let cellSize = (request.support / request.reach) * (1 + 1e-9)
    let cellSizeY = cellSize
    let nx = 1
    let ny = 1
    let nz = 1
    for (;;) {
      nx = Math.floor((maxX - minX) / cellSize) + 1
      nz = Math.floor((maxZ - minZ) / cellSize) + 1
      if (periodic) {
        // whole cells per period, each at least cellSize wide (one narrower cell if the period is)
        ny = Math.max(1, Math.floor(periodY / cellSize))
        cellSizeY = periodY / ny
      } else {
        ny = Math.floor((maxY - minY) / cellSize) + 1
        cellSizeY = cellSize
      }
      if (nx * ny * nz <= this.#maxCells) break
      cellSize *= Math.cbrt((nx * ny * nz) / this.#maxCells) * 1.01
    }
    // cells along y reached by the support: reach, unless the period is narrower than a cell
    const reachY = Math.max(request.reach, Math.ceil(request.support / cellSizeY))
    const cellCount = nx * ny * nz
    writeCellGrid(
      block,
      [minX, minY, minZ],
      [cellSize, cellSizeY],
      [nx, ny, nz],
      request.deletionBox,
    )
    if (this.#parallel) this.#parallel.keys(count)
    else {
      computeCellKeys(a, 0, count, block, 0)
      boundBlockCells(a.cell, 0, count, this.#blockCells)
    }
    const { deletedOutside, deletedInvalid, fluidCount } = foldCounts(block, slots)
    // the counting sort, each thread over its cells (cellCount.ts)
    splitCellRanges(a.cell, block, slots)
    const cellStart = this.#cellStart
    const fluidBefore = this.#fluidBefore
    if (this.#parallel) this.#parallel.count()
    else countCells(a, block, 0, this.#cursor, fluidBefore, this.#blockCells)
    foldCellBases(block, slots)
    fluidBefore[0] = 0
    cellStart[cellCount + 1] = count
    if (this.#parallel) this.#parallel.scatter()
    else {
      const permutation = this.#permutation
      scatterCells(a, block, 0, this.#cursor, cellStart, fluidBefore, permutation, this.#blockCells)
    }
    // the deleted particles' cell is the last: the kept particles precede it
    const kept = cellStart[cellCount]!
    block[SORT_KEY.kept] = kept
    for (let stage = 0; stage < this.#permuteStages; stage++) {
      if (this.#parallel) this.#parallel.permute(stage)
      else permuteStage(a, this.#permutation, kept, stage, 0, 1, this.#scratch!)
    }

    const p = this.#params
    p[GRID_PARAM.originX] = minX
    p[GRID_PARAM.originY] = minY
    p[GRID_PARAM.originZ] = minZ
    p[GRID_PARAM.cellSize] = cellSize
    p[GRID_PARAM.nx] = nx
    p[GRID_PARAM.ny] = ny
    p[GRID_PARAM.nz] = nz
    p[GRID_PARAM.particleCount] = kept
    p[GRID_PARAM.cellCount] = cellCount
    p[GRID_PARAM.reach] = request.reach
    p[GRID_PARAM.generation] = p[GRID_PARAM.generation]! + 1
    p[GRID_PARAM.cellSizeY] = cellSizeY
    p[GRID_PARAM.periodY] = periodY
    p[GRID_PARAM.reachY] = reachY
    return { count: kept, deletedOutside, deletedInvalid, fluidCount }
  }
}

/** A read-only view of the grid for the interaction loops (built on each thread from the buffers). */
export interface GridView {
  params: Float64Array
  cellStart: Int32Array
  fluidBefore: Int32Array
  dryGeneration: Int32Array
  /** Per block of cells: the work estimate (Float64, WORK_STRIDE values; see workSplit.ts). */
  work: Float64Array
}

/**
 * The cell holding a point, clamped to the grid, and the point's y as the grid reads it (a
 * periodic y at its image inside the period).
 */
export function cellOfPoint(
  p: ArrayLike<number>,
  [x, y, z]: readonly [number, number, number],
): { cx: number; cy: number; cz: number; y: number } {
  const cell = (value: number, origin: number, size: number, n: number) => {
    const c = Math.floor((value - origin) / size)
    return c < 0 ? 0 : c > n - 1 ? n - 1 : c
  }
  const ny = p[GRID_PARAM.ny]!
  const period = p[GRID_PARAM.periodY]!
  const cellSizeY = p[GRID_PARAM.cellSizeY]!
  const originY = p[GRID_PARAM.originY]!
  const yp = period > 0 ? y - period * Math.floor((y - originY) / period) : y
  return {
    cx: cell(x, p[GRID_PARAM.originX]!, p[GRID_PARAM.cellSize]!, p[GRID_PARAM.nx]!),
    cy:
      period > 0
        ? Math.min(Math.floor((yp - originY) / cellSizeY), ny - 1)
        : cell(y, originY, cellSizeY, ny),
    cz: cell(z, p[GRID_PARAM.originZ]!, p[GRID_PARAM.cellSize]!, p[GRID_PARAM.nz]!),
    y: yp,
  }
}

export function viewGrid(grid: GridBuffers): GridView {
  return {
    params: new Float64Array(grid.params),
    cellStart: new Int32Array(grid.cellStart),
    fluidBefore: new Int32Array(grid.fluidBefore),
    dryGeneration: new Int32Array(grid.dryGeneration),
    work: new Float64Array(grid.work),
  }
}

/**
 * Splits cells [0, cellCount) into `parts` contiguous ranges holding about the same number of
 * particles. Writes parts + 1 cell boundaries into `out`.
 */
export function partitionCells(
  cellStart: Int32Array,
  cellCount: number,
  parts: number,
  out: Int32Array,
): void {
  const total = cellStart[cellCount]!
  out[0] = 0
  let c = 0
  for (let t = 1; t < parts; t++) {
    const target = Math.round((total * t) / parts)
    let lo = c
    let hi = cellCount
    // first cell whose start is >= target
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (cellStart[mid]! < target) lo = mid + 1
      else hi = mid
    }
    // the boundary whose particle count is closest to the target
    if (lo > c && target - cellStart[lo - 1]! < cellStart[lo]! - target) lo--
    c = lo
    out[t] = c
  }
  out[parts] = cellCount
}
