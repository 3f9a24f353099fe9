/**
 * Thread scaling of the CPU solver (issue 22 item 3), for a machine of 16 cores or more:
 *
 *   npx tsx bench/solver/scaling16.ts                      # 1, 2, 4, 8, 12, 16 threads
 *   npx tsx bench/solver/scaling16.ts --threads 1,2 --quick   # a smoke test on a small machine
 *   OUT=/some/dir npx tsx bench/solver/scaling16.ts        # also writes $OUT/scaling16.json
 *
 * Two cases, built once each: the force pass on a dam break of 1M fluid particles (1.63M in all)
 * and full time steps (RK4) of a dam break of 300k fluid particles. Per thread count, a table row:
 * force-pass or full-step speedup over the 1-thread row (wall clock), cores busy (process CPU
 * time ÷ wall time over the timed part), the per-thread work max/mean of the split the solver made
 * (estimated) and counted (interactions per range, computed on one thread), and CPU-ns per pair
 * interaction. Each row has a time budget (--row-s, default 25 s): it times at least two passes or
 * steps and stops adding more once over it. Needs no network; prints as it goes.
 */
import { availableParallelism, cpus, loadavg } from 'node:os'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { SolverConfig } from '../../solver/sph/config.ts'
import { createSolver } from '../../solver/sph/SphSolver.ts'
import { createDamBreakConfig } from '../../solver/sph/scenarios.ts'
import { measureWorkSplits } from '../../solver/sph/benchmark.ts'

interface Row {
  case: string
  threads: number
  /** Wall seconds per pass (force pass) or per step (full step). */
  secondsPerUnit: number
  speedup: number | null
  coresBusy: number
  /** Estimated largest over mean per-thread work of the force pass's split (the solver's). */
  workMaxOverMeanEstimated: number
  /** Counted: pair interactions per range of that split (computed on one thread). */
  workMaxOverMeanCounted: number | null
  cpuNsPerInteraction: number
  units: number
}

function parseArguments(argv: readonly string[]) {
  const options = {
    threads: [1, 2, 4, 8, 12, 16],
    quick: false,
    rowSeconds: 25,
    forceParticles: 1_000_000,
    stepParticles: 300_000,
  }
  for (let k = 0; k < argv.length; k++) {
    const a = argv[k]!
    if (a === '--threads') options.threads = argv[++k]!.split(',').map(Number)
    else if (a === '--quick') options.quick = true
    else if (a === '--row-s') options.rowSeconds = Number(argv[++k])
    else throw new Error(`Unknown argument ${a}: use --threads 1,2,4 --quick --row-s 25.`)
  }
  if (options.quick) {
    options.forceParticles = 30_000
    options.stepParticles = 10_000
  }
  return options
}

const fmt = (value: number | null, digits = 2) => (value === null ? '—' : value.toFixed(digits))

function printRow(row: Row): void {
  console.log(
    [
      row.case.padEnd(22),
      String(row.threads).padStart(3),
      fmt(row.speedup).padStart(8),
      fmt(row.coresBusy).padStart(8),
      fmt(row.workMaxOverMeanEstimated, 3).padStart(10),
      fmt(row.workMaxOverMeanCounted, 3).padStart(10),
      fmt(row.cpuNsPerInteraction, 1).padStart(10),
      `${fmt(row.secondsPerUnit, 3)} s × ${row.units}`,
    ].join(' '),
  )
}

/** Counted max/mean of the force pass per thread count, on a 1-thread solver of the config. */
async function countedWork(
  config: SolverConfig,
  threadCounts: readonly number[],
): Promise<Map<number, number>> {
  const solver = await createSolver({ ...config, options: { ...config.options, threads: 1 } })
  try {
    const splits = measureWorkSplits(solver, threadCounts)
    return new Map(splits.map((split) => [split.threads, split.forces]))
  } finally {
    await solver.dispose()
  }
}

async function measureRow(
  name: string,
  config: SolverConfig,
  threads: number,
  kind: 'forces' | 'steps',
  rowSeconds: number,
  counted: Map<number, number>,
): Promise<Omit<Row, 'speedup'>> {
  const solver = await createSolver({ ...config, options: { ...config.options, threads } })
  try {
    // one untimed unit first, so the loops are compiled by the optimising JIT
    if (kind === 'forces') solver.measureInteractionPass('forces', 1)
    else solver.step()
    let units = 0
    let interactions = 0
    let wallS = 0
    let cpuS = 0
    // timed units until half the row's budget is spent (at least two, at most 5): one unit on one
    // thread made a noisy baseline on the 16-core machine
    while (units < 2 || (wallS < rowSeconds / 2 && units < 5)) {
      if (kind === 'forces') {
        // the passes alone (the sort and pressure passes before them are not timed)
        const pass = solver.measureInteractionPass('forces', 1)
        interactions += pass.interactions
        wallS += pass.seconds
        cpuS += pass.cpuSeconds
      } else {
        const started = performance.now()
        const cpuStarted = process.cpuUsage()
        interactions += solver.step().interactions
        const cpu = process.cpuUsage(cpuStarted)
        wallS += (performance.now() - started) / 1000
        cpuS += (cpu.user + cpu.system) / 1e6
      }
      units++
    }
    return {
      case: name,
      threads,
      secondsPerUnit: wallS / units,
      coresBusy: cpuS / wallS,
      workMaxOverMeanEstimated: solver.workSplit().forcesMaxOverMean,
      workMaxOverMeanCounted: counted.get(threads) ?? null,
      cpuNsPerInteraction: (cpuS / interactions) * 1e9,
      units,
    }
  } finally {
    await solver.dispose()
  }
}

async function main(): Promise<void> {
  const options = parseArguments(process.argv.slice(2))
  const started = performance.now()
  console.log(
    `scaling16: ${availableParallelism()} cores (${cpus()[0]?.model ?? 'unknown'}), Node ${process.version}, load average ${loadavg()[0]!.toFixed(2)}; threads ${options.threads.join(', ')}; row budget ${options.rowSeconds} s`,
  )
  console.log(
    `${'case'.padEnd(22)} thr  speedup  busy    work est.  work cnt.  CPU-ns/int  per unit`,
  )
  const cases = [
    {
      name: `forcePass.${options.forceParticles / 1000}k`,
      config: createDamBreakConfig(options.forceParticles),
      kind: 'forces' as const,
    },
    {
      name: `fullStep.${options.stepParticles / 1000}k`,
      config: createDamBreakConfig(options.stepParticles),
      kind: 'steps' as const,
    },
  ]
  const rows: Row[] = []
  for (const c of cases) {
    console.log(`# ${c.name}: ${c.config.particles.kinds.length} particles`)
    const counted = await countedWork(
      c.config,
      options.threads.filter((t) => t > 1),
    )
    let single: number | null = null
    for (const threads of options.threads) {
      const row = await measureRow(c.name, c.config, threads, c.kind, options.rowSeconds, counted)
      if (threads === 1) single = row.secondsPerUnit
      const full: Row = { ...row, speedup: single === null ? null : single / row.secondsPerUnit }
      rows.push(full)
      printRow(full)
    }
  }
  const elapsedS = (performance.now() - started) / 1000
  console.log(`done in ${elapsedS.toFixed(0)} s`)
  const out = process.env.OUT
  if (out) {
    mkdirSync(out, { recursive: true })
    writeFileSync(
      join(out, 'scaling16.json'),
      JSON.stringify(
        {
          cores: availableParallelism(),
          cpu: cpus()[0]?.model,
          node: process.version,
          elapsedS,
          rows,
        },
        null,
        1,
      ),
    )
  }
}

await main()
// worker threads a failed row left would keep the process alive
setTimeout(() => process.exit(0), 100).unref()
