import { describe, expect, it } from 'vitest'
import {
  applyOrder,
  applyOrderToColumns,
  computeMortonCodes,
  computeStratifiedOrder,
} from './ordering.ts'
import { generateOutput } from './synthetic.ts'

/** Per-cell particle counts of the first `prefix` rows on a grid³ over the bounding box of all. */
function countCells(
  [x, y, z]: readonly Float32Array[],
  prefix: number,
  grid: number,
): { totals: Float64Array; counts: Float64Array } {
  const bounds = [x!, y!, z!].map((values) => {
    let min = Infinity
    let max = -Infinity
    for (const value of values) {
      min = Math.min(min, value)
      max = Math.max(max, value)
    }
    return [min, max] as const
  })
  const totals = new Float64Array(grid ** 3)
  const counts = new Float64Array(grid ** 3)
  for (let row = 0; row < x!.length; row++) {
    let cell = 0
    ;[x!, y!, z!].forEach((values, axis) => {
      const [min, max] = bounds[axis]!
      const index = Math.min(grid - 1, Math.floor(((values[row]! - min) / (max - min)) * grid))
      cell = cell * grid + index
    })
    totals[cell]!++
    if (row < prefix) counts[cell]!++
  }
  return { totals, counts }
}

/** Largest relative deviation of a prefix's per-cell share over cells with ≥ minTotal particles. */
function worstDeviation(
  positions: readonly Float32Array[],
  prefix: number,
  grid: number,
  minTotal = 1000,
): number {
  const { totals, counts } = countCells(positions, prefix, grid)
  const fraction = prefix / positions[0]!.length
  let worst = 0
  totals.forEach((total, cell) => {
    if (total < minTotal) return
    const expected = fraction * total
    worst = Math.max(worst, Math.abs(counts[cell]! - expected) / expected)
  })
  return worst
}

function damBreakPositions(particles: number): Float32Array[] {
  const output = generateOutput({ particles, timeS: 0.25, volumeClip: false })
  const fluid = output.objects[0]!
  if (fluid.kind === 'volume_clip') throw new Error('expected the fluid first')
  return [fluid.columns.x!, fluid.columns.y!, fluid.columns.z!]
}

function stratify(positions: readonly Float32Array[]): Float32Array[] {
  const order = computeStratifiedOrder(positions[0]!, positions[1]!, positions[2]!)
  return applyOrderToColumns(positions, order)
}

describe('computeStratifiedOrder', () => {
  const particles = 300_000
  const input = damBreakPositions(particles)
  const ordered = stratify(input)

  it('is a permutation of the rows', () => {
    const order = computeStratifiedOrder(input[0]!, input[1]!, input[2]!)
    const seen = new Uint8Array(particles)
    for (const row of order) seen[row]!++
    expect(seen.every((count) => count === 1)).toBe(true)
  })

  it('is deterministic', () => {
    const first = computeStratifiedOrder(input[0]!, input[1]!, input[2]!)
    const second = computeStratifiedOrder(input[0]!, input[1]!, input[2]!)
    expect(second.every((row, index) => row === first[index])).toBe(true)
  })

  it.each([
    ['Low (10 %)', Math.ceil(particles * 0.1)],
    ['Medium (50 %)', particles * 0.5],
    ['the interaction subset (first 100,000)', 100_000],
  ])(
    'gives every octant and every cell of a 4×4×4 grid its share of %s within 2 %%',
    (_, prefix) => {
      expect(worstDeviation(ordered, prefix, 2)).toBeLessThan(0.02)
      expect(worstDeviation(ordered, prefix, 4)).toBeLessThan(0.02)
    },
  )

  it('keeps cells not aligned with the Morton grid (3×3×3) within 5 % for a 10 % prefix', () => {
    expect(worstDeviation(ordered, particles * 0.1, 3)).toBeLessThan(0.05)
  })

  it('keeps even a 1,000-particle prefix spread over every octant within 5 %', () => {
    expect(worstDeviation(ordered, 1000, 2)).toBeLessThan(0.05)
  })

  it('is needed: the lattice order the solver hands over fails the same check', () => {
    expect(worstDeviation(input, particles * 0.1, 2)).toBeGreaterThan(0.5)
  })

  it('covers uniformly random points as well', () => {
    const random = [0, 1, 2].map(() => new Float32Array(200_000).map(() => Math.random()))
    expect(worstDeviation(stratify(random), 20_000, 4)).toBeLessThan(0.02)
  })

  it('handles tiny, flat and degenerate inputs', () => {
    expect(
      computeStratifiedOrder(new Float32Array(0), new Float32Array(0), new Float32Array(0)),
    ).toEqual(new Uint32Array(0))
    const one = new Float32Array([1])
    expect([...computeStratifiedOrder(one, one, one)]).toEqual([0])
    const same = new Float32Array(5).fill(2)
    expect([...computeStratifiedOrder(same, same, same)].sort()).toEqual([0, 1, 2, 3, 4])
    const flat = Float32Array.from({ length: 1000 }, (_, index) => index % 100)
    const zero = new Float32Array(1000)
    const order = computeStratifiedOrder(flat, Float32Array.from(flat).reverse(), zero)
    expect(new Set(order).size).toBe(1000)
  })

  it('puts NaN and infinite positions somewhere instead of failing', () => {
    const x = new Float32Array([0, NaN, 1, Infinity, -Infinity, 0.5])
    const order = computeStratifiedOrder(x, x, x)
    expect([...order].sort()).toEqual([0, 1, 2, 3, 4, 5])
  })
})

describe('computeMortonCodes', () => {
  it('interleaves x, y, z bits with x lowest', () => {
    const x = new Float32Array([0, 1, 0, 0])
    const y = new Float32Array([0, 0, 1, 0])
    const z = new Float32Array([0, 0, 0, 1])
    const codes = computeMortonCodes(x, y, z)
    // Each axis spans [0, 1]: 1 maps to the last cell (1023 = ten ones), spread over every 3rd bit.
    const spreadOnes = 0b001001001001001001001001001001
    expect([...codes]).toEqual([0, spreadOnes, spreadOnes << 1, spreadOnes << 2])
  })
})

describe('applyOrder', () => {
  it('gathers rows into a new array of the same type', () => {
    const order = new Uint32Array([2, 0, 1])
    expect(applyOrder(new Uint8Array([10, 20, 30]), order)).toEqual(new Uint8Array([30, 10, 20]))
    expect(applyOrder(new Float32Array([1.5, 2.5, 3.5]), order)).toEqual(
      new Float32Array([3.5, 1.5, 2.5]),
    )
  })

  it('gathers several columns with the same permutation', () => {
    const order = new Uint32Array([1, 2, 0])
    const [a, b] = applyOrderToColumns(
      [new Float32Array([1, 2, 3]), new Float32Array([4, 5, 6])],
      order,
    )
    expect([...a!]).toEqual([2, 3, 1])
    expect([...b!]).toEqual([5, 6, 4])
  })
})
