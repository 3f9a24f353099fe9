/**
 * Shapes of the setup scene built from plain data: line segments, point sprites, a box's edges,
 * a mesh's wireframe and the flow arrow; and freeing an object's GPU resources.
 */
import {
  BufferAttribute,
  BufferGeometry,
  ConeGeometry,
  Group,
  LineSegments,
  Mesh,
  Points,
  type Object3D,
  type ShaderMaterial,
} from 'three'
import { RENDER_ORDER } from './drawOrder.ts'
import { createFlatMaterial, createPointMaterial, type SetupUniforms } from './setupMaterials.ts'

/** Lines in one flat colour. */
export type FlatLines = LineSegments<BufferGeometry, ShaderMaterial>

export function createSegments(positions: Float32Array, material: ShaderMaterial): FlatLines {
  const geometry = new BufferGeometry()
  geometry.setAttribute('position', new BufferAttribute(positions, 3))
  const lines = new LineSegments(geometry, material)
  lines.frustumCulled = false
  return lines
}

export function createSprite(
  shared: SetupUniforms,
  colour: string,
  sizePx: number,
): Points<BufferGeometry, ShaderMaterial> {
  const geometry = new BufferGeometry()
  geometry.setAttribute('position', new BufferAttribute(new Float32Array(3), 3))
  const points = new Points(
    geometry,
    createPointMaterial(shared, { colour, sizePx, ring: true, onTop: true, clipped: false }),
  )
  points.frustumCulled = false
  return points
}

/** The twelve edges of an axis-aligned box as 24 points. */
export function writeBoxEdges(
  geometry: BufferGeometry,
  box: { min: readonly number[]; max: readonly number[] },
): void {
  const corner = (i: number) => [
    i & 1 ? box.max[0]! : box.min[0]!,
    i & 2 ? box.max[1]! : box.min[1]!,
    i & 4 ? box.max[2]! : box.min[2]!,
  ]
  const edges = [0, 1, 2, 3, 4, 5, 6, 7, 0, 2, 1, 3, 4, 6, 5, 7, 0, 4, 1, 5, 2, 6, 3, 7]
  const attribute = geometry.getAttribute('position') as BufferAttribute
  edges.forEach((c, i) => attribute.setXYZ(i, ...(corner(c) as [number, number, number])))
  attribute.needsUpdate = true
}

/** Writes line segment ends (x y z each) into a segments geometry of the same length. */
export function writeSegments(geometry: BufferGeometry, positions: readonly number[]): void {
  const attribute = geometry.getAttribute('position') as BufferAttribute
  ;(attribute.array as Float32Array).set(positions)
  attribute.needsUpdate = true
}

/** Line segments over a mesh's edges (three per triangle), sharing its position attribute. */
export function createWireframe(mesh: BufferGeometry, shared: SetupUniforms): FlatLines {
  const triangles = mesh.index?.array ?? new Uint32Array(0)
  const edges = new Uint32Array(Math.floor(triangles.length / 3) * 6)
  for (let t = 0, e = 0; t + 2 < triangles.length; t += 3) {
    const [a, b, c] = [triangles[t]!, triangles[t + 1]!, triangles[t + 2]!]
    edges[e++] = a
    edges[e++] = b
    edges[e++] = b
    edges[e++] = c
    edges[e++] = c
    edges[e++] = a
  }
  const geometry = new BufferGeometry()
  geometry.setAttribute('position', mesh.getAttribute('position'))
  geometry.setIndex(new BufferAttribute(edges, 1))
  const lines = new LineSegments(geometry, createFlatMaterial(shared, { colour: '#000000' }))
  lines.frustumCulled = false
  return lines
}

/** A unit arrow along +z: a shaft and a cone at the tip, drawn over everything. */
export function createArrow(shared: SetupUniforms, colour: string): Group {
  const group = new Group()
  const material = createFlatMaterial(shared, { colour, onTop: true, clipped: false })
  const shaft = createSegments(new Float32Array([0, 0, 0, 0, 0, 0.75]), material)
  const cone = new Mesh(new ConeGeometry(0.08, 0.25, 16), material)
  cone.rotation.x = Math.PI / 2
  cone.position.z = 0.875
  for (const part of [shaft, cone]) {
    part.renderOrder = RENDER_ORDER.arrow
    part.frustumCulled = false
    group.add(part)
  }
  return group
}

/** Frees an object's geometries and materials (shared ones more than once is harmless). */
export function disposeObject(object: Object3D | null): void {
  if (object === null) return
  object.traverse((child) => {
    const drawable = child as Partial<Mesh>
    drawable.geometry?.dispose()
    const material = drawable.material
    if (Array.isArray(material)) for (const m of material) m.dispose()
    else material?.dispose()
  })
  object.removeFromParent()
}
