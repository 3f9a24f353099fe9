import { describe, expect, it } from 'vitest'
import { createRandom as random } from '../../domain/random.ts'
import {
  blockCellsLength,
  boundBlockCells,
  SORT_KEY,
  SORT_OUT,
  sortBlockLength,
  sortSlot,
} from './cellKeys.ts'
import { countCells, foldCellBases, scatterCells, splitCellRanges } from './cellCount.ts'
import { allocateParticleBuffers, PARTICLE_KIND, viewParticleArrays } from './particles.ts'

/** A grid of nx × 1 × 1 cells (cellCount = nx) and particles with given cells (nx: deleted). */
function keyedParticles(cells: readonly number[], fluid: (i: number) => boolean) {
  const a = viewParticleArrays(allocateParticleBuffers(cells.length))
  cells.forEach((c, i) => {
    a.cell[i] = c
    a.kind[i] = fluid(i) ? PARTICLE_KIND.fluid : PARTICLE_KIND.wall
  })
  return a
}

function headBlock(threads: number, count: number, cellCount: number): Float64Array {
  const block = new Float64Array(sortBlockLength(threads))
  block[SORT_KEY.count] = count
  block[SORT_KEY.nx] = cellCount
  block[SORT_KEY.ny] = 1
  block[SORT_KEY.nz] = 1
  return block
}

/**
 * The counting sort dealt to `ranges.length - 1` slots, slot t over cells [ranges[t],
 * ranges[t + 1]) (null: splitCellRanges), each phase's slots run one after the other.
 */
function dealtSort(
  a: ReturnType<typeof keyedParticles>,
  count: number,
  cellCount: number,
  threads: number,
  ranges: readonly number[] | null,
) {
  const block = headBlock(threads, count, cellCount)
  if (ranges) {
    for (let t = 0; t < threads; t++) {
      block[sortSlot(t) + SORT_OUT.cellBegin] = ranges[t]!
      block[sortSlot(t) + SORT_OUT.cellEnd] = ranges[t + 1]!
    }
  } else splitCellRanges(a.cell, block, threads)
  // stale values where the sort must write: the counting starts from nothing
  const cursor = new Int32Array(cellCount + 2).fill(-7)
  const cellStart = new Int32Array(cellCount + 2).fill(-7)
  const fluidBefore = new Int32Array(cellCount + 1).fill(-7)
  const permutation = new Int32Array(count).fill(-7)
  const blockCells = new Int32Array(blockCellsLength(count))
  boundBlockCells(a.cell, 0, count, blockCells)
  for (let t = 0; t < threads; t++) countCells(a, block, t, cursor, fluidBefore, blockCells)
  foldCellBases(block, threads)
  fluidBefore[0] = 0
  cellStart[cellCount + 1] = count
  for (let t = 0; t < threads; t++)
    scatterCells(a, block, t, cursor, cellStart, fluidBefore, permutation, blockCells)
  return { permutation: [...permutation], cellStart: [...cellStart], fluidBefore: [...fluidBefore] }
}

/** The serial stable counting sort's results, by definition. */
function expectedSort(a: ReturnType<typeof keyedParticles>, count: number, cellCount: number) {
  const cells = [...a.cell.subarray(0, count)]
  const fluid = (i: number) => a.kind[i] === PARTICLE_KIND.fluid && cells[i]! < cellCount
  const cellStart = Array.from(
    { length: cellCount + 2 },
    (_, c) => cells.filter((k) => k < c).length,
  )
  const fluidBefore = Array.from(
    { length: cellCount + 1 },
    (_, c) => cells.filter((k, i) => k < c && fluid(i)).length,
  )
  // Array.prototype.sort is stable: equal cells keep their index order
  const permutation = [...cells.keys()].sort((i, j) => cells[i]! - cells[j]!)
  return { permutation, cellStart, fluidBefore }
}

describe('the counting sort by cell on several threads', () => {
  // several scan blocks (SCAN_BLOCK = 1024), so that slots skip blocks
  const cellCount = 400
  const n = 5000
  const next = random(5)
  // first-sort order (cells at random) with deleted particles (cell = cellCount)
  const shuffled = Array.from({ length: n }, () =>
    next() < 0.05 ? cellCount : Math.floor(next() * cellCount),
  )
  // the order after a step: sorted cells with a few particles that moved on, and deletions
  const stepped = [...shuffled].sort((x, y) => x - y)
  for (let k = 0; k < 20; k++) stepped[Math.floor(next() * n)] = Math.floor(next() * cellCount)
  stepped[17] = cellCount
  // a particle far from its block's cells: counted by the slot owning its cell all the same
  stepped[4500] = 3
  const fluid = (i: number) => i % 3 !== 0

  for (const [order, cells] of [
    ['random', shuffled],
    ['nearly sorted', stepped],
  ] as const) {
    const a = keyedParticles(cells, fluid)
    const expected = expectedSort(a, n, cellCount)

    for (const threads of [1, 2, 3])
      it(`equals the serial stable sort on ${threads} slot(s), ${order} cells`, () => {
        expect(dealtSort(a, n, cellCount, threads, null)).toEqual(expected)
      })

    it(`equals the serial stable sort on an uneven split with empty slots, ${order} cells`, () => {
      // slot 1 and the last slot own no cell; the deleted cell is slot 3's
      const ranges = [0, 30, 30, 290, cellCount + 1, cellCount + 1]
      expect(dealtSort(a, n, cellCount, 5, ranges)).toEqual(expected)
    })
  }

  it('sorts no particles into empty cells', () => {
    const a = keyedParticles([], fluid)
    const sorted = dealtSort(a, 0, 6, 3, null)
    expect(sorted.cellStart).toEqual([0, 0, 0, 0, 0, 0, 0, 0])
    expect(sorted.fluidBefore).toEqual([0, 0, 0, 0, 0, 0, 0])
  })

  it('splits the cells into contiguous ranges balanced by cells and particles', () => {
    const threads = 4
    // all particles in the first 100 of 1000 cells, sorted
    const cells = Array.from({ length: 900 }, (_, i) => Math.floor(i / 9))
    const a = keyedParticles(cells, fluid)
    const block = headBlock(threads, cells.length, 1000)
    splitCellRanges(a.cell, block, threads)
    const ranges = Array.from({ length: threads }, (_, t) => [
      block[sortSlot(t) + SORT_OUT.cellBegin]!,
      block[sortSlot(t) + SORT_OUT.cellEnd]!,
    ])
    expect(ranges[0]![0]).toBe(0)
    expect(ranges[threads - 1]![1]).toBe(1001)
    for (let t = 1; t < threads; t++) expect(ranges[t]![0]).toBe(ranges[t - 1]![1])
    // each range's cells plus its particles: (1001 + 900) / 4 = 475 each, to a cell (10)
    const weights = ranges.map(([begin, end]) => {
      const particles = cells.filter((c) => c >= begin! && c < end!).length
      return end! - begin! + particles
    })
    for (const weight of weights) expect(Math.abs(weight - 475)).toBeLessThanOrEqual(10)
  })
})
