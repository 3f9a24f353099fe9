/**
 * What every validation case shares: the metric record, table helpers, the settings of a case and
 * a solver on the chosen backend that is disposed after use (caseSolver.ts).
 */
import { defaultSettings, type SimulationSettings } from '../domain/settings.ts'
import type { SolverConfig, SolverOptions } from '../solver/sph/config.ts'
import { PARTICLE_KIND } from '../solver/sph/particles.ts'
import type { SolverSnapshot } from '../solver/sph/solverTypes.ts'

export { withSolver } from './caseSolver.ts'

export const GRAVITY = 9.81

/** One checked (or reported) figure of a case. */
export interface ValidationMetric {
  case: string
  metric: string
  value: number
  /** |value| ≤ tolerance passes; Infinity: reported only. */
  tolerance: number
  ok: boolean
  /** Reported beside the value (not checked). */
  note?: string
}

/** A checked metric: ok when the value is finite and |value| ≤ tolerance. */
export function metric(
  caseName: string,
  name: string,
  value: number,
  tolerance: number,
  note?: string,
): ValidationMetric {
  return {
    case: caseName,
    metric: name,
    value,
    tolerance,
    ok: Number.isFinite(value) && Math.abs(value) <= tolerance,
    ...(note === undefined ? {} : { note }),
  }
}

/** A figure reported beside the checked ones (never fails). */
export function reported(
  caseName: string,
  name: string,
  value: number,
  note?: string,
): ValidationMetric {
  return {
    case: caseName,
    metric: name,
    value,
    tolerance: Infinity,
    ok: true,
    ...(note === undefined ? {} : { note }),
  }
}

/** Overrides of the default settings and solver options a case runs with (studies, tests). */
export interface CaseOverrides {
  settings?: Partial<SimulationSettings>
  solverOptions?: Partial<SolverOptions>
}

/** The default settings of a new simulation with particle diameter dp. */
export function settingsFor(
  dp: number,
  overrides: Partial<SimulationSettings> = {},
): SimulationSettings {
  return { ...defaultSettings(), particleDiameter: dp, ...overrides }
}

/** Linear interpolation in a table sorted by its first column (clamped at the ends). */
export function interpolateTable(table: readonly (readonly [number, number])[], x: number): number {
  if (x <= table[0]![0]) return table[0]![1]
  for (let k = 1; k < table.length; k++) {
    const [x1, y1] = table[k]!
    if (x <= x1) {
      const [x0, y0] = table[k - 1]!
      return y0 + ((y1 - y0) * (x - x0)) / (x1 - x0)
    }
  }
  return table.at(-1)![1]
}

/** Slope of the least-squares line through the points with x in [from, to]. */
export function fitSlope(points: readonly (readonly [number, number])[], from: number, to: number) {
  const inside = points.filter(([x]) => x >= from && x <= to)
  const n = inside.length
  const mx = inside.reduce((s, [x]) => s + x, 0) / n
  const my = inside.reduce((s, [, y]) => s + y, 0) / n
  let sxy = 0
  let sxx = 0
  for (const [x, y] of inside) {
    sxy += (x - mx) * (y - my)
    sxx += (x - mx) * (x - mx)
  }
  return sxy / sxx
}

/** Mean of a time series' values with times in [from, to] (NaN when none). */
export function windowMean(times: readonly number[], values: readonly number[], from: number, to: number) {
  let sum = 0
  let n = 0
  for (let k = 0; k < times.length; k++) {
    if (times[k]! < from || times[k]! > to) continue
    sum += values[k]!
    n++
  }
  return n > 0 ? sum / n : Number.NaN
}

/**
 * The free-surface height above (x, y): where the fluid's kernel sum Σ V_j W(r − r_j) falls to ½
 * going up (a wave gauge; on a lattice it lies dp/2 above the top particles). NaN without fluid.
 */
export function waterLevel(
  snapshot: SolverSnapshot,
  x: number,
  y: number,
  kernel: { h: number; alpha: number },
): number {
  const { h, alpha } = kernel
  const near: number[] = []
  for (let i = 0; i < snapshot.count; i++) {
    if (snapshot.kind[i] !== PARTICLE_KIND.fluid) continue
    const dx = snapshot.positions[3 * i]! - x
    const dy = snapshot.positions[3 * i + 1]! - y
    if (dx * dx + dy * dy < 4 * h * h) near.push(i)
  }
  // Wendland C2 kernel sum at height z
  const sum = (z: number) => {
    let total = 0
    for (const i of near) {
      const dx = snapshot.positions[3 * i]! - x
      const dy = snapshot.positions[3 * i + 1]! - y
      const dz = snapshot.positions[3 * i + 2]! - z
      const q = Math.sqrt(dx * dx + dy * dy + dz * dz) / h
      if (q >= 2) continue
      const t = 1 - 0.5 * q
      total += (alpha * t * t * t * t * (2 * q + 1) * snapshot.mass[i]!) / snapshot.density[i]!
    }
    return total
  }
  let top = -Infinity
  for (const i of near) top = Math.max(top, snapshot.positions[3 * i + 2]!)
  if (!Number.isFinite(top)) return Number.NaN
  // from above the top particle down to where the sum reaches ½, then bisect
  let hi = top + 2 * h
  let lo = top - 2 * h
  if (sum(lo) < 0.5) return Number.NaN
  for (let k = 0; k < 50; k++) {
    const mid = 0.5 * (lo + hi)
    if (sum(mid) >= 0.5) lo = mid
    else hi = mid
  }
  return 0.5 * (lo + hi)
}

/** A table's points as [x, y] pairs (for plots and interpolation). */
export type Table = readonly (readonly [number, number])[]
