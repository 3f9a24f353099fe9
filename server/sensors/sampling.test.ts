import { describe, expect, it } from 'vitest'
import { sampleFluidColumns, sharedFluidColumns, type FluidTable } from './sampling.ts'

const DP = 0.02
const H = 1.5 * DP

/** A cubic lattice of n³ particles from the origin, with pressure = 1000 + 500 z − 200 x. */
function lattice(n: number, filter: (i: number) => boolean = () => true): FluidTable {
  const x: number[] = []
  const y: number[] = []
  const z: number[] = []
  for (let k = 0; k < n; k++)
    for (let j = 0; j < n; j++)
      for (let i = 0; i < n; i++) {
        if (!filter(i)) continue
        x.push((i + 0.5) * DP)
        y.push((j + 0.5) * DP)
        z.push((k + 0.5) * DP)
      }
  const count = x.length
  return {
    rowCount: count,
    columns: {
      x: Float32Array.from(x),
      y: Float32Array.from(y),
      z: Float32Array.from(z),
      pressure: Float32Array.from(x, (px, r) => 1000 + 500 * z[r]! - 200 * px),
      density: new Float32Array(count).fill(1000),
      mass: new Float32Array(count).fill(1000 * DP ** 3),
    },
  }
}

describe('sampleFluidColumns', () => {
  it('reproduces a linear field inside the fluid and returns the sample points', () => {
    const fluid = lattice(12)
    const points = Float64Array.from([0.11, 0.12, 0.1, 0.121, 0.1, 0.13])
    const sampled = sampleFluidColumns(points, [fluid], H, ['pressure', 'density'])
    expect(Array.from(sampled.x!)).toEqual([expect.closeTo(0.11, 6), expect.closeTo(0.121, 6)])
    expect(sampled.pressure![0]).toBeCloseTo(1000 + 500 * 0.1 - 200 * 0.11, 2)
    expect(sampled.pressure![1]).toBeCloseTo(1000 + 500 * 0.13 - 200 * 0.121, 2)
    expect(Array.from(sampled.density!)).toEqual([1000, 1000])
  })

  it('reads NaN where no particle lies within 2h, and the neighbours nearby at the free surface', () => {
    const fluid = lattice(6)
    const top = 6 * DP
    const points = Float64Array.from([0.06, 0.06, top + 2 * H + DP, 0.06, 0.06, top])
    const sampled = sampleFluidColumns(points, [fluid], H, ['pressure'])
    expect(sampled.pressure![0]).toBeNaN()
    // Shepard: a mean of the particles below, not a value cut short by the missing ones
    expect(sampled.pressure![1]).toBeGreaterThan(1000 + 500 * (top - 2 * H) - 200 * 0.12)
    expect(sampled.pressure![1]).toBeLessThan(1000 + 500 * top)
  })

  it('gives the same values whether the fluid is one object or split across materials', () => {
    const points = Float64Array.from([0.101, 0.099, 0.12])
    const whole = sampleFluidColumns(points, [lattice(12)], H, ['pressure'])
    const split = sampleFluidColumns(
      points,
      [lattice(12, (i) => i < 5), lattice(12, (i) => i >= 5)],
      H,
      ['pressure'],
    )
    expect(split.pressure![0]).toBeCloseTo(whole.pressure![0]!, 3)
  })

  it('weighs each neighbour by its volume m/ρ (1 without mass and density)', () => {
    const pair = (mass: number[]): FluidTable => ({
      rowCount: 2,
      columns: {
        x: Float32Array.from([-0.5 * DP, 0.5 * DP]),
        y: new Float32Array(2),
        z: new Float32Array(2),
        pressure: Float32Array.from([100, 200]),
        density: Float32Array.from([1000, 1000]),
        mass: Float32Array.from(mass),
      },
    })
    const origin = Float64Array.from([0, 0, 0])
    expect(sampleFluidColumns(origin, [pair([1, 1])], H, ['pressure']).pressure![0]).toBeCloseTo(
      150,
      4,
    )
    // the second particle holds three times the volume: (100 + 3 · 200) / 4
    expect(sampleFluidColumns(origin, [pair([1, 3])], H, ['pressure']).pressure![0]).toBeCloseTo(
      175,
      4,
    )
    const bare = pair([1, 3])
    delete bare.columns.mass
    expect(sampleFluidColumns(origin, [bare], H, ['pressure']).pressure![0]).toBeCloseTo(150, 4)
  })

  it('samples only the columns every fluid has', () => {
    const a = lattice(2)
    const b = lattice(2)
    delete b.columns.mass
    expect(sharedFluidColumns([a, b])).toEqual(['pressure', 'density'])
    expect(sharedFluidColumns([])).toEqual([])
  })
})
