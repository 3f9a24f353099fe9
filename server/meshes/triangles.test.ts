import { describe, expect, it } from 'vitest'
import { defaultMesh, type Mesh } from '../../domain/meshes.ts'
import {
  MESH_GEOMETRY_ERROR,
  buildMeshTriangles,
  computeTriangleCentroids,
  countMeshTriangles,
  rotationMatrix,
} from './triangles.ts'

type V = [number, number, number]

function corner(triangles: Float64Array, t: number, c: number): V {
  const i = 9 * t + 3 * c
  return [triangles[i]!, triangles[i + 1]!, triangles[i + 2]!]
}
const sub = (a: V, b: V): V => [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
const cross = (a: V, b: V): V => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
]
const dot = (a: V, b: V) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2]

/** Total area and, per triangle, its (unnormalised) normal and centroid. */
function measure(triangles: Float64Array) {
  const count = triangles.length / 9
  let area = 0
  const faces: { normal: V; centroid: V }[] = []
  for (let t = 0; t < count; t++) {
    const [a, b, c] = [corner(triangles, t, 0), corner(triangles, t, 1), corner(triangles, t, 2)]
    const normal = cross(sub(b, a), sub(c, a))
    area += Math.hypot(...normal) / 2
    faces.push({ normal, centroid: [0, 1, 2].map((k) => (a[k]! + b[k]! + c[k]!) / 3) as V })
  }
  return { area, faces }
}

function mesh<K extends Mesh['kind']>(kind: K, fields: Partial<Extract<Mesh, { kind: K }>>) {
  return { ...defaultMesh(kind), ...fields } as Mesh
}

describe('buildMeshTriangles', () => {
  it('builds a closed cube of the given dimensions around its centre, faces pointing outwards', () => {
    const cube = buildMeshTriangles(mesh('cube', { dimensions: [2, 1, 0.5], center: [1, 0, 0] }))
    expect(cube.length / 9).toBe(12)
    const { area, faces } = measure(cube)
    expect(area).toBeCloseTo(2 * (2 * 1 + 2 * 0.5 + 1 * 0.5), 10)
    for (const face of faces)
      expect(dot(face.normal, sub(face.centroid, [1, 0, 0]))).toBeGreaterThan(0)
    const xs = [...cube].filter((_, i) => i % 3 === 0)
    expect(Math.min(...xs)).toBeCloseTo(0, 12)
    expect(Math.max(...xs)).toBeCloseTo(2, 12)
  })

  it('places every sphere vertex on the radius, with close to 4πr² of surface, outwards', () => {
    const sphere = buildMeshTriangles(mesh('sphere', { radius: 0.5, center: [0, 0, 1] }))
    for (let i = 0; i < sphere.length; i += 3)
      expect(Math.hypot(sphere[i]!, sphere[i + 1]!, sphere[i + 2]! - 1)).toBeCloseTo(0.5, 12)
    const { area, faces } = measure(sphere)
    expect(area / (4 * Math.PI * 0.25)).toBeGreaterThan(0.97)
    expect(area / (4 * Math.PI * 0.25)).toBeLessThanOrEqual(1)
    for (const face of faces)
      expect(dot(face.normal, sub(face.centroid, [0, 0, 1]))).toBeGreaterThan(0)
  })

  it('lays circles, planes and rectangles across their normal; a plane sits at its height along it', () => {
    const circle = buildMeshTriangles(mesh('circle', { radius: 2, normal: [1, 0, 0] }))
    expect(countMeshTriangles(mesh('circle', { radius: 2 }))).toBe(100)
    expect(measure(circle).area / (Math.PI * 4)).toBeGreaterThan(0.99)
    for (let i = 0; i < circle.length; i += 3) expect(circle[i]).toBeCloseTo(0, 12)
    const plane = buildMeshTriangles(
      mesh('plane', { width: 2, length: 3, height: 0.3, normal: [0, 0, 2] }),
    )
    expect(measure(plane).area).toBeCloseTo(6, 12)
    for (let i = 2; i < plane.length; i += 3) expect(plane[i]).toBeCloseTo(0.3, 12)
    const rectangle = buildMeshTriangles(
      mesh('rectangle', { width: 2, height: 1, normal: [0, 0, 1], angle: 90 }),
    )
    expect(measure(rectangle).area).toBeCloseTo(2, 12)
    const xs = [...rectangle].filter((_, i) => i % 3 === 0)
    const ys = [...rectangle].filter((_, i) => i % 3 === 1)
    // turned by 90° about its normal: the 2 m side lies along y
    expect(Math.max(...xs) - Math.min(...xs)).toBeCloseTo(1, 12)
    expect(Math.max(...ys) - Math.min(...ys)).toBeCloseTo(2, 12)
  })

  it('builds a cylinder along its axis with both caps', () => {
    const cylinder = buildMeshTriangles(
      mesh('cylinder', { radius: 0.5, height: 2, axis: [0, 1, 0], cylinderResolution: 200 }),
    )
    expect(cylinder.length / 9).toBe(800)
    const expected = 2 * Math.PI * 0.5 * 2 + 2 * Math.PI * 0.25
    expect(measure(cylinder).area / expected).toBeGreaterThan(0.999)
    const ys = [...cylinder].filter((_, i) => i % 3 === 1)
    expect(Math.max(...ys)).toBeCloseTo(1, 12)
    expect(Math.min(...ys)).toBeCloseTo(-1, 12)
  })

  it('scales, then rotates (degrees, order XYZ), then moves to centre + translation', () => {
    const r = rotationMatrix([0, 0, 90])
    expect([r[0], r[3], r[6]].map((value) => value! + 0)).toEqual([
      expect.closeTo(0, 12),
      expect.closeTo(1, 12),
      expect.closeTo(0, 12),
    ])
    const cube = buildMeshTriangles(
      mesh('cube', {
        scale: [2, 1, 1],
        rotation: [0, 0, 90],
        center: [1, 1, 1],
        translation: [0, 0, 1],
      }),
    )
    const axis = (k: number) => [...cube].filter((_, i) => i % 3 === k)
    expect(Math.max(...axis(0)) - Math.min(...axis(0))).toBeCloseTo(1, 12)
    expect(Math.max(...axis(1)) - Math.min(...axis(1))).toBeCloseTo(2, 12)
    expect((Math.max(...axis(2)) + Math.min(...axis(2))) / 2).toBeCloseTo(2, 12)
  })

  it('gives no geometry for a point, a complex mesh or a missing value, and counts them so', () => {
    expect(() => buildMeshTriangles(defaultMesh('point'))).toThrow(MESH_GEOMETRY_ERROR)
    expect(() => buildMeshTriangles(defaultMesh('complex'))).toThrow(MESH_GEOMETRY_ERROR)
    expect(() => buildMeshTriangles(mesh('sphere', { radius: null }))).toThrow(MESH_GEOMETRY_ERROR)
    expect(countMeshTriangles(defaultMesh('point'))).toBe(0)
    expect(countMeshTriangles(mesh('sphere', { radius: null }))).toBeNull()
  })

  it('gives one centroid per triangle', () => {
    const centroids = computeTriangleCentroids(mesh('plane', { width: 1, length: 1, height: 2 }))
    expect(centroids.length).toBe(6)
    expect([centroids[2], centroids[5]]).toEqual([2, 2])
  })
})
