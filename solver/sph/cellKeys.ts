/**
 * The per-particle loops of a sort by cell (grid.ts CellSorter): the periodic wrap with the
 * particles' bounds, then each particle's cell. Each loop takes an index range and writes its
 * results into its own slot of a sort block, so that the threads of a PhaseRunner can each take a
 * part (PHASE.sortBounds, PHASE.sortKeys) and the sorting thread folds the slots: minima, maxima
 * and counts do not depend on how the particles were dealt, so the sort is the same on any number
 * of threads. The counting sort that follows (cellCount.ts) keeps its cell ranges and bases in
 * the same slots.
 */
import { PARTICLE_KIND, type ParticleArrays } from './particles.ts'

// imported constants as module bindings: test runners turn imports into getters, slow in loops
const FLUID = PARTICLE_KIND.fluid

/** The sort block's head (Float64): what the sorting thread sets before each loop. */
export const SORT_KEY = {
  count: 0,
  /** 1 when periodic along y, over [periodMin, periodMax). */
  periodic: 1,
  periodMin: 2,
  periodMax: 3,
  originX: 4,
  originY: 5,
  originZ: 6,
  invCellSize: 7,
  invCellSizeY: 8,
  nx: 9,
  ny: 10,
  nz: 11,
  /** The deletion box (±Infinity without one). */
  deleteMinX: 12,
  deleteMinY: 13,
  deleteMinZ: 14,
  deleteMaxX: 15,
  deleteMaxY: 16,
  deleteMaxZ: 17,
  /** The particles kept (the deleted ones' cell excluded), for the permutation (permute.ts). */
  kept: 18,
} as const
const HEAD = 32

/** A slot's results: its particles' bounds and its counts. */
export const SORT_OUT = {
  minX: 0,
  minY: 1,
  minZ: 2,
  maxX: 3,
  maxY: 4,
  maxZ: 5,
  deletedOutside: 6,
  deletedInvalid: 7,
  fluid: 8,
  /** The counting sort's cells [cellBegin, cellEnd) of this slot (cellCount.ts). */
  cellBegin: 9,
  cellEnd: 10,
  /** Particles, and fluid particles kept, in the slot's cells. */
  inCells: 11,
  fluidInCells: 12,
  /** Particles, and fluid particles kept, in the cells before the slot's. */
  before: 13,
  fluidBefore: 14,
} as const
/** 128 bytes a slot: no two threads write on one cache line. */
const STRIDE = 16

/** Float64 values of a sort block for `threads` slots. */
export function sortBlockLength(threads: number): number {
  return HEAD + threads * STRIDE
}

/** Offset of a slot's results in the block. */
export function sortSlot(slot: number): number {
  return HEAD + slot * STRIDE
}

/**
 * Particles per block of the counting sort's scans (cellCount.ts): each block's least and largest
 * cell let a thread skip the blocks that hold none of its cells.
 */
export const SCAN_BLOCK = 1024

/** Int32 values of the blocks' cell bounds for `capacity` particles. */
export function blockCellsLength(capacity: number): number {
  return 2 * Math.ceil(Math.max(capacity, 1) / SCAN_BLOCK)
}

/**
 * The index range [begin, end) of `slot` of `threads` over `count` particles: whole SCAN_BLOCKs
 * (the last range takes the rest), so that each block's bounds are one thread's.
 */
export function sortRange(count: number, slot: number, threads: number): [number, number] {
  const edge = (k: number) =>
    k >= threads ? count : Math.floor((count * k) / threads / SCAN_BLOCK) * SCAN_BLOCK
  return [edge(slot), edge(slot + 1)]
}

/**
 * The least and largest cell of each SCAN_BLOCK of particles in [begin, end) (begin a block's
 * start) into blockCells[2b], blockCells[2b + 1].
 */
export function boundBlockCells(
  cell: Int32Array,
  begin: number,
  end: number,
  blockCells: Int32Array,
): void {
  for (let first = begin; first < end; first += SCAN_BLOCK) {
    const last = Math.min(first + SCAN_BLOCK, end)
    let least = cell[first]!
    let largest = least
    for (let i = first + 1; i < last; i++) {
      const c = cell[i]!
      if (c < least) least = c
      else if (c > largest) largest = c
    }
    const b = first / SCAN_BLOCK
    blockCells[2 * b] = least
    blockCells[2 * b + 1] = largest
  }
}

/** The head for boundParticles: the particle count and the periodic range. */
export function writeSortHead(
  block: Float64Array,
  count: number,
  periodic: { min: number; max: number } | null,
): void {
  block[SORT_KEY.count] = count
  block[SORT_KEY.periodic] = periodic ? 1 : 0
  block[SORT_KEY.periodMin] = periodic?.min ?? 0
  block[SORT_KEY.periodMax] = periodic?.max ?? 0
}

/** The head for computeCellKeys: the grid and the deletion box (null: none). */
export function writeCellGrid(
  block: Float64Array,
  origin: readonly [number, number, number],
  [cellSize, cellSizeY]: readonly [number, number],
  [nx, ny, nz]: readonly [number, number, number],
  deletion: { min: readonly number[]; max: readonly number[] } | null,
): void {
  block[SORT_KEY.originX] = origin[0]
  block[SORT_KEY.originY] = origin[1]
  block[SORT_KEY.originZ] = origin[2]
  block[SORT_KEY.invCellSize] = 1 / cellSize
  block[SORT_KEY.invCellSizeY] = 1 / cellSizeY
  block[SORT_KEY.nx] = nx
  block[SORT_KEY.ny] = ny
  block[SORT_KEY.nz] = nz
  block[SORT_KEY.deleteMinX] = deletion ? deletion.min[0]! : -Infinity
  block[SORT_KEY.deleteMinY] = deletion ? deletion.min[1]! : -Infinity
  block[SORT_KEY.deleteMinZ] = deletion ? deletion.min[2]! : -Infinity
  block[SORT_KEY.deleteMaxX] = deletion ? deletion.max[0]! : Infinity
  block[SORT_KEY.deleteMaxY] = deletion ? deletion.max[1]! : Infinity
  block[SORT_KEY.deleteMaxZ] = deletion ? deletion.max[2]! : Infinity
}

type Bounds = [number, number, number, number, number, number]

/** The bounds over the slots: min x, y, z, max x, y, z (±Infinity when there are no particles). */
export function foldBounds(block: Float64Array, slots: number): Bounds {
  const bounds: Bounds = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity]
  for (let t = 0; t < slots; t++) {
    const o = sortSlot(t)
    for (let k = 0; k < 3; k++) {
      bounds[k] = Math.min(bounds[k]!, block[o + SORT_OUT.minX + k]!)
      bounds[k + 3] = Math.max(bounds[k + 3]!, block[o + SORT_OUT.maxX + k]!)
    }
  }
  return bounds
}

/** The counts over the slots. */
export function foldCounts(block: Float64Array, slots: number) {
  let deletedOutside = 0
  let deletedInvalid = 0
  let fluidCount = 0
  for (let t = 0; t < slots; t++) {
    const o = sortSlot(t)
    deletedOutside += block[o + SORT_OUT.deletedOutside]!
    deletedInvalid += block[o + SORT_OUT.deletedInvalid]!
    fluidCount += block[o + SORT_OUT.fluid]!
  }
  return { deletedOutside, deletedInvalid, fluidCount }
}

/** Wraps y into the period (if periodic) and writes the range's bounds into the slot. */
export function boundParticles(
  a: ParticleArrays,
  begin: number,
  end: number,
  block: Float64Array,
  slot: number,
): void {
  const { posX, posY, posZ } = a
  if (block[SORT_KEY.periodic] === 1) {
    const y0 = block[SORT_KEY.periodMin]!
    const y1 = block[SORT_KEY.periodMax]!
    const period = y1 - y0
    const invPeriod = 1 / period
    for (let i = begin; i < end; i++) {
      const y = posY[i]!
      if (y < y0 || y >= y1) {
        let wrapped = y - period * Math.floor((y - y0) * invPeriod)
        // rounding can land exactly on max
        if (wrapped >= y1) wrapped -= period
        posY[i] = wrapped
      }
    }
  }
  let minX = Infinity
  let minY = Infinity
  let minZ = Infinity
  let maxX = -Infinity
  let maxY = -Infinity
  let maxZ = -Infinity
  for (let i = begin; i < end; i++) {
    const x = posX[i]!
    const y = posY[i]!
    const z = posZ[i]!
    if (x < minX) minX = x
    if (x > maxX) maxX = x
    if (y < minY) minY = y
    if (y > maxY) maxY = y
    if (z < minZ) minZ = z
    if (z > maxZ) maxZ = z
  }
  const o = sortSlot(slot)
  block[o + SORT_OUT.minX] = minX
  block[o + SORT_OUT.minY] = minY
  block[o + SORT_OUT.minZ] = minZ
  block[o + SORT_OUT.maxX] = maxX
  block[o + SORT_OUT.maxY] = maxY
  block[o + SORT_OUT.maxZ] = maxZ
}

/**
 * Each particle's cell in `cell` (the grid of the block's head; `deletedCell` for a fluid
 * particle outside the deletion box or any particle with a coordinate not finite), and the
 * range's counts in the slot.
 */
export function computeCellKeys(
  a: ParticleArrays,
  begin: number,
  end: number,
  block: Float64Array,
  slot: number,
): void {
  const { posX, posY, posZ, kind, cell } = a
  const minX = block[SORT_KEY.originX]!
  const minY = block[SORT_KEY.originY]!
  const minZ = block[SORT_KEY.originZ]!
  const invCellSize = block[SORT_KEY.invCellSize]!
  const invCellSizeY = block[SORT_KEY.invCellSizeY]!
  const nx = block[SORT_KEY.nx]!
  const ny = block[SORT_KEY.ny]!
  const nx1 = nx - 1
  const ny1 = ny - 1
  const nz1 = block[SORT_KEY.nz]! - 1
  const deletedCell = nx * ny * (nz1 + 1)
  const dMinX = block[SORT_KEY.deleteMinX]!
  const dMinY = block[SORT_KEY.deleteMinY]!
  const dMinZ = block[SORT_KEY.deleteMinZ]!
  const dMaxX = block[SORT_KEY.deleteMaxX]!
  const dMaxY = block[SORT_KEY.deleteMaxY]!
  const dMaxZ = block[SORT_KEY.deleteMaxZ]!
  let deletedOutside = 0
  let deletedInvalid = 0
  let fluid = 0
  for (let i = begin; i < end; i++) {
    const x = posX[i]!
    const y = posY[i]!
    const z = posZ[i]!
    if (!(Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(z))) {
      cell[i] = deletedCell
      deletedInvalid++
    } else if (
      kind[i] === FLUID &&
      (x < dMinX || x > dMaxX || y < dMinY || y > dMaxY || z < dMinZ || z > dMaxZ)
    ) {
      cell[i] = deletedCell
      deletedOutside++
    } else {
      let cx = Math.floor((x - minX) * invCellSize)
      let cy = Math.floor((y - minY) * invCellSizeY)
      let cz = Math.floor((z - minZ) * invCellSize)
      cx = cx < 0 ? 0 : cx > nx1 ? nx1 : cx
      cy = cy < 0 ? 0 : cy > ny1 ? ny1 : cy
      cz = cz < 0 ? 0 : cz > nz1 ? nz1 : cz
      cell[i] = cx + nx * (cy + ny * cz)
      if (kind[i] === FLUID) fluid++
    }
  }
  const o = sortSlot(slot)
  block[o + SORT_OUT.deletedOutside] = deletedOutside
  block[o + SORT_OUT.deletedInvalid] = deletedInvalid
  block[o + SORT_OUT.fluid] = fluid
}
