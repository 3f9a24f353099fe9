import { describe, expect, it } from 'vitest'
import type { TriangleMesh } from '../../domain/meshFile.ts'
import { raycastBvh, readBvh } from './bvh.ts'
import {
  buildSetupMesh,
  computeCreaseNormals,
  computeMeshDefects,
  setupMeshTransferables,
} from './setupGeometry.ts'
import { unitCube } from './testing.ts'

/** A smooth band: a 64-sided open cylinder of radius 1 and height 1 (faces meet at 5.6°). */
function cylinder(sides = 64): TriangleMesh {
  const positions = new Float32Array(sides * 2 * 3)
  for (let i = 0; i < sides; i++) {
    const a = (i / sides) * 2 * Math.PI
    positions.set([Math.cos(a), Math.sin(a), 0], i * 3)
    positions.set([Math.cos(a), Math.sin(a), 1], (sides + i) * 3)
  }
  const indices = new Uint32Array(sides * 6)
  for (let i = 0; i < sides; i++) {
    const j = (i + 1) % sides
    indices.set([i, j, sides + j, i, sides + j, sides + i], i * 6)
  }
  return { positions, indices }
}

function triangleSet(positions: Float32Array, indices: Uint32Array): string[] {
  const result: string[] = []
  for (let t = 0; t < indices.length / 3; t++) {
    const corners = [0, 1, 2].map((k) => {
      const v = indices[t * 3 + k]!
      return [...positions.slice(v * 3, v * 3 + 3)].join(',')
    })
    result.push(corners.join('|'))
  }
  return result.sort()
}

describe('setup mesh geometry', () => {
  it('keeps a cube sharp: every corner splits into one vertex per face, with axis normals', () => {
    const shaded = computeCreaseNormals(unitCube())
    expect(shaded.positions.length / 3).toBe(24)
    for (let v = 0; v < 24; v++) {
      const normal = [...shaded.normals.slice(v * 3, v * 3 + 3)]
      expect(normal.map(Math.abs).sort()).toEqual([0, 0, 1])
    }
    // The outline normal is the corner's smooth normal: the diagonal, the same on its three copies.
    const corner = [...shaded.outlineNormals.slice(0, 3)].map((n) => Math.abs(n))
    for (const component of corner) expect(component).toBeCloseTo(1 / Math.sqrt(3), 5)
    expect(triangleSet(shaded.positions, shaded.indices)).toEqual(
      triangleSet(unitCube().positions, unitCube().indices),
    )
  })

  it('keeps a gently curved surface smooth: no vertex is split', () => {
    const mesh = cylinder()
    const shaded = computeCreaseNormals(mesh)
    expect(shaded.positions.length).toBe(mesh.positions.length)
    // Radial normals (the cylinder's axis is z).
    const [x, y, z] = shaded.normals.slice(0, 3)
    expect(z).toBeCloseTo(0, 5)
    expect(Math.hypot(x!, y!)).toBeCloseTo(1, 5)
  })

  it('finds no defect on a closed cube, three hole edges when a triangle is missing', () => {
    expect(computeMeshDefects(unitCube()).segments.length).toBe(0)
    const cube = unitCube()
    const open = { positions: cube.positions, indices: cube.indices.slice(3) }
    const defects = computeMeshDefects(open)
    expect(defects.holeSegmentCount).toBe(3)
    expect(defects.segments.length).toBe(3 * 6)
  })

  it('lists non-manifold edges (three triangles on one edge) after the holes', () => {
    // Three fins on the edge (0,0,0)–(1,0,0).
    const mesh: TriangleMesh = {
      positions: new Float32Array([0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, -1, 0]),
      indices: new Uint32Array([0, 1, 2, 1, 0, 3, 0, 1, 4]),
    }
    const defects = computeMeshDefects(mesh)
    // Every other edge of the fins is used once: 6 holes, then the shared edge.
    expect(defects.holeSegmentCount).toBe(6)
    expect(defects.segments.length / 6).toBe(7)
    expect([...defects.segments.slice(6 * 6)]).toEqual([0, 0, 0, 1, 0, 0])
  })

  it('builds drawable, pickable data whose buffers can all be transferred', () => {
    const data = buildSetupMesh(unitCube())
    expect(data.triangleCount).toBe(12)
    expect(data.bounds).toEqual({ min: [0, 0, 0], max: [1, 1, 1] })
    expect(data.indices.length).toBe(36)
    const bvh = readBvh(data.bvh!)
    const hit = raycastBvh(bvh, data.positions, data.indices, {
      origin: [0.5, 0.5, 3],
      direction: [0, 0, -1],
    })
    expect(hit?.point[2]).toBeCloseTo(1)
    const buffers = setupMeshTransferables(data)
    expect(new Set(buffers).size).toBe(6)
    // Transfer works: a structured clone with them as transferables detaches the originals.
    const copy = structuredClone(data, { transfer: buffers })
    expect(copy.positions.length).toBe(72)
    expect(data.positions.length).toBe(0)
  })

  it('builds an empty mesh without a hierarchy', () => {
    const data = buildSetupMesh({ positions: new Float32Array(0), indices: new Uint32Array(0) })
    expect(data.triangleCount).toBe(0)
    expect(data.bvh).toBeNull()
  })
})
