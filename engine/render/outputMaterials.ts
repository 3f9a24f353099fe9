/**
 * The three.js pieces of an output's objects: particle and mesh materials over the shared
 * uniforms, meshes and their wireframes over the data worker's columns, and the colour and mask
 * attributes (views of the transferred buffers: nothing is copied).
 */
import {
  BufferAttribute,
  BufferGeometry,
  type Color,
  DoubleSide,
  LineSegments,
  Mesh,
  type Points,
  ShaderMaterial,
} from 'three'
import type { PartViewMode, RenderableMesh } from '../protocol.ts'
import { viewColumns, type ColumnViews } from './outputColumns.ts'
import type { SharedUniforms } from './OutputView.ts'
import {
  COLOUR_MODES,
  MESH_FRAGMENT_SHADER,
  MESH_VERTEX_SHADER,
  POINT_FRAGMENT_SHADER,
  POINT_VERTEX_SHADER,
  POINT_SHAPES,
} from './shaders.ts'

export function positionAttributes(geometry: BufferGeometry, columns: ColumnViews): boolean {
  const x = columns.get('x')
  const y = columns.get('y')
  const z = columns.get('z')
  if (x === undefined || y === undefined || z === undefined) return false
  geometry.setAttribute('px', new BufferAttribute(x, 1))
  geometry.setAttribute('py', new BufferAttribute(y, 1))
  geometry.setAttribute('pz', new BufferAttribute(z, 1))
  return true
}

export function createPointMaterial(shared: SharedUniforms, baseColour: Color): ShaderMaterial {
  return new ShaderMaterial({
    vertexShader: POINT_VERTEX_SHADER,
    fragmentShader: POINT_FRAGMENT_SHADER,
    uniforms: {
      ...shared,
      uColourMode: { value: COLOUR_MODES.none },
      uBaseColour: { value: baseColour },
      uShape: { value: POINT_SHAPES.spheres },
      uOpacity: { value: 1 },
      uWorldDiameter: { value: 0.01 },
      uPointScale: { value: 1 },
      uMasked: { value: false },
    },
  })
}

/** Opacity of a wall drawn as its particles in translucent / wireframe view. */
export const PARTICLE_WALL_OPACITY = { translucent: 0.12, wireframe: 0.35 } as const

/**
 * A wall without a mesh is a shell of boundary particles that would hide the fluid inside: the
 * part views map onto it as faint spheres (translucent), faint outlined circles (wireframe) or
 * opaque spheres (surface). Translucent walls draw after the fluid and write no depth.
 */
export function applyParticleWallMode(
  points: Points<BufferGeometry, ShaderMaterial>,
  mode: PartViewMode,
) {
  const material = points.material
  const faint = mode !== 'surface'
  material.uniforms.uShape!.value =
    mode === 'wireframe' ? POINT_SHAPES.outlinedCircles : POINT_SHAPES.spheres
  material.uniforms.uOpacity!.value = faint ? PARTICLE_WALL_OPACITY[mode] : 1
  material.transparent = faint
  material.depthWrite = !faint
  points.renderOrder = faint ? 1 : 0
}

export function createMeshMaterial(shared: SharedUniforms, baseColour: Color): ShaderMaterial {
  return new ShaderMaterial({
    vertexShader: MESH_VERTEX_SHADER,
    fragmentShader: MESH_FRAGMENT_SHADER,
    side: DoubleSide,
    uniforms: {
      ...shared,
      uColourMode: { value: COLOUR_MODES.none },
      uBaseColour: { value: baseColour },
      uOpacity: { value: 1 },
      uShaded: { value: true },
    },
  })
}

export function createMesh(
  mesh: RenderableMesh,
  shared: SharedUniforms,
  baseColour: Color,
): { mesh: Mesh<BufferGeometry, ShaderMaterial>; columns: ColumnViews } | null {
  const columns = viewColumns(mesh.buffer, mesh.columns)
  const geometry = new BufferGeometry()
  if (!positionAttributes(geometry, columns)) return null
  const { byteOffset, length } = mesh.indices
  if (byteOffset % 4 !== 0 || byteOffset + length * 4 > mesh.buffer.byteLength) return null
  geometry.setIndex(new BufferAttribute(new Uint32Array(mesh.buffer, byteOffset, length), 1))
  const object = new Mesh(geometry, createMeshMaterial(shared, baseColour))
  object.frustumCulled = false
  return { mesh: object, columns }
}

/** Line segments over a mesh's edges (three per triangle), sharing its position attributes. */
export function createWireframe(
  mesh: Mesh<BufferGeometry, ShaderMaterial>,
): LineSegments<BufferGeometry, ShaderMaterial> {
  const triangles = mesh.geometry.index?.array ?? new Uint32Array(0)
  const edges = new Uint32Array(Math.floor(triangles.length / 3) * 6)
  for (let t = 0, e = 0; t + 2 < triangles.length; t += 3) {
    const a = triangles[t] as number
    const b = triangles[t + 1] as number
    const c = triangles[t + 2] as number
    edges[e++] = a
    edges[e++] = b
    edges[e++] = b
    edges[e++] = c
    edges[e++] = c
    edges[e++] = a
  }
  const geometry = new BufferGeometry()
  for (const name of ['px', 'py', 'pz', 'c0', 'c1', 'c2']) {
    const attribute = mesh.geometry.getAttribute(name) as BufferAttribute | undefined
    if (attribute !== undefined) geometry.setAttribute(name, attribute)
  }
  geometry.setIndex(new BufferAttribute(edges, 1))
  geometry.setDrawRange(mesh.geometry.drawRange.start * 2, mesh.geometry.drawRange.count * 2)
  const lines = new LineSegments(geometry, mesh.material)
  lines.frustumCulled = false
  return lines
}

/** Sets c0 (and c1, c2 for a vector) of an object; false when it lacks a column. */
export function bindColourAttributes(
  object: Points<BufferGeometry, ShaderMaterial> | Mesh<BufferGeometry, ShaderMaterial>,
  columns: ColumnViews,
  names: readonly string[] | null,
): boolean {
  const uniforms = object.material.uniforms
  const arrays = names?.map((name) => columns.get(name)) ?? []
  if (names === null || arrays.length === 0 || arrays.some((array) => array === undefined)) {
    uniforms.uColourMode!.value = COLOUR_MODES.none
    return false
  }
  arrays.forEach((array, index) => setColumnAttribute(object.geometry, `c${index}`, array!))
  uniforms.uColourMode!.value = arrays.length === 3 ? COLOUR_MODES.magnitude : COLOUR_MODES.scalar
  return true
}

/**
 * Points an attribute at a column. An existing attribute of the same length keeps its GPU buffer
 * and re-uploads (bufferSubData); removed attributes would keep theirs until dispose, so none is removed.
 */
export function setColumnAttribute(
  geometry: BufferGeometry,
  name: string,
  array: Float32Array | Uint8Array,
): void {
  const existing = geometry.getAttribute(name) as BufferAttribute | undefined
  if (existing?.array === array) return
  if (existing !== undefined && existing.array.length === array.length) {
    existing.array = array
    existing.needsUpdate = true
    return
  }
  geometry.setAttribute(name, new BufferAttribute(array, 1))
}
