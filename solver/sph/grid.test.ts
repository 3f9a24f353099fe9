import { describe, expect, it } from 'vitest'
import { createRandom as random } from '../../domain/random.ts'
import type { Box } from './grid.ts'
import { allocateGridBuffers, CellSorter, partitionCells, viewGrid, GRID_PARAM } from './grid.ts'
import { findNeighbours } from './neighbours.ts'
import {
  blockCellsLength,
  boundBlockCells,
  boundParticles,
  computeCellKeys,
  SORT_KEY,
  sortBlockLength,
  sortRange,
} from './cellKeys.ts'
import { countCells, scatterCells } from './cellCount.ts'
import { permuteScratchBytes, permuteStage, viewPermuteScratch } from './permute.ts'
import { allocateParticleBuffers, PARTICLE_KIND, viewParticleArrays } from './particles.ts'

function randomParticles(n: number, seed: number, size: number) {
  const next = random(seed)
  const arrays = viewParticleArrays(allocateParticleBuffers(n))
  for (let i = 0; i < n; i++) {
    arrays.posX[i] = next() * size
    arrays.posY[i] = next() * size
    arrays.posZ[i] = next() * size
    arrays.kind[i] = next() < 0.7 ? PARTICLE_KIND.fluid : PARTICLE_KIND.wall
    arrays.particleId[i] = i
  }
  return arrays
}

const wide: Box = { min: [-10, -10, -10], max: [10, 10, 10] }

describe('cell sort and neighbour search', () => {
  for (const reach of [1, 2, 3]) {
    it(`finds exactly the brute-force neighbours (reach ${reach})`, () => {
      const n = 1500
      const radius = 0.11
      const arrays = randomParticles(n, 7 + reach, 1)
      const grid = allocateGridBuffers(100_000)
      // a tight reference box clamps the outer particles into edge cells: still exact
      const box: Box = { min: [0.2, 0.2, 0.2], max: [0.8, 0.8, 0.8] }
      new CellSorter(arrays, grid).sort({
        count: n,
        support: radius,
        reach,
        referenceBox: box,
        deletionBox: null,
      })
      const view = viewGrid(grid)
      for (let i = 0; i < n; i += 7) {
        const expected: number[] = []
        for (let j = 0; j < n; j++) {
          if (j === i) continue
          const d = Math.hypot(
            arrays.posX[i]! - arrays.posX[j]!,
            arrays.posY[i]! - arrays.posY[j]!,
            arrays.posZ[i]! - arrays.posZ[j]!,
          )
          if (d < radius) expected.push(j)
        }
        expect(findNeighbours(arrays, view, i, radius).sort((a, b) => a - b)).toEqual(expected)
      }
    })
  }

  for (const [label, period] of [
    ['wider than the support', 0.5],
    ['narrower than a cell', 0.03],
  ] as const) {
    it(`finds every periodic image within the support once (y period ${label})`, () => {
      const n = 600
      const radius = 0.11
      const arrays = randomParticles(n, 21, 1)
      // positions outside the period are wrapped into it by the sort
      for (let i = 0; i < n; i++) arrays.posY[i] = (arrays.posY[i]! - 0.5) * 3
      const grid = allocateGridBuffers(100_000)
      new CellSorter(arrays, grid).sort({
        count: n,
        support: radius,
        reach: 3,
        referenceBox: wide,
        deletionBox: null,
        periodicY: { min: 0.2, max: 0.2 + period },
      })
      for (let i = 0; i < n; i++) {
        expect(arrays.posY[i]).toBeGreaterThanOrEqual(0.2)
        expect(arrays.posY[i]).toBeLessThan(0.2 + period)
      }
      const view = viewGrid(grid)
      const images = Math.ceil(radius / period) + 1
      for (let i = 0; i < n; i += 11) {
        const expected: number[] = []
        for (let j = 0; j < n; j++) {
          for (let k = -images; k <= images; k++) {
            if (j === i && k === 0) continue
            const d = Math.hypot(
              arrays.posX[i]! - arrays.posX[j]!,
              arrays.posY[i]! - arrays.posY[j]! - k * period,
              arrays.posZ[i]! - arrays.posZ[j]!,
            )
            if (d < radius) expected.push(j)
          }
        }
        expect(findNeighbours(arrays, view, i, radius).sort((a, b) => a - b)).toEqual(expected)
      }
    })
  }

  it('keeps every particle, grouped by cell in ascending cell order', () => {
    const n = 800
    const arrays = randomParticles(n, 3, 2)
    const grid = allocateGridBuffers(100_000)
    const result = new CellSorter(arrays, grid).sort({
      count: n,
      support: 0.2,
      reach: 2,
      referenceBox: wide,
      deletionBox: null,
    })
    expect(result.count).toBe(n)
    expect([...arrays.particleId].sort((a, b) => a - b)).toEqual([...Array(n).keys()])
    const view = viewGrid(grid)
    const p = view.params
    const cellCount = p[GRID_PARAM.cellCount]!
    expect(view.cellStart[cellCount]).toBe(n)
    const size = p[GRID_PARAM.cellSize]!
    for (let c = 0; c < cellCount; c++) {
      for (let i = view.cellStart[c]!; i < view.cellStart[c + 1]!; i++) {
        const cx = Math.floor((arrays.posX[i]! - p[GRID_PARAM.originX]!) / size)
        expect(cx).toBe(c % p[GRID_PARAM.nx]!)
      }
    }
  })

  it('deletes fluid outside the calculation domain and non-finite particles, never walls', () => {
    const n = 1000
    const arrays = randomParticles(n, 11, 1)
    arrays.posX[5] = Number.NaN
    const inside: Box = { min: [0, 0, 0], max: [0.5, 1, 1] }
    let fluidOutside = 0
    for (let i = 0; i < n; i++)
      if (i !== 5 && arrays.kind[i] === PARTICLE_KIND.fluid && arrays.posX[i]! > 0.5) fluidOutside++
    const result = new CellSorter(arrays, allocateGridBuffers(100_000)).sort({
      count: n,
      support: 0.1,
      reach: 1,
      referenceBox: inside,
      deletionBox: inside,
    })
    expect(result.deletedInvalid).toBe(1)
    expect(result.deletedOutside).toBe(fluidOutside)
    expect(result.count).toBe(n - 1 - fluidOutside)
    for (let i = 0; i < result.count; i++) {
      if (arrays.kind[i] === PARTICLE_KIND.fluid) expect(arrays.posX[i]).toBeLessThanOrEqual(0.5)
    }
  })

  it('splits cells into ranges of balanced particle counts', () => {
    const cellStart = Int32Array.from([0, 10, 10, 20, 30, 40, 40, 100])
    const out = new Int32Array(4)
    partitionCells(cellStart, 7, 3, out)
    expect([...out]).toEqual([0, 4, 6, 7])
  })

  it('sorts the same with its loops and its counting dealt to three threads (deletion, a coordinate not finite, periodic y)', () => {
    const n = 1201
    const serial = randomParticles(n, 11, 1)
    const dealt = randomParticles(n, 11, 1)
    for (const arrays of [serial, dealt]) arrays.posZ[500] = Number.NaN
    const deletionBox: Box = { min: [0, 0, 0], max: [0.8, 1, 1] }
    const request = {
      count: n,
      support: 0.09,
      reach: 3,
      referenceBox: wide,
      deletionBox,
      periodicY: { min: 0.1, max: 0.9 },
    }
    const serialGrid = allocateGridBuffers(200_000)
    const expected = new CellSorter(serial, serialGrid).sort(request)
    const threads = 3
    const block = new Float64Array(sortBlockLength(threads))
    const permutation = new Int32Array(n)
    const forEachSlot = (loop: typeof boundParticles) => (count: number) => {
      for (let slot = 0; slot < threads; slot++) {
        const [begin, end] = sortRange(count, slot, threads)
        loop(dealt, begin, end, block, slot)
      }
    }
    const dealtGrid = allocateGridBuffers(200_000)
    const view = viewGrid(dealtGrid)
    const cursor = new Int32Array(dealtGrid.maxCells + 2)
    const blockCells = new Int32Array(blockCellsLength(n))
    const slots = (run: (slot: number) => void) => () => {
      for (let slot = 0; slot < threads; slot++) run(slot)
    }
    const scratch = viewPermuteScratch(new ArrayBuffer(permuteScratchBytes(n, threads)), n, threads)
    const result = new CellSorter(dealt, dealtGrid, {
      threads,
      block,
      bounds: forEachSlot(boundParticles),
      keys: forEachSlot((arrays, begin, end, sortBlock, slot) => {
        computeCellKeys(arrays, begin, end, sortBlock, slot)
        boundBlockCells(arrays.cell, begin, end, blockCells)
      }),
      count: slots((slot) => countCells(dealt, block, slot, cursor, view.fluidBefore, blockCells)),
      scatter: slots((slot) =>
        scatterCells(
          dealt,
          block,
          slot,
          cursor,
          view.cellStart,
          view.fluidBefore,
          permutation,
          blockCells,
        ),
      ),
      cursor,
      permutation,
      permute: (stage) =>
        slots((slot) =>
          permuteStage(dealt, permutation, block[SORT_KEY.kept]!, stage, slot, threads, scratch),
        )(),
    }).sort(request)
    expect(result).toEqual(expected)
    expect(result.deletedOutside).toBeGreaterThan(0)
    expect(result.deletedInvalid).toBe(1)
    expect([...new Float64Array(dealtGrid.params)]).toEqual([
      ...new Float64Array(serialGrid.params),
    ])
    for (const buffer of ['cellStart', 'fluidBefore'] as const)
      expect([...new Int32Array(dealtGrid[buffer])]).toEqual([
        ...new Int32Array(serialGrid[buffer]),
      ])
    for (const field of ['posX', 'posY', 'posZ', 'particleId'] as const)
      expect([...dealt[field].subarray(0, result.count)]).toEqual([
        ...serial[field].subarray(0, result.count),
      ])
  })
})
