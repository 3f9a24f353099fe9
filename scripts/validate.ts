/**
 * `npm run validate [-- --json] [-- --quick] [-- --only=name,…]`: runs the solver validation cases
 * (validation/cases.ts), each at two resolutions, and checks that the error does not grow from the
 * coarser to the finer one; prints one line per metric (or one JSON object per metric with --json:
 * {"case","metric","value","tolerance","ok"}), writes validation/results.md and the plots
 * (dam-break.png, lobovsky-pressure.png, piston-bore.png), and exits 1 when a metric is outside
 * its tolerance. --quick runs the coarse vitest resolutions (a smoke test, tolerances of the
 * tests); --only runs some cases (hydrostatic, martin-moyce, lobovsky, closed-box, piston) and
 * writes no results.
 */
import { writeFileSync } from 'node:fs'
import { availableParallelism, cpus } from 'node:os'
import { fileURLToPath } from 'node:url'
import {
  LOBOVSKY_SENSOR1_SAMPLES,
  LOBOVSKY_SENSORS,
  MARTIN_MOYCE_FIGURE,
  MARTIN_MOYCE_TABLE,
  metric,
  runClosedBoxCase,
  runHydrostaticCase,
  runLobovskyCase,
  runMartinMoyceCase,
  runPistonCase,
  type LobovskyResult,
  type MartinMoyceResult,
  type PistonResult,
  type ValidationMetric,
} from '../validation/cases.ts'
import { boreDepth, PISTON_DEPTH, PISTON_SPEED } from '../validation/piston.ts'
import { COLOURS, plot } from '../validation/plots.ts'

const json = process.argv.includes('--json')
const quick = process.argv.includes('--quick')
const only = process.argv
  .find((arg) => arg.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',')
const threads = Math.min(2, availableParallelism())
const wanted = (name: string) => !only || only.includes(name)

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
 * The error must not grow from the coarser resolution to the finer: growth (fine − coarse, of
 * the absolute errors) at most a quarter of the metric's tolerance, the scatter between two runs.
 */
function growth(caseName: string, what: string, coarse: number, fine: number, tolerance: number) {
  return metric(
    caseName,
    `${what}: error at the finer resolution − at the coarser (must not grow)`,
    Math.max(0, Math.abs(fine) - Math.abs(coarse)),
    tolerance / 4,
    `coarser ${coarse.toPrecision(3)}, finer ${fine.toPrecision(3)}`,
  )
}

function find(metrics: ValidationMetric[], start: string): ValidationMetric {
  const found = metrics.find((m) => m.metric.includes(start))
  if (!found) throw new Error(`No metric ${start}`)
  return found
}

function plotMartinMoyce(results: MartinMoyceResult[]): Uint8Array {
  const curves = results.flatMap((r, k) => [
    { points: r.front, colour: k === 0 ? COLOURS.blue : COLOURS.green, width: 2 },
    {
      points: r.front.map(([T, Z]) => [T + r.shiftT, Z] as const),
      colour: k === 0 ? COLOURS.red : COLOURS.orange,
      width: 2,
    },
  ])
  return plot({
    xLabel: 'T = t√(2g/a)',
    yLabel: 'Z = x/a',
    xMax: 4,
    yMin: 1,
    yMax: 5,
    xStep: 1,
    yStep: 1,
    curves: [
      ...curves,
      { points: MARTIN_MOYCE_TABLE, colour: COLOURS.black, width: 0 },
      { points: MARTIN_MOYCE_FIGURE, colour: COLOURS.grey, width: 0 },
    ],
  })
}

function plotLobovsky(results: LobovskyResult[]): Uint8Array {
  const fine = results.at(-1)!
  return plot({
    xLabel: 'T = t√(g/H)',
    yLabel: 'p/(ρgH)',
    xMin: 2,
    xMax: 5.5,
    yMax: 4,
    xStep: 0.5,
    yStep: 0.5,
    curves: [
      { points: fine.series[0]!.points, colour: COLOURS.blue, width: 1 },
      { points: fine.series[1]!.points, colour: COLOURS.green, width: 1 },
      { points: LOBOVSKY_SENSOR1_SAMPLES, colour: COLOURS.black, width: 0 },
      {
        points: LOBOVSKY_SENSORS.flatMap((s) => [
          [s.arrivalT, 0.1] as const,
          [s.peakT, s.peak] as const,
        ]),
        colour: COLOURS.red,
        width: 0,
      },
    ],
  })
}

function plotPiston(results: PistonResult[]): Uint8Array {
  const h1 = boreDepth(PISTON_DEPTH, PISTON_SPEED)
  const celerity = (PISTON_SPEED * h1) / (h1 - PISTON_DEPTH)
  const end = results[0]!.front.at(-1)![0]
  return plot({
    xLabel: 't (s)',
    yLabel: 'x (m)',
    xMax: end,
    yMax: 1,
    xStep: 0.1,
    yStep: 0.2,
    curves: [
      ...results.map((r, k) => ({
        points: r.front,
        colour: k === 0 ? COLOURS.blue : COLOURS.green,
        width: 2,
      })),
      {
        points: [
          [0, 0],
          [end, celerity * end],
        ] as const,
        colour: COLOURS.black,
        width: 1,
      },
    ],
  })
}

interface Sections {
  martinMoyce?: MartinMoyceResult[]
  lobovsky?: LobovskyResult[]
  piston?: PistonResult[]
}

function writeResults(metrics: ValidationMetric[], seconds: number, sections: Sections): void {
  const path = (name: string) => fileURLToPath(new URL(`../validation/${name}`, import.meta.url))
  if (sections.martinMoyce)
    writeFileSync(path('dam-break.png'), plotMartinMoyce(sections.martinMoyce))
  if (sections.lobovsky)
    writeFileSync(path('lobovsky-pressure.png'), plotLobovsky(sections.lobovsky))
  if (sections.piston) writeFileSync(path('piston-bore.png'), plotPiston(sections.piston))
  // a | inside a cell would end it
  const cell = (text: string) => text.replaceAll('|', '\\|')
  const rows = metrics.map(
    (m) =>
      `| ${cell(m.case)} | ${cell(m.metric)} | ${m.value.toPrecision(4)} | ${Number.isFinite(m.tolerance) ? `±${m.tolerance}` : 'reported'} | ${m.ok ? 'ok' : '**FAILED**'} | ${cell(m.note ?? '')} |`,
  )
  const cpu = cpus()[0]?.model ?? 'unknown CPU'
  const text = `# Solver validation

Written by \`npm run validate\` (scripts/validate.ts, cases in validation/) on ${new Date().toISOString().slice(0, 10)}:
${threads} thread(s) on ${cpus().length} × ${cpu}, ${Math.round(seconds / 60)} min in all (${seconds.toFixed(0)} s; the machine is
shared, so this varies). Every case runs the default settings of a new simulation (lyu21 shifting,
dual-step RK4, Riemann wall), water with c0 chosen by the solver (10√(gH)), each at two
resolutions; the error must not grow from the coarser to the finer one (growth at most a quarter
of the tolerance). Dam breaks and the piston run as thin slabs periodic along y (2D flow, no side
walls). See solver/sph/NUMERICS.md, 'Validation findings', for what moved these figures.

| Case | Metric | Value | Tolerance | Result | Notes |
| --- | --- | --- | --- | --- | --- |
${rows.join('\n')}

![Dam break front](dam-break.png)

dam-break.png: surge front Z = x/a against T = t√(2g/a). Black squares: Martin & Moyce (1952),
n² = 2, a = 2¼ in, their Table 2 (as tabulated in Ocellaris' scripts/plot_dam_break.py); grey
squares: their Figure 3 (as digitised in PySPH's examples/db_exp_data.py). Blue: simulated front
(largest fluid x + dp/2) at the coarser resolution, green at the finer; red and orange: the same
shifted later by their ΔT (the experiment's gate needs time to open: inviscid codes run ahead of
it). The front meets the far wall at Z = 5.

![Dam break wall pressure](lobovsky-pressure.png)

lobovsky-pressure.png: pressure on the far wall, p/(ρgH) against T = t√(g/H), at the finer
resolution: blue sensor 1 (3 mm above the floor), green sensor 3 (30 mm), every step. Red squares:
the record's arrival (0.1 ρgH) and first peak of sensors 1 and 3; black squares: sensor 1 every
0.01 in T in the two later windows (Lobovský et al. 2014, H = 300 mm, one repetition, as
distributed with TNL-SPH).

![Piston bore](piston-bore.png)

piston-bore.png: position of the bore front (where the surface stands halfway between d and h1)
against time, blue coarser and green finer resolution; black: the shallow-water bore speed.
`
  writeFileSync(path('results.md'), text)
}

async function main(): Promise<number> {
  const started = performance.now()
  const metrics: ValidationMetric[] = []
  const report = (list: ValidationMetric[]) => {
    for (const m of list) {
      metrics.push(m)
      print(m)
    }
  }
  const sections: Sections = {}
  if (wanted('hydrostatic')) {
    const runs = []
    for (const dp of quick ? [0.025] : [0.0125, 0.00833]) {
      const result = await runHydrostaticCase({
        dp,
        depth: 0.2,
        endTimeS: quick ? 0.3 : 0.5,
        threads,
        ...(quick ? { pressureTolerance: 0.05 } : {}),
      })
      report(result.metrics)
      runs.push(result.metrics)
    }
    if (runs.length === 2) {
      const what = 'max |p − ρgh| / ρgh on the centre line'
      const [coarse, fine] = runs.map((r) => find(r, what))
      report([growth('hydrostatic tank', what, coarse!.value, fine!.value, coarse!.tolerance)])
    }
  }
  if (wanted('martin-moyce')) {
    const results: MartinMoyceResult[] = []
    for (const across of quick ? [10] : [20, 30]) {
      const result = await runMartinMoyceCase({
        columnWidth: 0.1,
        particlesAcross: across,
        particlesDeep: 3,
        endT: quick ? 3.1 : 6,
        threads,
        ...(quick ? { positionTolerance: 0.05, speedTolerance: 0.1 } : {}),
      })
      report(result.metrics)
      results.push(result)
    }
    if (results.length === 2) {
      const [coarse, fine] = results as [MartinMoyceResult, MartinMoyceResult]
      const what = 'front speed dZ/dT over T = 2–3'
      report([
        growth(
          'dam break (Martin & Moyce 1952)',
          'front position for T ≥ 1 vs Table 2 after the shift',
          coarse.positionError,
          fine.positionError,
          0.03,
        ),
        growth(
          'dam break (Martin & Moyce 1952)',
          'front position for T ≥ 1 vs Figure 3 after the shift',
          coarse.figureError,
          fine.figureError,
          0.03,
        ),
        growth(
          'dam break (Martin & Moyce 1952)',
          'front speed, distance from the tabulations',
          find(coarse.metrics, what).value,
          find(fine.metrics, what).value,
          0.02,
        ),
      ])
    }
    sections.martinMoyce = results
  }
  if (wanted('lobovsky')) {
    const results: LobovskyResult[] = []
    for (const perHeight of quick ? [10] : [20, 30]) {
      const result = await runLobovskyCase({
        particlesPerHeight: perHeight,
        particlesDeep: 3,
        endT: 5.2,
        threads,
      })
      report(result.metrics)
      results.push(result)
    }
    if (results.length === 2) {
      const [coarse, fine] = results as [LobovskyResult, LobovskyResult]
      const pairs: [string, number][] = [
        ["sensor 1 (3 mm): first impact's arrival", 0.01],
        ["sensor 3 (30 mm): first impact's arrival", 0.01],
        ['sensor 1: mean pressure over T = 3.68', 0.3],
        ['sensor 1: mean pressure over T = 4.84', 0.3],
      ]
      report(
        pairs.map(([what, tolerance]) =>
          growth(
            'dam break wall pressure (Lobovský et al. 2014)',
            what,
            find(coarse.metrics, what).value,
            find(fine.metrics, what).value,
            tolerance,
          ),
        ),
      )
    }
    sections.lobovsky = results
  }
  if (wanted('closed-box'))
    report(
      await runClosedBoxCase(
        quick ? { dp: 0.025, endTimeS: 0.3, threads } : { dp: 0.0125, endTimeS: 0.5, threads },
      ),
    )
  if (wanted('piston')) {
    const results: PistonResult[] = []
    for (const perDepth of quick ? [6] : [10, 16]) {
      const result = await runPistonCase({
        particlesPerDepth: perDepth,
        particlesDeep: 3,
        endTimeS: quick ? 0.4 : 0.6,
        threads,
        ...(quick ? { speedTolerance: 0.1 } : {}),
      })
      report(result.metrics)
      results.push(result)
    }
    if (results.length === 2) {
      const what = 'bore speed'
      const [coarse, fine] = results.map((r) => find(r.metrics, what))
      report([growth('moving wall (piston bore)', what, coarse!.value, fine!.value, 0.05)])
    }
    sections.piston = results
  }
  const seconds = (performance.now() - started) / 1000
  if (!quick && !only) writeResults(metrics, seconds, sections)
  const failed = metrics.filter((m) => !m.ok)
  if (!json)
    console.log(
      `${metrics.length - failed.length} of ${metrics.length} metrics within tolerance (${seconds.toFixed(0)} s)`,
    )
  else if (failed.length > 0) console.error(`${failed.length} metric(s) outside tolerance`)
  return failed.length > 0 ? 1 : 0
}

process.exitCode = await main()
