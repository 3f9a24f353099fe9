/**
 * The SPH force pass (solver/sph computeForces: pressure, artificial and laminar viscosity,
 * continuity with density diffusion) on a dam break of 100k and 1M fluid particles: pair
 * interactions per second per core, its scaling over worker threads, and its cost against a plain
 * single-threaded reference loop over the same pairs (a trivial kernel) measured in the same run.
 * Target (issue 4): ≥ 20 M interactions/s per core and ≥ 0.8 × linear scaling over the cores.
 * Per-core rates are interactions per CPU second of the process (all its threads): robust on a
 * shared, busy machine. Scaling needs wall-clock time (idle waits cost no CPU), so it is only
 * meaningful when the cores are free; the wall-clock rates go to the log.
 */
import { availableParallelism } from 'node:os'
import type { SolverOptions } from '../../solver/sph/config.ts'
import { createSolver } from '../../solver/sph/SphSolver.ts'
import { createDamBreakConfig } from '../../solver/sph/scenarios.ts'
import type { PassMeasurement } from '../../solver/sph/SphSolver.ts'
import type { BenchCase, BenchContext } from '../lib/types.ts'

const TARGET_PER_CORE = 20e6
const TARGET_SCALING = 0.8

interface Size {
  label: string
  fluidParticles: number
  passes: number
}

function sizesFor(quick: boolean): Size[] {
  return quick
    ? [{ label: '20k', fluidParticles: 20_000, passes: 3 }]
    : [
        { label: '100k', fluidParticles: 100_000, passes: 5 },
        { label: '1M', fluidParticles: 1_000_000, passes: 2 },
      ]
}

/** Median of `runs` measurements of `passes` passes each (after one warm-up measurement). */
async function measurePasses(
  fluidParticles: number,
  kind: 'forces' | 'reference',
  passes: number,
  options: Partial<SolverOptions>,
  runs: number,
): Promise<PassMeasurement & { particles: number }> {
  const config = createDamBreakConfig(fluidParticles, options)
  const solver = await createSolver(config)
  try {
    solver.measureInteractionPass(kind, 1)
    const results: PassMeasurement[] = []
    for (let k = 0; k < runs; k++) results.push(solver.measureInteractionPass(kind, passes))
    results.sort((a, b) => a.seconds - b.seconds)
    const median = results[Math.floor(results.length / 2)]!
    return { ...median, particles: config.particles.kinds.length }
  } finally {
    await solver.dispose()
  }
}

async function runForcePass(context: BenchContext): Promise<void> {
  const cores = availableParallelism()
  const threadCounts = [...new Set([1, 2, cores])].filter((t) => t <= cores)
  const runs = context.quick ? 1 : 3
  for (const size of sizesFor(context.quick)) {
    const name = `solver/forcePass.${size.label}`
    const reference = await measurePasses(size.fluidParticles, 'reference', size.passes, {}, runs)
    const referenceRate = reference.interactions / reference.cpuSeconds
    context.log(
      `${size.label}: ${reference.particles} particles, ${(reference.interactions / size.passes / 1e6).toFixed(1)} M pair interactions per pass`,
    )
    context.report({
      case: `${name}.reference.1thread`,
      value: referenceRate / 1e6,
      unit: 'M interactions/s',
      ratio: 1,
      target: null,
      ok: null,
    })
    let single = 0
    for (const threads of threadCounts) {
      const forces = await measurePasses(
        size.fluidParticles,
        'forces',
        size.passes,
        { threads },
        runs,
      )
      const rate = forces.interactions / forces.seconds
      const perCore = forces.interactions / forces.cpuSeconds
      if (threads === 1) single = rate
      context.log(
        `${size.label}, ${threads} thread(s): ${(rate / 1e6).toFixed(1)} M/s wall-clock, ${(forces.interactions / forces.cpuSeconds / 1e6).toFixed(1)} M per CPU second`,
      )
      context.report({
        case: `${name}.${threads}thread${threads > 1 ? 's' : ''}`,
        value: perCore / 1e6,
        unit: 'M interactions/s/core',
        // this rate ÷ the plain loop's over the same pairs (1 would be free physics)
        ratio: perCore / referenceRate,
        target: `>= ${TARGET_PER_CORE / 1e6} M/s/core`,
        ok: perCore >= TARGET_PER_CORE,
      })
      if (threads > 1) {
        const scaling = rate / (threads * single)
        context.report({
          case: `${name}.scaling.${threads}threads`,
          value: scaling,
          unit: 'x linear',
          ratio: scaling,
          target: `>= ${TARGET_SCALING} x linear`,
          ok: scaling >= TARGET_SCALING,
        })
      }
    }
  }
}

export const cases: BenchCase[] = [
  {
    name: 'solver/forcePass',
    description:
      'SPH force pass on a dam break of 100k and 1M fluid particles: M pair interactions/s per core on 1, 2 and all threads, scaling, ratio to a plain single-threaded loop over the same pairs; targets >= 20 M/s/core, >= 0.8 x linear.',
    run: runForcePass,
  },
]
