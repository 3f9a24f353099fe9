/**
 * Statistics of a column over a subset (spec/results.md §4 operations: mean, min, max, 5th
 * percentile, median, 95th percentile, plus the count), NaN and ±Infinity left out. Percentiles are
 * exact, interpolated linearly between closest ranks (p × (n − 1), numpy's default), found by
 * selection (Floyd–Rivest) on a copy of the values rather than a full sort: about 2n comparisons
 * instead of n log n.
 */
import type { ColumnStatistics } from '../protocol.ts'
import { gatherFiniteValues, type RowSubset, type ValueSource } from './ranges.ts'

/** Puts the k-th smallest of values[left..right] at k, smaller ones before it, larger after. */
export function selectKth(
  values: Float32Array,
  k: number,
  left = 0,
  right = values.length - 1,
): void {
  while (right > left) {
    if (right - left > 600) {
      // Floyd–Rivest: narrow [left, right] to a sample that very likely holds the k-th value.
      const n = right - left + 1
      const m = k - left + 1
      const z = Math.log(n)
      const s = 0.5 * Math.exp((2 * z) / 3)
      const sd = 0.5 * Math.sqrt((z * s * (n - s)) / n) * (m - n / 2 < 0 ? -1 : 1)
      const newLeft = Math.max(left, Math.floor(k - (m * s) / n + sd))
      const newRight = Math.min(right, Math.floor(k + ((n - m) * s) / n + sd))
      selectKth(values, k, newLeft, newRight)
    }
    const pivot = values[k]!
    let i = left
    let j = right
    swap(values, left, k)
    if (values[right]! > pivot) swap(values, left, right)
    while (i < j) {
      swap(values, i, j)
      i++
      j--
      while (values[i]! < pivot) i++
      while (values[j]! > pivot) j--
    }
    if (values[left] === pivot) swap(values, left, j)
    else {
      j++
      swap(values, j, right)
    }
    if (j <= k) left = j + 1
    if (k <= j) right = j - 1
  }
}

function swap(values: Float32Array, i: number, j: number): void {
  const t = values[i]!
  values[i] = values[j]!
  values[j] = t
}

/** Selects every index of `ks` (sorted, unique) in values[left..right], middle first. */
function selectMany(
  values: Float32Array,
  ks: readonly number[],
  left: number,
  right: number,
): void {
  if (ks.length === 0 || left > right) return
  const middle = ks.length >> 1
  const k = ks[middle]!
  selectKth(values, k, left, right)
  selectMany(values, ks.slice(0, middle), left, k - 1)
  selectMany(values, ks.slice(middle + 1), k + 1, right)
}

/**
 * Exact percentiles (fractions in [0, 1]) of finite values, linearly interpolated between the
 * closest ranks. Reorders `values`. Empty input gives NaN for each.
 */
export function computePercentiles(values: Float32Array, fractions: readonly number[]): number[] {
  const n = values.length
  if (n === 0) return fractions.map(() => NaN)
  const positions = fractions.map((p) => Math.min(1, Math.max(0, p)) * (n - 1))
  const lows = [...new Set(positions.map(Math.floor))].sort((a, b) => a - b)
  selectMany(values, lows, 0, n - 1)
  // Each selected index bounds the block after the previous one, so the next rank up is a min scan.
  const next = new Map<number, number>()
  lows.forEach((low, index) => {
    if (low + 1 >= n) return
    const end = index + 1 < lows.length ? lows[index + 1]! : n - 1
    let min = Infinity
    for (let i = low + 1; i <= end; i++) if (values[i]! < min) min = values[i]!
    next.set(low, min)
  })
  return positions.map((position) => {
    const low = Math.floor(position)
    const fraction = position - low
    const a = values[low]!
    if (fraction === 0) return a
    return a + (next.get(low)! - a) * fraction
  })
}

/**
 * Count, mean, min, max, 5th percentile, median and 95th percentile of the finite values of a
 * column (or vector magnitude) over a subset; null when no kept row has a finite value. `scratch`
 * (optional, reused between calls) receives the copy the selection reorders.
 */
export function computeStatistics(
  source: ValueSource,
  subset: RowSubset = {},
  scratch?: Float32Array,
): ColumnStatistics | null {
  const { values, sum } = gatherFiniteValues(source, subset, scratch)
  const count = values.length
  if (count === 0) return null
  let min = Infinity
  let max = -Infinity
  for (let i = 0; i < count; i++) {
    const v = values[i]!
    if (v < min) min = v
    if (v > max) max = v
  }
  const [percentile5, median, percentile95] = computePercentiles(values, [0.05, 0.5, 0.95])
  return {
    count,
    mean: sum / count,
    min,
    max,
    percentile5: percentile5!,
    median: median!,
    percentile95: percentile95!,
  }
}
