/** The keyframes of a part: where its movements carry it over time (see movements.ts for the physics). */
import * as v from 'valibot'
import {
  KEYFRAME_ACCELERATED_STEPS,
  KEYFRAME_MAX_ANGLE_STEP_RAD,
  KEYFRAME_WARNING_THRESHOLD,
  keyframeWarning,
  type Movement,
} from './movementRules.ts'
import type { Vec3 } from './vector.ts'

export type Quaternion = [number, number, number, number]

/**
 * Where a part is at `time` (s): its initial geometry x moves to rotate(rotation, x) + position.
 */
export interface Keyframe {
  time: number
  position: Vec3
  rotation: Quaternion
}

export const KeyframeSchema = v.object({
  time: v.number(),
  position: v.tuple([v.number(), v.number(), v.number()]),
  rotation: v.tuple([v.number(), v.number(), v.number(), v.number()]),
})

/** GET /parts/{id}/movements/keyframes?interpolate=…: keyframes and the 5000-keyframe warning. */
export const KeyframesResultSchema = v.object({
  keyframes: v.array(KeyframeSchema),
  warning: v.nullable(v.string()),
})
export type KeyframesResult = v.InferOutput<typeof KeyframesResultSchema>

const IDENTITY: Quaternion = [0, 0, 0, 1]

function multiplyQuaternions(a: Quaternion, b: Quaternion): Quaternion {
  const [ax, ay, az, aw] = a
  const [bx, by, bz, bw] = b
  return [
    aw * bx + ax * bw + ay * bz - az * by,
    aw * by - ax * bz + ay * bw + az * bx,
    aw * bz + ax * by - ay * bx + az * bw,
    aw * bw - ax * bx - ay * by - az * bz,
  ]
}

/** `vector` rotated by the unit quaternion `q`. */
export function rotateVector(q: Quaternion, vector: Vec3): Vec3 {
  const [x, y, z, w] = q
  const [vx, vy, vz] = vector
  // t = 2 q×v; v' = v + w t + q×t
  const tx = 2 * (y * vz - z * vy)
  const ty = 2 * (z * vx - x * vz)
  const tz = 2 * (x * vy - y * vx)
  return [
    vx + w * tx + (y * tz - z * ty),
    vy + w * ty + (z * tx - x * tz),
    vz + w * tz + (x * ty - y * tx),
  ]
}

function normalise(vector: readonly (number | null)[]): Vec3 | null {
  const [x, y, z] = vector
  if (typeof x !== 'number' || typeof y !== 'number' || typeof z !== 'number') return null
  const length = Math.hypot(x, y, z)
  return length > 0 && Number.isFinite(length) ? [x / length, y / length, z / length] : null
}

interface Transform {
  rotation: Quaternion
  position: Vec3
}

/** a ∘ b: apply b, then a. */
function compose(a: Transform, b: Transform): Transform {
  const moved = rotateVector(a.rotation, b.position)
  return {
    rotation: multiplyQuaternions(a.rotation, b.rotation),
    position: [moved[0] + a.position[0], moved[1] + a.position[1], moved[2] + a.position[2]],
  }
}

/** Seconds a movement has been active at `time`, clamped to its [start, end]. */
function activeSeconds(movement: Movement, time: number, endTime: number): number {
  const end = movement.end ?? endTime
  return Math.max(0, Math.min(time, end) - movement.start)
}

/** Displacement (m or rad) of a movement at `time`. */
export function movementDisplacement(movement: Movement, time: number, endTime: number): number {
  const tau = activeSeconds(movement, time, endTime)
  return movement.vel * tau + (movement.acc * tau * tau) / 2
}

function movementTransform(
  movement: Movement,
  time: number,
  endTime: number,
  partCenter: (partId: number) => Vec3 | null | undefined,
): Transform {
  const s = movementDisplacement(movement, time, endTime)
  if (movement.type === 'translatory') {
    const d = normalise(movement.direction) ?? [0, 0, 0]
    return { rotation: IDENTITY, position: [d[0] * s, d[1] * s, d[2] * s] }
  }
  const axis = normalise(movement.axis)
  if (!axis) return { rotation: IDENTITY, position: [0, 0, 0] }
  const half = s / 2
  const sin = Math.sin(half)
  const rotation: Quaternion = [axis[0] * sin, axis[1] * sin, axis[2] * sin, Math.cos(half)]
  const c = (movement.center as Vec3 | null) ?? partCenter(movement.partId) ?? [0, 0, 0]
  const rc = rotateVector(rotation, c)
  // Rotation about the axis through c: x' = R(x − c) + c.
  return { rotation, position: [c[0] - rc[0], c[1] - rc[1], c[2] - rc[2]] }
}

/**
 * The movements acting on a part: its own and all their leaders, ordered so that every movement
 * comes before its leaders (deepest followers first; ties in list order).
 */
export function movementChain(partId: number, movements: readonly Movement[]): Movement[] {
  const byId = new Map(movements.map((m) => [m.id, m]))
  const depth = new Map<number, number>()
  const depthOf = (m: Movement, path: Set<number>): number => {
    const known = depth.get(m.id)
    if (known !== undefined) return known
    path.add(m.id)
    let d = 0
    for (const p of m.parents) {
      const leader = byId.get(p)
      if (leader && !path.has(p)) d = Math.max(d, depthOf(leader, path) + 1)
    }
    path.delete(m.id)
    depth.set(m.id, d)
    return d
  }
  const chain = new Map<number, Movement>()
  const visit = (m: Movement) => {
    if (chain.has(m.id)) return
    chain.set(m.id, m)
    for (const p of m.parents) {
      const leader = byId.get(p)
      if (leader) visit(leader)
    }
  }
  movements.filter((m) => m.partId === partId).forEach(visit)
  const ordered = [...chain.values()]
  const index = new Map(movements.map((m, i) => [m.id, i]))
  return ordered.sort(
    (a, b) =>
      depthOf(b, new Set()) - depthOf(a, new Set()) ||
      (index.get(a.id) ?? 0) - (index.get(b.id) ?? 0),
  )
}

/** The transform of a part at `time` from its movement chain. */
export function partTransformAt(
  chain: readonly Movement[],
  time: number,
  endTime: number,
  partCenter: (partId: number) => Vec3 | null | undefined = () => null,
): Transform {
  let transform: Transform = { rotation: IDENTITY, position: [0, 0, 0] }
  for (const movement of chain)
    transform = compose(movementTransform(movement, time, endTime, partCenter), transform)
  return transform
}

/** Steps a segment [a, b] needs so that interpolating between keyframes stays faithful. */
function segmentSteps(chain: readonly Movement[], a: number, b: number, endTime: number): number {
  let steps = 1
  for (const m of chain) {
    const end = m.end ?? endTime
    if (m.start >= b || end <= a) continue
    if (m.type === 'rotatory') {
      // ω(τ) = vel + acc·τ is linear, so its largest magnitude is at an end of the segment.
      const omega = Math.max(
        Math.abs(m.vel + m.acc * activeSeconds(m, a, endTime)),
        Math.abs(m.vel + m.acc * activeSeconds(m, b, endTime)),
      )
      steps = Math.max(steps, Math.ceil((omega * (b - a)) / KEYFRAME_MAX_ANGLE_STEP_RAD))
    } else if (m.acc !== 0) {
      steps = Math.max(steps, KEYFRAME_ACCELERATED_STEPS)
    }
  }
  return steps
}

/** Picks `count` items evenly, first and last included. */
function thin<T>(items: readonly T[], count: number): T[] {
  if (items.length <= count) return [...items]
  return Array.from(
    { length: count },
    (_, i) => items[Math.round((i * (items.length - 1)) / (count - 1))] as T,
  )
}

export interface KeyframeOptions {
  /** Simulation end time, s. */
  endTime: number
  /** true (default): dense keyframes to interpolate linearly; false: only the breakpoints. */
  interpolate?: boolean
  /** Centre of a part, for rotations whose center is null. */
  partCenter?: (partId: number) => Vec3 | null | undefined
}

/**
 * Keyframes of a part over [0, endTime] from its movements and their leaders. Breakpoints are 0,
 * the end time and every start and end; interpolation adds steps of at most 5° of rotation and 20
 * per accelerated translation segment. From KEYFRAME_WARNING_THRESHOLD keyframes on, the list is
 * thinned to that many and `warning` is set.
 */
export function computePartKeyframes(
  part: { id: number; name: string },
  movements: readonly Movement[],
  options: KeyframeOptions,
): KeyframesResult {
  const { endTime } = options
  const interpolate = options.interpolate ?? true
  const partCenter = options.partCenter ?? (() => null)
  const chain = movementChain(part.id, movements)
  const clampTime = (t: number) => Math.min(Math.max(t, 0), endTime)
  const breakpoints = [
    ...new Set([
      0,
      endTime,
      ...chain.flatMap((m) => [clampTime(m.start), clampTime(m.end ?? endTime)]),
    ]),
  ].sort((a, b) => a - b)
  let steps = breakpoints
    .slice(1)
    .map((b, i) => (interpolate ? segmentSteps(chain, breakpoints[i] as number, b, endTime) : 1))
  const total = steps.reduce((sum, n) => sum + n, 0) + 1
  const warning = total >= KEYFRAME_WARNING_THRESHOLD ? keyframeWarning(part.name) : null
  if (total > KEYFRAME_WARNING_THRESHOLD) {
    // Scale every segment down before sampling, so a fast spin never allocates millions of frames.
    const scale = (KEYFRAME_WARNING_THRESHOLD - 1) / (total - 1)
    steps = steps.map((n) => Math.max(1, Math.floor(n * scale)))
  }
  const times: number[] = [breakpoints[0] ?? 0]
  steps.forEach((n, i) => {
    const a = breakpoints[i] as number
    const b = breakpoints[i + 1] as number
    for (let k = 1; k <= n; k++) times.push(k === n ? b : a + ((b - a) * k) / n)
  })
  const keyframes = thin(times, KEYFRAME_WARNING_THRESHOLD).map((time) => ({
    time,
    ...partTransformAt(chain, time, endTime, partCenter),
  }))
  return { keyframes, warning }
}
