/**
 * The force pass variants of solver/gpu/forceVariants.ts on one card (issue 21 item 4): for each
 * size a dam break is built once, and each variant, in turn on the same particles, runs a warm-up
 * pass (its derivatives compared with the base kernel's: largest |Δa| over the largest |a| of the
 * fluid, the same for dρ/dt) and `passes` timed force passes in one submission (wall clock to
 * onSubmittedWorkDone, as gpu.bench.ts), over `rounds` rounds; the best round counts. A variant
 * `name:n` runs with a neighbour list of n (the list variants). Prints each line as it goes.
 * scripts/gpuDevice.sh runs it on a GPU machine (about a minute on an H200).
 *
 *   npx tsx bench/solver/gpuForceVariants.ts [--sizes 1000000,16000000] [--passes 40,10]
 *     [--rounds 2,1] [--variants base,lean,list,listLean,listLean:24]
 */
import { compareForces } from '../../solver/gpu/agreementCases.ts'
import { findGpu, gpuUnavailableReason } from '../../solver/gpu/device.ts'
import type { ForceVariant } from '../../solver/gpu/forceVariants.ts'
import { FORCE_VARIANTS, isForceVariant } from '../../solver/gpu/forceVariants.ts'
import { createGpuSolver } from '../../solver/gpu/GpuSolver.ts'
import { createDamBreakConfig } from '../../solver/sph/scenarios.ts'

function list(name: string, fallback: string): string[] {
  const at = process.argv.indexOf(name)
  return (at >= 0 ? process.argv[at + 1]! : fallback).split(',').filter((s) => s.length > 0)
}

function numbers(name: string, fallback: string): number[] {
  const values = list(name, fallback).map(Number)
  const bad = values.find((v) => !(Number.isFinite(v) && v > 0))
  if (bad !== undefined) throw new Error(`${name}: positive numbers, got ${bad}`)
  return values
}

function label(fluid: number): string {
  return fluid >= 1e6 ? `${fluid / 1e6}M` : fluid >= 1e3 ? `${fluid / 1e3}k` : `${fluid}`
}

interface Best {
  passMs: number
  rate: number
}

interface Choice {
  name: string
  variant: ForceVariant
  listCap: number | undefined
}

/** `name` or `name:listCap`. */
function parseVariant(text: string): Choice {
  const [name = '', cap] = text.split(':')
  if (!isForceVariant(name))
    throw new Error(`unknown variant ${name} (${FORCE_VARIANTS.join(', ')})`)
  const listCap = cap === undefined ? undefined : Number(cap)
  if (listCap !== undefined && !(Number.isInteger(listCap) && listCap > 0 && listCap <= 64))
    throw new Error(`${text}: a list of 1 to 64`)
  return { name: text, variant: name, listCap }
}

async function main(): Promise<void> {
  const sizes = numbers('--sizes', '1000000,16000000')
  const passes = numbers('--passes', '40,10')
  const roundsOf = numbers('--rounds', '2,1')
  const chosen = list('--variants', [...FORCE_VARIANTS, 'listLean:24'].join(',')).map(parseVariant)
  const gpu = await findGpu()
  if (!gpu) throw new Error(`no WebGPU adapter: ${gpuUnavailableReason()}`)
  console.log(`adapter: ${gpu.info.name}${gpu.info.fallback ? ' (software adapter)' : ''}`)
  for (const [s, fluid] of sizes.entries()) {
    const n = passes[Math.min(s, passes.length - 1)]!
    const rounds = roundsOf[Math.min(s, roundsOf.length - 1)]!
    const size = label(fluid)
    const built = performance.now()
    const config = createDamBreakConfig(fluid)
    const solver = await createGpuSolver(config, gpu)
    const particles = solver.describe().particleCount
    console.log(
      `${size}: ${particles} particles, built in ${((performance.now() - built) / 1000).toFixed(1)} s; ${n} passes per round, ${rounds} rounds`,
    )
    try {
      solver.useForceVariant('base')
      const base = await solver.forcePass(1)
      const best = new Map<string, Best>()
      for (let round = 0; round < rounds; round++) {
        for (const { name, variant, listCap } of chosen) {
          solver.useForceVariant(variant, listCap)
          // warm-up (the pipeline's first use) and the derivatives at this state
          const warm = await solver.forcePass(1)
          const timed = await solver.forcePass(n)
          const passMs = (timed.seconds / n) * 1e3
          const rate = timed.interactionsPerPass / (timed.seconds / n) / 1e9
          const known = best.get(name)
          if (!known || passMs < known.passMs) best.set(name, { passMs, rate })
          const error = compareForces(config, base.derivatives, warm.derivatives)
          const baseRate = best.get('base')?.rate
          console.log(
            `${size} ${name} (round ${round + 1}): ${(timed.interactionsPerPass / 1e6).toFixed(1)} M interactions per pass, ${passMs.toFixed(2)} ms per pass, ${rate.toPrecision(3)} G interactions/s` +
              (baseRate ? ` (${(rate / baseRate).toFixed(2)} x base)` : '') +
              `; against base: |da| ${error.acceleration.toExponential(1)} of max |a|, |d drho/dt| ${error.densityRate.toExponential(1)} of max` +
              (warm.interactionsPerPass === base.interactionsPerPass ? '' : ' PAIRS DIFFER'),
          )
        }
      }
      const baseRate = best.get('base')?.rate
      const summary = chosen.map(({ name }) => {
        const b = best.get(name)!
        return `${name} ${b.rate.toPrecision(3)} G/s${baseRate ? ` (${(b.rate / baseRate).toFixed(2)} x)` : ''}`
      })
      console.log(`${size} best of ${rounds}: ${summary.join(', ')}`)
    } finally {
      await solver.dispose()
    }
  }
}

await main()
