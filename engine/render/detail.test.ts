import { describe, expect, it } from 'vitest'
import { PARTICLE_LIMIT } from '../../domain/constants.ts'
import { computeDrawCounts, pointScaleForFraction } from './detail.ts'

const sum = (counts: number[]) => counts.reduce((a, b) => a + b, 0)

describe('detail draw ranges', () => {
  it('draws 10 %, 50 % and 100 % prefixes for Low, Medium and High', () => {
    expect(computeDrawCounts([1000, 15], 'Low', false)).toEqual([100, 2])
    expect(computeDrawCounts([1000, 15], 'Medium', false)).toEqual([500, 8])
    expect(computeDrawCounts([1000, 15], 'High', false)).toEqual([1000, 15])
  })

  it('keeps High within the particle limit but lets All draw everything', () => {
    const high = computeDrawCounts([4_000_000, 2_000_000], 'High', false)
    expect(sum(high)).toBe(PARTICLE_LIMIT)
    expect(high[0]).toBeGreaterThan(high[1] as number)
    expect(computeDrawCounts([4_000_000, 2_000_000], 'All', false)).toEqual([4_000_000, 2_000_000])
  })

  it('draws the 100,000-point subset while moving when 1,000,000 or more are visible', () => {
    const moving = computeDrawCounts([900_000, 100_000], 'High', true)
    expect(sum(moving)).toBe(100_000)
    expect(moving).toEqual([90_000, 10_000])
  })

  it('draws everything while moving below 1,000,000 visible points', () => {
    expect(computeDrawCounts([999_999], 'High', true)).toEqual([999_999])
    // Low over 5M leaves 500k visible: below the threshold, so no subset.
    expect(computeDrawCounts([5_000_000], 'Low', true)).toEqual([500_000])
  })

  it('enlarges points in proportion to the cube root of the skipped share', () => {
    expect(pointScaleForFraction(125, 1000)).toBeCloseTo(2)
    expect(pointScaleForFraction(1000, 1000)).toBe(1)
    expect(pointScaleForFraction(0, 1000)).toBe(1)
  })
})
