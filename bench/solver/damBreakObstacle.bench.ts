/**
 * A small real simulation end to end through the solver (issue 12 item 3): the dam break with an
 * obstacle of SPHERIC Test 2 (bench/solver/kleefsman.ts) at dp = 0.04 m (10.9k fluid, 36k
 * particles in all) with the product's default settings and material (c0 = 10·√(g·H) = 23.2 m/s),
 * stepped from rest for 0.1 s (0.01 s with --quick) on 2 threads (or all cores if fewer):
 * CPU-seconds and wall seconds per simulated second, cores busy (process CPU ÷ wall time),
 * particle-steps per second and force passes per simulated second. Targets: cores busy ≥ 0.9 ×
 * the threads (1.8 of 2), meaningful only on an otherwise idle machine (the load average is logged).
 */
import { availableParallelism, loadavg } from 'node:os'
import type { SolverConfig } from '../../solver/sph/config.ts'
import { createSolver } from '../../solver/sph/SphSolver.ts'
import type { BenchCase, BenchContext } from '../lib/types.ts'
import { timeEndToEnd } from './endToEnd.ts'
import { kleefsmanConfig } from './kleefsman.ts'

const DP = 0.04
const BUSY_TARGET = 0.9

async function runDamBreakObstacle(context: BenchContext): Promise<void> {
  const threads = Math.min(2, availableParallelism())
  const endTimeS = context.quick ? 0.01 : 0.1
  const config = kleefsmanConfig(DP, 10, { threads }) as SolverConfig
  const load = loadavg()[0]!
  const result = await timeEndToEnd(
    () => createSolver(config),
    endTimeS,
    (timeS, steps) => context.log(`t = ${timeS.toFixed(4)} s after ${steps} steps`),
  )
  context.log(
    `${result.particles} particles (${result.fluidParticles} fluid), ${result.steps} steps to ${endTimeS} s in ${result.wallS.toFixed(1)} s, ${result.cpuS.toFixed(1)} CPU-s, ${threads} threads, ${result.integrator}; load average ${load.toFixed(2)} before, ${loadavg()[0]!.toFixed(2)} after; work split max/mean ${result.forcesMaxOverMean?.toFixed(3) ?? '—'}`,
  )
  const name = `solver/damBreakObstacle.dp${DP}`
  const report = (variant: string, value: number, unit: string) =>
    context.report({
      case: `${name}.${variant}`,
      value,
      unit,
      ratio: null,
      target: null,
      ok: null,
    })
  report('cpuSecondsPerSimulatedSecond', result.cpuSPerSimulatedS, 'CPU-s/s')
  report('wallSecondsPerSimulatedSecond', result.wallSPerSimulatedS, 's/s')
  report('particleStepsPerSecond', result.particleStepsPerS, 'particle-steps/s')
  report('forcePassesPerSimulatedSecond', result.forcePassesPerSimulatedS, 'passes/s')
  context.report({
    case: `${name}.coresBusy.${threads}threads`,
    value: result.coresBusy,
    unit: 'cores',
    ratio: result.coresBusy / threads,
    target: `>= ${BUSY_TARGET} x ${threads} threads (idle machine)`,
    ok: result.coresBusy >= BUSY_TARGET * threads,
  })
}

export const cases: BenchCase[] = [
  {
    name: 'solver/damBreakObstacle',
    description:
      'A real run end to end: the SPHERIC Test 2 dam break with an obstacle at dp 0.04 m, 0.1 s on 2 threads: CPU-s and wall s per simulated second, cores busy (target >= 1.8 of 2 on an idle machine), particle-steps/s, force passes per simulated second.',
    run: runDamBreakObstacle,
  },
]
