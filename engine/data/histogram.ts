/**
 * Histograms of a column (or vector magnitude) over a subset: equal-width bins over the finite
 * values' [min, max] (or a given range), NaN and ±Infinity left out.
 */
import type { ColourRange } from '../../domain/results.ts'
import type { Histogram } from '../protocol.ts'
import { computeSubsetRange, resolveSubset, type RowSubset, type ValueSource } from './ranges.ts'

/** Most bins a histogram may have. */
export const MAX_HISTOGRAM_BINS = 10_000

/**
 * Counts of the kept finite values in `binCount` equal bins over `range` (default: their own
 * min..max). The last bin is closed ([a, b]); values outside a given range are not counted. When
 * every value is the same, they all fall in the first bin. Null when no kept row has a finite value.
 */
export function computeHistogram(
  source: ValueSource,
  binCount: number,
  subset: RowSubset = {},
  range?: ColourRange,
): Histogram | null {
  if (!Number.isInteger(binCount) || binCount < 1 || binCount > MAX_HISTOGRAM_BINS) {
    throw new RangeError(`A histogram needs 1 to ${MAX_HISTOGRAM_BINS} bins, not ${binCount}.`)
  }
  const bounds = range ?? computeSubsetRange(source, subset)
  if (bounds === null) return null
  const { min, max } = bounds
  const counts = new Float64Array(binCount)
  const scale = max > min ? binCount / (max - min) : 0
  const s = resolveSubset(source, subset)
  const { clipValues, mask, clipOffset, keepAbove } = s
  const magnitude = !(source instanceof Float32Array)
  const scalar = source instanceof Float32Array ? source : null
  const [x, y, z] = magnitude ? (source as readonly Float32Array[]) : [null, null, null]
  for (let i = 0; i < s.rowCount; i++) {
    if (mask !== null && mask[i] === 0) continue
    if (clipValues !== null) {
      const a = clipValues[i]!
      if (keepAbove ? !(a >= clipOffset) : !(a <= clipOffset)) continue
    }
    let v: number
    if (scalar !== null) v = scalar[i]!
    else {
      const vx = x![i]!
      const vy = y![i]!
      const vz = z![i]!
      v = Math.sqrt(vx * vx + vy * vy + vz * vz)
    }
    if (v - v !== 0 || v < min || v > max) continue
    const bin = Math.floor((v - min) * scale)
    counts[bin >= binCount ? binCount - 1 : bin]!++
  }
  return { min, max, counts: Array.from(counts) }
}
