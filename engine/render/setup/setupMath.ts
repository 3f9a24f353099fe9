/**
 * Geometry of the setup scene on plain values: placement and pose matrices, the pointer's ray and
 * screen projections through the view-projection matrix the scene draws with, bounds under a
 * matrix, and metres per pixel at a depth (gizmos and arrows keep their size on screen).
 */
import { Euler, Matrix4, Quaternion, Vector3, Vector4 } from 'three'
import { FIELD_OF_VIEW_DEG } from '../../../domain/constants.ts'
import type { CameraState } from '../../../domain/results.ts'
import type { Ray } from '../../data/bvh.ts'
import type { Pose } from '../../data/keyframes.ts'
import type { SetupTransform } from '../../setupProtocol.ts'
import {
  cameraBasis,
  dotVectors,
  subtractVectors,
  viewHeightAtTargetM,
  type Bounds,
  type Vec3,
} from '../camera.ts'

const DEG = Math.PI / 180

/** x ↦ translation + R(rotationDeg, 'XYZ') · (scale ⊙ x), as a matrix. */
export function placementMatrix(transform: SetupTransform): Matrix4 {
  const [rx, ry, rz] = transform.rotationDeg
  const rotation = new Quaternion().setFromEuler(new Euler(rx * DEG, ry * DEG, rz * DEG, 'XYZ'))
  return new Matrix4().compose(
    new Vector3(...transform.translation),
    rotation,
    new Vector3(...transform.scale),
  )
}

/** A movement pose (x ↦ rotate(rotation, x) + position) as a matrix; null is the identity. */
export function poseMatrix(pose: Pose | null): Matrix4 {
  if (pose === null) return new Matrix4()
  return new Matrix4().compose(
    new Vector3(...pose.position),
    new Quaternion(...pose.rotation),
    new Vector3(1, 1, 1),
  )
}

/** `point` under `matrix`. */
export function transformPoint(matrix: Matrix4, point: readonly number[]): Vec3 {
  const v = new Vector3(point[0] ?? 0, point[1] ?? 0, point[2] ?? 0).applyMatrix4(matrix)
  return [v.x, v.y, v.z]
}

/** A direction under the linear part of `matrix` (not normalised). */
export function transformDirection(matrix: Matrix4, direction: readonly number[]): Vec3 {
  const e = matrix.elements
  const [x, y, z] = [direction[0] ?? 0, direction[1] ?? 0, direction[2] ?? 0]
  return [
    e[0] * x + e[4] * y + e[8] * z,
    e[1] * x + e[5] * y + e[9] * z,
    e[2] * x + e[6] * y + e[10] * z,
  ]
}

/** The ray under `matrix` (its parameter t keeps its meaning: same points at the same t). */
export function transformRay(ray: Ray, matrix: Matrix4): Ray {
  return {
    origin: transformPoint(matrix, ray.origin),
    direction: transformDirection(matrix, ray.direction),
  }
}

/** The axis-aligned bounds of a box's eight corners under `matrix`. */
export function transformBounds(bounds: Bounds, matrix: Matrix4): Bounds {
  const min: Vec3 = [Infinity, Infinity, Infinity]
  const max: Vec3 = [-Infinity, -Infinity, -Infinity]
  for (let corner = 0; corner < 8; corner++) {
    const p = transformPoint(matrix, [
      corner & 1 ? bounds.max[0] : bounds.min[0],
      corner & 2 ? bounds.max[1] : bounds.min[1],
      corner & 4 ? bounds.max[2] : bounds.min[2],
    ])
    for (let k = 0; k < 3; k++) {
      min[k] = Math.min(min[k]!, p[k]!)
      max[k] = Math.max(max[k]!, p[k]!)
    }
  }
  return { min, max }
}

/** The union of bounds (null when there are none). */
export function unionBounds(all: readonly (Bounds | null)[]): Bounds | null {
  let result: Bounds | null = null
  for (const bounds of all) {
    if (bounds === null) continue
    if (result === null) result = { min: [...bounds.min], max: [...bounds.max] }
    else
      for (let k = 0; k < 3; k++) {
        result.min[k] = Math.min(result.min[k]!, bounds.min[k]!)
        result.max[k] = Math.max(result.max[k]!, bounds.max[k]!)
      }
  }
  return result
}

/** Pointer (CSS pixels) → normalized device coordinates (y up). */
function toDevice(
  xPx: number,
  yPx: number,
  size: { width: number; height: number },
): [number, number] {
  return [(xPx / size.width) * 2 - 1, 1 - (yPx / size.height) * 2]
}

/**
 * The world ray under the pointer, from the near plane away from the camera, through the scene's
 * view-projection matrix (so picking sees exactly what is drawn, in both projections). The
 * direction is a unit vector.
 */
export function pointerRay(
  viewProjection: Matrix4,
  size: { width: number; height: number },
  xPx: number,
  yPx: number,
): Ray | null {
  const [x, y] = toDevice(xPx, yPx, size)
  const inverse = viewProjection.clone().invert()
  const near = new Vector4(x, y, -1, 1).applyMatrix4(inverse)
  const far = new Vector4(x, y, 1, 1).applyMatrix4(inverse)
  if (near.w === 0 || far.w === 0) return null
  const origin: Vec3 = [near.x / near.w, near.y / near.w, near.z / near.w]
  const end: Vec3 = [far.x / far.w, far.y / far.w, far.z / far.w]
  const direction = subtractVectors(end, origin)
  const length = Math.hypot(...direction)
  if (!(length > 0) || !Number.isFinite(length)) return null
  return {
    origin,
    direction: [direction[0] / length, direction[1] / length, direction[2] / length],
  }
}

/** A world point on screen (CSS pixels) with its device depth, or null behind the camera. */
export function projectToScreen(
  viewProjection: ArrayLike<number>,
  size: { width: number; height: number },
  point: readonly number[],
): { x: number; y: number; depth: number } | null {
  const e = viewProjection
  const [px, py, pz] = [point[0] ?? 0, point[1] ?? 0, point[2] ?? 0]
  const w = e[3]! * px + e[7]! * py + e[11]! * pz + e[15]!
  if (!(w > 0)) return null
  const cx = (e[0]! * px + e[4]! * py + e[8]! * pz + e[12]!) / w
  const cy = (e[1]! * px + e[5]! * py + e[9]! * pz + e[13]!) / w
  const depth = (e[2]! * px + e[6]! * py + e[10]! * pz + e[14]!) / w
  return { x: ((cx + 1) / 2) * size.width, y: ((1 - cy) / 2) * size.height, depth }
}

/** Distance (pixels) from a point to a segment on screen. */
export function distanceToSegmentPx(
  x: number,
  y: number,
  a: { x: number; y: number },
  b: { x: number; y: number },
): number {
  const dx = b.x - a.x
  const dy = b.y - a.y
  const lengthSquared = dx * dx + dy * dy
  const t =
    lengthSquared > 0
      ? Math.min(1, Math.max(0, ((x - a.x) * dx + (y - a.y) * dy) / lengthSquared))
      : 0
  return Math.hypot(x - (a.x + t * dx), y - (a.y + t * dy))
}

/**
 * Metres one CSS pixel covers at `point` (perspective: at its depth along the view; orthographic:
 * everywhere the same).
 */
export function metresPerPixelAt(
  camera: CameraState,
  viewportHeightPx: number,
  point: readonly number[],
): number {
  if (!(viewportHeightPx > 0)) return 0
  if (camera.mode === 'orthographic') return viewHeightAtTargetM(camera) / viewportHeightPx
  const depth = dotVectors(subtractVectors(point, camera.position), cameraBasis(camera).forward)
  const halfFov = (FIELD_OF_VIEW_DEG * Math.PI) / 360
  return (2 * Math.max(depth, 1e-9) * Math.tan(halfFov)) / viewportHeightPx
}
