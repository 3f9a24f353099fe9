/**
 * The setup scene's three.js graph: one SetupNode per object under a root group, the gizmo of the
 * single selected editable part, and the uniforms every setup material shares (clip plane,
 * viewport, pixel ratio). The engine puts `root` in the scene while the setup scene is shown.
 */
import {
  ConeGeometry,
  CylinderGeometry,
  Group,
  Matrix4,
  Mesh,
  TorusGeometry,
  Vector3,
  type BufferGeometry,
  type ShaderMaterial,
} from 'three'
import type { CameraState } from '../../../domain/results.ts'
import type { PlaneEquation } from '../clip.ts'
import { boundsSize } from '../framing.ts'
import {
  cameraBasis,
  dotVectors,
  scaleVector,
  addVectors,
  subtractVectors,
  type Bounds,
  type Vec3,
} from '../camera.ts'
import { AXIS_COLOURS, type ViewportSize } from '../RenderScene.ts'
import { offsetRanks, RENDER_ORDER, translucentSlots } from './drawOrder.ts'
import { GIZMO_AXES, type GizmoAxis } from './gizmo.ts'
import { SetupNode } from './SetupNode.ts'
import {
  createFlatMaterial,
  createSetupUniforms,
  setColour,
  type SetupUniforms,
} from './setupMaterials.ts'
import type { SetupDefectMarker, SetupTool } from '../../setupProtocol.ts'
import { DefectMarker } from './defectMarker.ts'

/** Colour of the handle under the pointer or being dragged. */
export const ACTIVE_HANDLE_COLOUR = '#ffd43b'

/** Where and how the gizmo is drawn. */
export interface GizmoPlacement {
  tool: Exclude<SetupTool, 'select'>
  /** The part's parent frame (its movement pose). */
  frame: Matrix4
  /** Pivot in the parent frame. */
  pivot: Vec3
  /** Handle length (translate) and ring radius (rotate), metres. */
  sizeM: number
  /** The handle being dragged, else the one under the pointer, else null. */
  active: GizmoAxis | null
}

type Handle = Mesh<BufferGeometry, ShaderMaterial>

function boundsCentre(bounds: Bounds): Vec3 {
  return scaleVector(addVectors(bounds.min, bounds.max), 0.5)
}

/** Three handles per tool, drawn over everything in the axis colours. */
class GizmoVisual {
  readonly group = new Group()
  #handles = new Map<string, Handle[]>()

  constructor(shared: SetupUniforms) {
    this.group.matrixAutoUpdate = false
    this.group.visible = false
    for (const axis of GIZMO_AXES) {
      const material = createFlatMaterial(shared, {
        colour: AXIS_COLOURS[axis],
        onTop: true,
        clipped: false,
      })
      const shaft = new Mesh(new CylinderGeometry(0.02, 0.02, 0.8, 8), material)
      shaft.position.y = 0.4
      const tip = new Mesh(new ConeGeometry(0.07, 0.2, 16), material)
      tip.position.y = 0.9
      const arrow = new Group()
      arrow.add(shaft, tip)
      // Cylinders and cones stand along +y: turn them onto the axis.
      if (axis === 'x') arrow.rotation.z = -Math.PI / 2
      if (axis === 'z') arrow.rotation.x = Math.PI / 2
      const ring = new Mesh(new TorusGeometry(1, 0.015, 6, 72), material)
      // Tori lie in the xy plane (about +z): turn them about the axis.
      if (axis === 'x') ring.rotation.y = Math.PI / 2
      if (axis === 'y') ring.rotation.x = Math.PI / 2
      arrow.name = `translate:${axis}`
      ring.name = `rotate:${axis}`
      this.group.add(arrow, ring)
      this.#handles.set(`translate:${axis}`, [shaft, tip])
      this.#handles.set(`rotate:${axis}`, [ring])
      for (const mesh of [shaft, tip, ring]) {
        mesh.renderOrder = RENDER_ORDER.gizmo
        mesh.frustumCulled = false
      }
    }
  }

  place(placement: GizmoPlacement | null): void {
    this.group.visible = placement !== null
    if (placement === null) return
    this.group.matrix
      .copy(placement.frame)
      .multiply(new Matrix4().makeTranslation(new Vector3(...placement.pivot)))
      .multiply(new Matrix4().makeScale(placement.sizeM, placement.sizeM, placement.sizeM))
    this.group.matrixWorldNeedsUpdate = true
    for (const child of this.group.children) {
      const [tool, axis] = child.name.split(':') as [string, GizmoAxis]
      child.visible = tool === placement.tool
      for (const handle of this.#handles.get(child.name) ?? [])
        setColour(
          handle.material,
          axis === placement.active ? ACTIVE_HANDLE_COLOUR : AXIS_COLOURS[axis],
        )
    }
  }

  dispose(): void {
    const materials = new Set<ShaderMaterial>()
    for (const handles of this.#handles.values())
      for (const handle of handles) {
        handle.geometry.dispose()
        materials.add(handle.material)
      }
    for (const material of materials) material.dispose()
  }
}

/** The setup scene's objects. */
export class SetupView {
  readonly root = new Group()
  readonly uniforms = createSetupUniforms()
  #nodes = new Map<string, SetupNode>()
  #gizmo = new GizmoVisual(this.uniforms)
  #marker = new DefectMarker(this.uniforms, (lines) => this.root.add(lines))
  #made = 0

  constructor() {
    this.root.add(this.#gizmo.group)
  }

  /** The node of an object, made on first use. */
  node(id: string): SetupNode {
    let node = this.#nodes.get(id)
    if (node === undefined) {
      // Each node marks its silhouette with its own stencil value (1 … 255; 0 is the clear one).
      node = new SetupNode(this.uniforms, (this.#made++ % 255) + 1)
      this.#nodes.set(id, node)
      this.root.add(node.pose)
    }
    return node
  }

  existingNode(id: string): SetupNode | undefined {
    return this.#nodes.get(id)
  }

  /** Frees an object's objects. */
  remove(id: string): void {
    this.#nodes.get(id)?.dispose()
    this.#nodes.delete(id)
  }

  nodes(): IterableIterator<[string, SetupNode]> {
    return this.#nodes.entries()
  }

  /**
   * Sets the draw order for the next frame (drawOrder.ts): translucent objects back to front by
   * the depth of their centre along the view, and each surface's polygon offset by its size rank.
   * `boundsOf` gives an object's world bounds (null: nothing of it to draw).
   */
  orderForDrawing(camera: CameraState, boundsOf: (id: string) => Bounds | null): void {
    const { forward } = cameraBasis(camera)
    const drawn = [...this.#nodes]
      .map(([id, node]) => ({ node, bounds: boundsOf(id) }))
      .filter((entry): entry is { node: SetupNode; bounds: Bounds } => entry.bounds !== null)
    const ranks = offsetRanks(drawn.map(({ bounds }) => boundsSize(bounds)))
    const translucent = drawn.filter(({ node }) => node.translucent())
    const depths = translucent.map(({ bounds }) =>
      dotVectors(subtractVectors(boundsCentre(bounds), camera.position), forward),
    )
    const slots = translucentSlots(depths)
    const slotOf = new Map(translucent.map(({ node }, k) => [node, slots[k]!]))
    drawn.forEach(({ node }, index) => node.order(slotOf.get(node) ?? null, ranks[index]!))
  }

  /** The shared clip plane (world), or none. */
  setClip(plane: PlaneEquation | null): void {
    this.uniforms.uClipEnabled.value = plane !== null
    if (plane !== null) this.uniforms.uClipPlane.value.set(...plane)
  }

  setViewport(size: ViewportSize): void {
    this.uniforms.uViewportPx.value.set(Math.max(1, size.width), Math.max(1, size.height))
    this.uniforms.uPixelRatio.value = size.devicePixelRatio
  }

  placeGizmo(placement: GizmoPlacement | null): void {
    this.#gizmo.place(placement)
  }

  /** Rings one mesh defect (drawn only while `visible`: mesh-health mode); null removes the rings. */
  setDefectMarker(marker: SetupDefectMarker | null, visible: boolean): void {
    this.#marker.set(marker, visible)
  }

  dispose(): void {
    for (const id of [...this.#nodes.keys()]) this.remove(id)
    this.#gizmo.dispose()
    this.#marker.dispose()
    this.root.clear()
  }
}
