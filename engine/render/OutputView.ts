/**
 * The three.js objects of one loaded output: per object a Points over its particle columns and, for
 * walls with a mesh, a Mesh. Attributes are views into the buffers the data worker transferred (no
 * copy: the only copy of the columns in this worker). GPU buffers are freed with `dispose()`.
 */
import {
  BufferAttribute,
  BufferGeometry,
  Color,
  LinearSRGBColorSpace,
  LineSegments,
  type Mesh,
  Points,
  type ShaderMaterial,
  type IUniform,
} from 'three'
import { COLOUR_PALETTE } from '../../domain/constants.ts'
import type {
  MaterialDisplayMode,
  PartViewMode,
  RenderableObject,
  RenderableOutput,
} from '../protocol.ts'
import type { Bounds } from './camera.ts'
import {
  boundsOfColumns,
  estimateParticleSpacing,
  unionBounds,
  viewColumns,
  type ColumnViews,
} from './outputColumns.ts'
import {
  applyParticleWallMode,
  bindColourAttributes,
  createMesh,
  createPointMaterial,
  createWireframe,
  positionAttributes,
  setColumnAttribute,
} from './outputMaterials.ts'
import { POINT_SHAPES } from './shaders.ts'

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
  /** A shown volume clip: one byte per row, 1 where the particle is drawn (null: every row). */
  keep: Uint8Array | null
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
        keep: null,
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

  /**
   * Draws only the particles the shown volume clips keep: `keepOf(objectId)` is one byte per row
   * (1: drawn) or null (every row). The bytes are the `mask` attribute and `uMasked` turns it on,
   * so showing and hiding a clip is a uniform; another array of the same length re-uploads into
   * the same GPU buffer.
   */
  setMasks(keepOf: (objectId: string) => Uint8Array | null): void {
    for (const view of this.objects) {
      if (view.points === null) continue
      const keep = keepOf(view.object.objectId)
      const usable = keep !== null && keep.length === view.object.particleCount ? keep : null
      view.keep = usable
      view.points.material.uniforms.uMasked!.value = usable !== null
      if (usable !== null) setColumnAttribute(view.points.geometry, 'mask', usable)
    }
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
