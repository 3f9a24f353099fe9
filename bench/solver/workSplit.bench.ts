/**
 * Per-thread work of the solver's splits (issue 22 item 1) for 2 to 64 threads, computed on one
 * thread (no such machine needed): the force pass's split counted (pair interactions in each
 * thread's cells, the pass run range by range) and estimated, the wall extrapolation's estimate,
 * integration (fluid particles) and the equation of state (particles). Cases: the standard dam
 * break of 100k fluid particles (1M without --quick) at its start, and the dam break with an
 * obstacle (bench/solver/kleefsman.ts) at its start and 0.3 s later, the fluid on its way.
 * Target: largest over mean ≤ 1.05 in every phase.
 */
import type { SolverConfig } from '../../solver/sph/config.ts'
import { measureWorkSplits } from '../../solver/sph/benchmark.ts'
import { createSolver } from '../../solver/sph/SphSolver.ts'
import { createDamBreakConfig } from '../../solver/sph/scenarios.ts'
import type { BenchCase, BenchContext } from '../lib/types.ts'
import { kleefsmanConfig } from './kleefsman.ts'

const THREADS = [2, 4, 8, 16, 32, 64]
const TARGET = 1.05

async function reportSplits(
  context: BenchContext,
  label: string,
  config: SolverConfig,
  advanceS: number,
): Promise<void> {
  const solver = await createSolver({ ...config, options: { ...config.options, threads: 2 } })
  try {
    if (advanceS > 0) solver.runUntil(advanceS)
    const splits = measureWorkSplits(solver, THREADS)
    for (const split of splits) {
      const worst = Math.max(split.forces, split.walls, split.fluid, split.particles)
      context.log(
        `${label}, ${split.threads} threads: forces counted ${split.forces.toFixed(3)} (estimated ${split.forcesEstimated.toFixed(3)}), walls ${split.walls.toFixed(3)}, integration ${split.fluid.toFixed(3)}, particles ${split.particles.toFixed(3)}`,
      )
      context.report({
        case: `solver/workSplit.${label}.${split.threads}threads`,
        value: worst,
        unit: 'max/mean',
        ratio: split.forces,
        target: `<= ${TARGET} in every phase`,
        ok: worst <= TARGET,
      })
    }
  } finally {
    await solver.dispose()
  }
}

async function runWorkSplit(context: BenchContext): Promise<void> {
  const fluid = context.quick ? 20_000 : 100_000
  await reportSplits(context, `damBreak.${fluid / 1000}k`, createDamBreakConfig(fluid), 0)
  if (!context.quick)
    await reportSplits(context, 'damBreak.1000k', createDamBreakConfig(1_000_000), 0)
  const dp = context.quick ? 0.06 : 0.04
  await reportSplits(context, `obstacle.dp${dp}.t0`, kleefsmanConfig(dp, 10), 0)
  await reportSplits(context, `obstacle.dp${dp}.t0.3`, kleefsmanConfig(dp, 10), 0.3)
}

export const cases: BenchCase[] = [
  {
    name: 'solver/workSplit',
    description:
      'Per-thread work max/mean of every phase split for 2 to 64 threads (counted interactions for the force pass), dam break 100k/1M and the dam break with an obstacle at t = 0 and 0.3 s; target <= 1.05.',
    run: runWorkSplit,
  },
]
