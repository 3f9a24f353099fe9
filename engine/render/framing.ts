/**
 * Framing bounds in the view: the camera backs off along its view direction until every corner
 * of the bounds lies inside the picture with a margin, in either projection (a tighter fit than
 * the bounding sphere, which leaves a long box small in the middle of the view). The first view
 * of a setup looks from the front-right-top, as the results' default camera does.
 */
import { FIELD_OF_VIEW_DEG } from '../../domain/constants.ts'
import { defaultViewportState, type CameraState } from '../../domain/results.ts'
import {
  addVectors,
  cameraBasis,
  dotVectors,
  orientCamera,
  scaleVector,
  subtractVectors,
  vectorLength,
  type Bounds,
  type Vec3,
} from './camera.ts'

/**
 * Share of the view's width and height left free on each side of framed bounds: the view's chrome
 * lies over its edges (the toolbar and the message along the top and bottom, the view cube, axis
 * gizmo and scale bar in the corners).
 */
export const FRAME_MARGIN = { x: 0.1, y: 0.15 } as const

/** Closest a framed camera gets to its target, metres (a single point is framed from here). */
const MIN_FRAME_DISTANCE_M = 1e-3

/** The eight corners of bounds. */
function corners(bounds: Bounds): Vec3[] {
  const result: Vec3[] = []
  for (let corner = 0; corner < 8; corner++)
    result.push([
      corner & 1 ? bounds.max[0] : bounds.min[0],
      corner & 2 ? bounds.max[1] : bounds.min[1],
      corner & 4 ? bounds.max[2] : bounds.min[2],
    ])
  return result
}

/**
 * Frames the bounds from the camera's direction: the target moves to their centre and the camera
 * backs off (or comes closer) until all eight corners lie within the view less the margin on each
 * side, the tightest such distance. Up, direction and mode are kept.
 */
export function frameBounds(
  camera: CameraState,
  bounds: Bounds,
  aspect: number,
  margin: { x: number; y: number } = FRAME_MARGIN,
): CameraState {
  const centre = scaleVector(addVectors(bounds.min, bounds.max), 0.5)
  const { forward, right, up } = cameraBasis(camera)
  const fill = (share: number) => Math.max(0.05, 1 - 2 * share)
  const tanHalfFov = Math.tan((FIELD_OF_VIEW_DEG * Math.PI) / 360)
  const tanY = tanHalfFov * fill(margin.y)
  const tanX = tanHalfFov * (aspect > 0 && Number.isFinite(aspect) ? aspect : 1) * fill(margin.x)
  const orthographic = camera.mode === 'orthographic'
  let distance = MIN_FRAME_DISTANCE_M
  for (const corner of corners(bounds)) {
    const offset = subtractVectors(corner, centre)
    const x = Math.abs(dotVectors(offset, right))
    const y = Math.abs(dotVectors(offset, up))
    // Depth of the corner beyond the target: perspective shrinks what lies farther away.
    const z = orthographic ? 0 : dotVectors(offset, forward)
    distance = Math.max(distance, x / tanX - z, y / tanY - z)
    // Never inside the bounds: the nearest corner stays in front of the camera.
    distance = Math.max(distance, -dotVectors(offset, forward) * 1.1)
  }
  return {
    ...camera,
    target: centre,
    position: subtractVectors(centre, scaleVector(forward, distance)),
  }
}

/** The camera of a first view: from the front-right-top (the default camera's direction). */
export function frontRightTopCamera(camera: CameraState): CameraState {
  const initial = defaultViewportState().camera
  const direction = subtractVectors(initial.target, initial.position)
  return orientCamera(camera, direction, initial.up)
}

/** Width of the bounds' diagonal, metres. */
export function boundsSize(bounds: Bounds): number {
  return vectorLength(subtractVectors(bounds.max, bounds.min))
}
