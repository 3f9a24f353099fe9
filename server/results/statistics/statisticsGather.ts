import { setImmediate as yieldToEventLoop } from 'node:timers/promises'
import { HIGH_HISTOGRAM_BINS, type ValueTotals } from '../../../domain/columnStatistics.ts'
import { ATTRIBUTE_COLUMNS } from '../../../domain/outputFormat.ts'
import type { AttributeName } from '../../../domain/results.ts'

/*
 * The inner loops of stats.calc: an output's kept finite values of the attribute gathered into a
 * reused buffer, with their sum, min, max, the high-bits histogram the percentiles start from
 * (domain/columnStatistics.ts) and the integral's sum, in one pass over the rows.
 */

/** Rows gathered between two yields to the event loop inside one big output. */
const ROWS_PER_SLICE = 4_000_000

export interface ValueColumns {
  columns: Float32Array[]
  magnitude: boolean
}

/** Rows and Float32 columns: an object's particles or a sensor's samples. */
export interface ColumnSource {
  rowCount: number
  columns: Record<string, Float32Array | undefined>
}

/** The Float32 columns an object offers for the attribute and sub-attribute; null: it has none. */
export function valueColumns(
  view: ColumnSource,
  attribute: AttributeName,
  subAttribute: string | null,
  forceMagnitude: boolean,
): ValueColumns | null {
  const names: readonly string[] = ATTRIBUTE_COLUMNS[attribute]
  const columns = names.map((name) => view.columns[name])
  if (columns.some((column) => column === undefined)) return null
  const present = columns as Float32Array[]
  if (names.length === 1) return { columns: present, magnitude: false }
  if (forceMagnitude || subAttribute === 'magnitude') return { columns: present, magnitude: true }
  const index = ['x', 'y', 'z'].indexOf(subAttribute ?? '')
  return index < 0 ? null : { columns: [present[index]!], magnitude: false }
}

/** Kept finite values of the selection, their totals and the integral's sum. */
export interface Gathered {
  values: Float32Array
  totals: ValueTotals
  integral: number | null
}

export class Scratch {
  values = new Float32Array(0)
  /** High-bits histogram of the gathered values, counted while gathering (saves a pass). */
  readonly highBits = new Uint32Array(HIGH_HISTOGRAM_BINS)
  masks = new Uint8Array(0)

  valuesFor(count: number): Float32Array {
    if (this.values.length < count) this.values = new Float32Array(Math.ceil(count * 1.125))
    return this.values
  }

  masksFor(count: number): Uint8Array {
    if (this.masks.length < count) this.masks = new Uint8Array(Math.ceil(count * 1.125))
    return this.masks
  }
}

/**
 * The common case of {@link gatherValues} (one scalar column, no mask, no integral) as a loop with
 * nothing else in it: V8 keeps it monomorphic and branch-light, about twice as fast per row.
 */
function gatherPlainSlice(
  column: Float32Array,
  start: number,
  end: number,
  out: Float32Array,
  outBits: Int32Array,
  histogram: Uint32Array,
  countBefore: number,
): { count: number; sum: number; min: number; max: number } {
  let count = countBefore
  let sum = 0
  let min = Infinity
  let max = -Infinity
  for (let i = start; i < end; i++) {
    const v = column[i]!
    if (v - v !== 0) continue
    out[count] = v
    const bits = outBits[count]!
    histogram[(bits ^ ((bits >> 31) | 0x80000000)) >>> 16]!++
    count++
    sum += v
    if (v < min) min = v
    if (v > max) max = v
  }
  return { count, sum, min, max }
}

export async function gatherValues(
  objects: {
    view: ColumnSource
    columns: ValueColumns
    mask: Uint8Array | null
    integrable: boolean
  }[],
  wantIntegral: boolean,
  scratch: Scratch,
  signal: AbortSignal,
): Promise<Gathered> {
  const total = objects.reduce((sum, entry) => sum + entry.view.rowCount, 0)
  const out = scratch.valuesFor(total)
  const outBits = new Int32Array(out.buffer, out.byteOffset, out.length)
  const histogram = scratch.highBits
  histogram.fill(0)
  let count = 0
  let sum = 0
  let min = Infinity
  let max = -Infinity
  let integral = 0
  let integralRows = 0
  for (const { view, columns, mask, integrable } of objects) {
    const n = view.rowCount
    const [a, b, c] = columns.columns
    const magnitude = columns.magnitude
    const mass = wantIntegral && integrable ? view.columns.mass : undefined
    const density = wantIntegral && integrable ? view.columns.density : undefined
    const plain = mask === null && !magnitude && (mass === undefined || density === undefined)
    for (let start = 0; start < n; start += ROWS_PER_SLICE) {
      const end = Math.min(n, start + ROWS_PER_SLICE)
      if (plain) {
        const slice = gatherPlainSlice(a!, start, end, out, outBits, histogram, count)
        count = slice.count
        sum += slice.sum
        if (slice.min < min) min = slice.min
        if (slice.max > max) max = slice.max
      } else
        for (let i = start; i < end; i++) {
          if (mask !== null && mask[i] === 0) continue
          let v: number
          if (magnitude) {
            const x = a![i]!
            const y = b![i]!
            const z = c![i]!
            v = Math.sqrt(x * x + y * y + z * z)
          } else v = a![i]!
          if (v - v !== 0) continue
          out[count] = v
          const bits = outBits[count]!
          histogram[(bits ^ ((bits >> 31) | 0x80000000)) >>> 16]!++
          count++
          sum += v
          if (v < min) min = v
          if (v > max) max = v
          if (mass !== undefined && density !== undefined) {
            const m = mass[i]!
            const rho = density[i]!
            if (rho > 0 && m - m === 0) {
              integral += (v * m) / rho
              integralRows++
            }
          }
        }
      if (end < n) {
        await yieldToEventLoop()
        if (signal.aborted)
          return { values: out.subarray(0, 0), totals: { sum, min, max }, integral: null }
      }
    }
  }
  return {
    values: out.subarray(0, count),
    totals: { sum, min, max },
    integral: integralRows > 0 ? integral : null,
  }
}
