/**
 * Picking in the setup scene (spec/setup.md §2: click, double click and hover on the objects).
 * Markers (point sensors) are drawn over everything and win when the pointer is on them; meshes
 * are ray-cast through their BVH (built in the data worker) in their own coordinates, skipping what
 * the clip plane cuts away; the domain box is picked by its edges. The nearest hit wins. Gizmo
 * handles and the seed-point handle are picked on screen before any of them.
 */
import type { Matrix4 } from 'three'
import { raycastBvh, type BvhView, type Ray } from '../../data/bvh.ts'
import type { SetupMeshData } from '../../setupProtocol.ts'
import { crossVectors, normalizeVector, type Vec3 } from '../camera.ts'
import { keepsPoint, type PlaneEquation } from '../clip.ts'
import { axisVector, GIZMO_AXES, type GizmoAxis } from './gizmo.ts'
import {
  distanceToSegmentPx,
  projectToScreen,
  transformDirection,
  transformPoint,
  transformRay,
} from './setupMath.ts'

/** A marker or handle this close (CSS pixels) to the pointer is under it. */
export const HANDLE_PICK_PX = 10
/** A box edge this close (CSS pixels) to the pointer is under it. */
export const EDGE_PICK_PX = 6
/** Points sampled on a rotate ring to measure the pointer's distance to it. */
const RING_SAMPLES = 72

/** A mesh to ray-cast: its data, hierarchy and world matrix (with its inverse). */
export interface MeshTarget {
  id: string
  data: SetupMeshData
  bvh: BvhView
  world: Matrix4
  inverse: Matrix4
}

/** Where to pick and over what. */
export interface SetupPickInput {
  xPx: number
  yPx: number
  /** The world ray under the pointer (unit direction). */
  ray: Ray
  viewProjection: ArrayLike<number>
  size: { width: number; height: number }
  clip: PlaneEquation | null
  markers: readonly { id: string; position: Vec3 }[]
  meshes: readonly MeshTarget[]
  boxes: readonly { id: string; min: Vec3; max: Vec3 }[]
}

/** The id of the object under the pointer, or null. */
export function pickSetupObject(input: SetupPickInput): string | null {
  const { xPx, yPx, viewProjection, size } = input
  let marker: { id: string; distance: number } | null = null
  for (const candidate of input.markers) {
    const screen = projectToScreen(viewProjection, size, candidate.position)
    if (screen === null || screen.depth < -1 || screen.depth > 1) continue
    const distance = Math.hypot(screen.x - xPx, screen.y - yPx)
    if (distance <= HANDLE_PICK_PX && (marker === null || distance < marker.distance))
      marker = { id: candidate.id, distance }
  }
  if (marker !== null) return marker.id
  let best: { id: string; depth: number } | null = null
  for (const target of input.meshes) {
    const local = transformRay(input.ray, target.inverse)
    const accept =
      input.clip === null
        ? null
        : (x: number, y: number, z: number) => {
            const [wx, wy, wz] = transformPoint(target.world, [x, y, z])
            return keepsPoint(input.clip, wx, wy, wz)
          }
    const hit = raycastBvh(target.bvh, target.data.positions, target.data.indices, local, accept)
    if (hit === null) continue
    const screen = projectToScreen(viewProjection, size, transformPoint(target.world, hit.point))
    if (screen === null || screen.depth > 1) continue
    if (best === null || screen.depth < best.depth) best = { id: target.id, depth: screen.depth }
  }
  for (const box of input.boxes) {
    const depth = boxEdgeDepth(box, xPx, yPx, viewProjection, size)
    if (depth !== null && (best === null || depth < best.depth)) best = { id: box.id, depth }
  }
  return best?.id ?? null
}

/** The device depth of the box edge under the pointer (within EDGE_PICK_PX), or null. */
function boxEdgeDepth(
  box: { min: Vec3; max: Vec3 },
  xPx: number,
  yPx: number,
  viewProjection: ArrayLike<number>,
  size: { width: number; height: number },
): number | null {
  const corner = (i: number): Vec3 => [
    i & 1 ? box.max[0] : box.min[0],
    i & 2 ? box.max[1] : box.min[1],
    i & 4 ? box.max[2] : box.min[2],
  ]
  const edges = [0, 1, 2, 3, 4, 5, 6, 7, 0, 2, 1, 3, 4, 6, 5, 7, 0, 4, 1, 5, 2, 6, 3, 7]
  let best: number | null = null
  for (let e = 0; e < edges.length; e += 2) {
    const a = projectToScreen(viewProjection, size, corner(edges[e]!))
    const b = projectToScreen(viewProjection, size, corner(edges[e + 1]!))
    if (a === null || b === null) continue
    if (distanceToSegmentPx(xPx, yPx, a, b) > EDGE_PICK_PX) continue
    const depth = Math.min(a.depth, b.depth)
    if (best === null || depth < best) best = depth
  }
  return best
}

/** The gizmo as drawn: its tool, the parent frame, the pivot there and its size. */
export interface GizmoShape {
  tool: 'translate' | 'rotate'
  frame: Matrix4
  pivot: Vec3
  sizeM: number
}

/** The gizmo handle under the pointer (within HANDLE_PICK_PX on screen), or null. */
export function pickGizmoHandle(
  gizmo: GizmoShape,
  viewProjection: ArrayLike<number>,
  size: { width: number; height: number },
  xPx: number,
  yPx: number,
): GizmoAxis | null {
  const centre = transformPoint(gizmo.frame, gizmo.pivot)
  let best: { axis: GizmoAxis; distance: number } | null = null
  for (const axis of GIZMO_AXES) {
    const direction = normalizeVector(transformDirection(gizmo.frame, axisVector(axis)))
    if (direction === null) continue
    const distance =
      gizmo.tool === 'translate'
        ? segmentDistance(centre, direction, gizmo.sizeM, viewProjection, size, xPx, yPx)
        : ringDistance(centre, direction, gizmo.sizeM, viewProjection, size, xPx, yPx)
    if (distance <= HANDLE_PICK_PX && (best === null || distance < best.distance))
      best = { axis, distance }
  }
  return best?.axis ?? null
}

function segmentDistance(
  centre: Vec3,
  direction: Vec3,
  lengthM: number,
  viewProjection: ArrayLike<number>,
  size: { width: number; height: number },
  xPx: number,
  yPx: number,
): number {
  const a = projectToScreen(viewProjection, size, centre)
  const b = projectToScreen(viewProjection, size, [
    centre[0] + direction[0] * lengthM,
    centre[1] + direction[1] * lengthM,
    centre[2] + direction[2] * lengthM,
  ])
  if (a === null || b === null) return Infinity
  return distanceToSegmentPx(xPx, yPx, a, b)
}

function ringDistance(
  centre: Vec3,
  axis: Vec3,
  radiusM: number,
  viewProjection: ArrayLike<number>,
  size: { width: number; height: number },
  xPx: number,
  yPx: number,
): number {
  const u =
    normalizeVector(crossVectors(axis, [1, 0, 0])) ?? normalizeVector(crossVectors(axis, [0, 1, 0]))
  if (u === null) return Infinity
  const v = crossVectors(axis, u)
  let best = Infinity
  let previous: { x: number; y: number } | null = null
  for (let i = 0; i <= RING_SAMPLES; i++) {
    const angle = (i / RING_SAMPLES) * 2 * Math.PI
    const [c, s] = [Math.cos(angle) * radiusM, Math.sin(angle) * radiusM]
    const point = projectToScreen(viewProjection, size, [
      centre[0] + u[0] * c + v[0] * s,
      centre[1] + u[1] * c + v[1] * s,
      centre[2] + u[2] * c + v[2] * s,
    ])
    if (point !== null && previous !== null)
      best = Math.min(best, distanceToSegmentPx(xPx, yPx, previous, point))
    previous = point
  }
  return best
}
