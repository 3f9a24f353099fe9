import { describe, expect, it } from 'vitest'
import { buildSetupMesh } from '../../data/setupGeometry.ts'
import { unitCube } from '../../data/testing.ts'
import { computeFeatureEdges, MAX_FEATURE_EDGE_TRIANGLES } from './featureEdges.ts'

/** Distinct segments (either direction), rounded. */
function distinctSegments(segments: Float32Array): Set<string> {
  const set = new Set<string>()
  for (let i = 0; i + 5 < segments.length; i += 6) {
    const a = [...segments.subarray(i, i + 3)].map((v) => v.toFixed(4)).join()
    const b = [...segments.subarray(i + 3, i + 6)].map((v) => v.toFixed(4)).join()
    set.add(a < b ? `${a}|${b}` : `${b}|${a}`)
  }
  return set
}

describe('feature edges', () => {
  it("draws a box's twelve sharp edges and not its faces' diagonals", () => {
    const mesh = buildSetupMesh(unitCube())
    const segments = computeFeatureEdges(mesh.positions, mesh.indices)
    expect(distinctSegments(segments).size).toBe(12)
    for (const segment of distinctSegments(segments)) {
      const [a, b] = segment.split('|').map((p) => p.split(',').map(Number))
      // An edge of the cube changes one coordinate only (a diagonal changes two).
      expect(a!.filter((v, k) => v !== b![k]).length).toBe(1)
    }
  })

  it('draws the rim of an open tank', () => {
    const cube = unitCube()
    // Without its two top triangles (z = 1): an open-top box.
    const indices = new Uint32Array([...cube.indices.slice(0, 6), ...cube.indices.slice(12)])
    const mesh = buildSetupMesh({ positions: cube.positions, indices })
    const segments = distinctSegments(computeFeatureEdges(mesh.positions, mesh.indices))
    // The four rim edges (z = 1) are among the twelve.
    const rim = [...segments].filter((s) => s.split('|').every((p) => p.endsWith(',1.0000')))
    expect(rim).toHaveLength(4)
    expect(segments.size).toBe(12)
  })

  it('draws only the border of a flat surface, and nothing for a mesh too big to scan', () => {
    // A square split into four triangles about its centre: its inner edges are smooth.
    const positions = new Float32Array([0, 0, 0, 1, 0, 0, 1, 1, 0, 0, 1, 0, 0.5, 0.5, 0])
    const indices = new Uint32Array([0, 1, 4, 1, 2, 4, 2, 3, 4, 3, 0, 4])
    expect(distinctSegments(computeFeatureEdges(positions, indices)).size).toBe(4)
    const big = new Uint32Array((MAX_FEATURE_EDGE_TRIANGLES + 1) * 3)
    expect(computeFeatureEdges(positions, big)).toHaveLength(0)
  })
})
