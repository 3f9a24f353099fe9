import { describe, expect, it } from 'vitest'
import {
  aggregateOverOutputs,
  computeExactPercentiles,
  countHighBits,
  HIGH_HISTOGRAM_BINS,
  selectRanks,
  summarizeFiniteValues,
} from './columnStatistics.ts'

/** numpy's linear percentile on a sorted copy: the reference the radix selection must match. */
function referencePercentile(values: Float32Array, fraction: number): number {
  const sorted = Array.from(values).sort((a, b) => a - b)
  const position = fraction * (sorted.length - 1)
  const low = Math.floor(position)
  const a = sorted[low]!
  return a + (sorted[Math.ceil(position)]! - a) * (position - low)
}

function seededValues(count: number, make: (random: () => number) => number): Float32Array {
  let state = 12345
  const random = () => {
    state = (state * 1103515245 + 12345) % 2 ** 31
    return state / 2 ** 31
  }
  return Float32Array.from({ length: count }, () => make(random))
}

describe('exact percentiles', () => {
  it('match a full sort on spread, clustered, negative and repeated values', () => {
    const cases = [
      seededValues(10_001, (r) => (r() - 0.5) * 1e4),
      seededValues(20_000, (r) => 1000 + r() * 0.01), // all in one high-bits bin
      seededValues(5_000, (r) => -Math.exp(r() * 20)),
      seededValues(3_000, (r) => Math.round(r() * 3) - 1),
      Float32Array.from([0, -0, 0, 5]),
      Float32Array.from([42]),
    ]
    for (const values of cases) {
      const copy = values.slice()
      const fractions = [0, 0.05, 0.5, 0.95, 1]
      const result = computeExactPercentiles(values, fractions)
      fractions.forEach((fraction, index) =>
        // + 0: the sort cannot tell -0 from 0, and neither need we.
        expect(result[index]! + 0).toBe(referencePercentile(values, fraction) + 0),
      )
      expect(values).toEqual(copy)
    }
  })

  it('select exact ranks and refuse ranks past the values', () => {
    const values = Float32Array.from([3, -1, 2, 2, 7])
    expect(selectRanks(values, [0, 1, 2, 3, 4])).toEqual([-1, 2, 2, 3, 7])
    expect(() => selectRanks(values, [5])).toThrow()
  })

  it('give the same values from a high-bits histogram counted beforehand', () => {
    const values = seededValues(50_000, (r) => (r() - 0.3) * 77)
    const counted = new Uint32Array(HIGH_HISTOGRAM_BINS)
    countHighBits(values, counted)
    expect(computeExactPercentiles(values, [0.05, 0.5, 0.95], counted)).toEqual(
      computeExactPercentiles(values, [0.05, 0.5, 0.95]),
    )
  })

  it('give NaN for no values', () => {
    expect(computeExactPercentiles(new Float32Array(0), [0.5])).toEqual([NaN])
  })
})

describe('summarizeFiniteValues', () => {
  it('gives count, mean, min, max and the three percentiles; null for no values', () => {
    const summary = summarizeFiniteValues(Float32Array.from([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]))
    expect(summary).toEqual({
      count: 10,
      mean: 5.5,
      min: 1,
      max: 10,
      percentile5: expect.closeTo(1.45, 6),
      median: 5.5,
      percentile95: expect.closeTo(9.55, 6),
    })
    expect(summarizeFiniteValues(new Float32Array(0))).toBeNull()
  })
})

describe('aggregateOverOutputs', () => {
  const points = [
    { timeS: 0, value: 1 },
    { timeS: 0.5, value: null },
    { timeS: 1, value: 3 },
    { timeS: 2, value: 2 },
  ]

  it('combines the outputs that have a value', () => {
    expect(aggregateOverOutputs(points, 'mean')).toBe(2)
    expect(aggregateOverOutputs(points, 'min')).toBe(1)
    expect(aggregateOverOutputs(points, 'max')).toBe(3)
    expect(aggregateOverOutputs(points, 'median')).toBe(2)
    expect(aggregateOverOutputs(points, '95th_percentile')).toBeCloseTo(2.9, 12)
  })

  it('integrates over time with trapezoids', () => {
    expect(aggregateOverOutputs(points, 'integral')).toBe(2 + 2.5)
    expect(aggregateOverOutputs([{ timeS: 1, value: 4 }], 'integral')).toBe(0)
  })

  it('gives null when no output has a value', () => {
    expect(aggregateOverOutputs([{ timeS: 0, value: null }], 'mean')).toBeNull()
  })
})
