/**
 * The three.js objects of one setup object: under a pose group (its movement at the timeline's
 * time) a placement group (a part's translation, rotation and scale) holding the mesh surface, its
 * selection outline, its wireframe and its mesh-health edges; beside it, in world coordinates, the
 * domain box's edges, a point sensor's marker, the seed-point handle, an open boundary's arrow and
 * the discretized point cloud. Buffers are the data worker's arrays (transferred, not copied).
 */
import {
  BufferAttribute,
  BufferGeometry,
  Color,
  Group,
  Mesh,
  Points,
  Quaternion,
  Vector3,
  type Matrix4,
  type ShaderMaterial,
} from 'three'
import type { SetupMeshData, SetupObjectView, SetupPointCloudData } from '../../setupProtocol.ts'
import { pointScaleForFraction } from '../detail.ts'
import { highlightColour } from './objects.ts'
import {
  createFlatMaterial,
  createOutlineMaterial,
  createPointMaterial,
  createSurfaceMaterial,
  setColour,
  type SetupUniforms,
} from './setupMaterials.ts'
import {
  createArrow,
  createSegments,
  createSprite,
  createWireframe,
  disposeObject,
  writeBoxEdges,
  type FlatLines,
} from './setupShapes.ts'

/** Colours of things the appearance does not give. */
export const SETUP_COLOURS = {
  holes: '#e03131',
  nonManifold: '#ae3ec9',
  seedPoint: '#fab005',
  inflow: '#2f9e44',
  outflow: '#e8590c',
  warning: '#f08c00',
} as const

/** Sizes on screen, CSS pixels. */
export const SETUP_SIZES_PX = {
  marker: 12,
  seedPoint: 14,
  /** A fluid part's discretized particles. */
  particle: 4,
  /** A wall's or an open boundary's: smaller, so the fluid inside shows through. */
  wallParticle: 2,
  arrow: 60,
  outlineSelected: 3,
  outlineHovered: 2,
} as const

/** Opacity of a translucent object at most (its own opacity when lower). */
export const TRANSLUCENT_OPACITY = 0.35

/** How far a wall's particles are lightened towards white (0: the part's colour, 1: white). */
export const WALL_PARTICLE_LIGHTEN = 0.55

/** A wall's particle colour: the part's, lightened. */
export function lightenColour(colour: string, amount: number): string {
  return `#${new Color(colour).lerp(new Color('#ffffff'), amount).getHexString()}`
}

/** How one object is to be drawn now. */
export interface NodeLook {
  view: SetupObjectView
  /** Placement matrix (a part's transform, or a drag in progress); identity otherwise. */
  placement: Matrix4
  /** Movement pose matrix at the timeline's time. */
  pose: Matrix4
  selected: boolean
  hovered: boolean
  meshHealth: boolean
  /** The seed-point handle shows (a selected part with a seed point). */
  showSeed: boolean
  /** The seed point to show (a drag in progress moves it). */
  seedPoint: readonly number[] | null
}

/** The objects of one setup object. */
export class SetupNode {
  readonly pose = new Group()
  readonly placed = new Group()
  #shared: SetupUniforms
  surface: Mesh<BufferGeometry, ShaderMaterial> | null = null
  #outline: Mesh<BufferGeometry, ShaderMaterial> | null = null
  #wireframe: FlatLines | null = null
  #holes: FlatLines | null = null
  #nonManifold: FlatLines | null = null
  #box: FlatLines | null = null
  #marker: Points<BufferGeometry, ShaderMaterial> | null = null
  #seed: Points<BufferGeometry, ShaderMaterial> | null = null
  #arrow: Group | null = null
  #arrowKey = ''
  #cloud: Points<BufferGeometry, ShaderMaterial> | null = null
  /** Point size factor of a cloud drawn in part (1: drawn whole). */
  #cloudScale = 1
  #look: SetupObjectView | null = null

  constructor(shared: SetupUniforms) {
    this.#shared = shared
    this.pose.matrixAutoUpdate = false
    this.placed.matrixAutoUpdate = false
    this.pose.add(this.placed)
  }

  /** Shows a loaded mesh (own coordinates for parts, world for placed meshes); null removes it. */
  setMesh(data: SetupMeshData | null): void {
    for (const object of [
      this.surface,
      this.#outline,
      this.#wireframe,
      this.#holes,
      this.#nonManifold,
    ])
      disposeObject(object)
    this.surface = this.#outline = this.#wireframe = this.#holes = this.#nonManifold = null
    if (data === null) return
    const geometry = new BufferGeometry()
    geometry.setAttribute('position', new BufferAttribute(data.positions, 3))
    geometry.setAttribute('normal', new BufferAttribute(data.normals, 3))
    geometry.setAttribute('outlineNormal', new BufferAttribute(data.outlineNormals, 3))
    geometry.setIndex(new BufferAttribute(data.indices, 1))
    this.surface = new Mesh(geometry, createSurfaceMaterial(this.#shared))
    this.#outline = new Mesh(geometry, createOutlineMaterial(this.#shared))
    this.#outline.visible = false
    const holeFloats = data.holeSegmentCount * 6
    this.#holes = createSegments(
      data.defectSegments.subarray(0, holeFloats),
      createFlatMaterial(this.#shared, { colour: SETUP_COLOURS.holes, onTop: true }),
    )
    this.#nonManifold = createSegments(
      data.defectSegments.subarray(holeFloats),
      createFlatMaterial(this.#shared, { colour: SETUP_COLOURS.nonManifold, onTop: true }),
    )
    for (const object of [this.surface, this.#outline, this.#holes, this.#nonManifold]) {
      object.frustumCulled = false
      this.placed.add(object)
    }
    this.#holes.renderOrder = this.#nonManifold.renderOrder = 20
  }

  /** Shows a discretized point cloud (world coordinates); null removes it. */
  setPointCloud(data: SetupPointCloudData | null): void {
    disposeObject(this.#cloud)
    this.#cloud = null
    if (data === null) return
    const geometry = new BufferGeometry()
    geometry.setAttribute('position', new BufferAttribute(data.positions, 3))
    this.#cloud = new Points(
      geometry,
      createPointMaterial(this.#shared, {
        colour: '#4dabf7',
        sizePx: SETUP_SIZES_PX.particle,
        ring: false,
        onTop: false,
        clipped: true,
      }),
    )
    this.#cloud.frustumCulled = false
    this.pose.add(this.#cloud)
  }

  /** Particles of the point cloud (0: none), and whether it is shown. */
  cloudSize(): { count: number; visible: boolean } {
    const cloud = this.#cloud
    if (cloud === null) return { count: 0, visible: false }
    return { count: cloud.geometry.getAttribute('position').count, visible: cloud.visible }
  }

  /**
   * Draws the first `count` particles of the cloud (a prefix is a uniform subset), each as much
   * bigger as keeps the cloud looking filled (the results' point clouds do the same).
   */
  drawCloud(count: number): void {
    const cloud = this.#cloud
    if (cloud === null) return
    const total = cloud.geometry.getAttribute('position').count
    cloud.geometry.setDrawRange(0, count)
    this.#cloudScale = pointScaleForFraction(count, total)
    this.#styleCloud()
  }

  /** Brings every object in line with the view, the selection and the timeline. */
  update(look: NodeLook): void {
    const { view } = look
    this.pose.matrix.copy(look.pose)
    this.placed.matrix.copy(look.placement)
    this.pose.matrixWorldNeedsUpdate = this.placed.matrixWorldNeedsUpdate = true
    const appearance = view.appearance
    const visible = appearance.visible
    const highlight = look.selected
      ? highlightColour(appearance.color, 'selected')
      : look.hovered
        ? highlightColour(appearance.color, 'hovered')
        : null
    const lineColour = highlight ?? (view.warning ? SETUP_COLOURS.warning : appearance.color)
    this.#updateSurface(look, highlight)
    this.#updateBox(look, lineColour)
    this.#updateMarker(look, highlight)
    this.#updateSeed(look)
    this.#updateArrow(look)
    this.#look = view
    this.#styleCloud()
    if (this.#holes !== null) this.#holes.visible = visible && look.meshHealth
    if (this.#nonManifold !== null) this.#nonManifold.visible = visible && look.meshHealth
  }

  /**
   * The cloud in the part's colour: a fluid's as it is, a wall's smaller and lighter (the fluid
   * inside shows through), a translucent part's translucent.
   */
  #styleCloud(): void {
    const cloud = this.#cloud
    const view = this.#look
    if (cloud === null || view === null) return
    cloud.visible = view.pointcloud?.visible === true
    const wall = view.pointcloud?.role === 'wall'
    const { appearance } = view
    const material = cloud.material
    setColour(
      material,
      wall ? lightenColour(appearance.color, WALL_PARTICLE_LIGHTEN) : appearance.color,
    )
    const sizePx = wall ? SETUP_SIZES_PX.wallParticle : SETUP_SIZES_PX.particle
    material.uniforms.uSizePx!.value = sizePx * this.#cloudScale
    const opacity = appearance.translucent
      ? Math.min(appearance.opacity, TRANSLUCENT_OPACITY)
      : appearance.opacity
    material.uniforms.uOpacity!.value = opacity
    material.transparent = opacity < 1
    material.depthWrite = opacity >= 1
    cloud.renderOrder = material.transparent ? 2 : 0
  }

  #updateSurface(look: NodeLook, highlight: string | null): void {
    const surface = this.surface
    if (surface === null) return
    const { appearance } = look.view
    const wireframe = appearance.wireframe
    const opacity = appearance.translucent
      ? Math.min(appearance.opacity, TRANSLUCENT_OPACITY)
      : appearance.opacity
    const material = surface.material
    surface.visible = appearance.visible && !wireframe
    setColour(material, appearance.color)
    material.uniforms.uOpacity!.value = opacity
    material.transparent = opacity < 1
    material.depthWrite = opacity >= 1
    // A highlight tints the surface and rims it (the rim shows on any colour, see highlightColour).
    material.uniforms.uTintAmount!.value = highlight === null ? 0 : look.selected ? 0.3 : 0.18
    if (highlight !== null) (material.uniforms.uTint!.value as Color).set(highlight)
    surface.renderOrder = material.transparent ? 2 : 0
    // The rim: the highlight, else the warning colour of a part with potential issues.
    const outline = this.#outline!
    const rim = highlight ?? (look.view.warning ? SETUP_COLOURS.warning : null)
    outline.visible = surface.visible && rim !== null
    if (rim !== null) {
      setColour(outline.material, rim)
      outline.material.uniforms.uWidthPx!.value = look.selected
        ? SETUP_SIZES_PX.outlineSelected
        : SETUP_SIZES_PX.outlineHovered
    }
    if (wireframe && this.#wireframe === null) {
      this.#wireframe = createWireframe(surface.geometry, this.#shared)
      this.placed.add(this.#wireframe)
    }
    if (this.#wireframe !== null) {
      this.#wireframe.visible = appearance.visible && wireframe
      setColour(this.#wireframe.material, highlight ?? appearance.color)
      this.#wireframe.material.uniforms.uOpacity!.value = opacity
      this.#wireframe.material.transparent = opacity < 1
    }
  }

  #updateBox(look: NodeLook, colour: string): void {
    const geometry = look.view.geometry
    if (geometry.type !== 'box') {
      disposeObject(this.#box)
      this.#box = null
      return
    }
    if (this.#box === null) {
      this.#box = createSegments(new Float32Array(72), createFlatMaterial(this.#shared, { colour }))
      this.pose.add(this.#box)
    }
    writeBoxEdges(this.#box.geometry, geometry)
    this.#box.visible = look.view.appearance.visible
    setColour(this.#box.material, colour)
  }

  #updateMarker(look: NodeLook, highlight: string | null): void {
    const geometry = look.view.geometry
    if (geometry.type !== 'point') {
      disposeObject(this.#marker)
      this.#marker = null
      return
    }
    if (this.#marker === null) {
      this.#marker = createSprite(this.#shared, look.view.appearance.color, SETUP_SIZES_PX.marker)
      this.#marker.renderOrder = 30
      this.pose.add(this.#marker)
    }
    this.#marker.geometry.getAttribute('position').setXYZ(0, ...geometry.position)
    this.#marker.geometry.getAttribute('position').needsUpdate = true
    this.#marker.visible = look.view.appearance.visible
    setColour(this.#marker.material, highlight ?? look.view.appearance.color)
  }

  #updateSeed(look: NodeLook): void {
    const point = look.seedPoint
    if (!look.showSeed || point === null) {
      if (this.#seed !== null) this.#seed.visible = false
      return
    }
    if (this.#seed === null) {
      this.#seed = createSprite(this.#shared, SETUP_COLOURS.seedPoint, SETUP_SIZES_PX.seedPoint)
      this.#seed.renderOrder = 31
      this.pose.add(this.#seed)
    }
    const position = this.#seed.geometry.getAttribute('position')
    position.setXYZ(0, point[0] ?? 0, point[1] ?? 0, point[2] ?? 0)
    position.needsUpdate = true
    this.#seed.visible = true
  }

  #updateArrow(look: NodeLook): void {
    const arrow = look.view.arrow
    const key = arrow === null ? '' : JSON.stringify(arrow)
    if (key !== this.#arrowKey) {
      disposeObject(this.#arrow)
      this.#arrow = null
      this.#arrowKey = key
      if (arrow !== null) {
        const direction = arrow.direction === 'inflow' ? 1 : -1
        const along = new Vector3(...arrow.normal).multiplyScalar(direction).normalize()
        this.#arrow = createArrow(
          this.#shared,
          arrow.direction === 'inflow' ? SETUP_COLOURS.inflow : SETUP_COLOURS.outflow,
        )
        this.#arrow.position.set(...arrow.origin)
        this.#arrow.quaternion.copy(
          new Quaternion().setFromUnitVectors(new Vector3(0, 0, 1), along),
        )
        this.pose.add(this.#arrow)
      }
    }
    if (this.#arrow !== null) this.#arrow.visible = look.view.appearance.visible
  }

  /** Keeps the arrow `metresPerPixel × 60 px` long on screen. */
  scaleArrow(metresPerPixel: number): void {
    this.#arrow?.scale.setScalar(Math.max(metresPerPixel * SETUP_SIZES_PX.arrow, 1e-9))
  }

  /** Where the arrow starts (world, before the pose), for its on-screen size. */
  arrowOrigin(): readonly number[] | null {
    return this.#arrow === null ? null : this.#arrow.position.toArray()
  }

  /** Triangles and particles drawn by this object. */
  drawn(): { triangles: number; points: number } {
    const surfaceShown = this.surface !== null && (this.surface.visible || this.#wireframe?.visible)
    return {
      triangles: surfaceShown ? (this.surface!.geometry.index?.count ?? 0) / 3 : 0,
      points:
        this.#cloud?.visible === true
          ? Math.min(
              this.#cloud.geometry.drawRange.count,
              this.#cloud.geometry.getAttribute('position').count,
            )
          : 0,
    }
  }

  dispose(): void {
    this.setMesh(null)
    this.setPointCloud(null)
    for (const object of [this.#box, this.#marker, this.#seed, this.#arrow]) disposeObject(object)
    this.pose.removeFromParent()
  }
}
