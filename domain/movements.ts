/**
 * Movements of parts (spec/setup.md §3 "Movement", §4 movement form, §5 "Movement", §8 keyframe
 * warning): schemas, rules, unique names, leader candidates and the keyframes of a part.
 *
 * Physics: a movement is active from `start` to `end` (null: the simulation end time). Its
 * displacement after τ seconds of activity is s = vel·τ + acc·τ²/2 (m along the normalised
 * direction, or rad about the normalised axis through `center`); after `end` it holds. A follower is
 * defined in the initial frame and carried by its leaders: its motion is applied first, then its
 * leaders'.
 */
import * as v from 'valibot'
import { checkNumber, checkVector, issue, type Issue } from './validation.ts'
import { LooseVec3Schema, type Vec3 } from './vector.ts'

export const MOVEMENT_TYPES = ['translatory', 'rotatory'] as const
/** One movement type. */
export type MovementType = (typeof MOVEMENT_TYPES)[number]

/** At this many keyframes or more a part's motion is thinned and the warning shows. */
export const KEYFRAME_WARNING_THRESHOLD = 5000
/** Interpolated keyframes sample a rotation at least every 5° (π/36 rad). */
export const KEYFRAME_MAX_ANGLE_STEP_RAD = Math.PI / 36
/** Interpolated keyframes split a segment with an accelerated translation into this many steps. */
export const KEYFRAME_ACCELERATED_STEPS = 20

/** 'Maximum number of keyframes reached for part "{name}"! …' */
export function keyframeWarning(partName: string): string {
  return `Maximum number of keyframes reached for part "${partName}"! Movement visualization might look odd in some cases, but simulation results are unaffected.`
}

export const MOVEMENT_MESSAGES = {
  startBeforeEnd: 'Start must be smaller than End.',
  startBeforeEndTime: 'Start must be smaller than simulation end time.',
  endAfterStart: 'End must be greater than Start.',
  notInterpretable: 'Movements could not be interpreted.',
  leaderCycle: 'A movement cannot follow itself or one of its followers.',
  loading: 'Loading movements...',
  loaded: 'Successfully loaded all movements',
} as const

/** 'Loading movements i/n...' */
export function loadingMovementsMessage(loaded: number, total: number): string {
  return `Loading movements ${loaded}/${total}...`
}

const movementName = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, 'Name is required'),
  v.maxLength(100),
)
const shared = {
  name: v.string(),
  /** s. */
  start: v.number(),
  /** s; null runs until the simulation end time. */
  end: v.nullable(v.number()),
  /** m/s² or rad/s². */
  acc: v.number(),
  /** m/s or rad/s. */
  vel: v.number(),
  /** Moves a boundary condition (a moving wall velocity) instead of the geometry. */
  virtualMovement: v.boolean(),
}
const translatoryEntries = { direction: LooseVec3Schema }
const rotatoryEntries = {
  axis: LooseVec3Schema,
  /** A point on the axis; null means the part's centre. */
  center: v.nullable(LooseVec3Schema),
}
const links = {
  /** Leader movement ids. */
  parents: v.array(v.number()),
  /** Follower movement ids. */
  followers: v.array(v.number()),
}

/** A movement as the API returns it, told apart by `type`. */
export const MovementSchema = v.variant('type', [
  v.object({
    id: v.number(),
    partId: v.number(),
    type: v.literal('translatory'),
    ...shared,
    ...translatoryEntries,
    ...links,
  }),
  v.object({
    id: v.number(),
    partId: v.number(),
    type: v.literal('rotatory'),
    ...shared,
    ...rotatoryEntries,
    ...links,
  }),
])
/** A movement. */
export type Movement = v.InferOutput<typeof MovementSchema>

/** GET …/movements: anything else is 'Movements could not be interpreted.' */
export const MovementListSchema = v.array(MovementSchema, MOVEMENT_MESSAGES.notInterpretable)

/** POST /parts/{partId}/movements. Followers are linked with the followers calls. */
export const MovementCreateSchema = v.variant('type', [
  v.strictObject({
    type: v.literal('translatory'),
    ...shared,
    name: movementName,
    ...translatoryEntries,
    parents: v.optional(v.array(v.number()), []),
  }),
  v.strictObject({
    type: v.literal('rotatory'),
    ...shared,
    name: movementName,
    ...rotatoryEntries,
    parents: v.optional(v.array(v.number()), []),
  }),
])
export type MovementCreate = v.InferOutput<typeof MovementCreateSchema>

/** PUT /movements/{movementId}: any field but the type, which is fixed once added. */
export const MovementUpdateSchema = v.partial(
  v.strictObject({
    ...shared,
    name: movementName,
    direction: translatoryEntries.direction,
    ...rotatoryEntries,
    parents: v.array(v.number()),
  }),
)
export type MovementUpdate = v.InferOutput<typeof MovementUpdateSchema>

/** Translatory bounds (rotatory movements have none). */
export const MOVEMENT_BOUNDS = {
  acc: { min: -300, max: 300 },
  vel: { min: -1000, max: 1000 },
} as const

/** Units of acceleration and velocity by movement type. */
export function movementUnits(type: MovementType): { acc: string; vel: string } {
  return type === 'translatory' ? { acc: 'm/s²', vel: 'm/s' } : { acc: 'rad/s²', vel: 'rad/s' }
}

/** The movement fields the rules read (a form's values or a stored movement). */
export type MovementInput = v.InferOutput<typeof MovementCreateSchema> & { id?: number }

/**
 * The rules of one movement: start ≥ 0 and before end (or before the simulation end time while
 * end is automatic), translatory acc and vel ranges, a non-zero direction or axis.
 */
export function checkMovement(
  movement: MovementInput,
  context: { endTime: number | null },
  prefix = 'movement',
): Issue[] {
  const f = (key: string) => `${prefix}.${key}`
  const issues = checkNumber(f('start'), 'Start', movement.start, { min: 0 })
  const start = movement.start
  const startValid = issues.length === 0
  if (movement.end === null) {
    if (startValid && context.endTime !== null && start >= context.endTime)
      issues.push(issue('error', f('start'), MOVEMENT_MESSAGES.startBeforeEndTime))
  } else {
    const endIssues = checkNumber(f('end'), 'End', movement.end)
    issues.push(...endIssues)
    if (startValid && endIssues.length === 0 && start >= movement.end)
      issues.push(
        issue('error', f('start'), MOVEMENT_MESSAGES.startBeforeEnd),
        issue('error', f('end'), MOVEMENT_MESSAGES.endAfterStart),
      )
  }
  if (movement.type === 'translatory') {
    issues.push(
      ...checkNumber(f('acc'), 'Acceleration', movement.acc, MOVEMENT_BOUNDS.acc),
      ...checkNumber(f('vel'), 'Velocity', movement.vel, MOVEMENT_BOUNDS.vel),
      ...checkVector(f('direction'), 'Direction', movement.direction, { nonZero: true }),
    )
  } else {
    issues.push(
      ...checkNumber(f('acc'), 'Acceleration', movement.acc),
      ...checkNumber(f('vel'), 'Velocity', movement.vel),
      ...checkVector(f('axis'), 'Axis', movement.axis, { nonZero: true }),
    )
    if (movement.center !== null)
      issues.push(...checkVector(f('center'), 'Center', movement.center))
  }
  if (movement.id !== undefined && movement.parents.includes(movement.id))
    issues.push(issue('error', f('parents'), MOVEMENT_MESSAGES.leaderCycle))
  return issues
}

/**
 * An auto-generated name: 'translation n' or 'rotation n', n counting every movement so far
 * (existing + 1), raised until the name is unused.
 */
export function nextMovementName(type: MovementType, existingNames: readonly string[]): string {
  const word = type === 'translatory' ? 'translation' : 'rotation'
  const taken = new Set(existingNames)
  for (let n = existingNames.length + 1; ; n++)
    if (!taken.has(`${word} ${n}`)) return `${word} ${n}`
}

type Linked = Pick<Movement, 'id' | 'parents' | 'followers'>

/** Ids of every movement that follows `movementId`, directly or through other followers. */
export function descendantIds(movementId: number, movements: readonly Linked[]): Set<number> {
  const children = new Map<number, Set<number>>()
  const link = (leader: number, follower: number) => {
    const set = children.get(leader) ?? new Set<number>()
    set.add(follower)
    children.set(leader, set)
  }
  for (const m of movements) {
    for (const p of m.parents) link(p, m.id)
    for (const f of m.followers) link(m.id, f)
  }
  const found = new Set<number>()
  const stack = [movementId]
  while (stack.length > 0) {
    const id = stack.pop() as number
    for (const child of children.get(id) ?? [])
      if (!found.has(child)) {
        found.add(child)
        stack.push(child)
      }
  }
  return found
}

/** Movements that may lead `movementId`: all but itself and its descendants (all in add mode). */
export function leaderCandidates<T extends Linked>(
  movementId: number | null,
  movements: readonly T[],
): T[] {
  if (movementId === null) return [...movements]
  const excluded = descendantIds(movementId, movements)
  excluded.add(movementId)
  return movements.filter((m) => !excluded.has(m.id))
}

// ── Keyframes ───────────────────────────────────────────────────────────────────────────────────

/** A quaternion [x, y, z, w]. */
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
