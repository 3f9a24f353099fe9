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
  Points,
  Quaternion,
  Vector3,
  type Matrix4,
  type ShaderMaterial,
} from 'three'
import type { SetupMeshData, SetupObjectView, SetupPointCloudData } from '../../setupProtocol.ts'
import { pointScaleForFraction } from '../detail.ts'
import { objectOpacity, surfaceStyle } from './appearance.ts'
import { RENDER_ORDER, type TranslucentSlot } from './drawOrder.ts'
import { highlightColour } from './objects.ts'
import {
  createFlatMaterial,
  createPointMaterial,
  setColour,
  type SetupUniforms,
} from './setupMaterials.ts'
import {
  createArrow,
  createSegments,
  createSprite,
  disposeObject,
  writeBoxEdges,
  writeSegments,
  type FlatLines,
} from './setupShapes.ts'
import { MESH_HEALTH_COLOURS, SetupSurface } from './SetupSurface.ts'

/** Colours of things the appearance does not give. */
export const SETUP_COLOURS = {
  ...MESH_HEALTH_COLOURS,
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
  #stencilRef: number
  #mesh: SetupSurface | null = null
  #box: FlatLines | null = null
  #marker: Points<BufferGeometry, ShaderMaterial> | null = null
  #seed: Points<BufferGeometry, ShaderMaterial> | null = null
  #arrow: Group | null = null
  #arrowKey = ''
  #cloud: Points<BufferGeometry, ShaderMaterial> | null = null
  /** Point size factor of a cloud drawn in part (1: drawn whole). */
  #cloudScale = 1
  #look: SetupObjectView | null = null

  /** `stencilRef` (1 … 255) marks the mesh's silhouette for its rim (one per node, SetupView). */
  constructor(shared: SetupUniforms, stencilRef = 1) {
    this.#shared = shared
    this.#stencilRef = stencilRef
    this.pose.matrixAutoUpdate = false
    this.placed.matrixAutoUpdate = false
    this.pose.add(this.placed)
  }

  /** Shows a loaded mesh (own coordinates for parts, world for placed meshes); null removes it. */
  setMesh(data: SetupMeshData | null): void {
    this.#mesh?.dispose()
    this.#mesh =
      data === null ? null : new SetupSurface(this.placed, this.#shared, data, this.#stencilRef)
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
    const highlight = look.selected
      ? highlightColour(appearance.color, 'selected')
      : look.hovered
        ? highlightColour(appearance.color, 'hovered')
        : null
    const lineColour = highlight ?? (view.warning ? SETUP_COLOURS.warning : appearance.color)
    this.#look = view
    this.#styleCloud()
    this.#updateSurface(look, highlight)
    this.#updateBox(look, lineColour)
    this.#updateMarker(look, highlight)
    this.#updateSeed(look)
    this.#updateArrow(look)
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
    const opacity = objectOpacity(appearance)
    material.uniforms.uOpacity!.value = opacity
    material.transparent = opacity < 1
    material.depthWrite = opacity >= 1
  }

  /** The particles are drawn now (the surface fades so they show). */
  #particlesShown(): boolean {
    const cloud = this.#cloud
    return cloud !== null && cloud.visible && cloud.geometry.getAttribute('position').count > 0
  }

  #updateSurface(look: NodeLook, highlight: string | null): void {
    if (this.#mesh === null) return
    const { view } = look
    const rimColour = highlight ?? (view.warning ? SETUP_COLOURS.warning : null)
    this.#mesh.update({
      style: surfaceStyle(view.appearance, this.#particlesShown()),
      colour: view.appearance.color,
      highlight:
        highlight === null
          ? null
          : { colour: highlight, kind: look.selected ? 'selected' : 'hovered' },
      rim:
        rimColour === null
          ? null
          : {
              colour: rimColour,
              widthPx: look.selected
                ? SETUP_SIZES_PX.outlineSelected
                : SETUP_SIZES_PX.outlineHovered,
            },
      meshHealth: look.meshHealth,
    })
  }

  /** True while something of it is drawn in the translucent pass (its surface or its particles). */
  translucent(): boolean {
    return (
      this.#mesh?.translucent() === true ||
      (this.#cloud !== null && this.#cloud.visible && this.#cloud.material.transparent)
    )
  }

  /**
   * Where it is drawn (drawOrder.ts): its translucent slot (null: with the opaque objects) and its
   * surface's polygon offset rank.
   */
  order(slot: TranslucentSlot | null, offsetRank: number): void {
    this.#mesh?.order(slot, offsetRank)
    if (this.#cloud !== null) this.#cloud.renderOrder = slot?.particles ?? RENDER_ORDER.opaque
  }

  #updateBox(look: NodeLook, colour: string): void {
    const geometry = look.view.geometry
    const size =
      geometry.type === 'box' ? 72 : geometry.type === 'lines' ? geometry.positions.length : 0
    if (
      size === 0 ||
      (this.#box !== null && this.#box.geometry.getAttribute('position').array.length !== size)
    ) {
      disposeObject(this.#box)
      this.#box = null
      if (size === 0) return
    }
    if (this.#box === null) {
      this.#box = createSegments(
        new Float32Array(size),
        createFlatMaterial(this.#shared, { colour }),
      )
      this.pose.add(this.#box)
    }
    if (geometry.type === 'box') writeBoxEdges(this.#box.geometry, geometry)
    if (geometry.type === 'lines') writeSegments(this.#box.geometry, geometry.positions)
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
      this.#marker.renderOrder = RENDER_ORDER.marker
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
      this.#seed.renderOrder = RENDER_ORDER.seedPoint
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
    const cloud = this.#cloud
    return {
      triangles: this.#mesh?.triangles() ?? 0,
      points:
        cloud?.visible === true
          ? Math.min(cloud.geometry.drawRange.count, cloud.geometry.getAttribute('position').count)
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
