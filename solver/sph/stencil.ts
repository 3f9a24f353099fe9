/**
 * The neighbour stencil shared by the per-step passes: a pass runs on a contiguous range of sorted
 * cells, and for each cell gathers the particle ranges of the neighbouring cell rows (each row of
 * cells along x is one index range), with the y offset of the periodic image each row stands for.
 */
import type { SphConstants } from './config.ts'
import type { GridView } from './grid.ts'
import { GRID_PARAM } from './grid.ts'
import type { ParticleArrays } from './particles.ts'
import { PACK_STRIDE } from './particles.ts'
import type { RotatingFrame } from './rotatingFrame.ts'
import { frameAccelerationAt } from './rotatingFrame.ts'

// Imported constants copied into module bindings: inside hot loops an imported binding may be a
// getter (test runners rewrite imports into module objects).
const P_NX = GRID_PARAM.nx
const STRIDE = PACK_STRIDE
const P_NY = GRID_PARAM.ny
const P_NZ = GRID_PARAM.nz
const P_REACH = GRID_PARAM.reach
const P_REACH_Y = GRID_PARAM.reachY
const P_PERIOD_Y = GRID_PARAM.periodY

/** Per-thread results of a force pass (Float64Array slots of STAT_STRIDE values). */
export const STAT = { maxAcceleration2: 0, maxViscous: 1, interactions: 2, checksum: 3 } as const
export const STAT_STRIDE = 4

/** A pass's stats over all threads: largest |a|² and viscous rate, summed pair interactions. */
export interface PassStats {
  maxAcceleration2: number
  maxViscous: number
  interactions: number
}

/** Writes a force pass's stats into the thread's slot (base = slot · STAT_STRIDE). */
export function writeStats(
  stats: Float64Array,
  base: number,
  maxAcceleration2: number,
  maxViscous: number,
  interactions: number,
): void {
  stats[base + STAT.maxAcceleration2] = maxAcceleration2
  stats[base + STAT.maxViscous] = maxViscous
  stats[base + STAT.interactions] = interactions
}

/**
 * Stores fluid particle i's acceleration: (ax, ay, az) from the pair sums and gravity, plus in a
 * rotating frame its Coriolis and centrifugal terms (rotatingFrame.ts). Returns its |a|².
 */
export function storeAcceleration(
  arrays: ParticleArrays,
  i: number,
  frame: RotatingFrame | null,
  ax: number,
  ay: number,
  az: number,
): number {
  const total = frameAccelerationAt(frame, ax, ay, az, arrays.packed, i * STRIDE, true)
  const x = total[0]!
  const y = total[1]!
  const z = total[2]!
  arrays.accX[i] = x
  arrays.accY[i] = y
  arrays.accZ[i] = z
  return x * x + y * y + z * z
}

/** Folds the per-thread stats of the last pass into `into` (no allocation: called every pass). */
export function foldStats(stats: Float64Array, threads: number, into: PassStats): PassStats {
  into.maxAcceleration2 = 0
  into.maxViscous = 0
  into.interactions = 0
  for (let t = 0; t < threads; t++) {
    const base = t * STAT_STRIDE
    into.maxAcceleration2 = Math.max(into.maxAcceleration2, stats[base + STAT.maxAcceleration2]!)
    into.maxViscous = Math.max(into.maxViscous, stats[base + STAT.maxViscous]!)
    into.interactions += stats[base + STAT.interactions]!
  }
  return into
}

/** Largest stencil reach in cells (cellsPerSupport). */
const MAX_REACH = 3

export interface InteractionContext {
  arrays: ParticleArrays
  grid: GridView
  constants: SphConstants
  /** STAT_STRIDE values per thread. */
  stats: Float64Array
  /** Scratch for the stencil rows of a cell: particle ranges and the y shift of their image. */
  rowBegin: Int32Array
  rowEnd: Int32Array
  rowShiftY: Float64Array
}

/**
 * Stencil rows a cell can have: (2·reach + 1) along z times (2·reachY + 1) along y, where reachY
 * exceeds the reach only when a periodic y range is narrower than a cell of support / reach.
 */
export function maxStencilRows(constants: SphConstants): number {
  const period = constants.periodY
  const cell = constants.support / MAX_REACH
  const reachY = period > 0 && period < cell ? Math.ceil(constants.support / period) : MAX_REACH
  return (2 * MAX_REACH + 1) * (2 * reachY + 1)
}

export function createInteractionContext(
  arrays: ParticleArrays,
  grid: GridView,
  constants: SphConstants,
  stats: Float64Array,
): InteractionContext {
  const rows = maxStencilRows(constants)
  return {
    arrays,
    grid,
    constants,
    stats,
    rowBegin: new Int32Array(rows),
    rowEnd: new Int32Array(rows),
    rowShiftY: new Float64Array(rows),
  }
}

/**
 * Fills the particle ranges of the stencil rows around cell c ((2·reach + 1)², fewer at the
 * grid's edges and for empty rows) and the y shift of each row's image (0 unless y is periodic:
 * a neighbour j of a row stands at y_j + shift, so dy = y_i − y_j − shift); returns how many.
 * With `fluidOnly` (callers that only sum over fluid neighbours), only rows holding fluid, and 0
 * when no cell of the stencil does.
 */
export function fillStencilRows(ctx: InteractionContext, c: number, fluidOnly: boolean): number {
  const p = ctx.grid.params
  const cellStart = ctx.grid.cellStart
  const fluidBefore = ctx.grid.fluidBefore
  const nx = p[P_NX]!
  const ny = p[P_NY]!
  const nz = p[P_NZ]!
  const reach = p[P_REACH]!
  const period = p[P_PERIOD_Y]!
  const cx = c % nx
  const cyz = (c - cx) / nx
  const cy = cyz % ny
  const cz = (cyz - cy) / ny
  const x0 = cx > reach ? cx - reach : 0
  const x1 = cx < nx - 1 - reach ? cx + reach : nx - 1
  const z0 = cz > reach ? cz - reach : 0
  const z1 = cz < nz - 1 - reach ? cz + reach : nz - 1
  const rowBegin = ctx.rowBegin
  const rowEnd = ctx.rowEnd
  const rowShiftY = ctx.rowShiftY
  let rows = 0
  let fluid = 0
  if (period === 0) {
    // the common case, without the periodic image arithmetic: the row index of (x0, y, z) steps
    // by nx along y (same rows, same order as the periodic loop below gives with no period)
    const y0 = cy > reach ? cy - reach : 0
    const y1 = cy < ny - 1 - reach ? cy + reach : ny - 1
    const span = x1 - x0 + 1
    for (let z = z0; z <= z1; z++) {
      let first = x0 + nx * (y0 + ny * z)
      for (let y = y0; y <= y1; y++, first += nx) {
        const begin = cellStart[first]!
        const end = cellStart[first + span]!
        if (end > begin) {
          if (fluidOnly) {
            const rowFluid = fluidBefore[first + span]! - fluidBefore[first]!
            if (rowFluid === 0) continue
            fluid += rowFluid
          }
          rowBegin[rows] = begin
          rowEnd[rows] = end
          rowShiftY[rows] = 0
          rows++
        }
      }
    }
    return fluidOnly && fluid === 0 ? 0 : rows
  }
  // unwrapped rows: each stands for a cell of the period and one image of it
  const reachY = p[P_REACH_Y]!
  const y0 = cy - reachY
  const y1 = cy + reachY
  for (let z = z0; z <= z1; z++) {
    for (let yy = y0; yy <= y1; yy++) {
      let y = yy % ny
      if (y < 0) y += ny
      const shift = ((yy - y) / ny) * period
      const row = nx * (y + ny * z)
      const begin = cellStart[row + x0]!
      const end = cellStart[row + x1 + 1]!
      if (end > begin) {
        if (fluidOnly) {
          // rows without fluid add nothing to a sum over fluid neighbours: leave them out
          const rowFluid = fluidBefore[row + x1 + 1]! - fluidBefore[row + x0]!
          if (rowFluid === 0) continue
          fluid += rowFluid
        }
        rowBegin[rows] = begin
        rowEnd[rows] = end
        rowShiftY[rows] = shift
        rows++
      }
    }
  }
  return fluidOnly && fluid === 0 ? 0 : rows
}
