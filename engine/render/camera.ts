/**
 * Camera math on plain CameraState values (domain/results.ts): orbit, pan, zoom, view orientations,
 * fit, the projection of both modes and metres per pixel. Both modes derive their view size from
 * the distance to the target (an orthographic view shows what the perspective view shows at the
 * target), so switching mode keeps position, up and target and the picture's scale at the target.
 */
import { FIELD_OF_VIEW_DEG } from '../../domain/constants.ts'
import type { CameraMode, CameraState } from '../../domain/results.ts'

/** A 3-vector as a tuple. */
export type Vec3 = [number, number, number]

/** Closest and farthest the camera gets to its target, metres. */
export const CAMERA_DISTANCE_LIMITS = { minM: 1e-4, maxM: 1e6 } as const
/** Radians of orbit per pixel of drag (a full turn over a 1000-px-ish drag, like three's OrbitControls). */
export const ORBIT_RADIANS_PER_PX = (2 * Math.PI) / 1000
/** The polar angle to the up axis stays this far from the poles so the view never flips. */
const POLE_MARGIN_RAD = 1e-3

/** a + b */
export function addVectors(a: readonly number[], b: readonly number[]): Vec3 {
  return [(a[0] ?? 0) + (b[0] ?? 0), (a[1] ?? 0) + (b[1] ?? 0), (a[2] ?? 0) + (b[2] ?? 0)]
}
/** a - b */
export function subtractVectors(a: readonly number[], b: readonly number[]): Vec3 {
  return [(a[0] ?? 0) - (b[0] ?? 0), (a[1] ?? 0) - (b[1] ?? 0), (a[2] ?? 0) - (b[2] ?? 0)]
}
/** a × s */
export function scaleVector(a: readonly number[], s: number): Vec3 {
  return [(a[0] ?? 0) * s, (a[1] ?? 0) * s, (a[2] ?? 0) * s]
}
/** a · b */
export function dotVectors(a: readonly number[], b: readonly number[]): number {
  return (a[0] ?? 0) * (b[0] ?? 0) + (a[1] ?? 0) * (b[1] ?? 0) + (a[2] ?? 0) * (b[2] ?? 0)
}
/** a × b */
export function crossVectors(a: readonly number[], b: readonly number[]): Vec3 {
  const [ax, ay, az] = [a[0] ?? 0, a[1] ?? 0, a[2] ?? 0]
  const [bx, by, bz] = [b[0] ?? 0, b[1] ?? 0, b[2] ?? 0]
  return [ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx]
}
/** |a| */
export function vectorLength(a: readonly number[]): number {
  return Math.hypot(a[0] ?? 0, a[1] ?? 0, a[2] ?? 0)
}
/** a / |a|, or null for a zero or non-finite vector. */
export function normalizeVector(a: readonly number[]): Vec3 | null {
  const length = vectorLength(a)
  if (!(length > 0) || !Number.isFinite(length)) return null
  return scaleVector(a, 1 / length)
}
/** Rotates v about a unit axis by angle (Rodrigues). */
export function rotateVector(
  v: readonly number[],
  axis: readonly number[],
  angleRad: number,
): Vec3 {
  const cos = Math.cos(angleRad)
  const sin = Math.sin(angleRad)
  const cross = crossVectors(axis, v)
  const along = dotVectors(axis, v) * (1 - cos)
  return addVectors(
    addVectors(scaleVector(v, cos), scaleVector(cross, sin)),
    scaleVector(axis, along),
  )
}

/** The camera's orthonormal frame: forward (towards the target), right and true up (on screen). */
export function cameraBasis(camera: CameraState): { forward: Vec3; right: Vec3; up: Vec3 } {
  const forward = normalizeVector(subtractVectors(camera.target, camera.position)) ?? [0, 0, -1]
  let right = normalizeVector(crossVectors(forward, camera.up))
  // Looking along the up axis: any right perpendicular to forward will do.
  right ??= normalizeVector(crossVectors(forward, [1, 0, 0])) ??
    normalizeVector(crossVectors(forward, [0, 1, 0])) ?? [1, 0, 0]
  const up = crossVectors(right, forward)
  return { forward, right, up }
}

/** Distance from the camera to its target, metres. */
export function cameraDistance(camera: CameraState): number {
  return vectorLength(subtractVectors(camera.target, camera.position))
}

/** Switches projection; position, up and target stay as they are. */
export function switchCameraMode(camera: CameraState, mode: CameraMode): CameraState {
  return { position: [...camera.position], target: [...camera.target], up: [...camera.up], mode }
}

/** Height of the view at the target, metres: the same for both modes. */
export function viewHeightAtTargetM(camera: CameraState): number {
  return 2 * cameraDistance(camera) * Math.tan((FIELD_OF_VIEW_DEG * Math.PI) / 360)
}

/** Metres per CSS pixel at the target distance (the scale bar's input). */
export function metresPerPixel(camera: CameraState, viewportHeightPx: number): number {
  if (!(viewportHeightPx > 0)) return NaN
  return viewHeightAtTargetM(camera) / viewportHeightPx
}

/**
 * Orbits the camera about its target: dx pixels turn it about the up axis, dy pixels tilt it
 * towards or away from the up axis, stopping short of the poles. Up and target stay.
 */
export function orbitCamera(camera: CameraState, dxPx: number, dyPx: number): CameraState {
  const up = normalizeVector(camera.up) ?? [0, 0, 1]
  let offset = subtractVectors(camera.position, camera.target)
  const distance = vectorLength(offset)
  if (!(distance > 0)) return camera
  offset = rotateVector(offset, up, -dxPx * ORBIT_RADIANS_PER_PX)
  const polar = Math.acos(Math.min(1, Math.max(-1, dotVectors(offset, up) / distance)))
  const wanted = Math.min(
    Math.PI - POLE_MARGIN_RAD,
    Math.max(POLE_MARGIN_RAD, polar - dyPx * ORBIT_RADIANS_PER_PX),
  )
  const axis = normalizeVector(crossVectors(up, offset))
  if (axis !== null) offset = rotateVector(offset, axis, wanted - polar)
  return { ...camera, position: addVectors(camera.target, offset) }
}

/**
 * Pans: the picture follows the pointer, moving position and target together by the drag in
 * metres at the target distance.
 */
export function panCamera(
  camera: CameraState,
  dxPx: number,
  dyPx: number,
  viewportHeightPx: number,
): CameraState {
  const scale = metresPerPixel(camera, viewportHeightPx)
  if (!Number.isFinite(scale)) return camera
  const { right, up } = cameraBasis(camera)
  const shift = addVectors(scaleVector(right, -dxPx * scale), scaleVector(up, dyPx * scale))
  return {
    ...camera,
    position: addVectors(camera.position, shift),
    target: addVectors(camera.target, shift),
  }
}

/** Dollies towards (factor < 1) or away from (factor > 1) the target, within the distance limits. */
export function zoomCamera(camera: CameraState, factor: number): CameraState {
  if (!(factor > 0) || !Number.isFinite(factor)) return camera
  const offset = subtractVectors(camera.position, camera.target)
  const distance = vectorLength(offset)
  if (!(distance > 0)) return camera
  const wanted = Math.min(
    CAMERA_DISTANCE_LIMITS.maxM,
    Math.max(CAMERA_DISTANCE_LIMITS.minM, distance * factor),
  )
  return { ...camera, position: addVectors(camera.target, scaleVector(offset, wanted / distance)) }
}

/**
 * Dollies by `factor` towards the point under the pointer (device coordinates ndcX, ndcY on the
 * plane through the target): that point stays where it is on screen, in both camera modes.
 */
export function zoomCameraTowards(
  camera: CameraState,
  factor: number,
  ndcX: number,
  ndcY: number,
  aspect: number,
): CameraState {
  const zoomed = zoomCamera(camera, factor)
  if (zoomed === camera) return camera
  const applied = cameraDistance(zoomed) / cameraDistance(camera)
  const { right, up } = cameraBasis(camera)
  const halfHeight = viewHeightAtTargetM(camera) / 2
  const underPointer = addVectors(
    scaleVector(right, ndcX * halfHeight * aspect),
    scaleVector(up, ndcY * halfHeight),
  )
  const shift = scaleVector(underPointer, 1 - applied)
  return {
    ...zoomed,
    position: addVectors(zoomed.position, shift),
    target: addVectors(zoomed.target, shift),
  }
}

/** Zoom factor of a wheel delta: 100 units (one notch) dolly by 10 %. */
export function wheelZoomFactor(deltaY: number): number {
  return Math.pow(1.1, Math.max(-10, Math.min(10, deltaY / 100)))
}

/**
 * Looks along `direction` (from the camera towards the target) with `up` on screen, keeping the
 * target and distance: what the axis gizmo and the view cube ask for. An up parallel to the
 * direction is replaced by a perpendicular axis.
 */
export function orientCamera(
  camera: CameraState,
  direction: readonly number[],
  up: readonly number[],
): CameraState {
  const forward = normalizeVector(direction)
  if (forward === null) return camera
  const distance = cameraDistance(camera) || 1
  let trueUp = normalizeVector(subtractVectors(up, scaleVector(forward, dotVectors(up, forward))))
  trueUp ??=
    normalizeVector(crossVectors(forward, [1, 0, 0])) ??
    normalizeVector(crossVectors(forward, [0, 1, 0]))
  return {
    ...camera,
    position: subtractVectors(camera.target, scaleVector(forward, distance)),
    up: trueUp ?? [0, 0, 1],
  }
}

/** Axis-aligned bounds. */
export interface Bounds {
  min: Vec3
  max: Vec3
}

/** Frames the bounds: the target moves to their centre and the whole sphere around them fits. */
export function fitCamera(camera: CameraState, bounds: Bounds, aspect: number): CameraState {
  const centre = scaleVector(addVectors(bounds.min, bounds.max), 0.5)
  const radius = Math.max(vectorLength(subtractVectors(bounds.max, bounds.min)) / 2, 1e-3)
  const halfFov = (FIELD_OF_VIEW_DEG * Math.PI) / 360
  // The narrower of the two view angles must hold the sphere.
  const halfAngle = aspect >= 1 ? halfFov : Math.atan(Math.tan(halfFov) * aspect)
  const distance = radius / Math.sin(halfAngle)
  const { forward } = cameraBasis(camera)
  return {
    ...camera,
    target: centre,
    position: subtractVectors(centre, scaleVector(forward, distance)),
  }
}

/** Near and far clip distances around the target that keep depth precision. */
export function clipDistances(
  camera: CameraState,
  sceneRadiusM: number,
): { near: number; far: number } {
  const distance = cameraDistance(camera)
  const reach = Math.max(sceneRadiusM, distance) * 4
  return { near: Math.max(distance / 1000, 1e-5), far: distance + reach }
}

/** Half extents of the orthographic frustum matching the perspective view at the target. */
export function orthographicHalfExtents(
  camera: CameraState,
  aspect: number,
): { halfWidth: number; halfHeight: number } {
  const halfHeight = viewHeightAtTargetM(camera) / 2
  return { halfWidth: halfHeight * aspect, halfHeight }
}

/** Named view orientations: the axis gizmo's six axes and the view cube's faces, edges and corners. */
export interface ViewOrientation {
  name: string
  /** From the camera towards the target. */
  direction: Vec3
  up: Vec3
}

const FACE_NAMES: Record<string, string> = {
  '1,0,0': 'right',
  '-1,0,0': 'left',
  '0,1,0': 'back',
  '0,-1,0': 'front',
  '0,0,1': 'top',
  '0,0,-1': 'bottom',
}

/**
 * The 26 view-cube orientations (z up): the camera sits at `side` (a face, edge or corner of the
 * cube, components in {-1, 0, 1}) and looks at the centre. Faces along z use +y as screen up.
 */
export function viewCubeOrientations(): ViewOrientation[] {
  const result: ViewOrientation[] = []
  for (const x of [-1, 0, 1])
    for (const y of [-1, 0, 1])
      for (const z of [-1, 0, 1]) {
        if (x === 0 && y === 0 && z === 0) continue
        const side: Vec3 = [x, y, z]
        const direction = normalizeVector(scaleVector(side, -1)) as Vec3
        const up: Vec3 = x === 0 && y === 0 ? [0, 1, 0] : [0, 0, 1]
        const name =
          FACE_NAMES[side.join(',')] ??
          side
            .map((c, i) => (c === 0 ? '' : `${c > 0 ? '+' : '-'}${'xyz'[i]}`))
            .filter(Boolean)
            .join('')
        result.push({ name, direction, up })
      }
  return result
}

/** The view a click on a gizmo axis gives: looking back along that axis towards the target. */
export function axisGizmoOrientation(axis: 'x' | 'y' | 'z', positive: boolean): ViewOrientation {
  const side: Vec3 = [0, 0, 0]
  side['xyz'.indexOf(axis)] = positive ? 1 : -1
  return {
    name: `${positive ? '+' : '-'}${axis}`,
    direction: scaleVector(side, -1),
    up: axis === 'z' ? [0, positive ? 1 : -1, 0] : [0, 0, 1],
  }
}

/** Ease-in-out over [0, 1] (smoothstep): a camera keyframe starts and stops gently. */
export function easeInOut(t: number): number {
  const clamped = Math.min(1, Math.max(0, t))
  return clamped * clamped * (3 - 2 * clamped)
}

/** The rotation taking unit vector a onto unit vector b: axis and angle (a half turn picks a perpendicular axis). */
function rotationBetween(
  a: readonly number[],
  b: readonly number[],
  fallbackAxis: readonly number[],
): { axis: Vec3; angleRad: number } {
  const angleRad = Math.acos(Math.min(1, Math.max(-1, dotVectors(a, b))))
  let axis = normalizeVector(crossVectors(a, b))
  if (axis === null) {
    // Parallel or opposite: turn about the fallback axis made perpendicular to a.
    axis = normalizeVector(
      subtractVectors(fallbackAxis, scaleVector(a, dotVectors(fallbackAxis, a))),
    ) ??
      normalizeVector(crossVectors(a, [1, 0, 0])) ??
      normalizeVector(crossVectors(a, [0, 1, 0])) ?? [0, 0, 1]
  }
  return { axis, angleRad }
}

/**
 * The camera `t` (0..1) of the way from `from` to `to`: the view direction turns about the target
 * on the great circle between them, distance, target and up blend, so the camera keyframe animation
 * (spec/results.md §9, 0.7 s) never passes through the target. t = 0 is `from`, t = 1 is `to`.
 */
export function interpolateCamera(from: CameraState, to: CameraState, t: number): CameraState {
  if (t <= 0) return from
  if (t >= 1) return to
  const fromOffset = subtractVectors(from.position, from.target)
  const toOffset = subtractVectors(to.position, to.target)
  const fromDistance = vectorLength(fromOffset)
  const toDistance = vectorLength(toOffset)
  const fromDirection = normalizeVector(fromOffset)
  const toDirection = normalizeVector(toOffset)
  if (fromDirection === null || toDirection === null) return t < 0.5 ? from : to
  const { axis, angleRad } = rotationBetween(fromDirection, toDirection, from.up)
  const direction = rotateVector(fromDirection, axis, angleRad * t)
  const distance = fromDistance + (toDistance - fromDistance) * t
  const target = addVectors(from.target, scaleVector(subtractVectors(to.target, from.target), t))
  const turnedUp = rotateVector(from.up, axis, angleRad * t)
  const blendedUp = addVectors(scaleVector(turnedUp, 1 - t), scaleVector(to.up, t))
  // The up must stay perpendicular to the view and normalized (spec/results.md §5).
  const up =
    normalizeVector(
      subtractVectors(blendedUp, scaleVector(direction, dotVectors(blendedUp, direction))),
    ) ??
    normalizeVector(subtractVectors(to.up, scaleVector(direction, dotVectors(to.up, direction)))) ??
    to.up
  return {
    position: addVectors(target, scaleVector(direction, distance)),
    target,
    up,
    mode: to.mode,
  }
}
