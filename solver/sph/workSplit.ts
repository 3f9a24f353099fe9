/**
 * Splitting a pass's work over threads (issue 22 item 1): every parallel phase runs on contiguous
 * cells, and each phase has its own split, made after every sort from what its loop costs there:
 *
 * - `particles`: equal particle counts (equation of state and records, the work estimate itself);
 * - `fluid`: equal fluid counts (integration; particle counts with dynamic walls, which integrate);
 * - `forces`: equal estimated pair work, fluid particles × (the particles their stencil rows
 *   scan + the rows): the force pass, the reference loop and shifting scan exactly these
 *   candidates; walls with no fluid near them cost nothing (a dynamic wall counts as its fluid
 *   rows' candidates, which its continuity scans);
 * - `walls`: wall particles × the candidates of their rows that hold fluid (the generalized-wall
 *   extrapolation skips rows and cells without fluid).
 *
 * The estimate is summed per block of BLOCK_CELLS cells in a parallel phase (measureCellWork on a
 * particle-count split), then each split is a prefix scan over the blocks on the calling thread.
 * Threads only ever write their own particles, so any split gives bit-identical results.
 */
import { GRID_PARAM, WORK_BLOCK_CELLS, WORK_STRIDE } from './grid.ts'
import type { GridView } from './grid.ts'

export { WORK_BLOCK_CELLS as BLOCK_CELLS, WORK_STRIDE } from './grid.ts'

/**
 * The splits, each `threads + 1` cell boundaries in the ranges buffer; `measure` is the particle
 * split with its boundaries moved down to block starts (the work estimate's own phase).
 */
export const SPLIT = { particles: 0, fluid: 1, forces: 2, walls: 3, measure: 4 } as const
export type Split = (typeof SPLIT)[keyof typeof SPLIT]
export const SPLIT_COUNT = 5

/** Per block: estimated work of the force pass and of the wall extrapolation (Float64, 2 each). */
export const WORK = { forces: 0, walls: 1 } as const

/** Fixed cost of a fluid particle in candidates: its stencil rows' bookkeeping (49 rows). */
const PER_PARTICLE = 49

// imported constants as module bindings: test runners turn imports into getters, slow in loops
const P_NX = GRID_PARAM.nx
const P_NY = GRID_PARAM.ny
const P_NZ = GRID_PARAM.nz
const P_REACH = GRID_PARAM.reach
const P_REACH_Y = GRID_PARAM.reachY
const P_PERIOD_Y = GRID_PARAM.periodY
const W_FORCES = WORK.forces
const W_WALLS = WORK.walls
const STRIDE = WORK_STRIDE
const BLOCK = WORK_BLOCK_CELLS

/**
 * Writes the work estimate of the blocks of cells [cellBegin, cellEnd) (block-aligned except at the
 * grid's end) into `work`. With `dynamicWalls`, a wall particle's continuity scans its fluid rows.
 */
export function measureCellWork(
  grid: GridView,
  work: Float64Array,
  cellBegin: number,
  cellEnd: number,
  dynamicWalls: boolean,
): void {
  const p = grid.params
  const cellStart = grid.cellStart
  const fluidBefore = grid.fluidBefore
  const nx = p[P_NX]!
  const ny = p[P_NY]!
  const nz = p[P_NZ]!
  const reach = p[P_REACH]!
  const period = p[P_PERIOD_Y]!
  const reachY = period > 0 ? p[P_REACH_Y]! : reach
  let forces = 0
  let walls = 0
  for (let c = cellBegin; c < cellEnd; c++) {
    const count = cellStart[c + 1]! - cellStart[c]!
    if (count > 0) {
      const fluid = fluidBefore[c + 1]! - fluidBefore[c]!
      const wall = count - fluid
      const cx = c % nx
      const cyz = (c - cx) / nx
      const cy = cyz % ny
      const cz = (cyz - cy) / ny
      const x0 = cx > reach ? cx - reach : 0
      const x1 = cx < nx - 1 - reach ? cx + reach : nx - 1
      const z0 = cz > reach ? cz - reach : 0
      const z1 = cz < nz - 1 - reach ? cz + reach : nz - 1
      let y0 = cy - reachY
      let y1 = cy + reachY
      if (period <= 0) {
        if (y0 < 0) y0 = 0
        if (y1 > ny - 1) y1 = ny - 1
      }
      let all = 0
      let wet = 0
      for (let z = z0; z <= z1; z++) {
        for (let yy = y0; yy <= y1; yy++) {
          let y = yy
          if (period > 0) {
            y = yy % ny
            if (y < 0) y += ny
          }
          const row = nx * (y + ny * z)
          const rowCount = cellStart[row + x1 + 1]! - cellStart[row + x0]!
          all += rowCount
          if (fluidBefore[row + x1 + 1]! !== fluidBefore[row + x0]!) wet += rowCount
        }
      }
      if (fluid > 0) forces += fluid * (all + PER_PARTICLE)
      if (wall > 0 && wet > 0) {
        walls += wall * (wet + PER_PARTICLE)
        if (dynamicWalls) forces += wall * (wet + PER_PARTICLE)
      }
      // scanning a particle's kind and skipping it
      forces += count
      walls += count
    }
    if ((c + 1) % BLOCK === 0 || c + 1 === cellEnd) {
      const o = STRIDE * Math.floor(c / BLOCK)
      work[o + W_FORCES] = forces
      work[o + W_WALLS] = walls
      forces = 0
      walls = 0
    }
  }
}

/**
 * Splits cells [0, cellCount) into `parts` contiguous ranges of about equal `prefix` increments
 * (prefix[c]: the amount in the cells before c, e.g. cellStart or fluidBefore). Writes parts + 1
 * boundaries into out[offset ...].
 */
export function splitByPrefix(
  prefix: Int32Array,
  cellCount: number,
  parts: number,
  out: Int32Array,
  offset = 0,
): void {
  const total = prefix[cellCount]! - prefix[0]!
  out[offset] = 0
  let c = 0
  for (let t = 1; t < parts; t++) {
    const target = prefix[0]! + Math.round((total * t) / parts)
    let lo = c
    let hi = cellCount
    // first cell whose prefix is >= target
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (prefix[mid]! < target) lo = mid + 1
      else hi = mid
    }
    // the boundary whose amount is closest to the target
    if (lo > c && target - prefix[lo - 1]! < prefix[lo]! - target) lo--
    c = lo
    out[offset + t] = c
  }
  out[offset + parts] = cellCount
}

/**
 * Splits cells [0, cellCount) into `parts` contiguous ranges of about equal estimated work (slot
 * `which` of the blocks' estimates), at block boundaries. Writes parts + 1 boundaries into
 * out[offset ...].
 */
export function splitByWork(
  work: Float64Array,
  which: number,
  cellCount: number,
  parts: number,
  out: Int32Array,
  offset = 0,
): void {
  const blocks = Math.ceil(cellCount / BLOCK)
  let total = 0
  for (let b = 0; b < blocks; b++) total += work[STRIDE * b + which]!
  out[offset] = 0
  let t = 1
  let sum = 0
  for (let b = 0; b < blocks && t < parts; b++) {
    const w = work[STRIDE * b + which]!
    // close ranges at this block's start while it is nearer their share than its end is
    while (t < parts) {
      const target = (total * t) / parts
      if (sum + w < target) break
      const boundary = target - sum < sum + w - target ? b : b + 1
      out[offset + t] = Math.min(boundary * BLOCK, cellCount)
      t++
    }
    sum += w
  }
  for (; t < parts; t++) out[offset + t] = cellCount
  out[offset + parts] = cellCount
  // boundaries never go backwards (a later range may be empty)
  for (let k = 1; k <= parts; k++)
    if (out[offset + k]! < out[offset + k - 1]!) out[offset + k] = out[offset + k - 1]!
}

/** Largest share over the mean share of `parts` ranges whose amounts are `shares` (1: perfect). */
export function maxOverMean(shares: readonly number[]): number {
  const total = shares.reduce((sum, value) => sum + value, 0)
  if (total === 0) return 1
  return Math.max(...shares) / (total / shares.length)
}
