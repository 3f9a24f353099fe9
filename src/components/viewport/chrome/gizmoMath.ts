import type { CameraState } from '../../../../domain/results.ts'

/*
 * The math of the axis gizmo and the view cube: both are drawn by the UI (SVG) from the render
 * snapshot's camera, and both ask the render worker for a view orientation with the same
 * direction/up pairs as engine/render/camera.ts (z up; looking along ±z keeps +y up on screen).
 */

/** A 3-vector. */
export type Vec3 = [number, number, number]

/** The three world axes. */
export const AXES = ['x', 'y', 'z'] as const
/** One world axis. */
export type Axis = (typeof AXES)[number]

/** A side of the view cube or an end of a gizmo axis: a unit axis vector, + or −. */
export interface AxisSide {
  axis: Axis
  positive: boolean
}

/** What the render worker's `view_orientation` intent takes. */
export interface ViewOrientation {
  /** From the camera towards the target. */
  direction: Vec3
  /** Screen up. */
  up: Vec3
}

/** The camera's screen frame: right and up on screen, forward into it (unit vectors). */
export interface ScreenBasis {
  right: Vec3
  up: Vec3
  forward: Vec3
}

function normalize(v: Vec3): Vec3 | null {
  const length = Math.hypot(...v)
  if (!(length > 0) || !Number.isFinite(length)) return null
  return [v[0] / length, v[1] / length, v[2] / length]
}

function cross(a: Vec3, b: Vec3): Vec3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

function dot(a: readonly number[], b: readonly number[]): number {
  return (a[0] ?? 0) * (b[0] ?? 0) + (a[1] ?? 0) * (b[1] ?? 0) + (a[2] ?? 0) * (b[2] ?? 0)
}

/** The screen frame of a camera (a degenerate up falls back to any perpendicular). */
export function screenBasis(camera: CameraState): ScreenBasis {
  const offset: Vec3 = [
    camera.target[0] - camera.position[0],
    camera.target[1] - camera.position[1],
    camera.target[2] - camera.position[2],
  ]
  const forward = normalize(offset) ?? [0, 0, -1]
  const right = normalize(cross(forward, camera.up)) ??
    normalize(cross(forward, [1, 0, 0])) ??
    normalize(cross(forward, [0, 1, 0])) ?? [1, 0, 0]
  return { right, up: cross(right, forward), forward }
}

/** The unit vector of an axis side. */
export function sideVector(side: AxisSide): Vec3 {
  const vector: Vec3 = [0, 0, 0]
  vector[AXES.indexOf(side.axis)] = side.positive ? 1 : -1
  return vector
}

/**
 * Where a world direction points on screen: x to the right, y downwards (SVG), in units of its
 * length, and its depth (positive: towards the viewer).
 */
export function projectDirection(
  vector: readonly number[],
  basis: ScreenBasis,
): { x: number; y: number; depth: number } {
  return {
    x: dot(vector, basis.right),
    y: -dot(vector, basis.up),
    depth: -dot(vector, basis.forward),
  }
}

/**
 * The view from an axis side: the camera sits on that side of the target and looks back at it
 * (the gizmo's +X shows the model from +x). Looking along z keeps ±y up on screen, else z is up.
 */
export function orientationFromSide(side: AxisSide): ViewOrientation {
  const vector = sideVector(side)
  const direction: Vec3 = [-vector[0], -vector[1], -vector[2]]
  const up: Vec3 = side.axis === 'z' ? [0, side.positive ? 1 : -1, 0] : [0, 0, 1]
  return { direction, up }
}

/** The label of a gizmo end: '+X', '−Y'. */
export function axisSideLabel(side: AxisSide): string {
  return `${side.positive ? '+' : '−'}${side.axis.toUpperCase()}`
}

/** The six axis sides, + before − per axis. */
export const AXIS_SIDES: readonly AxisSide[] = AXES.flatMap((axis) => [
  { axis, positive: true },
  { axis, positive: false },
])

/** Face names of the view cube (z up, −y at the front). */
export const CUBE_FACE_NAMES: Record<string, string> = {
  '+x': 'Right',
  '-x': 'Left',
  '+y': 'Back',
  '-y': 'Front',
  '+z': 'Top',
  '-z': 'Bottom',
}

/** The name of a cube face. */
export function cubeFaceName(side: AxisSide): string {
  return CUBE_FACE_NAMES[`${side.positive ? '+' : '-'}${side.axis}`] ?? ''
}

/** A face of the view cube as drawn: its side, its corners on screen (SVG units) and its depth. */
export interface DrawnCubeFace {
  side: AxisSide
  name: string
  points: { x: number; y: number }[]
  centre: { x: number; y: number }
  /** How directly it faces the viewer (1: straight on). */
  facing: number
}

/**
 * The faces of a cube of half-size `halfSize` centred at (0, 0) that face the viewer, drawn back to
 * front (orthographic, from the camera's orientation only).
 */
export function visibleCubeFaces(camera: CameraState, halfSize: number): DrawnCubeFace[] {
  const basis = screenBasis(camera)
  const faces: DrawnCubeFace[] = []
  for (const side of AXIS_SIDES) {
    const normal = sideVector(side)
    const facing = projectDirection(normal, basis).depth
    if (facing <= 1e-6) continue
    const index = AXES.indexOf(side.axis)
    const u: Vec3 = [0, 0, 0]
    const v: Vec3 = [0, 0, 0]
    u[(index + 1) % 3] = 1
    v[(index + 2) % 3] = 1
    const corners = [
      [1, 1],
      [1, -1],
      [-1, -1],
      [-1, 1],
    ].map(([a, b]) => {
      const corner = normal.map(
        (n, i) => (n + (a as number) * u[i]! + (b as number) * v[i]!) * halfSize,
      )
      const projected = projectDirection(corner, basis)
      return { x: projected.x, y: projected.y }
    })
    const centre = projectDirection(
      normal.map((n) => n * halfSize),
      basis,
    )
    faces.push({
      side,
      name: cubeFaceName(side),
      points: corners,
      centre: { x: centre.x, y: centre.y },
      facing,
    })
  }
  return faces.sort((a, b) => a.facing - b.facing)
}

/** A corner or edge of the view cube as drawn: where its handle is on screen and the view it gives. */
export interface DrawnCubeHandle {
  /** e.g. 'Front Right Top' (corner) or 'Front Top' (edge). */
  name: string
  x: number
  y: number
  orientation: ViewOrientation
}

/** Handles seen this obliquely or worse are left out (they sit on the cube's far side). */
const HANDLE_MIN_FACING = 0.2

/**
 * The 8 corners and 12 edges of the view cube that face the viewer, as handles at their screen
 * position: clicking one looks at the model from that corner or edge (z stays up on screen).
 */
export function visibleCubeHandles(camera: CameraState, halfSize: number): DrawnCubeHandle[] {
  const basis = screenBasis(camera)
  const names: [string, string, string][] = [
    ['Left', '', 'Right'],
    ['Front', '', 'Back'],
    ['Bottom', '', 'Top'],
  ]
  const handles: DrawnCubeHandle[] = []
  for (const x of [-1, 0, 1])
    for (const y of [-1, 0, 1])
      for (const z of [-1, 0, 1]) {
        const side: Vec3 = [x, y, z]
        const nonZero = side.filter((c) => c !== 0).length
        if (nonZero < 2) continue
        const unit = normalize(side) as Vec3
        const projected = projectDirection(unit, basis)
        if (projected.depth < HANDLE_MIN_FACING) continue
        const corner = projectDirection(
          side.map((c) => c * halfSize),
          basis,
        )
        // Front/Back first, then Left/Right, then Top/Bottom: 'Front Right Top'.
        const name = [names[1]![y + 1], names[0]![x + 1], names[2]![z + 1]]
          .filter((part) => part !== '')
          .join(' ')
        handles.push({
          name,
          x: corner.x,
          y: corner.y,
          orientation: { direction: [-unit[0], -unit[1], -unit[2]], up: [0, 0, 1] },
        })
      }
  return handles
}
