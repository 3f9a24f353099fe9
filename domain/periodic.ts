/**
 * The periodic boundary (spec/setup.md §3 "Periodic boundary", §5 "Periodic boundary"): a
 * rotational slice of `sliceAngle` degrees about an axis through a centre.
 */
import * as v from 'valibot'
import { checkNumber, checkVector, issue, type Issue } from './validation.ts'
import { LooseVec3Schema } from './vector.ts'

const num = v.nullable(v.number())

/** Slice angle bounds, degrees. */
export const SLICE_ANGLE_BOUNDS = { min: 1, max: 120 } as const
/** Slice angles below this many degrees get a warning. */
export const SLICE_ANGLE_RECOMMENDED_MIN = 15
/** How far (degrees) 360 may miss a whole multiple of the slice angle. */
export const SLICE_DIVIDE_TOLERANCE = 0.1
/** Angles are stored in degrees with this many decimals. */
export const ANGLE_DECIMALS = 5
export const DEFAULT_SLICE_ANGLE = 90
export const DEFAULT_SLICE_ROTATION = 0

export const PERIODIC_MESSAGES = {
  smallAngle: 'below 15° can cause undesired particle distribution near the center.',
  divide360: 'should divide 360° evenly.',
} as const

const periodicEntries = {
  type: v.literal('rotational'),
  center: LooseVec3Schema,
  axis: LooseVec3Schema,
  /** Degrees. */
  sliceRotation: num,
  /** Degrees. */
  sliceAngle: num,
  visibility: v.boolean(),
  normal: v.nullable(LooseVec3Schema),
}

/** GET /simulations/{id}/periodics items. */
export const PeriodicBoundarySchema = v.object({ id: v.number(), ...periodicEntries })
/** The periodic boundary. */
export type PeriodicBoundary = v.InferOutput<typeof PeriodicBoundarySchema>

/** POST /simulations/{id}/periodics. */
export const PeriodicBoundaryCreateSchema = v.strictObject({
  type: v.optional(v.literal('rotational'), 'rotational'),
  center: v.optional(LooseVec3Schema, [0, 0, 0]),
  axis: v.optional(LooseVec3Schema, [0, 0, 1]),
  sliceRotation: v.optional(num, DEFAULT_SLICE_ROTATION),
  sliceAngle: v.optional(num, DEFAULT_SLICE_ANGLE),
  visibility: v.optional(v.boolean(), true),
  normal: v.optional(v.nullable(LooseVec3Schema), null),
})
export type PeriodicBoundaryCreate = v.InferOutput<typeof PeriodicBoundaryCreateSchema>

/** PUT /periodics/{id}. */
export const PeriodicBoundaryUpdateSchema = v.partial(v.strictObject(periodicEntries))
export type PeriodicBoundaryUpdate = v.InferOutput<typeof PeriodicBoundaryUpdateSchema>

/** Degrees rounded to 5 decimals, as stored. */
export function roundDegrees(degrees: number): number {
  const factor = 10 ** ANGLE_DECIMALS
  return Math.round(degrees * factor) / factor
}

/** True when 360° is a whole multiple of `sliceAngle` within 0.1°. */
export function dividesFullCircle(sliceAngle: number): boolean {
  const remainder = 360 % sliceAngle
  return remainder <= SLICE_DIVIDE_TOLERANCE || sliceAngle - remainder <= SLICE_DIVIDE_TOLERANCE
}

/**
 * The rules of a periodic boundary: slice angle 1 … 120 with warnings below 15° and when it does
 * not divide 360°, slice rotation strictly between −360 and 360, a non-zero axis.
 */
export function checkPeriodicBoundary(periodic: PeriodicBoundary, prefix = 'periodic'): Issue[] {
  const f = (key: string) => `${prefix}.${key}`
  const issues = checkNumber(
    f('sliceAngle'),
    'Slice angle',
    periodic.sliceAngle,
    SLICE_ANGLE_BOUNDS,
  )
  const angle = periodic.sliceAngle
  if (issues.length === 0 && angle !== null) {
    if (angle < SLICE_ANGLE_RECOMMENDED_MIN)
      issues.push(issue('warning', f('sliceAngle'), `Slice angle ${PERIODIC_MESSAGES.smallAngle}`))
    if (!dividesFullCircle(angle))
      issues.push(issue('warning', f('sliceAngle'), `Slice angle ${PERIODIC_MESSAGES.divide360}`))
  }
  issues.push(
    ...checkNumber(f('sliceRotation'), 'Slice rotation', periodic.sliceRotation, {
      min: -360,
      max: 360,
      exclusiveMin: true,
      exclusiveMax: true,
    }),
    ...checkVector(f('center'), 'Center', periodic.center),
    ...checkVector(f('axis'), 'Axis', periodic.axis, { nonZero: true }),
  )
  return issues
}

/**
 * The slice of a periodic boundary as numbers: the unit axis through the centre, the unit
 * directions e1 (0°: along helper × axis, helper z unless the axis is near z, then x) and
 * e2 = axis × e1 (90°, right-handed about the axis), and the slice from `start` over `angle`
 * (radians). The viewport draws its faces at start and start + angle. Null while a value is unset
 * or the axis is zero.
 */
export interface SliceFrame {
  center: [number, number, number]
  axis: [number, number, number]
  e1: [number, number, number]
  e2: [number, number, number]
  start: number
  angle: number
}

export function sliceFrame(
  periodic: Pick<PeriodicBoundary, 'center' | 'axis' | 'sliceRotation' | 'sliceAngle'>,
): SliceFrame | null {
  const { center: c, axis: a, sliceRotation, sliceAngle } = periodic
  if (c.some((x) => x === null) || a.some((x) => x === null)) return null
  if (sliceRotation === null || sliceAngle === null) return null
  const length = Math.hypot(a[0]!, a[1]!, a[2]!)
  if (!(length > 0)) return null
  const axis: [number, number, number] = [a[0]! / length, a[1]! / length, a[2]! / length]
  const helper: [number, number, number] = Math.abs(axis[2]) < 0.9 ? [0, 0, 1] : [1, 0, 0]
  const cross = (u: readonly number[], w: readonly number[]): [number, number, number] => [
    u[1]! * w[2]! - u[2]! * w[1]!,
    u[2]! * w[0]! - u[0]! * w[2]!,
    u[0]! * w[1]! - u[1]! * w[0]!,
  ]
  const h = cross(helper, axis)
  const hl = Math.hypot(...h)
  const e1: [number, number, number] = [h[0] / hl, h[1] / hl, h[2] / hl]
  return {
    center: [c[0]!, c[1]!, c[2]!],
    axis,
    e1,
    e2: cross(axis, e1),
    start: (sliceRotation * Math.PI) / 180,
    angle: (sliceAngle * Math.PI) / 180,
  }
}
