import { describe, expect, it } from 'vitest'
import type { TriangleMesh } from '../geometry/mesh.ts'
import { siteCoordinate } from './lattice.ts'
import { closestPointOnTriangle, findWallCandidates } from './walls.ts'

/** A closed UV sphere, outward normals; `segments` around, half as many rings. */
function sphereMesh(radius: number, segments: number): TriangleMesh {
  const positions: number[] = [0, 0, radius]
  const rings = segments / 2
  for (let r = 1; r < rings; r++) {
    const theta = (Math.PI * r) / rings
    for (let s = 0; s < segments; s++) {
      const phi = (2 * Math.PI * s) / segments
      positions.push(
        radius * Math.sin(theta) * Math.cos(phi) + 0.003,
        radius * Math.sin(theta) * Math.sin(phi) - 0.002,
        radius * Math.cos(theta),
      )
    }
  }
  positions.push(0, 0, -radius)
  const south = positions.length / 3 - 1
  const at = (r: number, s: number) => 1 + (r - 1) * segments + (s % segments)
  const indices: number[] = []
  for (let s = 0; s < segments; s++) indices.push(0, at(1, s), at(1, s + 1))
  for (let r = 1; r < rings - 1; r++)
    for (let s = 0; s < segments; s++)
      indices.push(
        at(r, s),
        at(r + 1, s),
        at(r + 1, s + 1),
        at(r, s),
        at(r + 1, s + 1),
        at(r, s + 1),
      )
  for (let s = 0; s < segments; s++) indices.push(at(rings - 1, s), south, at(rings - 1, s + 1))
  return { positions: Float32Array.from(positions), indices: Uint32Array.from(indices) }
}

describe('wall candidates', () => {
  it('match a brute-force distance to every triangle on a finely meshed sphere', () => {
    const dp = 0.02
    const thickness = 3 * dp
    const mesh = sphereMesh(0.1, 40)
    const candidates = findWallCandidates(mesh, dp, thickness)
    const { grid } = candidates
    const found = new Map<number, number>()
    for (let c = 0; c < candidates.count; c++) found.set(candidates.sites[c]!, c)
    const point = new Float64Array(3)
    let inBand = 0
    for (let k = 0; k < grid.nz; k++)
      for (let j = 0; j < grid.ny; j++)
        for (let i = 0; i < grid.nx; i++) {
          const x = siteCoordinate(i + grid.i0, dp)
          const y = siteCoordinate(j + grid.j0, dp)
          const z = siteCoordinate(k + grid.k0, dp)
          let best = Infinity
          for (let t = 0; t < mesh.indices.length; t += 3) {
            closestPointOnTriangle(
              x,
              y,
              z,
              mesh.positions,
              mesh.indices[t]! * 3,
              mesh.indices[t + 1]! * 3,
              mesh.indices[t + 2]! * 3,
              point,
            )
            best = Math.min(best, Math.hypot(x - point[0]!, y - point[1]!, z - point[2]!))
          }
          const c = found.get(i + grid.nx * (j + grid.ny * k))
          if (best >= thickness) {
            expect(c).toBeUndefined()
            continue
          }
          // the band's edge grows by propagation: a site a hair inside it may not be reached
          if (c === undefined) {
            expect(thickness - best).toBeLessThan(0.05 * dp)
            continue
          }
          inBand++
          expect(candidates.distances[c]).toBeCloseTo(best, 6)
          // outside the sphere is in front of its outward normals
          const outside = Math.hypot(x - 0.003, y + 0.002, z) > 0.1
          if (best > 1e-3) expect(candidates.sides[c]! > 0).toBe(outside)
        }
    expect(inBand).toBe(candidates.count)
    expect(inBand).toBeGreaterThan(500)
  })
})
