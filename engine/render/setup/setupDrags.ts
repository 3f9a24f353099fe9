/**
 * Drags in the setup view: a gizmo handle (translate along an axis, rotate about one) and the seed
 * point in the view plane. A drag starts on a press on a handle, follows every move (the part
 * moves in the view at once) and ends on release with the placement or point to save. Everything is
 * computed in the part's parent frame (its movement pose at the press).
 */
import type { Matrix4 } from 'three'
import type { Ray } from '../../data/bvh.ts'
import type { SetupTransform } from '../../setupProtocol.ts'
import type { Vec3 } from '../camera.ts'
import {
  axisVector,
  dragInViewPlane,
  rotateAngle,
  rotateTransform,
  translateDistance,
  translateTransform,
  type GizmoAxis,
} from './gizmo.ts'
import { transformRay } from './setupMath.ts'

/** A drag under way. */
export type SetupDrag =
  | {
      kind: 'gizmo'
      pointerId: number
      id: string
      tool: 'translate' | 'rotate'
      axis: GizmoAxis
      /** World → parent frame. */
      toParent: Matrix4
      pressRay: Ray
      pivot: Vec3
      start: SetupTransform
      current: SetupTransform
    }
  | {
      kind: 'seed'
      pointerId: number
      id: string
      toParent: Matrix4
      /** The camera's forward in the parent frame (the drag plane's normal). */
      forward: Vec3
      start: Vec3
      current: Vec3
    }

/** Follows a drag to the pointer's world ray; false when the ray gives no position (kept as it was). */
export function moveDrag(drag: SetupDrag, worldRay: Ray): boolean {
  const ray = transformRay(worldRay, drag.toParent)
  if (drag.kind === 'seed') {
    const point = dragInViewPlane(drag.start, drag.forward, ray)
    if (point === null) return false
    drag.current = point
    return true
  }
  const axis = axisVector(drag.axis)
  if (drag.tool === 'translate') {
    const distance = translateDistance(drag.pivot, axis, drag.pressRay, ray)
    if (distance === null) return false
    drag.current = translateTransform(drag.start, axis, distance)
    return true
  }
  const angle = rotateAngle(drag.pivot, axis, drag.pressRay, ray)
  if (angle === null) return false
  drag.current = rotateTransform(drag.start, drag.pivot, axis, angle)
  return true
}

/** True when the drag moved anything (a press and release on the spot saves nothing). */
export function dragMoved(drag: SetupDrag): boolean {
  if (drag.kind === 'seed') return drag.current.some((value, k) => value !== drag.start[k])
  return (
    drag.current.translation.some((value, k) => value !== drag.start.translation[k]) ||
    drag.current.rotationDeg.some((value, k) => value !== drag.start.rotationDeg[k])
  )
}
