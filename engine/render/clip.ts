/**
 * The clipping plane (domain/results.ts ClippingPlane) as a plane equation. Convention shared with
 * the shader and the CPU tests (picking, arrows): a plane along axis a at offset o keeps the points
 * with a ≤ o; flipped keeps a ≥ o. Disabled keeps everything.
 */
import type { ClippingPlane } from '../../domain/results.ts'

/** (nx, ny, nz, d): a point p is kept when n · p + d ≥ 0. */
export type PlaneEquation = [number, number, number, number]

const AXIS_INDEX = { x: 0, y: 1, z: 2 } as const

/** The plane equation of a clip, or null when clipping is off. */
export function clipPlaneEquation(clip: ClippingPlane | null): PlaneEquation | null {
  if (clip === null || !clip.enabled) return null
  const sign = clip.flipped ? 1 : -1
  const plane: PlaneEquation = [0, 0, 0, -sign * clip.offsetM]
  plane[AXIS_INDEX[clip.axis]] = sign
  return plane
}

/** True when the clip keeps the point. */
export function keepsPoint(plane: PlaneEquation | null, x: number, y: number, z: number): boolean {
  if (plane === null) return true
  return plane[0] * x + plane[1] * y + plane[2] * z + plane[3] >= 0
}
