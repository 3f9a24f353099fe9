import { describe, expect, it } from 'vitest'
import { computePercentiles, computeStatistics, selectKth } from './statistics.ts'

/** Linear interpolation between closest ranks on a sorted copy: the reference definition. */
function referencePercentile(sorted: Float32Array, p: number): number {
  const position = p * (sorted.length - 1)
  const low = Math.floor(position)
  const high = Math.min(sorted.length - 1, low + 1)
  return sorted[low]! + (sorted[high]! - sorted[low]!) * (position - low)
}

function createRandom(seed: number): () => number {
  return () => (seed = (seed * 16807) % 2147483647) / 2147483647
}

describe('selectKth', () => {
  it('puts the k-th smallest value at k with smaller values before and larger after', () => {
    const random = createRandom(3)
    const values = new Float32Array(5000).map(() => Math.floor(random() * 100))
    const sorted = values.slice().sort()
    for (const k of [0, 1, 250, 2500, 4999]) {
      const work = values.slice()
      selectKth(work, k)
      expect(work[k]).toBe(sorted[k])
      expect(work.subarray(0, k).every((v) => v <= work[k]!)).toBe(true)
      expect(work.subarray(k + 1).every((v) => v >= work[k]!)).toBe(true)
    }
  })
})

describe('computePercentiles', () => {
  it('interpolates between closest ranks', () => {
    expect(computePercentiles(new Float32Array([4, 1, 3, 2]), [0, 0.5, 1, 0.25])).toEqual([
      1, 2.5, 4, 1.75,
    ])
    expect(computePercentiles(new Float32Array([7]), [0.05, 0.5, 0.95])).toEqual([7, 7, 7])
    expect(computePercentiles(new Float32Array(0), [0.5])).toEqual([NaN])
  })

  it('equals a sorted reference on random data with repeats', () => {
    for (const [n, seed] of [
      [2, 1],
      [10, 2],
      [1001, 3],
      [200_000, 4],
    ] as const) {
      const random = createRandom(seed)
      const values = new Float32Array(n).map(() =>
        random() < 0.3 ? Math.floor(random() * 5) : (random() - 0.3) * 1000,
      )
      const sorted = values.slice().sort()
      const fractions = [0.05, 0.5, 0.95, 0.999]
      expect(computePercentiles(values.slice(), fractions)).toEqual(
        fractions.map((p) => referencePercentile(sorted, p)),
      )
    }
  })
})

describe('computeStatistics', () => {
  it('gives count, mean, min, max and percentiles of the finite values', () => {
    const values = new Float32Array([NaN, 10, 0, Infinity, 5, -Infinity, 5, 20])
    const statistics = computeStatistics(values)
    expect(statistics).toEqual({
      count: 5,
      mean: 8,
      min: 0,
      max: 20,
      percentile5: 1,
      median: 5,
      percentile95: 18,
    })
  })

  it('is null when nothing finite is kept', () => {
    expect(computeStatistics(new Float32Array([NaN, NaN]))).toBeNull()
    expect(computeStatistics(new Float32Array([1, 2]), { mask: new Uint8Array(2) })).toBeNull()
  })

  it('works over a clipped, masked vector magnitude and leaves the columns untouched', () => {
    const random = createRandom(11)
    const n = 50_000
    const vx = new Float32Array(n).map(() => random() - 0.5)
    const vy = new Float32Array(n).map(() => random() - 0.5)
    const vz = new Float32Array(n).map(() => random() - 0.5)
    const before = vx.slice()
    const mask = new Uint8Array(n).map(() => (random() < 0.7 ? 1 : 0))
    const clip = { enabled: true, axis: 'x' as const, flipped: false, offsetM: 0.2 }
    const statistics = computeStatistics([vx, vy, vz], {
      mask,
      clip,
      positions: { x: vx, y: vy, z: vz },
    })!
    const kept: number[] = []
    for (let i = 0; i < n; i++) {
      if (mask[i] && vx[i]! <= 0.2) kept.push(Math.fround(Math.hypot(vx[i]!, vy[i]!, vz[i]!)))
    }
    const sorted = Float32Array.from(kept).sort()
    expect(statistics.count).toBe(kept.length)
    expect(statistics.median).toBe(referencePercentile(sorted, 0.5))
    expect(statistics.percentile5).toBe(referencePercentile(sorted, 0.05))
    expect(statistics.percentile95).toBe(referencePercentile(sorted, 0.95))
    expect(statistics.min).toBe(sorted[0])
    expect(statistics.max).toBe(sorted[sorted.length - 1])
    expect(statistics.mean).toBeCloseTo(kept.reduce((a, b) => a + b, 0) / kept.length, 6)
    expect(vx.every((v, i) => v === before[i])).toBe(true)
  })

  it('is exact on 5M values, against a sorted reference', () => {
    const random = createRandom(5)
    const n = 5_000_000
    const values = new Float32Array(n)
    for (let i = 0; i < n; i++) values[i] = random() * 1e5 - 2e4
    values[17] = NaN
    const statistics = computeStatistics(values)!
    const sorted = values.slice().sort() // NaN sorts last
    const finite = sorted.subarray(0, n - 1)
    expect(statistics.count).toBe(n - 1)
    expect(statistics.percentile5).toBe(referencePercentile(finite, 0.05))
    expect(statistics.median).toBe(referencePercentile(finite, 0.5))
    expect(statistics.percentile95).toBe(referencePercentile(finite, 0.95))
  })
})
