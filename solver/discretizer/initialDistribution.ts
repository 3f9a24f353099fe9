/**
 * Initial distribution tables (spec/setup.md §3, §5): a datatable of positions (pos_x, pos_y,
 * pos_z) and values (vel_x, vel_y, vel_z, prs, temperature; each optional) whose values are
 * interpolated onto the particles a filling or flow part is filled with. The interpolation is
 * Shepard's inverse-distance weighting (power 2) over every row: a particle on a row's position
 * takes that row's values exactly, the others a weighted mean that stays within the rows' range.
 * A column the table lacks keeps the part's constant initial value.
 */
import type { Part } from '../../domain/parts.ts'
import type { RunSetup } from '../setup.ts'
import { report, type IssueLists } from './issues.ts'

/** The value columns of an initial distribution the discretizer applies. */
export const DISTRIBUTION_VALUE_COLUMNS = ['vel_x', 'vel_y', 'vel_z', 'prs'] as const
type ValueColumn = (typeof DISTRIBUTION_VALUE_COLUMNS)[number]

/** A table ready to interpolate: row positions and the value columns it has. */
export interface InitialDistribution {
  rows: number
  /** x, y, z per row, m. */
  positions: Float64Array
  /** The columns present, each one value per row. */
  values: Partial<Record<ValueColumn, Float64Array>>
}

/** A distance below which a particle counts as sitting on a row, m. */
const COINCIDENT = 1e-12

/**
 * The initial distribution of a fluid part when it uses one (initialDistribution on, no preset),
 * else null. A missing table, fewer than 2 rows or a missing or non-numeric position is an error.
 */
export function resolveInitialDistribution(
  part: Part,
  setup: RunSetup,
  issues: IssueLists,
): InitialDistribution | null {
  const component = part.component
  if (!component.initialDistribution || component.initialPreset !== null) return null
  const label = `Part "${part.name}"`
  const id = component.initialDistributionTableId
  const table = id === null ? undefined : setup.datatables?.[id]
  if (!table) {
    report(
      issues.errors,
      'initial_conditions_not_applied',
      part.id,
      `${label}: its initial distribution table was not found. Upload the table in the Initial Conditions folder.`,
    )
    return null
  }
  const column = (name: string) => (table.headers.includes(name) ? table.table[name] : undefined)
  const xs = column('pos_x')
  const ys = column('pos_y')
  const zs = column('pos_z')
  const rows = xs?.length ?? 0
  if (!xs || !ys || !zs || rows < 2) {
    report(
      issues.errors,
      'initial_conditions_not_applied',
      part.id,
      `${label}: its initial distribution table needs the columns pos_x, pos_y and pos_z and at least 2 rows.`,
    )
    return null
  }
  const positions = new Float64Array(rows * 3)
  const values: InitialDistribution['values'] = {}
  const present = DISTRIBUTION_VALUE_COLUMNS.filter((name) => column(name) !== undefined)
  for (const name of present) values[name] = new Float64Array(rows)
  for (let r = 0; r < rows; r++) {
    const cells = [xs[r], ys[r], zs[r], ...present.map((name) => column(name)![r])]
    if (cells.some((c) => c === null || c === undefined || !Number.isFinite(c))) {
      report(
        issues.errors,
        'initial_conditions_not_applied',
        part.id,
        `${label}: row ${r + 1} of its initial distribution table has a cell that is not a number.`,
      )
      return null
    }
    positions[r * 3] = xs[r]!
    positions[r * 3 + 1] = ys[r]!
    positions[r * 3 + 2] = zs[r]!
    for (const name of present) values[name]![r] = column(name)![r]!
  }
  return { rows, positions, values }
}

/** The interpolation weights of the rows at (x, y, z), summing to 1, into `weights`. */
export function distributionWeights(
  distribution: InitialDistribution,
  x: number,
  y: number,
  z: number,
  weights: Float64Array,
): void {
  const { rows, positions } = distribution
  let sum = 0
  for (let r = 0; r < rows; r++) {
    const dx = x - positions[r * 3]!
    const dy = y - positions[r * 3 + 1]!
    const dz = z - positions[r * 3 + 2]!
    const d2 = dx * dx + dy * dy + dz * dz
    if (d2 < COINCIDENT * COINCIDENT) {
      weights.fill(0)
      weights[r] = 1
      return
    }
    const w = 1 / d2
    weights[r] = w
    sum += w
  }
  for (let r = 0; r < rows; r++) weights[r]! /= sum
}

/**
 * Sets the velocities of particles [start, end) from the table's velocity columns, and returns the
 * table's pressure per particle (Pa) when it has a prs column, else null.
 */
export function applyInitialDistribution(
  distribution: InitialDistribution,
  positions: Float64Array,
  velocities: Float64Array,
  start: number,
  end: number,
): Float64Array | null {
  const weights = new Float64Array(distribution.rows)
  const { values } = distribution
  const velocityColumns = [values.vel_x, values.vel_y, values.vel_z]
  const pressures = values.prs ? new Float64Array(end - start) : null
  const at = (column: Float64Array) => {
    let value = 0
    for (let r = 0; r < distribution.rows; r++) value += weights[r]! * column[r]!
    return value
  }
  for (let q = start; q < end; q++) {
    distributionWeights(
      distribution,
      positions[q * 3]!,
      positions[q * 3 + 1]!,
      positions[q * 3 + 2]!,
      weights,
    )
    for (let c = 0; c < 3; c++) {
      const column = velocityColumns[c]
      if (column) velocities[q * 3 + c] = at(column)
    }
    if (pressures && values.prs) pressures[q - start] = at(values.prs)
  }
  return pressures
}
