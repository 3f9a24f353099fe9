import { describe, expect, it } from 'vitest'
import { GRID_PARAM } from './grid.ts'
import { createInteractionContext, STAT_STRIDE } from './interactions.ts'
import { createSolver, solverInternals } from './SphSolver.ts'
import { createDamBreakConfig } from './scenarios.ts'
import {
  BLOCK_CELLS,
  maxOverMean,
  measureCellWork,
  splitByPrefix,
  splitByWork,
  WORK,
  WORK_STRIDE,
} from './workSplit.ts'

describe('work split', () => {
  it('splits cells into ranges of balanced prefix increments', () => {
    const cellStart = Int32Array.from([0, 10, 10, 20, 30, 40, 40, 100])
    const out = new Int32Array(4)
    splitByPrefix(cellStart, 7, 3, out)
    expect([...out]).toEqual([0, 4, 6, 7])
  })

  it('splits blocks by their work, not their cells, and leaves workless blocks out of the count', () => {
    // 10 blocks: the first four hold all the work (walls without fluid cost nothing)
    const blocks = 10
    const work = new Float64Array(WORK_STRIDE * blocks)
    for (const [b, w] of [
      [0, 100],
      [1, 100],
      [2, 100],
      [3, 100],
    ] as const)
      work[WORK_STRIDE * b] = w
    const cellCount = blocks * BLOCK_CELLS - 3
    const out = new Int32Array(5)
    splitByWork(work, 0, cellCount, 4, out)
    expect([...out]).toEqual([0, BLOCK_CELLS, 2 * BLOCK_CELLS, 3 * BLOCK_CELLS, cellCount])
    const shares = [0, 1, 2, 3].map((t) => {
      let sum = 0
      for (let b = out[t]! / BLOCK_CELLS; b < Math.ceil(out[t + 1]! / BLOCK_CELLS); b++)
        sum += work[WORK_STRIDE * b]!
      return sum
    })
    expect(maxOverMean(shares)).toBe(1)
  })

  it('gives empty ranges rather than going backwards when there are more threads than work', () => {
    const work = new Float64Array(WORK_STRIDE * 2)
    work[0] = 5
    const out = new Int32Array(5)
    splitByWork(work, 0, 2 * BLOCK_CELLS, 4, out)
    for (let t = 0; t < 4; t++) expect(out[t + 1]).toBeGreaterThanOrEqual(out[t]!)
    expect(out[0]).toBe(0)
    expect(out[4]).toBe(2 * BLOCK_CELLS)
  })

  it('gives the same numbers on three threads (uneven splits, fields dealt unevenly) as on one', async () => {
    const run = async (threads: number) => {
      const solver = await createSolver(
        createDamBreakConfig(1500, { threads, integrator: 'symplectic' }),
      )
      try {
        for (let k = 0; k < 12; k++) solver.step()
        if (threads > 1) expect(solver.workSplit().forcesMaxOverMean).toBeLessThan(1.05)
        return solver.snapshot()
      } finally {
        await solver.dispose()
      }
    }
    const single = await run(1)
    const threaded = await run(3)
    expect(threaded.positions).toEqual(single.positions)
    expect(threaded.velocities).toEqual(single.velocities)
    expect(threaded.density).toEqual(single.density)
  }, 60_000)

  it('spreads the cells a wall pass visits without work (empty, or walls with no fluid near) over its chunks', async () => {
    // counted as nothing, they fell into the last chunk: 51 % of the empty and 42 % of the dry
    // cells here; in the wall pass after a sort, which scans each dry cell's stencil, that chunk
    // took 50 × the mean chunk (dam break 300k, 512 chunks), the other threads waiting for it
    const solver = await createSolver(createDamBreakConfig(20_000, { threads: 1 }))
    try {
      solver.step()
      solver.measureInteractionPass('reference', 0)
      const { arrays, grid, constants } = solverInternals(solver)
      const cellCount = grid.params[GRID_PARAM.cellCount]!
      const generation = grid.params[GRID_PARAM.generation]!
      const ctx = createInteractionContext(arrays, grid, constants, new Float64Array(STAT_STRIDE))
      measureCellWork(ctx, 0, cellCount, false)
      const chunks = 64
      const out = new Int32Array(chunks + 1)
      splitByWork(grid.work, WORK.walls, cellCount, chunks, out)
      const empty = new Array<number>(chunks).fill(0)
      const dry = new Array<number>(chunks).fill(0)
      for (let k = 0; k < chunks; k++) {
        for (let c = out[k]!; c < out[k + 1]!; c++) {
          if (grid.cellStart[c + 1] === grid.cellStart[c]) empty[k]!++
          else if (grid.dryGeneration[c] === generation) dry[k]!++
        }
      }
      const total = empty.reduce((sum, n) => sum + n, 0)
      expect(Math.max(...empty) / total).toBeLessThan(0.1)
      expect(maxOverMean(dry)).toBeLessThan(3)
    } finally {
      await solver.dispose()
    }
  })
})
