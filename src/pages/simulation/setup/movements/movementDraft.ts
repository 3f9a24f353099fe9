import * as v from 'valibot'
import {
  MovementCreateSchema,
  checkMovement,
  descendantIds,
  leaderCandidates,
  nextMovementName,
  type Movement,
  type MovementCreate,
  type MovementInput,
  type MovementType,
  type MovementUpdate,
} from '../../../../../domain/movements.ts'
import { issue, type Issue } from '../../../../../domain/validation.ts'
import type { LooseVec3 } from '../../../../../domain/vector.ts'

/*
 * The movement add/edit form's values and what the rules say about them (spec/setup.md §4
 * "Movement form", §5 "Movement"). The rules are domain/movements.ts's; this file only turns the
 * form's values (which may be empty while typed) into their input and back into request bodies.
 */

/** The form's values; numbers are null while their field is empty. */
export interface MovementDraft {
  type: MovementType
  name: string
  /** True until the person types a name of their own: switching the type renames it. */
  autoName: boolean
  start: number | null
  /** Null: until the simulation end time. */
  end: number | null
  acc: number | null
  vel: number | null
  direction: LooseVec3
  axis: LooseVec3
  /** Null: about the part's centre. */
  center: LooseVec3 | null
  /** Leader movement ids. */
  parents: number[]
  /** Follower movement ids (linked with the followers calls once the movement exists). */
  followers: number[]
  virtualMovement: boolean
}

/** A new movement's values: at rest from 0 s to the simulation end, along x or about z. */
export function newMovementDraft(
  type: MovementType,
  existingNames: readonly string[],
  virtualMovement = false,
): MovementDraft {
  return {
    type,
    name: nextMovementName(type, existingNames),
    autoName: true,
    start: 0,
    end: null,
    acc: 0,
    vel: 0,
    direction: [1, 0, 0],
    axis: [0, 0, 1],
    center: null,
    parents: [],
    followers: [],
    virtualMovement,
  }
}

/** The values of a stored movement. */
export function draftOfMovement(movement: Movement): MovementDraft {
  return {
    type: movement.type,
    name: movement.name,
    autoName: false,
    start: movement.start,
    end: movement.end,
    acc: movement.acc,
    vel: movement.vel,
    direction: movement.type === 'translatory' ? [...movement.direction] : [1, 0, 0],
    axis: movement.type === 'rotatory' ? [...movement.axis] : [0, 0, 1],
    center: movement.type === 'rotatory' && movement.center ? [...movement.center] : null,
    parents: [...movement.parents],
    followers: [...movement.followers],
    virtualMovement: movement.virtualMovement,
  }
}

/** Switches the type (add mode only); an auto-generated name follows the type. */
export function switchDraftType(
  draft: MovementDraft,
  type: MovementType,
  existingNames: readonly string[],
): MovementDraft {
  if (draft.type === type) return draft
  return {
    ...draft,
    type,
    name: draft.autoName ? nextMovementName(type, existingNames) : draft.name,
  }
}

/**
 * The draft as the rules' input. An empty number stays null: checkNumber reads it as the
 * preliminary '{label} is required' (the rules take unknown values at run time).
 */
function ruleInput(draft: MovementDraft, id: number | null): MovementInput {
  const shared = {
    name: draft.name,
    start: draft.start as number,
    end: draft.end,
    acc: draft.acc as number,
    vel: draft.vel as number,
    virtualMovement: draft.virtualMovement,
    parents: draft.parents,
    ...(id === null ? {} : { id }),
  }
  return draft.type === 'translatory'
    ? { type: 'translatory', ...shared, direction: draft.direction }
    : { type: 'rotatory', ...shared, axis: draft.axis, center: draft.center }
}

/** Field path of the form's issues: 'movement.start', 'movement.name', … */
export const DRAFT_PREFIX = 'movement'

/**
 * Everything wrong with the values: the movement rules (checkMovement) and the name rule of the
 * create schema ('Name is required'). Every issue blocks Submit, info items (empty values) too.
 */
export function draftIssues(
  draft: MovementDraft,
  context: { endTime: number | null; movementId: number | null },
): Issue[] {
  const issues = checkMovement(ruleInput(draft, context.movementId), context, DRAFT_PREFIX)
  const name = v.safeParse(MovementCreateSchema.options[0].entries.name, draft.name)
  if (!name.success)
    issues.unshift(
      issue('error', `${DRAFT_PREFIX}.name`, name.issues[0]?.message ?? 'Name is required'),
    )
  return issues
}

/** POST /parts/{partId}/movements body of a valid draft. */
export function createBodyOf(draft: MovementDraft): MovementCreate {
  const shared = {
    name: draft.name.trim(),
    start: draft.start ?? 0,
    end: draft.end,
    acc: draft.acc ?? 0,
    vel: draft.vel ?? 0,
    virtualMovement: draft.virtualMovement,
    parents: draft.parents,
  }
  return draft.type === 'translatory'
    ? { type: 'translatory', ...shared, direction: draft.direction }
    : { type: 'rotatory', ...shared, axis: draft.axis, center: draft.center }
}

/** PUT /movements/{id} body of a valid draft (every field but the type, which is fixed). */
export function updateBodyOf(draft: MovementDraft): MovementUpdate {
  const { type: _type, ...body } = createBodyOf(draft)
  return body
}

/** Movements a movement may lead: all but itself, what it follows (directly or not) and its leaders. */
export function followerCandidates<T extends Pick<Movement, 'id' | 'parents' | 'followers'>>(
  movementId: number | null,
  parents: readonly number[],
  movements: readonly T[],
): T[] {
  return movements.filter(
    (m) =>
      m.id !== movementId &&
      !parents.includes(m.id) &&
      (movementId === null || !descendantIds(m.id, movements).has(movementId)),
  )
}

/**
 * Movements offered as leaders: all but the movement itself, its descendants (leaderCandidates)
 * and the followers chosen in the form, which would close a cycle.
 */
export function leaderOptions<T extends Pick<Movement, 'id' | 'parents' | 'followers'>>(
  movementId: number | null,
  followers: readonly number[],
  movements: readonly T[],
): T[] {
  return leaderCandidates(movementId, movements).filter((m) => !followers.includes(m.id))
}
