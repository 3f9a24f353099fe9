import { describe, expect, it } from 'vitest'
import type { ClippingPlane } from '../../domain/results.ts'
import { computeSubsetRange, gatherFiniteValues, SubsetError } from './ranges.ts'

const clipX = (offsetM: number, flipped = false): ClippingPlane => ({
  enabled: true,
  axis: 'x',
  flipped,
  offsetM,
})

describe('computeSubsetRange', () => {
  it('ignores NaN and ±Infinity', () => {
    const values = new Float32Array([NaN, 3, -Infinity, -2, Infinity, 7, NaN])
    expect(computeSubsetRange(values)).toEqual({ min: -2, max: 7 })
  })

  it('is null when no value is finite, or there are no rows', () => {
    expect(computeSubsetRange(new Float32Array([NaN, Infinity, -Infinity]))).toBeNull()
    expect(computeSubsetRange(new Float32Array(0))).toBeNull()
  })

  it('keeps the side of the clip plane the renderer keeps (x ≤ offset; flipped x ≥ offset)', () => {
    const x = new Float32Array([0, 1, 2, 3, 4])
    const values = new Float32Array([10, 20, 30, 40, 50])
    const positions = { x, y: new Float32Array(5), z: new Float32Array(5) }
    expect(computeSubsetRange(values, { clip: clipX(2), positions })).toEqual({ min: 10, max: 30 })
    expect(computeSubsetRange(values, { clip: clipX(2, true), positions })).toEqual({
      min: 30,
      max: 50,
    })
    expect(
      computeSubsetRange(values, { clip: { ...clipX(2), enabled: false }, positions }),
    ).toEqual({ min: 10, max: 50 })
    expect(computeSubsetRange(values, { clip: clipX(-1), positions })).toBeNull()
  })

  it('clips along y and z too, and drops rows whose position is NaN', () => {
    const positions = {
      x: new Float32Array(4),
      y: new Float32Array([0, 5, NaN, 1]),
      z: new Float32Array([9, 0, 0, 0]),
    }
    const values = new Float32Array([1, 2, 3, 4])
    expect(computeSubsetRange(values, { clip: { ...clipX(1), axis: 'y' }, positions })).toEqual({
      min: 1,
      max: 4,
    })
    expect(computeSubsetRange(values, { clip: { ...clipX(1), axis: 'z' }, positions })).toEqual({
      min: 2,
      max: 4,
    })
  })

  it('keeps only the rows inside a volume clip mask, combined with the clip', () => {
    const values = new Float32Array([5, -1, 8, 2, 100])
    const mask = new Uint8Array([1, 0, 1, 1, 0])
    expect(computeSubsetRange(values, { mask })).toEqual({ min: 2, max: 8 })
    const positions = {
      x: new Float32Array([0, 0, 5, 0, 0]),
      y: new Float32Array(5),
      z: new Float32Array(5),
    }
    expect(computeSubsetRange(values, { mask, clip: clipX(1), positions })).toEqual({
      min: 2,
      max: 5,
    })
  })

  it('ranges a vector by its magnitude, skipping rows with a non-finite component', () => {
    const vx = new Float32Array([3, 0, NaN, 1])
    const vy = new Float32Array([4, 0, 1, Infinity])
    const vz = new Float32Array([0, 2, 1, 0])
    expect(computeSubsetRange([vx, vy, vz])).toEqual({ min: 2, max: 5 })
  })

  it('ranges a detail-level prefix only', () => {
    const values = new Float32Array([1, 2, 3, 99])
    expect(computeSubsetRange(values, { rowCount: 3 })).toEqual({ min: 1, max: 3 })
  })

  it('refuses a mask shorter than the rows, and a clip without positions', () => {
    expect(() => computeSubsetRange(new Float32Array(4), { mask: new Uint8Array(3) })).toThrow(
      SubsetError,
    )
    expect(() => computeSubsetRange(new Float32Array(4), { clip: clipX(0) })).toThrow(
      'A clipped subset needs the positions.',
    )
  })

  it('matches a reference over random data with many NaN and infinities', () => {
    let seed = 7
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647
    const n = 100_000
    const values = new Float32Array(n).map(() => {
      const r = random()
      return r < 0.1 ? NaN : r < 0.12 ? Infinity : r < 0.14 ? -Infinity : (random() - 0.5) * 1e4
    })
    const x = new Float32Array(n).map(() => random())
    const mask = new Uint8Array(n).map(() => (random() < 0.5 ? 1 : 0))
    let min = Infinity
    let max = -Infinity
    for (let i = 0; i < n; i++) {
      const v = values[i]!
      if (!Number.isFinite(v) || mask[i] === 0 || !(x[i]! >= 0.3)) continue
      min = Math.min(min, v)
      max = Math.max(max, v)
    }
    const positions = { x, y: x, z: x }
    expect(computeSubsetRange(values, { clip: clipX(0.3, true), positions, mask })).toEqual({
      min,
      max,
    })
  })
})

describe('gatherFiniteValues', () => {
  it('copies the kept finite values and sums them, reusing a big enough scratch array', () => {
    const scratch = new Float32Array(10)
    const { values, sum } = gatherFiniteValues(
      new Float32Array([1, NaN, 2, Infinity, 3]),
      { mask: new Uint8Array([1, 1, 1, 1, 0]) },
      scratch,
    )
    expect(Array.from(values)).toEqual([1, 2])
    expect(sum).toBe(3)
    expect(values.buffer).toBe(scratch.buffer)
  })
})
