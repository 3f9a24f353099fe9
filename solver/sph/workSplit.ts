/**
 * Splitting a pass's work over threads (issue 22 item 1): every parallel phase runs on contiguous
 * cells, and each phase has its own split, made after every sort from what its loop costs there:
 *
 * - `particles`: equal particle counts (equation of state and records);
 * - `fluid`: equal fluid counts (integration; particle counts with dynamic walls, which integrate);
 * - `forces`: equal estimated pair work: the pair interactions of the fluid particles, counted,
 *   plus a small cost per candidate scanned and per particle (measureCellWork); the force pass,
 *   the reference loop and shifting scan these pairs. Walls with no fluid near them cost nothing
 *   (a dynamic wall counts as its fluid rows' candidates, which its continuity scans);
 * - `walls`: wall particles × the candidates of their rows that hold fluid (the generalized-wall
 *   extrapolation skips rows and cells without fluid).
 *
 * The estimate is summed per block of BLOCK_CELLS cells in a parallel phase (measureCellWork on the
 * fluid split moved to block starts), then each split is a prefix scan over the blocks on the
 * calling thread. It is made again every few sorts (threads.ts): it costs about a third of a
 * force pass.
 * Threads only ever write their own particles, so any split gives bit-identical results.
 */
import { WORK_BLOCK_CELLS, WORK_STRIDE } from './grid.ts'
import { PARTICLE_KIND } from './particles.ts'
import type { InteractionContext } from './stencil.ts'
import { fillStencilRows } from './stencil.ts'

export { WORK_BLOCK_CELLS as BLOCK_CELLS, WORK_STRIDE } from './grid.ts'

/**
 * The splits, each `threads + 1` cell boundaries in the ranges buffer; `measure` is the fluid
 * split with its boundaries moved down to block starts (the work estimate's own phase).
 */
export const SPLIT = { particles: 0, fluid: 1, forces: 2, walls: 3, measure: 4 } as const
export type Split = (typeof SPLIT)[keyof typeof SPLIT]
export const SPLIT_COUNT = 5

/** Per block: estimated work of the force pass and of the wall extrapolation (Float64, 2 each). */
export const WORK = { forces: 0, walls: 1 } as const

/**
 * Costs in pair interactions: a candidate scanned and left out (a distance check), and a particle's
 * fixed cost (its stencil rows, its writes). From the force pass at 25 M pairs/s per core against
 * the plain loop's 75 M candidates/s (NUMERICS.md, Figures).
 */
const CANDIDATE_COST = 0.05
const PARTICLE_COST = 10
/** Reading a particle's kind and skipping it. */
const SCAN_COST = 0.05
/**
 * Visiting a cell, empty or not, in pair interactions (force pass) and in wall candidates (wall
 * extrapolation, whose unit is about a quarter of the force pass's): the grid's box is mostly
 * empty above the water, and one chunk spanning those cells took 3.5 × the mean chunk of a force
 * pass and 50 × that of a wall pass (dam break 300k, 512 chunks) when they counted nothing.
 */
const FORCES_CELL_COST = 0.2
const WALLS_CELL_COST = 0.75
/**
 * A cell of wall particles with no fluid within reach: the first wall pass after each sort scans
 * its stencil rows to find it dry (about 0.8 µs, 80 wall candidates); later passes skip it.
 */
const DRY_CELL_COST = 80

// imported constants as module bindings: test runners turn imports into getters, slow in loops
const FLUID = PARTICLE_KIND.fluid
const W_FORCES = WORK.forces
const W_WALLS = WORK.walls
const STRIDE = WORK_STRIDE
const BLOCK = WORK_BLOCK_CELLS

/**
 * Writes the work estimate of the blocks of cells [cellBegin, cellEnd) (block-aligned except at the
 * grid's end) into the grid's work array. Force pass: the pair interactions of each fluid particle,
 * counted (positions of the last sort, a distance check per candidate), plus
 * CANDIDATE_COST per candidate scanned and PARTICLE_COST per fluid particle; with `dynamicWalls`,
 * a wall particle's continuity counts its fluid rows' candidates. Wall extrapolation: each wall
 * particle's fluid rows' candidates, DRY_CELL_COST for a cell of walls with none. Both count each
 * cell's visit (FORCES_CELL_COST, WALLS_CELL_COST), empty or not.
 */
export function measureCellWork(
  ctx: InteractionContext,
  cellBegin: number,
  cellEnd: number,
  dynamicWalls: boolean,
): void {
  const work = ctx.grid.work
  const cellStart = ctx.grid.cellStart
  const { posX, posY, posZ, kind } = ctx.arrays
  const rowBegin = ctx.rowBegin
  const rowEnd = ctx.rowEnd
  const rowShiftY = ctx.rowShiftY
  const support2 = ctx.constants.support2
  const MIN_R2 = 1e-24 * support2
  let forces = 0
  let walls = 0
  for (let c = cellBegin; c < cellEnd; c++) {
    const pBegin = cellStart[c]!
    const pEnd = cellStart[c + 1]!
    forces += FORCES_CELL_COST
    walls += WALLS_CELL_COST
    if (pEnd > pBegin) {
      let rows = -1
      let wetRows = -1
      let wet = 0
      let dryCounted = false
      for (let i = pBegin; i < pEnd; i++) {
        if (kind[i] !== FLUID) {
          if (wetRows < 0) {
            wetRows = fillStencilRows(ctx, c, true)
            wet = 0
            for (let r = 0; r < wetRows; r++) wet += rowEnd[r]! - rowBegin[r]!
            rows = -1
          }
          if (wetRows > 0) {
            walls += wet + PARTICLE_COST
            if (dynamicWalls) forces += CANDIDATE_COST * wet + PARTICLE_COST
          } else if (!dryCounted) {
            walls += DRY_CELL_COST
            dryCounted = true
          }
          continue
        }
        if (rows < 0) {
          rows = fillStencilRows(ctx, c, false)
          wetRows = -1
        }
        const xi = posX[i]!
        const yi = posY[i]!
        const zi = posZ[i]!
        let pairs = 0
        let candidates = 0
        for (let r = 0; r < rows; r++) {
          const jEnd = rowEnd[r]!
          const yr = yi - rowShiftY[r]!
          candidates += jEnd - rowBegin[r]!
          for (let j = rowBegin[r]!; j < jEnd; j++) {
            const dx = xi - posX[j]!
            const dy = yr - posY[j]!
            const dz = zi - posZ[j]!
            const r2 = dx * dx + dy * dy + dz * dz
            if (r2 < support2 && r2 >= MIN_R2) pairs++
          }
        }
        forces += pairs + CANDIDATE_COST * candidates + PARTICLE_COST
      }
      forces += SCAN_COST * (pEnd - pBegin)
      walls += SCAN_COST * (pEnd - pBegin)
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
