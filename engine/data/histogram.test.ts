import { describe, expect, it } from 'vitest'
import { computeHistogram } from './histogram.ts'

describe('computeHistogram', () => {
  it('counts finite values in equal bins over their range, the last bin closed', () => {
    const values = new Float32Array([0, 1, 2, 3, 4, NaN, Infinity, 4, 2.5])
    expect(computeHistogram(values, 4)).toEqual({ min: 0, max: 4, counts: [1, 1, 2, 3] })
  })

  it('uses a given range and leaves values outside it out', () => {
    const values = new Float32Array([-5, 0, 0.5, 1, 9])
    expect(computeHistogram(values, 2, {}, { min: 0, max: 1 })).toEqual({
      min: 0,
      max: 1,
      counts: [1, 2],
    })
  })

  it('puts every value in the first bin when they are all equal', () => {
    expect(computeHistogram(new Float32Array([3, 3, 3]), 5)!.counts).toEqual([3, 0, 0, 0, 0])
  })

  it('respects the mask and the vector magnitude', () => {
    const x = new Float32Array([3, 0, 6])
    const y = new Float32Array([4, 1, 8])
    const z = new Float32Array([0, 0, 0])
    const histogram = computeHistogram([x, y, z], 2, { mask: new Uint8Array([1, 1, 0]) })
    expect(histogram).toEqual({ min: 1, max: 5, counts: [1, 1] })
  })

  it('sums to the kept count and is null without finite values', () => {
    const values = new Float32Array(10_000).map((_, i) => Math.sin(i))
    const counts = computeHistogram(values, 37)!.counts
    expect(counts.reduce((a, b) => a + b, 0)).toBe(10_000)
    expect(computeHistogram(new Float32Array([NaN]), 3)).toBeNull()
  })

  it('refuses a bin count that is not a positive integer up to 10,000', () => {
    expect(() => computeHistogram(new Float32Array(1), 0)).toThrow(RangeError)
    expect(() => computeHistogram(new Float32Array(1), 1.5)).toThrow(RangeError)
    expect(() => computeHistogram(new Float32Array(1), 10_001)).toThrow(RangeError)
  })
})
