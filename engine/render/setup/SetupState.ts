/**
 * What the setup scene holds and what follows from it: the objects as posted, their fetched
 * resources, the selection, tool and modes, the timeline, and placements moved in the view but not
 * saved yet. From these: each object's pose, placement and world matrix, bounds, the gizmo's shape,
 * whether the scene is initialised, and the object under the pointer.
 */
import type { Matrix4 } from 'three'
import { poseAtTrack } from '../../data/keyframes.ts'
import { computeBounds } from '../../data/setupGeometry.ts'
import type {
  SetupDefectMarker,
  SetupObjectView,
  SetupPointCloudData,
  SetupTool,
  SetupTransform,
} from '../../setupProtocol.ts'
import type { Bounds, Vec3 } from '../camera.ts'
import { clipPlaneEquation } from '../clip.ts'
import type { SceneHost } from '../host.ts'
import { pickSetupObject, type GizmoShape, type MeshTarget } from './setupPicking.ts'
import {
  metresPerPixelAt,
  placementMatrix,
  pointerRay,
  poseMatrix,
  transformBounds,
  transformPoint,
  unionBounds,
} from './setupMath.ts'
import type { SetupResources } from './SetupResources.ts'
import { SetupTimeline } from './timeline.ts'

/** The gizmo's handles are this long on screen (CSS pixels). */
export const GIZMO_SIZE_PX = 90

const IDENTITY_TRANSFORM: SetupTransform = {
  translation: [0, 0, 0],
  rotationDeg: [0, 0, 0],
  scale: [1, 1, 1],
}

/** The gizmo of the selected part: its shape as drawn and the placement it starts from. */
export interface GizmoTarget {
  id: string
  shape: GizmoShape
  transform: SetupTransform
}

/** The setup scene's state. */
export class SetupState {
  readonly objects = new Map<string, SetupObjectView>()
  readonly resources: SetupResources
  readonly timeline = new SetupTimeline()
  /** Placements and seed points moved in the view, shown until the next `setup_objects`. */
  readonly moved = new Map<string, { transform?: SetupTransform; seedPoint?: Vec3 }>()
  selection = new Set<string>()
  tool: SetupTool = 'select'
  meshHealth = false
  /** The defect the Mesh Check dialog zoomed to, ringed in mesh-health mode. */
  defectMarker: SetupDefectMarker | null = null
  endTimeS: number | null = null
  /** `setup_objects` came at least once. */
  received = false
  #host: SceneHost
  #cloudBounds = new WeakMap<SetupPointCloudData, Bounds | null>()

  constructor(host: SceneHost, resources: SetupResources) {
    this.#host = host
    this.resources = resources
  }

  /** Every object with a mesh has it (or failed): spec/setup.md §4 "counts as initialised". */
  initialized(): boolean {
    if (!this.received) return false
    for (const [id, view] of this.objects)
      if (view.geometry.type === 'mesh' && !this.resources.settled(id, 'mesh')) return false
    return true
  }

  /** The timeline's length: the end time, else the longest track. */
  duration(): number {
    if (this.endTimeS !== null) return this.endTimeS
    let longest = 0
    for (const id of this.objects.keys()) {
      const track = this.resources.get(id, 'keyframes')
      if (track !== null) longest = Math.max(longest, (track.sampleCount - 1) * track.stepS)
    }
    return longest
  }

  transformOf(id: string): SetupTransform | null {
    const view = this.objects.get(id)
    return view === undefined ? null : (this.moved.get(id)?.transform ?? view.transform)
  }

  seedPointOf(id: string): Vec3 | null {
    return this.moved.get(id)?.seedPoint ?? this.objects.get(id)?.seedPoint ?? null
  }

  /** The movement pose at the timeline's time (identity for what does not move). */
  poseOf(id: string): Matrix4 {
    const track = this.resources.get(id, 'keyframes')
    return poseMatrix(track === null ? null : poseAtTrack(track, this.timeline.timeS()))
  }

  /** Placement of a part's own-coordinate mesh; other meshes are placed already (identity). */
  placementOf(id: string): Matrix4 {
    const view = this.objects.get(id)
    const transform = this.transformOf(id)
    return placementMatrix(
      view?.kind === 'part' && transform !== null ? transform : IDENTITY_TRANSFORM,
    )
  }

  worldOf(id: string): Matrix4 {
    return this.poseOf(id).multiply(this.placementOf(id))
  }

  /** World bounds of a visible object (its mesh, box or marker, and its point cloud). */
  objectBounds(id: string): Bounds | null {
    const view = this.objects.get(id)
    if (view === undefined || !view.appearance.visible) return null
    const geometry = view.geometry
    let own: Bounds | null = null
    if (geometry.type === 'box') own = { min: [...geometry.min], max: [...geometry.max] }
    if (geometry.type === 'lines') own = boundsOfPositions(geometry.positions)
    if (geometry.type === 'point')
      own = { min: [...geometry.position], max: [...geometry.position] }
    const mesh = this.resources.get(id, 'mesh')
    if (geometry.type === 'mesh' && mesh !== null && mesh.data.triangleCount > 0)
      own = transformBounds(mesh.data.bounds, this.worldOf(id))
    const cloud = this.resources.get(id, 'pointcloud')
    let cloudBounds: Bounds | null = null
    if (cloud !== null && cloud.count > 0 && view.pointcloud?.visible === true) {
      if (!this.#cloudBounds.has(cloud))
        this.#cloudBounds.set(cloud, computeBounds(cloud.positions))
      cloudBounds = transformBounds(this.#cloudBounds.get(cloud)!, this.poseOf(id))
    }
    return unionBounds([own, cloudBounds])
  }

  /** Bounds of everything visible (world). */
  bounds(): Bounds | null {
    return unionBounds([...this.objects.keys()].map((id) => this.objectBounds(id)))
  }

  /** The gizmo of the single selected editable part, when a gizmo tool is on. */
  gizmo(): GizmoTarget | null {
    const tool = this.tool
    if (tool === 'select' || this.selection.size !== 1) return null
    const id = [...this.selection][0]!
    const view = this.objects.get(id)
    const transform = this.transformOf(id)
    if (view?.kind !== 'part' || !view.editable || !view.appearance.visible || transform === null)
      return null
    if (view.geometry.type !== 'mesh') return null
    const frame = this.poseOf(id)
    const mesh = this.resources.get(id, 'mesh')
    // The pivot is the middle of the placed mesh (a rotation turns the part about it).
    const placed =
      mesh === null || mesh.data.triangleCount === 0
        ? null
        : transformBounds(mesh.data.bounds, placementMatrix(transform))
    const pivot: Vec3 =
      placed === null
        ? [...transform.translation]
        : [
            (placed.min[0] + placed.max[0]) / 2,
            (placed.min[1] + placed.max[1]) / 2,
            (placed.min[2] + placed.max[2]) / 2,
          ]
    const metresPerPixel = metresPerPixelAt(
      this.#host.camera(),
      this.#host.size().height,
      transformPoint(frame, pivot),
    )
    return { id, shape: { tool, frame, pivot, sizeM: GIZMO_SIZE_PX * metresPerPixel }, transform }
  }

  /** The world ray under the pointer (null before the scene exists). */
  rayAt(x: number, y: number) {
    const scene = this.#host.scene()
    return scene === null ? null : pointerRay(scene.viewProjection(), this.#host.size(), x, y)
  }

  /** The selectable, visible object under the pointer, or null. */
  pickAt(x: number, y: number): string | null {
    const scene = this.#host.scene()
    const ray = this.rayAt(x, y)
    if (scene === null || ray === null) return null
    const markers: { id: string; position: Vec3 }[] = []
    const meshes: MeshTarget[] = []
    const boxes: { id: string; min: Vec3; max: Vec3 }[] = []
    for (const [id, view] of this.objects) {
      if (!view.selectable || !view.appearance.visible) continue
      const geometry = view.geometry
      if (geometry.type === 'point') markers.push({ id, position: [...geometry.position] })
      if (geometry.type === 'box') boxes.push({ id, min: geometry.min, max: geometry.max })
      const lines = geometry.type === 'lines' ? boundsOfPositions(geometry.positions) : null
      if (lines !== null) boxes.push({ id, ...lines })
      const mesh = this.resources.get(id, 'mesh')
      if (geometry.type !== 'mesh' || mesh === null || mesh.bvh === null) continue
      const world = this.worldOf(id)
      meshes.push({ id, data: mesh.data, bvh: mesh.bvh, world, inverse: world.clone().invert() })
    }
    return pickSetupObject({
      xPx: x,
      yPx: y,
      ray,
      viewProjection: scene.viewProjection().elements,
      size: this.#host.size(),
      clip: clipPlaneEquation(this.#host.clip()),
      markers,
      meshes,
      boxes,
    })
  }
}

/** The box around line segment ends (x y z each); null for none. */
function boundsOfPositions(positions: readonly number[]): Bounds | null {
  if (positions.length < 3) return null
  const min: Vec3 = [Infinity, Infinity, Infinity]
  const max: Vec3 = [-Infinity, -Infinity, -Infinity]
  for (let i = 0; i + 2 < positions.length; i += 3)
    for (let axis = 0; axis < 3; axis++) {
      const value = positions[i + axis]!
      min[axis] = Math.min(min[axis]!, value)
      max[axis] = Math.max(max[axis]!, value)
    }
  return { min, max }
}
