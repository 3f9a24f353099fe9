/**
 * `npm run validate [-- --json] [-- --quick] [-- --only=name,…] [-- --jobs=n] [-- --threads=n]`:
 * runs the solver validation cases (validation/cases.ts), each at two resolutions, and checks that
 * the error does not grow from the coarser to the finer one; prints one line per metric (or one
 * JSON object per metric with --json: {"case","metric","value","tolerance","ok"}), writes
 * validation/results.md and the plots (scripts/validateReport.ts), and exits 1 when a metric is
 * outside its tolerance. --quick runs the coarse vitest resolutions (a smoke test, tolerances of
 * the tests); --only runs some cases (hydrostatic, martin-moyce, lobovsky, closed-box, piston,
 * pointcloud, heat, viscosity, surface-tension, multiphase, rotating-bucket, rotating-sector, open-channel, refinement) and writes no results. --jobs=n runs each case and resolution in a process of its own, n at a time
 * (a machine with more cores), with --threads solver threads each (default min(2, cores)); the
 * figures are the same as one after the other. --backend=gpu runs the same cases on the GPU
 * solver (validation/caseSolver.ts; the same metrics, tolerances and growth rule): a case whose
 * config the GPU refuses prints "<case>: not run on the GPU: <reason>" and is not counted as
 * failed; no adapter at all fails the run. --fine runs the free-surface cases at the finer of their
 * resolutions and twice it (for a card). --solver-options='{"soundSpeedCoefficient":20}' lays solver
 * options over every case's own (does the answer move with a numerical choice?). Only a full CPU
 * run with the defaults writes validation/results.md.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { availableParallelism, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import {
  runClosedBoxCase,
  runHydrostaticCase,
  runHeatCase,
  runViscosityCase,
  runLobovskyCase,
  runMartinMoyceCase,
  runPistonCase,
  runPointcloudCases,
  runLaplaceCase,
  runAirDragCase,
  runOpenChannelCase,
  runRotatingSectorCase,
  runStratifiedCase,
  runRayleighTaylorCase,
  runRotatingBucketCase,
  runRefinementCase,
  NotRunOnBackend,
  useCaseBackend,
  useCaseSolverOptions,
  type ValidationMetric,
} from '../validation/cases.ts'
import type { SolverOptions } from '../solver/sph/config.ts'
import type { RunBackendKind } from '../solver/run/runBackend.ts'
import { CASES, growthMetrics, type CaseName, type RunResult } from './validateCases.ts'
import { writeResults, type Sections } from './validateReport.ts'

const json = process.argv.includes('--json')
const quick = process.argv.includes('--quick')
const fine = process.argv.includes('--fine')
const option = (name: string) =>
  process.argv.find((arg) => arg.startsWith(`--${name}=`))?.slice(name.length + 3)
const only = option('only')?.split(',')
const threads = Number(option('threads') ?? Math.min(2, availableParallelism()))
const jobs = Number(option('jobs') ?? 1)
/** A child process of --jobs: runs one resolution of one case ("name:index") into a JSON file. */
const single = option('single')
const output = option('out')
const backendOption = option('backend') ?? 'cpu'
if (backendOption !== 'cpu' && backendOption !== 'gpu')
  throw new Error(`--backend must be cpu or gpu, got ${backendOption}`)
const backend: RunBackendKind = backendOption
useCaseBackend(backend)
/** --solver-options=<JSON>: solver options laid over every case's own (caseSolver.ts). */
const solverOptionsText = option('solver-options')
if (solverOptionsText !== undefined)
  useCaseSolverOptions(JSON.parse(solverOptionsText) as Partial<SolverOptions>)

function print(m: ValidationMetric): void {
  if (json) {
    const { case: name, metric: what, value, tolerance, ok } = m
    // a reported-only metric has no tolerance: null in JSON
    console.log(
      JSON.stringify({
        case: name,
        metric: what,
        value,
        tolerance: Number.isFinite(tolerance) ? tolerance : null,
        ok,
      }),
    )
  } else {
    const tolerance = Number.isFinite(m.tolerance) ? `±${m.tolerance}` : 'reported'
    console.log(
      `${m.ok ? 'ok    ' : 'FAILED'}  ${m.case}: ${m.metric} = ${m.value.toPrecision(4)} (${tolerance})`,
    )
  }
}

/**
 * --fine: the free-surface cases at the finer of their validated resolutions and twice it, to see
 * where their answers converge (issue 12): a card's run (`--backend=gpu`; scripts/gpuDevice.sh
 * part validate), hours on two CPU cores. Without --only it runs these cases alone.
 */
const FINE: Partial<Record<CaseName, number[]>> = {
  hydrostatic: [0.00833, 0.00417],
  'martin-moyce': [30, 60],
  lobovsky: [30, 60],
  piston: [16, 32],
}

/** The resolutions of each case, coarser first. */
const VALIDATED: Record<CaseName, number[]> = {
  hydrostatic: quick ? [0.025] : [0.0125, 0.00833],
  'martin-moyce': quick ? [10] : [20, 30],
  lobovsky: quick ? [10] : [20, 30],
  'closed-box': quick ? [0.025] : [0.0125],
  piston: quick ? [6] : [10, 16],
  pointcloud: quick ? [0.025] : [0.02],
  heat: quick ? [16] : [20, 40],
  viscosity: quick ? [10] : [10, 16],
  'surface-tension': quick ? [24] : [36, 48],
  multiphase: quick ? [10] : [20, 30],
  'air-drag': quick ? [10] : [10, 20],
  'rotating-bucket': quick ? [6] : [8, 10],
  'rotating-sector': quick ? [6] : [8, 10],
  'open-channel': quick ? [8] : [8, 16],
  refinement: quick ? [6] : [6, 9],
}
const RESOLUTIONS: Record<CaseName, number[]> = Object.fromEntries(
  CASES.map((name) => [name, (fine && FINE[name]) || VALIDATED[name]]),
) as Record<CaseName, number[]>

/**
 * The rotating sector's slice angles: 90° (the lattice's own symmetry: the slice is the whole
 * bucket's discrete problem), the spec's widest 120°, 60° and a narrow 30° (the cut crosses the
 * lattice at the others; sliceFill.ts rings the fluid near the axis); --quick runs 120° only.
 */
const SECTOR_ANGLES = quick ? [120] : [90, 120, 60, 30]

/** Runs resolution `index` of a case; a config the backend refuses gives its reason (notRun). */
async function runCase(name: CaseName, index: number): Promise<RunResult> {
  try {
    return await runResolution(name, index)
  } catch (error) {
    if (error instanceof NotRunOnBackend) return { metrics: [], notRun: error.message }
    throw error
  }
}

/** Runs resolution `index` of a case on the chosen backend. */
async function runResolution(name: CaseName, index: number): Promise<RunResult> {
  const resolution = RESOLUTIONS[name][index]!
  switch (name) {
    case 'hydrostatic':
      return runHydrostaticCase({
        dp: resolution,
        depth: 0.2,
        endTimeS: quick ? 0.3 : 0.5,
        threads,
        ...(quick ? { pressureTolerance: 0.05 } : {}),
      })
    case 'martin-moyce': {
      const result = await runMartinMoyceCase({
        columnWidth: 0.1,
        particlesAcross: resolution,
        particlesDeep: 3,
        endT: quick ? 3.1 : 6,
        threads,
        ...(quick ? { positionTolerance: 0.05, speedTolerance: 0.1 } : {}),
      })
      return { metrics: result.metrics, martinMoyce: result }
    }
    case 'lobovsky': {
      const result = await runLobovskyCase({
        particlesPerHeight: resolution,
        particlesDeep: 3,
        endT: 5.2,
        threads,
      })
      return { metrics: result.metrics, lobovsky: result }
    }
    case 'closed-box':
      return {
        metrics: await runClosedBoxCase(
          quick
            ? { dp: resolution, endTimeS: 0.3, threads }
            : { dp: resolution, endTimeS: 0.5, threads },
        ),
      }
    case 'piston': {
      const result = await runPistonCase({
        particlesPerDepth: resolution,
        particlesDeep: 3,
        endTimeS: quick ? 0.4 : 0.6,
        threads,
      })
      return { metrics: result.metrics, piston: result }
    }
    case 'pointcloud':
      return { metrics: await runPointcloudCases({ dp: resolution, threads }) }
    case 'heat':
      return { metrics: await runHeatCase({ particlesAcross: resolution, threads }) }
    case 'viscosity':
      return { metrics: await runViscosityCase({ particlesAcross: resolution, threads }) }
    case 'surface-tension':
      return { metrics: (await runLaplaceCase({ across: resolution, threads })).metrics }
    case 'air-drag':
      return { metrics: await runAirDragCase({ particlesAcross: resolution, threads }) }
    case 'open-channel':
      return { metrics: await runOpenChannelCase({ particlesAcross: resolution, threads }) }
    case 'multiphase': {
      const stratified = await runStratifiedCase({ across: resolution, threads })
      const growth = await runRayleighTaylorCase({ across: resolution, threads })
      return { metrics: [...stratified.metrics, ...growth.metrics] }
    }
    case 'rotating-bucket':
      return {
        metrics: await runRotatingBucketCase({
          particlesAcross: resolution,
          threads,
          ...(quick ? { endS: 0.6, heldS: 0.2, tolerance: 0.1 } : {}),
        }),
      }
    case 'rotating-sector': {
      const metrics: ValidationMetric[] = []
      for (const sliceAngle of SECTOR_ANGLES)
        metrics.push(
          ...(await runRotatingSectorCase({
            particlesAcross: resolution,
            sliceAngle,
            threads,
            ...(quick ? { endS: 0.6, heldS: 0.2, tolerance: 0.1 } : {}),
          })),
        )
      return { metrics }
    }
    case 'refinement':
      return { metrics: await runRefinementCase({ particlesAcross: resolution, threads }) }
  }
}

const encode = (value: RunResult) =>
  JSON.stringify(value, (_, v: unknown) =>
    typeof v === 'number' && !Number.isFinite(v) ? String(v) : v,
  )
const decode = (text: string) =>
  JSON.parse(text, (_, v: unknown) =>
    v === 'Infinity' || v === '-Infinity' || v === 'NaN' ? Number(v) : v,
  ) as RunResult

/** Runs resolution `index` of a case in a child process (this script with --single). */
function runInChild(name: CaseName, index: number, directory: string): Promise<RunResult> {
  const file = join(directory, `${name}-${index}.json`)
  const args = [fileURLToPath(import.meta.url), `--single=${name}:${index}`, `--out=${file}`]
  args.push(`--threads=${threads}`, `--backend=${backend}`)
  if (quick) args.push('--quick')
  if (fine) args.push('--fine')
  if (solverOptionsText !== undefined) args.push(`--solver-options=${solverOptionsText}`)
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...process.execArgv, ...args], { stdio: 'inherit' })
    child.on('error', reject)
    child.on('exit', (code) => {
      if (code !== 0) reject(new Error(`${name} run ${index} exited with ${code}`))
      else resolve(decode(readFileSync(file, 'utf8')))
    })
  })
}

/** Runs the tasks, at most `limit` at a time; results in the tasks' order. */
async function pooled<T>(tasks: (() => Promise<T>)[], limit: number): Promise<T[]> {
  const results: T[] = new Array<T>(tasks.length)
  let next = 0
  const worker = async () => {
    while (next < tasks.length) {
      const k = next++
      results[k] = await tasks[k]!()
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, limit) }, worker))
  return results
}

/** The line of a case the backend does not run. */
function printNotRun(name: CaseName, reason: string): void {
  if (json) console.log(JSON.stringify({ case: name, notRunOn: backend, reason }))
  else console.log(`${name}: not run on the ${backend.toUpperCase()}: ${reason}`)
}

/** The backend's name for the log: the GPU's adapter; fails where there is none. */
async function backendName(): Promise<string> {
  if (backend === 'cpu') return `the CPU, ${threads} thread(s)`
  const { findGpu, gpuUnavailableReason } = await import('../solver/gpu/device.ts')
  const gpu = await findGpu()
  if (!gpu) throw new Error(`No GPU is available: ${gpuUnavailableReason() ?? ''}`)
  return `the GPU, ${gpu.info.name}`
}

async function main(): Promise<number> {
  if (single) {
    const [name, index] = single.split(':') as [CaseName, string]
    const result = await runCase(name, Number(index))
    result.metrics.forEach(print)
    if (output) writeFileSync(output, encode(result))
    return 0
  }
  const started = performance.now()
  const on = await backendName()
  if (!json)
    console.log(
      `Validation on ${on}` +
        (solverOptionsText === undefined ? '' : `, solver options ${solverOptionsText}`),
    )
  const notRun: CaseName[] = []
  const metrics: ValidationMetric[] = []
  const report = (list: ValidationMetric[]) => {
    for (const m of list) {
      metrics.push(m)
      print(m)
    }
  }
  const names = CASES.filter((name) => (only ? only.includes(name) : !fine || FINE[name]))
  const sections: Sections = {}
  const record = (name: CaseName, runs: RunResult[]) => {
    const refused = runs.find((run) => run.notRun !== undefined)?.notRun
    if (refused !== undefined) {
      notRun.push(name)
      return printNotRun(name, refused)
    }
    report(growthMetrics(name, runs))
    if (name === 'martin-moyce') sections.martinMoyce = runs.map((r) => r.martinMoyce!)
    if (name === 'lobovsky') sections.lobovsky = runs.map((r) => r.lobovsky!)
    if (name === 'piston') sections.piston = runs.map((r) => r.piston!)
  }
  if (jobs > 1) {
    const directory = mkdtempSync(join(tmpdir(), 'validate-'))
    try {
      const tasks = names.flatMap((name) => RESOLUTIONS[name].map((_, index) => ({ name, index })))
      // the longest runs (finest resolutions) first
      const order = [...tasks.keys()].sort((a, b) => tasks[b]!.index - tasks[a]!.index)
      const done = await pooled(
        order.map((k) => () => runInChild(tasks[k]!.name, tasks[k]!.index, directory)),
        jobs,
      )
      const results = new Array<RunResult>(tasks.length)
      order.forEach((k, n) => (results[k] = done[n]!))
      for (const name of names) {
        const runs = tasks.flatMap((t, k) => (t.name === name ? [results[k]!] : []))
        for (const run of runs) report(run.metrics)
        record(name, runs)
      }
    } finally {
      rmSync(directory, { recursive: true, force: true })
    }
  } else {
    for (const name of names) {
      const runs: RunResult[] = []
      for (let index = 0; index < RESOLUTIONS[name].length; index++) {
        const run = await runCase(name, index)
        report(run.metrics)
        runs.push(run)
        // refused at one resolution: refused at all
        if (run.notRun !== undefined) break
      }
      record(name, runs)
    }
  }
  const seconds = (performance.now() - started) / 1000
  if (!quick && !fine && !only && solverOptionsText === undefined && backend === 'cpu')
    writeResults(metrics, { seconds, threads, jobs }, sections)
  const failed = metrics.filter((m) => !m.ok)
  const skipped =
    notRun.length > 0 ? `; not run on the ${backend.toUpperCase()}: ${notRun.join(', ')}` : ''
  if (!json)
    console.log(
      `${metrics.length - failed.length} of ${metrics.length} metrics within tolerance on ${on} (${seconds.toFixed(0)} s)${skipped}`,
    )
  else if (failed.length > 0) console.error(`${failed.length} metric(s) outside tolerance`)
  return failed.length > 0 ? 1 : 0
}

process.exitCode = await main()
