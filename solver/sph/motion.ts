/**
 * Prescribed motion of wall parts. A part's pose at time t maps a wall particle's rest position x0
 * to x(t) = center + R(t)(x0 − center) + translation(t). Velocities and accelerations come from
 * central differences of the pose over ±MOTION_DIFFERENCE_S.
 */
import type { Movement as DomainMovement } from '../../domain/movements.ts'
import { movementChain, partTransformAt } from '../../domain/movements.ts'
import type { Vec3 } from '../../domain/vector.ts'

export interface RigidPose {
  translation: Vec3
  /** A rotation by angleRad about `axis` through `center`, applied before the translation. */
  rotation?: { axis: Vec3; angleRad: number; center: Vec3 }
  /** Or a rotation about the origin as a unit quaternion [x, y, z, w], before the translation. */
  quaternion?: readonly [number, number, number, number]
  /**
   * Virtual movements (spec: a moving boundary condition): when present, the wall's velocity and
   * acceleration are those of this pose, while its geometry stays where the outer pose puts it.
   */
  velocityPose?: RigidPose
}

/** Pose of a part at a time, or null when the part is at rest at its initial position. */
export type WallMotion = (partId: number, timeS: number) => RigidPose | null

/** Half-width of the central differences for wall velocity and acceleration. */
export const MOTION_DIFFERENCE_S = 1e-4

/** A rigid transform as a 3×3 matrix (row-major) and an offset: x = M x0 + offset. */
export interface RigidTransform {
  matrix: Float64Array
  offset: Float64Array
}

export function identityTransform(): RigidTransform {
  return { matrix: new Float64Array([1, 0, 0, 0, 1, 0, 0, 0, 1]), offset: new Float64Array(3) }
}

/** Writes the transform of a pose into `out` (identity for null). */
export function poseToTransform(pose: RigidPose | null, out: RigidTransform): void {
  const m = out.matrix
  const o = out.offset
  m.set([1, 0, 0, 0, 1, 0, 0, 0, 1])
  o.fill(0)
  if (!pose) return
  const rot = pose.rotation
  if (rot && rot.angleRad !== 0) {
    const len = Math.hypot(rot.axis[0], rot.axis[1], rot.axis[2])
    if (len > 0) {
      const ux = rot.axis[0] / len
      const uy = rot.axis[1] / len
      const uz = rot.axis[2] / len
      const c = Math.cos(rot.angleRad)
      const s = Math.sin(rot.angleRad)
      const t = 1 - c
      m.set([
        c + ux * ux * t,
        ux * uy * t - uz * s,
        ux * uz * t + uy * s,
        uy * ux * t + uz * s,
        c + uy * uy * t,
        uy * uz * t - ux * s,
        uz * ux * t - uy * s,
        uz * uy * t + ux * s,
        c + uz * uz * t,
      ])
      // x = c + R(x0 − c) = R x0 + (c − R c)
      const [cx, cy, cz] = rot.center
      o[0] = cx - (m[0]! * cx + m[1]! * cy + m[2]! * cz)
      o[1] = cy - (m[3]! * cx + m[4]! * cy + m[5]! * cz)
      o[2] = cz - (m[6]! * cx + m[7]! * cy + m[8]! * cz)
    }
  }
  const q = pose.quaternion
  if (q && !rot) {
    const [x, y, z, w] = q
    m.set([
      1 - 2 * (y * y + z * z),
      2 * (x * y - z * w),
      2 * (x * z + y * w),
      2 * (x * y + z * w),
      1 - 2 * (x * x + z * z),
      2 * (y * z - x * w),
      2 * (x * z - y * w),
      2 * (y * z + x * w),
      1 - 2 * (x * x + y * y),
    ])
  }
  o[0]! += pose.translation[0]
  o[1]! += pose.translation[1]
  o[2]! += pose.translation[2]
}

/**
 * A WallMotion from the spec's movements (domain/movements.ts): each part follows its chain of
 * movements and leaders; virtual movements only give the wall a velocity.
 */
export function createDomainMovementMotion(
  movements: readonly DomainMovement[],
  endTimeS: number,
  partCenter: (partId: number) => Vec3 | null | undefined = () => null,
): WallMotion {
  const chains = new Map<number, { all: DomainMovement[]; geometry: DomainMovement[] }>()
  for (const partId of new Set(movements.map((m) => m.partId))) {
    const all = movementChain(partId, movements)
    chains.set(partId, { all, geometry: all.filter((m) => !m.virtualMovement) })
  }
  const poseOf = (chain: readonly DomainMovement[], timeS: number): RigidPose => {
    const transform = partTransformAt(chain, timeS, endTimeS, partCenter)
    return { translation: transform.position, quaternion: transform.rotation }
  }
  return (partId, timeS) => {
    const chain = chains.get(partId)
    if (!chain || chain.all.length === 0) return null
    const pose = poseOf(chain.geometry, timeS)
    if (chain.geometry.length === chain.all.length) return pose
    return { ...pose, velocityPose: poseOf(chain.all, timeS) }
  }
}

/** One translatory or rotatory movement (spec "Movement"), angles in radians. */
export type Movement =
  | {
      type: 'translatory'
      startS: number
      /** null: until the end of the simulation. */
      endS: number | null
      /** Speed at the start, m/s, and constant acceleration, m/s², along `direction`. */
      velocity: number
      acceleration: number
      direction: Vec3
    }
  | {
      type: 'rotatory'
      startS: number
      endS: number | null
      /** Angular speed at the start, rad/s, and angular acceleration, rad/s². */
      velocity: number
      acceleration: number
      axis: Vec3
      center: Vec3
    }

/** Distance (or angle) travelled by a movement at time t: it rests before start and after end. */
export function movementTravel(movement: Movement, timeS: number): number {
  const end = movement.endS ?? Infinity
  const tau = Math.min(Math.max(timeS - movement.startS, 0), end - movement.startS)
  return movement.velocity * tau + 0.5 * movement.acceleration * tau * tau
}

/**
 * A WallMotion from a list of movements per part id, applied in list order (each movement's
 * rotation turns the result of the earlier ones).
 */
export function createMovementMotion(
  movementsByPart: ReadonlyMap<number, readonly Movement[]>,
): WallMotion {
  return (partId, timeS) => {
    const movements = movementsByPart.get(partId)
    if (!movements || movements.length === 0) return null
    const total = identityTransform()
    const step = identityTransform()
    for (const movement of movements) {
      const travel = movementTravel(movement, timeS)
      if (movement.type === 'translatory') {
        const [dx, dy, dz] = movement.direction
        const len = Math.hypot(dx, dy, dz) || 1
        poseToTransform(
          { translation: [(dx / len) * travel, (dy / len) * travel, (dz / len) * travel] },
          step,
        )
      } else {
        poseToTransform(
          {
            translation: [0, 0, 0],
            rotation: { axis: movement.axis, angleRad: travel, center: movement.center },
          },
          step,
        )
      }
      composeTransforms(step, total, total)
    }
    return transformToPose(total)
  }
}

/** out = a ∘ b (apply b, then a). `out` may alias a or b. */
export function composeTransforms(a: RigidTransform, b: RigidTransform, out: RigidTransform): void {
  const am = a.matrix
  const bm = b.matrix
  const m = new Float64Array(9)
  for (let r = 0; r < 3; r++)
    for (let c = 0; c < 3; c++)
      m[r * 3 + c] = am[r * 3]! * bm[c]! + am[r * 3 + 1]! * bm[3 + c]! + am[r * 3 + 2]! * bm[6 + c]!
  const o = new Float64Array(3)
  for (let r = 0; r < 3; r++)
    o[r] =
      am[r * 3]! * b.offset[0]! +
      am[r * 3 + 1]! * b.offset[1]! +
      am[r * 3 + 2]! * b.offset[2]! +
      a.offset[r]!
  out.matrix.set(m)
  out.offset.set(o)
}

/** A pose equivalent to a rigid transform (rotation about the origin, then translation). */
export function transformToPose(transform: RigidTransform): RigidPose {
  const m = transform.matrix
  const trace = m[0]! + m[4]! + m[8]!
  const angleRad = Math.acos(Math.min(1, Math.max(-1, (trace - 1) / 2)))
  const translation: Vec3 = [transform.offset[0]!, transform.offset[1]!, transform.offset[2]!]
  if (angleRad < 1e-12) return { translation }
  let axis: Vec3 = [m[7]! - m[5]!, m[2]! - m[6]!, m[3]! - m[1]!]
  if (Math.hypot(...axis) < 1e-9) {
    // angle ≈ π: the axis is the column of (R + I) with the largest norm
    const cols: Vec3[] = [
      [m[0]! + 1, m[3]!, m[6]!],
      [m[1]!, m[4]! + 1, m[7]!],
      [m[2]!, m[5]!, m[8]! + 1],
    ]
    axis = cols.reduce((best, col) => (Math.hypot(...col) > Math.hypot(...best) ? col : best))
  }
  return { translation, rotation: { axis, angleRad, center: [0, 0, 0] } }
}
