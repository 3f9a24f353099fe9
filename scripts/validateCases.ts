/**
 * The validation's case list (scripts/validate.ts), what one resolution of a case gives, and the
 * checks that its error does not grow from the coarser resolution to the finer.
 */
import {
  metric,
  type LobovskyResult,
  type MartinMoyceResult,
  type PistonResult,
  type ValidationMetric,
} from '../validation/cases.ts'

export const CASES = [
  'hydrostatic',
  'martin-moyce',
  'lobovsky',
  'closed-box',
  'piston',
  'pointcloud',
  'heat',
  'viscosity',
  'surface-tension',
  'multiphase',
  'air-drag',
  'rotating-bucket',
  'rotating-sector',
  'open-channel',
  'refinement',
] as const
export type CaseName = (typeof CASES)[number]

/** What one resolution of a case gives: its metrics and what the plots need. */
export interface RunResult {
  metrics: ValidationMetric[]
  martinMoyce?: MartinMoyceResult
  lobovsky?: LobovskyResult
  piston?: PistonResult
  /** The backend refused the case's config: why (its metrics are empty). */
  notRun?: string
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

/** The growth metrics of a case run at two resolutions. */
export function growthMetrics(name: CaseName, runs: RunResult[]): ValidationMetric[] {
  if (runs.length !== 2) return []
  const [coarse, fine] = runs as [RunResult, RunResult]
  switch (name) {
    case 'hydrostatic': {
      const what = 'max |p − ρgh| / ρgh on the centre line'
      const [c, f] = [find(coarse.metrics, what), find(fine.metrics, what)]
      return [growth('hydrostatic tank', what, c.value, f.value, c.tolerance)]
    }
    case 'martin-moyce': {
      const [c, f] = [coarse.martinMoyce!, fine.martinMoyce!]
      const what = 'front speed dZ/dT over T = 2–3'
      const caseName = 'dam break (Martin & Moyce 1952)'
      return [
        growth(
          caseName,
          'front position for T ≥ 1 vs Table 2 after the shift',
          c.positionError,
          f.positionError,
          0.03,
        ),
        growth(
          caseName,
          'front position for T ≥ 1 vs Figure 3 after the shift',
          c.figureError,
          f.figureError,
          0.03,
        ),
        growth(
          caseName,
          'front speed, distance from the tabulations',
          find(c.metrics, what).value,
          find(f.metrics, what).value,
          0.02,
        ),
      ]
    }
    case 'lobovsky': {
      const pairs: [string, number][] = [
        ["sensor 1 (3 mm): first impact's arrival", 0.01],
        ["sensor 3 (30 mm): first impact's arrival", 0.01],
        ['sensor 1: mean pressure over T = 3.68', 0.3],
        ['sensor 1: mean pressure over T = 4.84', 0.3],
      ]
      return pairs.map(([what, tolerance]) =>
        growth(
          'dam break wall pressure (Lobovský et al. 2014)',
          what,
          find(coarse.metrics, what).value,
          find(fine.metrics, what).value,
          tolerance,
        ),
      )
    }
    case 'piston': {
      const what = 'front speed over t'
      const [c, f] = [find(coarse.metrics, what), find(fine.metrics, what)]
      return [growth('moving wall (piston bore)', what, c.value, f.value, 0.05)]
    }
    case 'heat':
    case 'viscosity':
    case 'surface-tension':
    case 'multiphase':
    case 'air-drag':
    case 'rotating-bucket':
    case 'rotating-sector':
    case 'open-channel':
    case 'refinement':
      // every checked figure at both resolutions: the finer one's must not be larger
      return coarse.metrics
        .filter((m) => Number.isFinite(m.tolerance))
        .map((m, k) => {
          const f = fine.metrics.filter((x) => Number.isFinite(x.tolerance))[k]!
          const what = m.metric.replace(/, \d+ (across|per period)/, '')
          return growth(m.case, what, m.value, f.value, m.tolerance)
        })
    case 'closed-box':
    case 'pointcloud':
      return []
  }
}

// JSON between processes: non-finite numbers (reported metrics' Infinity, a NaN) kept as strings
