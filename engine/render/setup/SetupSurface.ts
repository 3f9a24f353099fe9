/**
 * A mesh as the setup scene draws it, under its node's placement group: the lit surface, the
 * selection rim, the wireframe, the feature edges of a translucent surface (featureEdges.ts) and
 * the mesh-health edges (holes, non-manifold edges). How it looks comes from appearance.ts
 * (SurfaceStyle), where it sits in the draw order from drawOrder.ts.
 */
import { BufferAttribute, BufferGeometry, Color, Mesh, type Group } from 'three'
import type { ShaderMaterial } from 'three'
import type { SetupMeshData } from '../../setupProtocol.ts'
import type { SurfaceStyle } from './appearance.ts'
import { RENDER_ORDER, surfaceOffsetSteps, type TranslucentSlot } from './drawOrder.ts'
import { computeFeatureEdges } from './featureEdges.ts'
import {
  createFlatMaterial,
  createOutlineMaterial,
  createSurfaceMaterial,
  setColour,
  setSurfaceOffset,
  type SetupUniforms,
} from './setupMaterials.ts'
import { createSegments, createWireframe, disposeObject, type FlatLines } from './setupShapes.ts'

/** Colours of the mesh-health edges. */
export const MESH_HEALTH_COLOURS = { holes: '#e03131', nonManifold: '#ae3ec9' } as const

/**
 * A translucent surface's edges: this much more opaque than its faces, in its colour darkened by
 * EDGE_DARKEN towards black (they read on light and dark colours alike).
 */
export const EDGE_OPACITY_GAIN = 0.5
export const EDGE_DARKEN = 0.35

/** How far a highlight tints a surface towards its colour. */
export const TINT_AMOUNT = { selected: 0.3, hovered: 0.18 } as const

/** How one mesh is to be drawn now. */
export interface SurfaceLook {
  style: SurfaceStyle
  /** The object's colour, '#rrggbb'. */
  colour: string
  /** The selection or hover colour: tints the surface and colours the wireframe; null: none. */
  highlight: { colour: string; kind: 'selected' | 'hovered' } | null
  /** The rim's colour (a highlight or a warning) and width on screen; null: no rim. */
  rim: { colour: string; widthPx: number } | null
  meshHealth: boolean
}

type SurfaceMesh = Mesh<BufferGeometry, ShaderMaterial>

const BLACK = new Color(0, 0, 0)

/** The drawn objects of one mesh. */
export class SetupSurface {
  readonly surface: SurfaceMesh
  readonly outline: SurfaceMesh
  #parent: Group
  #shared: SetupUniforms
  #wireframe: FlatLines | null = null
  /** Feature edges, made the first time the surface is translucent. */
  #edges: FlatLines | null = null
  #holes: FlatLines
  #nonManifold: FlatLines

  constructor(parent: Group, shared: SetupUniforms, data: SetupMeshData, stencilRef: number) {
    this.#parent = parent
    this.#shared = shared
    const geometry = new BufferGeometry()
    geometry.setAttribute('position', new BufferAttribute(data.positions, 3))
    geometry.setAttribute('normal', new BufferAttribute(data.normals, 3))
    geometry.setAttribute('outlineNormal', new BufferAttribute(data.outlineNormals, 3))
    geometry.setIndex(new BufferAttribute(data.indices, 1))
    this.surface = new Mesh(geometry, createSurfaceMaterial(shared, stencilRef))
    this.outline = new Mesh(geometry, createOutlineMaterial(shared, stencilRef))
    this.outline.visible = false
    const holeFloats = data.holeSegmentCount * 6
    this.#holes = createSegments(
      data.defectSegments.subarray(0, holeFloats),
      createFlatMaterial(shared, { colour: MESH_HEALTH_COLOURS.holes, onTop: true }),
    )
    this.#nonManifold = createSegments(
      data.defectSegments.subarray(holeFloats),
      createFlatMaterial(shared, { colour: MESH_HEALTH_COLOURS.nonManifold, onTop: true }),
    )
    for (const object of [this.surface, this.outline, this.#holes, this.#nonManifold]) {
      object.frustumCulled = false
      parent.add(object)
    }
    this.#holes.renderOrder = this.#nonManifold.renderOrder = RENDER_ORDER.meshHealth
    this.order(null, 0)
  }

  /** Brings the surface, rim, wireframe and mesh-health edges in line with the look. */
  update(look: SurfaceLook): void {
    const { style, highlight, rim } = look
    const surface = this.surface
    const material = surface.material
    surface.visible = style.mode === 'surface'
    setColour(material, look.colour)
    material.uniforms.uOpacity!.value = style.opacity
    material.transparent = style.translucent
    material.depthWrite = !style.translucent
    material.uniforms.uTintAmount!.value = highlight === null ? 0 : TINT_AMOUNT[highlight.kind]
    if (highlight !== null) (material.uniforms.uTint!.value as Color).set(highlight.colour)
    // The rim shows around the surface (its silhouette marked in the stencil buffer).
    const outline = this.outline
    outline.visible = surface.visible && rim !== null
    material.stencilWrite = outline.visible
    outline.material.transparent = style.translucent
    if (rim !== null) {
      setColour(outline.material, rim.colour)
      outline.material.uniforms.uWidthPx!.value = rim.widthPx
    }
    this.#updateWireframe(look)
    this.#updateEdges(look)
    this.#holes.visible = this.#nonManifold.visible = style.mode !== 'hidden' && look.meshHealth
  }

  #updateWireframe(look: SurfaceLook): void {
    const { style } = look
    if (style.mode === 'wireframe' && this.#wireframe === null) {
      this.#wireframe = createWireframe(this.surface.geometry, this.#shared)
      this.#parent.add(this.#wireframe)
    }
    const wireframe = this.#wireframe
    if (wireframe === null) return
    wireframe.visible = style.mode === 'wireframe'
    setColour(wireframe.material, look.highlight?.colour ?? look.colour)
    wireframe.material.uniforms.uOpacity!.value = style.opacity
    wireframe.material.transparent = style.translucent
    wireframe.material.depthWrite = !style.translucent
  }

  /** A translucent surface shows its sharp edges and borders, seen through it from behind too. */
  #updateEdges(look: SurfaceLook): void {
    const { style } = look
    const shown = style.mode === 'surface' && style.translucent
    if (shown && this.#edges === null) {
      const geometry = this.surface.geometry
      const positions = geometry.getAttribute('position').array as Float32Array
      const indices = (geometry.index?.array ?? new Uint32Array(0)) as Uint32Array
      this.#edges = createSegments(
        computeFeatureEdges(positions, indices),
        createFlatMaterial(this.#shared, { colour: look.colour, opacity: 0.5 }),
      )
      this.#parent.add(this.#edges)
    }
    const edges = this.#edges
    if (edges === null) return
    edges.visible = shown
    ;(edges.material.uniforms.uColour!.value as Color).set(look.colour).lerp(BLACK, EDGE_DARKEN)
    edges.material.uniforms.uOpacity!.value = Math.min(1, style.opacity + EDGE_OPACITY_GAIN)
  }

  /**
   * Where the mesh is drawn: its translucent slot (null: with the opaque objects) and its polygon
   * offset rank (drawOrder.ts).
   */
  order(slot: TranslucentSlot | null, offsetRank: number): void {
    this.surface.renderOrder = slot?.surface ?? RENDER_ORDER.opaque
    this.outline.renderOrder = slot?.rim ?? RENDER_ORDER.opaqueRim
    if (this.#wireframe !== null) this.#wireframe.renderOrder = slot?.surface ?? RENDER_ORDER.opaque
    if (this.#edges !== null) this.#edges.renderOrder = slot?.edges ?? RENDER_ORDER.opaque
    const material = this.surface.material
    setSurfaceOffset(material, surfaceOffsetSteps(offsetRank, material.transparent))
  }

  /** True while it is drawn in the translucent pass. */
  translucent(): boolean {
    const drawn = this.surface.visible ? this.surface : this.#wireframe
    return drawn !== null && drawn.visible && drawn.material.transparent
  }

  /** Triangles drawn (as a surface or as a wireframe). */
  triangles(): number {
    const shown = this.surface.visible || this.#wireframe?.visible === true
    return shown ? (this.surface.geometry.index?.count ?? 0) / 3 : 0
  }

  dispose(): void {
    for (const object of [this.surface, this.outline, this.#wireframe, this.#edges, this.#holes])
      disposeObject(object)
    disposeObject(this.#nonManifold)
  }
}
