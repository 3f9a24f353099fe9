/**
 * The drag maths of the setup gizmos, as pure functions of rays (spec/setup.md §2: translate and
 * rotate modes, a seed point moved in the view). All vectors are in one frame: the part's parent
 * frame (the world, or the world under the part's movement pose), so the caller transforms the
 * pointer's ray into it first.
 *
 * - Translate: the part moves along the dragged axis by how far the point of the axis nearest to
 *   the pointer's ray has moved since the press.
 * - Rotate: the part turns about the dragged axis, through the pivot, by the signed angle between
 *   where the press ray and the current ray meet the plane of the ring.
 * - Seed point: the point moves in the plane through it facing the camera.
 */
import { Euler, Quaternion, Vector3 } from 'three'
import type { Ray } from '../../data/bvh.ts'
import type { SetupTransform } from '../../setupProtocol.ts'
import {
  addVectors,
  crossVectors,
  dotVectors,
  scaleVector,
  subtractVectors,
  type Vec3,
} from '../camera.ts'

/** Gizmo handles: one per axis of the parent frame. */
export const GIZMO_AXES = ['x', 'y', 'z'] as const
/** One gizmo handle. */
export type GizmoAxis = (typeof GIZMO_AXES)[number]

/** Unit vector of a handle's axis. */
export function axisVector(axis: GizmoAxis): Vec3 {
  return axis === 'x' ? [1, 0, 0] : axis === 'y' ? [0, 1, 0] : [0, 0, 1]
}

/** Below this |sin| between the ray and the axis (or the ring's plane) a drag does not move. */
const EDGE_ON = 1e-3

/**
 * The parameter s of the point pivot + s·axis nearest to the ray, or null when the ray runs
 * along the axis (the axis is seen end-on: no drag along it is possible).
 */
export function nearestAxisParameter(pivot: Vec3, axis: Vec3, ray: Ray): number | null {
  const d = ray.direction
  const w = subtractVectors(pivot, ray.origin)
  const a = dotVectors(axis, axis)
  const b = dotVectors(axis, d)
  const c = dotVectors(d, d)
  const denominator = a * c - b * b
  if (denominator <= EDGE_ON * EDGE_ON * a * c) return null
  // Minimise |pivot + s·axis − (origin + t·d)|² over s and t.
  return (b * dotVectors(d, w) - c * dotVectors(axis, w)) / denominator
}

/** How far (metres, along the unit axis) a translate drag has moved the part since the press. */
export function translateDistance(pivot: Vec3, axis: Vec3, pressRay: Ray, ray: Ray): number | null {
  const start = nearestAxisParameter(pivot, axis, pressRay)
  const now = nearestAxisParameter(pivot, axis, ray)
  if (start === null || now === null) return null
  return now - start
}

/** Where the ray meets the plane through `point` with unit `normal` (t ≥ 0), or null. */
export function intersectPlane(point: Vec3, normal: Vec3, ray: Ray): Vec3 | null {
  const denominator = dotVectors(normal, ray.direction)
  if (Math.abs(denominator) < EDGE_ON * Math.hypot(...ray.direction)) return null
  const t = dotVectors(normal, subtractVectors(point, ray.origin)) / denominator
  if (!(t >= 0)) return null
  return addVectors(ray.origin, scaleVector(ray.direction, t))
}

/**
 * The signed angle (radians, right-handed about the unit axis) a rotate drag has turned since the
 * press, or null when the ring is seen edge-on or a ray passes through the pivot.
 */
export function rotateAngle(pivot: Vec3, axis: Vec3, pressRay: Ray, ray: Ray): number | null {
  const start = intersectPlane(pivot, axis, pressRay)
  const now = intersectPlane(pivot, axis, ray)
  if (start === null || now === null) return null
  const a = subtractVectors(start, pivot)
  const b = subtractVectors(now, pivot)
  if (Math.hypot(...a) === 0 || Math.hypot(...b) === 0) return null
  return Math.atan2(dotVectors(crossVectors(a, b), axis), dotVectors(a, b))
}

/** The placement moved by `distance` metres along the unit `axis` (parent frame). */
export function translateTransform(
  transform: SetupTransform,
  axis: Vec3,
  distance: number,
): SetupTransform {
  return {
    ...transform,
    translation: addVectors(transform.translation, scaleVector(axis, distance)),
  }
}

/**
 * The placement turned by `angleRad` about the unit `axis` through `pivot` (parent frame): the new
 * rotation is Δ·R and the translation swings about the pivot, t' = Δ·(t − pivot) + pivot. The
 * angles come back in three.js order 'XYZ', each in (−180°, 180°].
 */
export function rotateTransform(
  transform: SetupTransform,
  pivot: Vec3,
  axis: Vec3,
  angleRad: number,
): SetupTransform {
  const delta = new Quaternion().setFromAxisAngle(new Vector3(...axis), angleRad)
  const [rx, ry, rz] = transform.rotationDeg.map((deg) => (deg * Math.PI) / 180) as Vec3
  const rotation = new Quaternion().setFromEuler(new Euler(rx, ry, rz, 'XYZ'))
  const turned = delta.clone().multiply(rotation)
  const euler = new Euler().setFromQuaternion(turned, 'XYZ')
  const offset = new Vector3(...subtractVectors(transform.translation, pivot)).applyQuaternion(
    delta,
  )
  return {
    ...transform,
    translation: [offset.x + pivot[0], offset.y + pivot[1], offset.z + pivot[2]],
    rotationDeg: [euler.x, euler.y, euler.z].map((rad) => (rad * 180) / Math.PI) as Vec3,
  }
}

/**
 * Where a point dragged in the view plane goes: the pointer's ray meets the plane through the
 * point's position at the press facing the camera (unit `viewForward`). Null when it cannot.
 */
export function dragInViewPlane(start: Vec3, viewForward: Vec3, ray: Ray): Vec3 | null {
  return intersectPlane(start, viewForward, ray)
}
