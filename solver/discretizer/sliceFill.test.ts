import { describe, expect, it } from 'vitest'
import { sliceFrame } from '../../domain/periodic.ts'
import { angleFromBisector, insideSlice, sliceCount } from '../sph/rotationalSlice.ts'
import { CORE_RADIUS, coreRings, sliceSites } from './sliceFill.ts'

const dp = 0.01
const RADIUS = 0.08
const DEPTH = 0.03

/** Water in a cylindrical tank on the lattice centred on its axis z: floor and rim 3 dp thick. */
function tank(): { positions: number[]; kinds: number[] } {
  const positions: number[] = []
  const kinds: number[] = []
  for (let k = -3; (k + 0.5) * dp < DEPTH + 2 * dp; k++)
    for (let j = -12; j < 12; j++)
      for (let i = -12; i < 12; i++) {
        const [x, y, z] = [(i + 0.5) * dp, (j + 0.5) * dp, (k + 0.5) * dp]
        const r = Math.hypot(x, y)
        const wall = k < 0 || r >= RADIUS
        if (r >= RADIUS + 3 * dp || (!wall && z >= DEPTH)) continue
        positions.push(x, y, z)
        kinds.push(wall ? 1 : 0)
      }
  return { positions, kinds }
}

const slice = (angle: number) =>
  sliceFrame({ center: [0, 0, 0], axis: [0, 0, 1], sliceRotation: 25, sliceAngle: angle })!

/** The whole's particles the plain cut keeps. */
function cut(angle: number, positions: number[], kinds: number[]): number[] {
  const s = slice(angle)
  return kinds.flatMap((_, i) =>
    insideSlice(s, positions[3 * i]!, positions[3 * i + 1]!, positions[3 * i + 2]!) ? [i] : [],
  )
}

describe('the sites of a rotational slice', () => {
  const { positions, kinds } = tank()

  it('keeps the lattice as it is in a quarter turn (it maps onto itself)', () => {
    const sites = sliceSites(slice(90), positions, kinds, dp)
    const kept = cut(90, positions, kinds)
    expect(Array.from(sites.source)).toEqual(kept)
    expect(Array.from(sites.positions)).toEqual(
      kept.flatMap((i) => positions.slice(3 * i, 3 * i + 3)),
    )
  })

  for (const angle of [120, 60, 30]) {
    it(`fills the fluid near the axis with rings the ${angle}° turn maps onto themselves`, () => {
      const s = slice(angle)
      const n = sliceCount(s)
      const sites = sliceSites(s, positions, kinds, dp)
      const rings = coreRings(s, dp)
      const core = rings.at(-1)!.outer
      expect(core).toBeGreaterThanOrEqual(CORE_RADIUS * dp)
      // walls and the fluid beyond the core: the plain cut's, in its order, after the ring fluid
      const kept = cut(angle, positions, kinds).filter((i) => {
        const r = Math.hypot(positions[3 * i]!, positions[3 * i + 1]!)
        return kinds[i] !== 0 || r >= core
      })
      const source = Array.from(sites.source)
      const ringCount = source.length - kept.length
      expect(source.slice(ringCount)).toEqual(kept)
      const layers =
        kinds.filter((k, i) => k === 0 && Math.hypot(positions[3 * i]!, positions[3 * i + 1]!) < dp)
          .length / 4
      expect(ringCount).toBe(rings.reduce((sum, ring) => sum + ring.perSlice, 0) * layers)
      // each ring: an area of dp² per site, its sites inside the slice, equally spaced over the
      // whole turn (the gap across the cut faces is the gap between neighbours)
      for (const ring of rings) {
        expect((Math.PI * (ring.outer ** 2 - ring.inner ** 2)) / (dp * dp)).toBeCloseTo(
          n * ring.perSlice,
          9,
        )
        const angles: number[] = []
        for (let q = 0; q < ringCount; q++) {
          const [x, y, z] = [
            sites.positions[3 * q]!,
            sites.positions[3 * q + 1]!,
            sites.positions[3 * q + 2]!,
          ]
          const { psi, radius } = angleFromBisector(s, x, y, z)
          expect(insideSlice(s, x, y, z)).toBe(true)
          if (Math.abs(radius - ring.radius) < 1e-9 && Math.abs(z - 0.5 * dp) < 1e-9)
            angles.push(psi)
        }
        angles.sort((a, b) => a - b)
        expect(angles).toHaveLength(ring.perSlice)
        const step = s.angle / ring.perSlice
        const gaps = angles.slice(1).map((a, k) => a - angles[k]!)
        gaps.push(angles[0]! + s.angle - angles.at(-1)!) // across the cut
        for (const gap of gaps) expect(gap).toBeCloseTo(step, 9)
      }
      // a ring site takes the state of the whole's fluid particle whose cell holds it
      for (let q = 0; q < ringCount; q++) {
        const i = source[q]!
        expect(kinds[i]).toBe(0)
        for (let c = 0; c < 3; c++)
          expect(Math.abs(sites.positions[3 * q + c]! - positions[3 * i + c]!)).toBeLessThanOrEqual(
            0.525 * dp,
          )
      }
      // the N copies hold the whole's fluid within 2 %
      const fluid = source.filter((i) => kinds[i] === 0).length * n
      const whole = kinds.filter((k) => k === 0).length
      expect(Math.abs(fluid / whole - 1)).toBeLessThan(0.02)
    })
  }
})
