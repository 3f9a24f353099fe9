/**
 * The report of `npm run validate` (scripts/validate.ts): validation/results.md and the plots
 * (dam-break.png, lobovsky-pressure.png, piston-bore.png).
 */
import { writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { fileURLToPath } from 'node:url'
import {
  LOBOVSKY_SENSOR1_SAMPLES,
  LOBOVSKY_SENSORS,
  MARTIN_MOYCE_FIGURE,
  MARTIN_MOYCE_TABLE,
  type LobovskyResult,
  type MartinMoyceResult,
  type PistonResult,
  type ValidationMetric,
} from '../validation/cases.ts'
import { boreDepth, PISTON_DEPTH, PISTON_SPEED } from '../validation/piston.ts'
import { COLOURS, plot } from '../validation/plots.ts'

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

export function plotPiston(results: PistonResult[]): Uint8Array {
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
      { points: results.at(-1)!.reference, colour: COLOURS.black, width: 2 },
      {
        points: [
          [0, 0],
          [end, celerity * end],
        ] as const,
        colour: COLOURS.grey,
        width: 1,
      },
    ],
  })
}

export interface Sections {
  martinMoyce?: MartinMoyceResult[]
  lobovsky?: LobovskyResult[]
  piston?: PistonResult[]
}

/** How the run went: wall time, threads per case run, parallel jobs. */
export interface RunInfo {
  seconds: number
  threads: number
  jobs: number
}

export function writeResults(metrics: ValidationMetric[], run: RunInfo, sections: Sections): void {
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
${run.threads} thread(s) per run${run.jobs > 1 ? `, ${run.jobs} runs at a time (each case and resolution its own process)` : ''} on ${cpus().length} × ${cpu},
${Math.round(run.seconds / 60)} min in all (${run.seconds.toFixed(0)} s; the machine may be shared, so this varies). Every case runs the default settings of a new simulation (lyu21 shifting,
dual-step RK4, Riemann wall), water with c0 chosen by the solver (10√(gH)), each at two
resolutions; the error must not grow from the coarser to the finer one (growth at most a quarter
of the tolerance). Dam breaks and the piston run as thin slabs periodic along y (2D flow, no side
walls). See solver/sph/VALIDATION_FINDINGS.md for what moved these figures.

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
against time, blue coarser and green finer resolution; black: the front of the same piston in the
Serre–Green–Naghdi equations (validation/serre.ts), the case's reference; grey: the shallow-water
bore speed (the mean jump's).
`
  writeFileSync(path('results.md'), text)
}
