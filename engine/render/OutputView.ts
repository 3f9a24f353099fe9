/**
 * The three.js objects of one loaded output: per object a Points over its particle columns and, for
 * walls with a mesh, a Mesh. Attributes are views into the buffers the data worker transferred (no
 * copy: the only copy of the columns in this worker). GPU buffers are freed with `dispose()`.
 */
import {
  BufferAttribute,
  BufferGeometry,
  Color,
  DoubleSide,
  LinearSRGBColorSpace,
  LineSegments,
  Mesh,
  Points,
  ShaderMaterial,
  type IUniform,
} from 'three'
import { COLOUR_PALETTE } from '../../domain/constants.ts'
import type { ColourRange } from '../../domain/results.ts'
import type {
  ColumnSlice,
  MaterialDisplayMode,
  PartViewMode,
  RenderableMesh,
  RenderableObject,
  RenderableOutput,
} from '../protocol.ts'
import type { Bounds } from './camera.ts'
import {
  COLOUR_MODES,
  MESH_FRAGMENT_SHADER,
  MESH_VERTEX_SHADER,
  POINT_FRAGMENT_SHADER,
  POINT_VERTEX_SHADER,
  POINT_SHAPES,
} from './shaders.ts'

/** Uniforms every material shares (one object each, so a change reaches every material at once). */
export interface SharedUniforms {
  uLut: IUniform
  uSchemeRow: IUniform<number>
  uSchemeCount: IUniform<number>
  uRange: IUniform
  uClipPlane: IUniform
  uClipEnabled: IUniform<boolean>
  uPointSizeMaxPx: IUniform<number>
  uPixelsPerMetre: IUniform<number>
  uOrthographic: IUniform<boolean>
}

/** Float32 views of an object's columns by name. */
export type ColumnViews = Map<string, Float32Array>

/** Views of the columns of a buffer; a slice outside the buffer or misaligned is skipped. */
export function viewColumns(buffer: ArrayBuffer, columns: readonly ColumnSlice[]): ColumnViews {
  const views: ColumnViews = new Map()
  for (const column of columns) {
    const end = column.byteOffset + column.length * 4
    if (column.byteOffset % 4 !== 0 || end > buffer.byteLength || column.length < 0) continue
    views.set(column.name, new Float32Array(buffer, column.byteOffset, column.length))
  }
  return views
}

/** One object of an output, ready to draw. */
export interface ObjectView {
  object: RenderableObject
  columns: ColumnViews
  points: Points<BufferGeometry, ShaderMaterial> | null
  mesh: Mesh<BufferGeometry, ShaderMaterial> | null
  /** The mesh's edges, built on first use (three's own wireframe needs a `position` attribute). */
  wireframe: LineSegments<BufferGeometry, ShaderMaterial> | null
  meshColumns: ColumnViews
  baseColour: Color
}

/** Display settings of one object (defaults: spheres, surface, visible). */
export interface ObjectDisplay {
  materialMode: MaterialDisplayMode
  materialVisible: boolean
  partMode: PartViewMode
  partVisible: boolean
}

/** The default display of an object. */
export function defaultObjectDisplay(): ObjectDisplay {
  return {
    materialMode: 'particles_spheres',
    materialVisible: true,
    partMode: 'surface',
    partVisible: true,
  }
}

function positionAttributes(geometry: BufferGeometry, columns: ColumnViews): boolean {
  const x = columns.get('x')
  const y = columns.get('y')
  const z = columns.get('z')
  if (x === undefined || y === undefined || z === undefined) return false
  geometry.setAttribute('px', new BufferAttribute(x, 1))
  geometry.setAttribute('py', new BufferAttribute(y, 1))
  geometry.setAttribute('pz', new BufferAttribute(z, 1))
  return true
}

function createPointMaterial(shared: SharedUniforms, baseColour: Color): ShaderMaterial {
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
function applyParticleWallMode(points: Points<BufferGeometry, ShaderMaterial>, mode: PartViewMode) {
  const material = points.material
  const faint = mode !== 'surface'
  material.uniforms.uShape!.value =
    mode === 'wireframe' ? POINT_SHAPES.outlinedCircles : POINT_SHAPES.spheres
  material.uniforms.uOpacity!.value = faint ? PARTICLE_WALL_OPACITY[mode] : 1
  material.transparent = faint
  material.depthWrite = !faint
  points.renderOrder = faint ? 1 : 0
}

function createMeshMaterial(shared: SharedUniforms, baseColour: Color): ShaderMaterial {
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

function createMesh(
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
function createWireframe(
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

/** Particle spacing estimated from the bounds and count: the edge of the volume per particle. */
export function estimateParticleSpacing(bounds: Bounds | null, count: number): number {
  if (bounds === null || count <= 0) return 0.01
  const extents = [0, 1, 2]
    .map((i) => (bounds.max[i] as number) - (bounds.min[i] as number))
    .filter((extent) => extent > 0 && Number.isFinite(extent))
  if (extents.length === 0) return 0.01
  // Flat data (a 2D run or a single wall layer) spreads over an area or a line, not a volume.
  const measure = extents.reduce((product, extent) => product * extent, 1)
  return Math.pow(measure / count, 1 / extents.length)
}

/** Bounds of x, y, z from the column ranges (null when a range is missing). */
export function boundsOfColumns(columns: readonly ColumnSlice[]): Bounds | null {
  const ranges = ['x', 'y', 'z'].map((name) => columns.find((c) => c.name === name)?.range ?? null)
  if (ranges.some((range) => range === null)) return null
  return {
    min: ranges.map((range) => range!.min) as [number, number, number],
    max: ranges.map((range) => range!.max) as [number, number, number],
  }
}

/** The union of bounds (null when there are none). */
export function unionBounds(all: readonly (Bounds | null)[]): Bounds | null {
  let result: Bounds | null = null
  for (const bounds of all) {
    if (bounds === null) continue
    result =
      result === null
        ? { min: [...bounds.min], max: [...bounds.max] }
        : {
            min: result.min.map((v, i) => Math.min(v, bounds.min[i] as number)) as Bounds['min'],
            max: result.max.map((v, i) => Math.max(v, bounds.max[i] as number)) as Bounds['max'],
          }
  }
  return result
}

/** The drawable objects of one output. */
export class OutputView {
  readonly output: RenderableOutput
  readonly objects: ObjectView[] = []
  readonly bounds: Bounds | null
  #arrows: LineSegments | null = null

  constructor(output: RenderableOutput, shared: SharedUniforms) {
    this.output = output
    const allBounds: (Bounds | null)[] = []
    output.objects.forEach((object, index) => {
      if (object.kind === 'volume_clip') return
      // The shader writes colours as they are (no colour management): keep the palette's sRGB values.
      const baseColour = new Color().setStyle(
        COLOUR_PALETTE[index % COLOUR_PALETTE.length] as string,
        LinearSRGBColorSpace,
      )
      const columns = viewColumns(object.buffer, object.columns)
      let points: ObjectView['points'] = null
      const bounds = boundsOfColumns(object.columns)
      allBounds.push(bounds)
      if (object.particleCount > 0) {
        const geometry = new BufferGeometry()
        if (positionAttributes(geometry, columns)) {
          points = new Points(geometry, createPointMaterial(shared, baseColour))
          // Bounding spheres would need a pass over the positions; the clip and draw ranges cull instead.
          points.frustumCulled = false
          points.material.uniforms.uWorldDiameter!.value = estimateParticleSpacing(
            bounds,
            object.particleCount,
          )
        }
      }
      const built = object.mesh === null ? null : createMesh(object.mesh, shared, baseColour)
      if (object.mesh !== null) allBounds.push(boundsOfColumns(object.mesh.columns))
      this.objects.push({
        object,
        columns,
        points,
        mesh: built?.mesh ?? null,
        wireframe: null,
        meshColumns: built?.columns ?? new Map<string, Float32Array>(),
        baseColour,
      })
    })
    this.bounds = unionBounds(allBounds)
  }

  /** Every three.js object to add to the scene. */
  sceneObjects(): (Points | Mesh | LineSegments)[] {
    const result: (Points | Mesh | LineSegments)[] = []
    for (const view of this.objects) {
      if (view.points !== null) result.push(view.points)
      if (view.mesh !== null) result.push(view.mesh)
      if (view.wireframe !== null) result.push(view.wireframe)
    }
    if (this.#arrows !== null) result.push(this.#arrows)
    return result
  }

  /**
   * Binds the colour columns: objects that have them colour by value, the others keep their base
   * colour. Returns whether any object has them. Swapping a column re-uploads that column only.
   */
  bindColour(columns: readonly string[] | null): boolean {
    let any = false
    for (const view of this.objects) {
      const pointsBound =
        view.points !== null && bindColourAttributes(view.points, view.columns, columns)
      const meshBound =
        view.mesh !== null && bindColourAttributes(view.mesh, view.meshColumns, columns)
      if (view.mesh !== null && view.wireframe !== null) {
        for (const name of ['c0', 'c1', 'c2']) {
          const attribute = view.mesh.geometry.getAttribute(name) as BufferAttribute | undefined
          if (attribute !== undefined) view.wireframe.geometry.setAttribute(name, attribute)
        }
      }
      any ||= pointsBound || meshBound
    }
    return any
  }

  /**
   * Applies display modes (hidden objects are not drawn). Returns true when it created scene
   * objects (a first wireframe) that the scene must add.
   */
  applyDisplay(displayOf: (objectId: string) => ObjectDisplay): boolean {
    let added = false
    for (const view of this.objects) {
      const display = displayOf(view.object.objectId)
      const hasMesh = view.mesh !== null
      if (view.points !== null) {
        // A wall with a mesh is drawn as its mesh; its boundary particles stay hidden. A wall
        // without one is drawn as its particles, shown or hidden with the part.
        // Format 1.0 writes no surface dataset: a material set to surface keeps its particles.
        const isPart = view.object.kind !== 'fluid'
        const visible =
          !hasMesh &&
          (isPart
            ? display.partVisible
            : display.materialVisible && display.materialMode !== 'hidden')
        view.points.visible = visible
        const material = view.points.material
        if (isPart) applyParticleWallMode(view.points, display.partMode)
        else
          material.uniforms.uShape!.value =
            display.materialMode === 'particles_circles'
              ? POINT_SHAPES.circles
              : display.materialMode === 'particles_outlined_circles'
                ? POINT_SHAPES.outlinedCircles
                : POINT_SHAPES.spheres
      }
      if (view.mesh !== null) {
        const material = view.mesh.material
        const wireframe = display.partMode === 'wireframe'
        const translucent = display.partMode === 'translucent'
        if (wireframe && view.wireframe === null) {
          view.wireframe = createWireframe(view.mesh)
          added = true
        }
        view.mesh.visible = display.partVisible && !wireframe
        if (view.wireframe !== null) view.wireframe.visible = display.partVisible && wireframe
        material.transparent = translucent
        material.depthWrite = !translucent
        material.uniforms.uOpacity!.value = translucent ? 0.35 : 1
        material.uniforms.uShaded!.value = !wireframe
      }
    }
    return added
  }

  /** Sets the draw ranges of the points (per object, in object order; null: all rows). */
  setDrawCounts(counts: ReadonlyMap<string, number>, triangleLimit: number | null): void {
    for (const view of this.objects) {
      if (view.points !== null) {
        const count = counts.get(view.object.objectId) ?? view.object.particleCount
        view.points.geometry.setDrawRange(0, count)
        const total = view.object.particleCount
        view.points.material.uniforms.uPointScale!.value =
          count > 0 && total > count ? Math.cbrt(total / count) : 1
      }
      if (view.mesh !== null) {
        const triangles = view.object.mesh?.triangleCount ?? 0
        const drawn = triangleLimit === null ? triangles : Math.min(triangles, triangleLimit)
        view.mesh.geometry.setDrawRange(0, drawn * 3)
        view.wireframe?.geometry.setDrawRange(0, drawn * 6)
      }
    }
  }

  /** Replaces the vector-field arrows (null: none). */
  setArrows(segments: Float32Array | null, material: LineSegments['material']): void {
    if (this.#arrows !== null) {
      this.#arrows.geometry.dispose()
      this.#arrows.removeFromParent()
      this.#arrows = null
    }
    if (segments === null || segments.length === 0) return
    const geometry = new BufferGeometry()
    geometry.setAttribute('position', new BufferAttribute(segments, 3))
    this.#arrows = new LineSegments(geometry, material)
    this.#arrows.frustumCulled = false
  }

  /** The arrows object, if any (to add to the scene). */
  arrows(): LineSegments | null {
    return this.#arrows
  }

  /** Frees the GPU buffers and programs' materials of this output. */
  dispose(): void {
    for (const view of this.objects) {
      view.points?.geometry.dispose()
      view.points?.material.dispose()
      view.points?.removeFromParent()
      view.mesh?.geometry.dispose()
      view.mesh?.material.dispose()
      view.mesh?.removeFromParent()
      // Shares the mesh's position buffers, so it goes only with the whole view.
      view.wireframe?.geometry.dispose()
      view.wireframe?.removeFromParent()
    }
    this.setArrows(null, [])
  }
}

/** Sets c0 (and c1, c2 for a vector) of an object; false when it lacks a column. */
function bindColourAttributes(
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
function setColumnAttribute(geometry: BufferGeometry, name: string, array: Float32Array): void {
  const existing = geometry.getAttribute(name) as BufferAttribute | undefined
  if (existing?.array === array) return
  if (existing !== undefined && existing.array.length === array.length) {
    existing.array = array
    existing.needsUpdate = true
    return
  }
  geometry.setAttribute(name, new BufferAttribute(array, 1))
}

/** The range of a colour binding over an output's objects (magnitude computed on the CPU). */
export function colourDataRange(view: OutputView, names: readonly string[]): ColourRange | null {
  let min = Infinity
  let max = -Infinity
  const include = (range: ColourRange | null) => {
    if (range === null) return
    min = Math.min(min, range.min)
    max = Math.max(max, range.max)
  }
  for (const objectView of view.objects) {
    const sources: [ColumnViews, readonly ColumnSlice[], number][] = [
      [objectView.columns, objectView.object.columns, objectView.object.particleCount],
    ]
    if (objectView.object.mesh !== null)
      sources.push([objectView.meshColumns, objectView.object.mesh.columns, Infinity])
    for (const [views, slices, count] of sources) {
      if (names.length === 1) {
        include(slices.find((slice) => slice.name === names[0])?.range ?? null)
      } else if (names.length === 3) {
        const arrays = names.map((name) => views.get(name))
        if (arrays.every((array) => array !== undefined)) include(magnitudeRange(arrays, count))
      }
    }
  }
  return min === Infinity ? null : { min, max }
}

/** Finite min/max of |(a, b, c)| over the first `count` rows. */
export function magnitudeRange(arrays: readonly Float32Array[], count: number): ColourRange | null {
  const [a, b, c] = arrays as [Float32Array, Float32Array, Float32Array]
  const n = Math.min(count, a.length, b.length, c.length)
  let minSquared = Infinity
  let maxSquared = -Infinity
  for (let i = 0; i < n; i++) {
    const x = a[i] as number
    const y = b[i] as number
    const z = c[i] as number
    const squared = x * x + y * y + z * z
    // NaN fails both tests; Infinity is skipped.
    if (squared === Infinity) continue
    if (squared < minSquared) minSquared = squared
    if (squared > maxSquared) maxSquared = squared
  }
  return minSquared === Infinity ? null : { min: Math.sqrt(minSquared), max: Math.sqrt(maxSquared) }
}
