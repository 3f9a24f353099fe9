/** Movements of parts: schemas, rules, unique names and leader candidates (see movements.ts). */
import * as v from 'valibot'
import { checkNumber, checkVector, issue, type Issue } from './validation.ts'
import { LooseVec3Schema } from './vector.ts'

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
