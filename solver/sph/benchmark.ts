/**
 * What bench/solver.ts needs: set up a dam break of N fluid particles and time k force passes (or
 * the plain reference loop over the same pairs), counting pair interactions.
 */
import type { SolverOptions } from './config.ts'
import type { PassMeasurement } from './SphSolver.ts'
import { createSolver } from './SphSolver.ts'
import { createDamBreakConfig } from './scenarios.ts'

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
