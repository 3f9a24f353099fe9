/**
 * The counting sort by cell that follows computeCellKeys (cellKeys.ts), on any number of threads
 * (PHASE.sortCount, PHASE.sortScatter): each thread owns a contiguous range of cells, the deleted
 * particles' cell (cellCount) last. It counts the particles of its cells, scanning all particles
 * in index order; the sorting thread sums the ranges' totals into each range's base; then each
 * thread writes its cells' starts and fluid prefix sums and scatters its particles, again in index
 * order. A cell's particles thus keep their index order whatever the ranges: the permutation, the
 * cell starts and the fluid prefix sums are those of a serial stable counting sort, on any number
 * of threads and any split.
 *
 * Why ranges of cells and not slices of particles: cells of 2h/3 make a grid of about 4.5 cells
 * per particle, so the fills and prefix sums over the cells cost more than the counting, and
 * per-thread counts of particle slices would need threads × cells integers and as many sums. Here
 * the counts live in one shared cursor per cell, each cell written by one thread: no memory per
 * thread. A thread reads the cells of every block of SCAN_BLOCK particles whose cell bounds
 * (boundBlockCells) meet its range, in index order: the particles still in the last step's order,
 * those are about its own particles' blocks; in any order (a first sort), all.
 */
import { PARTICLE_KIND, type ParticleArrays } from './particles.ts'
import { SCAN_BLOCK, SORT_KEY, SORT_OUT, sortSlot } from './cellKeys.ts'

// imported constants as module bindings: test runners turn imports into getters, slow in loops
const FLUID = PARTICLE_KIND.fluid

/**
 * What a particle of a range's cells costs against one of its cells (counting and scattering it
 * against clearing and summing a cell), in the split of the cells: with 1 the slots' CPU time is
 * within 1.05 to 1.17 of the mean on 2 to 16 slots (bench/solver/sortProfile.ts, dam break; 1.4
 * on 64 slots of 0.3 ms, the timer's grain); 2 and 4 did no better.
 */
const PARTICLE_WEIGHT = 1

/** The grid's cell count, from the sort block's head. */
function cellCountOf(block: Float64Array): number {
  return (block[SORT_KEY.nx]! * block[SORT_KEY.ny]! * block[SORT_KEY.nz]!) | 0
}

/**
 * The first index whose cell is ≥ c, by bisection: exact when the cells are sorted (nearly so
 * after the last step's sort) and, on any order, nondecreasing in c, which is all the split needs.
 */
function firstAtOrAfter(cell: Int32Array, count: number, c: number): number {
  let lo = 0
  let hi = count
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (cell[mid]! < c) lo = mid + 1
    else hi = mid
  }
  return lo
}

/**
 * Splits the cells [0, cellCount] over `threads` slots, each about the same number of cells plus
 * PARTICLE_WEIGHT × particles (those estimated from the particles' current order), into the
 * slots' cellBegin and cellEnd. Any split sorts the same; this one balances the threads.
 */
export function splitCellRanges(cell: Int32Array, block: Float64Array, threads: number): void {
  const count = block[SORT_KEY.count]! | 0
  const cells = cellCountOf(block) + 1
  const total = cells + PARTICLE_WEIGHT * count
  let begin = 0
  for (let t = 0; t < threads; t++) {
    let end = cells
    if (t < threads - 1) {
      // the first cell whose cells and particles before it reach the slot's share
      const target = (total * (t + 1)) / threads
      let hi = cells
      end = begin
      while (end < hi) {
        const mid = (end + hi) >>> 1
        if (mid + PARTICLE_WEIGHT * firstAtOrAfter(cell, count, mid) < target) end = mid + 1
        else hi = mid
      }
    }
    const o = sortSlot(t)
    block[o + SORT_OUT.cellBegin] = begin
    block[o + SORT_OUT.cellEnd] = end
    begin = end
  }
}

/** Whether block b's cells (boundBlockCells) meet [begin, end). */
function blockMeets(blockCells: Int32Array, b: number, begin: number, end: number): boolean {
  return blockCells[2 * b + 1]! >= begin && blockCells[2 * b]! < end
}

/**
 * Counts the particles of the slot's cells into `cursor` (per cell) and the kept fluid ones into
 * fluidBefore[c + 1], and their totals into the slot.
 */
export function countCells(
  a: ParticleArrays,
  block: Float64Array,
  slot: number,
  cursor: Int32Array,
  fluidBefore: Int32Array,
  blockCells: Int32Array,
): void {
  const { cell, kind } = a
  const count = block[SORT_KEY.count]! | 0
  const deletedCell = cellCountOf(block)
  const o = sortSlot(slot)
  const begin = block[o + SORT_OUT.cellBegin]! | 0
  const end = block[o + SORT_OUT.cellEnd]! | 0
  cursor.fill(0, begin, end)
  const fluidEnd = Math.min(end, deletedCell)
  if (fluidEnd > begin) fluidBefore.fill(0, begin + 1, fluidEnd + 1)
  let inCells = 0
  let fluid = 0
  for (let first = 0, b = 0; first < count; first += SCAN_BLOCK, b++) {
    if (!blockMeets(blockCells, b, begin, end)) continue
    const last = Math.min(first + SCAN_BLOCK, count)
    for (let i = first; i < last; i++) {
      const c = cell[i]!
      if (c < begin || c >= end) continue
      cursor[c]!++
      inCells++
      if (kind[i] === FLUID && c !== deletedCell) {
        fluidBefore[c + 1]!++
        fluid++
      }
    }
  }
  block[o + SORT_OUT.inCells] = inCells
  block[o + SORT_OUT.fluidInCells] = fluid
}

/** Each slot's bases: the particles, and kept fluid particles, of the slots before it. */
export function foldCellBases(block: Float64Array, threads: number): void {
  let before = 0
  let fluidBefore = 0
  for (let t = 0; t < threads; t++) {
    const o = sortSlot(t)
    block[o + SORT_OUT.before] = before
    block[o + SORT_OUT.fluidBefore] = fluidBefore
    before += block[o + SORT_OUT.inCells]!
    fluidBefore += block[o + SORT_OUT.fluidInCells]!
  }
}

/**
 * Writes the slot's cells' starts and fluid prefix sums (from the slot's bases), then scatters its
 * particles in index order: permutation[k] is the old index of the particle that goes to k.
 */
export function scatterCells(
  a: ParticleArrays,
  block: Float64Array,
  slot: number,
  cursor: Int32Array,
  cellStart: Int32Array,
  fluidBefore: Int32Array,
  permutation: Int32Array,
  blockCells: Int32Array,
): void {
  const cell = a.cell
  const count = block[SORT_KEY.count]! | 0
  const deletedCell = cellCountOf(block)
  const o = sortSlot(slot)
  const begin = block[o + SORT_OUT.cellBegin]! | 0
  const end = block[o + SORT_OUT.cellEnd]! | 0
  let start = block[o + SORT_OUT.before]! | 0
  let fluid = block[o + SORT_OUT.fluidBefore]! | 0
  const fluidEnd = Math.min(end, deletedCell)
  for (let c = begin; c < fluidEnd; c++) {
    const n = cursor[c]!
    cellStart[c] = start
    cursor[c] = start
    start += n
    fluid += fluidBefore[c + 1]!
    fluidBefore[c + 1] = fluid
  }
  // the deleted particles' cell, if the slot's: no fluid prefix
  if (begin <= deletedCell && deletedCell < end) {
    cellStart[deletedCell] = start
    cursor[deletedCell] = start
  }
  for (let first = 0, b = 0; first < count; first += SCAN_BLOCK, b++) {
    if (!blockMeets(blockCells, b, begin, end)) continue
    const last = Math.min(first + SCAN_BLOCK, count)
    for (let i = first; i < last; i++) {
      const c = cell[i]!
      if (c < begin || c >= end) continue
      permutation[cursor[c]!++] = i
    }
  }
}
