/**
 * What bench/solver needs: set up a dam break of N fluid particles and time k force passes (or
 * the plain reference loop over the same pairs), counting pair interactions; the per-thread work
 * of the splits for any thread count.
 */
import type { SolverOptions } from './config.ts'
import { BOUNDARY_CODE } from './config.ts'
import { GRID_PARAM } from './grid.ts'
import { computeForces, createInteractionContext, STAT, STAT_STRIDE } from './interactions.ts'
import type { PassMeasurement, Solver } from './SphSolver.ts'
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

export interface ForcePassBenchmark extends PassMeasurement {
  /** Particles in the setup (fluid and wall) and fluid particles alone. */
  particles: number
  fluidParticles: number
  /** Pair interactions per second per thread, by wall-clock and by CPU time. */
  interactionsPerSecondPerThread: number
  interactionsPerCpuSecond: number
}

export async function benchmarkForcePass(input: {
  fluidParticles: number
  passes: number
  kind?: 'forces' | 'reference'
  /** Untimed passes first, so that the loop is compiled by the optimising JIT. */
  warmupPasses?: number
  options?: Partial<SolverOptions>
}): Promise<ForcePassBenchmark> {
  const config = createDamBreakConfig(input.fluidParticles, input.options)
  const solver = await createSolver(config)
  try {
    const kind = input.kind ?? 'forces'
    solver.measureInteractionPass(kind, input.warmupPasses ?? 2)
    const result = solver.measureInteractionPass(kind, input.passes)
    let fluid = 0
    for (let i = 0; i < config.particles.kinds.length; i++)
      if (config.particles.kinds[i] === 0) fluid++
    return {
      ...result,
      particles: config.particles.kinds.length,
      fluidParticles: fluid,
      interactionsPerSecondPerThread: result.interactions / result.seconds / result.threads,
      interactionsPerCpuSecond: result.interactions / result.cpuSeconds,
    }
  } finally {
    await solver.dispose()
  }
}

/** Per-thread work of one split, as largest over mean share (1: even). */
export interface WorkSplitMeasurement {
  threads: number
  /** Force pass: pair interactions counted in each thread's range (measured, not estimated). */
  forces: number
  /** The force pass's estimate (what the split balanced). */
  forcesEstimated: number
  /** Wall extrapolation: its estimate (wall particles × fluid-row candidates). */
  walls: number
  /** Integration: fluid particles per range. */
  fluid: number
  /** Equation of state and records: particles per range. */
  particles: number
}

/**
 * The per-thread work of the splits the solver would make for each of `threadCounts` threads, on
 * the solver's current state (computed on one thread: no such machine needed). The force pass is
 * run range by range, counting each range's pair interactions.
 */
export function measureWorkSplits(
  solver: Solver,
  threadCounts: readonly number[],
): WorkSplitMeasurement[] {
  const internals = solverInternals(solver)
  const { grid, constants } = internals
  const cellCount = grid.params[GRID_PARAM.cellCount]!
  const dynamicWalls = constants.boundaryCode === BOUNDARY_CODE.dynamic
  const stats = new Float64Array(STAT_STRIDE)
  const ctx = createInteractionContext(internals.arrays, grid, constants, stats)
  // the records and wall pressures of the current state, as a step's passes would have them
  solver.measureInteractionPass('reference', 0)
  measureCellWork(ctx, 0, cellCount, dynamicWalls)
  const results: WorkSplitMeasurement[] = []
  for (const threads of threadCounts) {
    const ranges = new Int32Array(threads + 1)
    const shareOf = (prefix: Int32Array) => {
      splitByPrefix(prefix, cellCount, threads, ranges)
      return maxOverMean(
        Array.from({ length: threads }, (_, t) => prefix[ranges[t + 1]!]! - prefix[ranges[t]!]!),
      )
    }
    const particles = shareOf(grid.cellStart)
    const fluid = dynamicWalls ? particles : shareOf(grid.fluidBefore)
    const estimated = (which: number) => {
      splitByWork(grid.work, which, cellCount, threads, ranges)
      return Array.from({ length: threads }, (_, t) => {
        let sum = 0
        const begin = ranges[t]!
        const end = ranges[t + 1]!
        if (end > begin)
          for (let b = Math.floor(begin / BLOCK_CELLS); b < Math.ceil(end / BLOCK_CELLS); b++)
            sum += grid.work[WORK_STRIDE * b + which]!
        return sum
      })
    }
    const walls = maxOverMean(estimated(WORK.walls))
    const forcesEstimated = maxOverMean(estimated(WORK.forces))
    const counted: number[] = []
    for (let t = 0; t < threads; t++) {
      computeForces(ctx, ranges[t]!, ranges[t + 1]!, 0)
      counted.push(stats[STAT.interactions]!)
    }
    results.push({
      threads,
      forces: maxOverMean(counted),
      forcesEstimated,
      walls,
      fluid,
      particles,
    })
  }
  return results
}
