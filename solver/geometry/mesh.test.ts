import { Euler, Matrix4 } from 'three'
import { describe, expect, it } from 'vitest'
import {
  buildBoxMesh,
  buildPlaneMesh,
  checkMeshHealth,
  computeBoundingBox,
  computeMeshVolume,
  computeShapeInfo,
  computeSurfaceArea,
  rotationMatrixFromDegrees,
  transformMesh,
  type TriangleMesh,
} from './mesh.ts'

function withoutTriangle(mesh: TriangleMesh, triangle: number): TriangleMesh {
  const indices = [...mesh.indices]
  indices.splice(triangle * 3, 3)
  return { positions: mesh.positions, indices: Uint32Array.from(indices) }
}

const identity = {
  translation: [0, 0, 0] as [number, number, number],
  rotation: [0, 0, 0] as [number, number, number],
  scale: [1, 1, 1] as [number, number, number],
  flipNormals: false,
}

describe('mesh geometry', () => {
  it('gives a box its bounding box, positive volume and surface area', () => {
    const box = buildBoxMesh([1, 2, 3])
    expect(computeBoundingBox(box)).toEqual({ min: [-0.5, -1, -1.5], max: [0.5, 1, 1.5] })
    expect(computeMeshVolume(box)).toBeCloseTo(6, 6)
    expect(computeSurfaceArea(box)).toBeCloseTo(2 * (2 + 3 + 6), 6)
  })

  it('finds a closed box watertight', () => {
    const health = checkMeshHealth(buildBoxMesh([1, 1, 1]))
    expect(health.watertight).toBe(true)
    expect(health.holes).toEqual([])
  })

  it('reports a missing triangle as one hole at its place', () => {
    const box = buildBoxMesh([2, 2, 2])
    // triangle 2 is on the z+ face
    const health = checkMeshHealth(withoutTriangle(box, 2))
    expect(health.watertight).toBe(false)
    expect(health.boundaryEdgeCount).toBe(3)
    expect(health.holes).toHaveLength(1)
    expect(health.holes[0]!.center[2]).toBeCloseTo(1)
    expect(health.holes[0]!.size).toBeGreaterThan(0)
  })

  it('reports an edge shared by three triangles as non-manifold', () => {
    const box = buildBoxMesh([1, 1, 1])
    const indices = Uint32Array.from([...box.indices, 0, 1, 7])
    const health = checkMeshHealth({ positions: box.positions, indices })
    expect(health.nonManifoldEdgeCount).toBe(1)
    expect(health.nonManifold).toHaveLength(1)
  })

  it('scales, rotates (degrees, XYZ) and translates a part', () => {
    const moved = transformMesh(buildBoxMesh([1, 1, 1]), {
      translation: [10, 0, 0],
      rotation: [0, 0, 90],
      scale: [2, 1, 1],
      flipNormals: false,
    })
    const box = computeBoundingBox(moved)
    // x extent 2 becomes the y extent after 90° about z
    expect(box.min[0]).toBeCloseTo(9.5, 5)
    expect(box.max[0]).toBeCloseTo(10.5, 5)
    expect(box.min[1]).toBeCloseTo(-1, 5)
    expect(box.max[1]).toBeCloseTo(1, 5)
    expect(computeMeshVolume(moved)).toBeCloseTo(2, 5)
  })

  it('keeps normals outwards under a mirroring scale and turns them with flipNormals', () => {
    const box = buildBoxMesh([1, 1, 1])
    expect(computeMeshVolume(transformMesh(box, { ...identity, scale: [-1, 1, 1] }))).toBeCloseTo(1)
    expect(computeMeshVolume(transformMesh(box, { ...identity, flipNormals: true }))).toBeCloseTo(
      -1,
    )
  })

  it('treats empty placement components as identity', () => {
    const moved = transformMesh(buildBoxMesh([1, 1, 1]), {
      translation: [null, null, 1],
      rotation: [null, null, null],
      scale: [null, 2, null],
      flipNormals: false,
    })
    expect(computeBoundingBox(moved)).toEqual({ min: [-0.5, -1, 0.5], max: [0.5, 1, 1.5] })
  })

  it('describes a plane as planar with its normal and a box as not planar', () => {
    const plane = computeShapeInfo(buildPlaneMesh())
    expect(plane.isPlanar).toBe(true)
    expect(plane.normal).toEqual([0, 0, 1])
    expect(plane.holes).toHaveLength(1)
    expect(plane.surfaceArea).toBeCloseTo(1)
    const box = computeShapeInfo(buildBoxMesh([1, 1, 1]))
    expect(box.isPlanar).toBe(false)
    expect(box.normal).toBeNull()
    expect(box.nbrOfTriangles).toBe(12)
  })

  it('rotates exactly as three.js places an object with Euler angles in XYZ order', () => {
    const degrees: [number, number, number] = [30, -50, 110]
    const m = new Matrix4().makeRotationFromEuler(
      new Euler(...(degrees.map((d) => (d * Math.PI) / 180) as [number, number, number]), 'XYZ'),
    )
    const e = m.elements // column-major
    const expected = [e[0], e[4], e[8], e[1], e[5], e[9], e[2], e[6], e[10]]
    rotationMatrixFromDegrees(degrees).forEach((value, i) =>
      expect(value).toBeCloseTo(expected[i]!, 12),
    )
  })
})
