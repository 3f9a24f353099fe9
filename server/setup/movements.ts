import type { Kysely } from 'kysely'
import {
  MOVEMENT_MESSAGES,
  checkMovement,
  computePartKeyframes,
  descendantIds,
  type KeyframesResult,
  type Movement,
  type MovementCreate,
  type MovementInput,
  type MovementUpdate,
} from '../../domain/movements.ts'
import { makeUniqueName, type Part } from '../../domain/parts.ts'
import { notFound } from '../api/apiError.ts'
import { readSettings } from '../api/views.ts'
import type { Database, SimulationRow } from '../db/schema.ts'
import { refuseField, refuseIssues } from './issues.ts'
import { readMovements, readParts } from './store.ts'

/*
 * Movements of parts (spec/setup.md §3 "Movement", §5 "Movement", §7): translatory or rotatory,
 * with leaders (parents) and followers stored as links. A link that would make a movement follow
 * itself or one of its followers is refused.
 */

type Db = Kysely<Database>

type Motion = Omit<MovementInput, 'type' | 'name' | 'parents' | 'id'>

function motionOf(movement: MovementInput): Motion {
  const { type: _t, name: _n, parents: _p, id: _i, ...motion } = movement
  return motion
}

function checkMovementRules(movement: MovementInput, simulation: SimulationRow): void {
  const endTime = readSettings(simulation.settings).endTime
  const errors = checkMovement(movement, { endTime }).filter((i) => i.level === 'error')
  if (errors.length > 0) throw refuseIssues(errors)
}

/** Refuses leaders that are not movements of the simulation, or that would close a cycle. */
function checkLeaders(
  movementId: number | null,
  parents: readonly number[],
  movements: readonly Movement[],
): void {
  for (const leader of parents) {
    if (!movements.some((m) => m.id === leader))
      throw refuseField('parents', `Movement ${leader} not found.`)
    if (
      movementId !== null &&
      (leader === movementId || descendantIds(movementId, movements).has(leader))
    )
      throw refuseField('parents', MOVEMENT_MESSAGES.leaderCycle)
  }
}

export async function readMovement(
  db: Db,
  simulationId: number,
  movementId: number,
): Promise<Movement> {
  const movement = (await readMovements(db, simulationId)).find((m) => m.id === movementId)
  if (!movement) throw notFound('Movement')
  return movement
}

export async function createStoredMovement(
  db: Db,
  simulation: SimulationRow,
  partId: number,
  body: MovementCreate,
  nowIso: string,
): Promise<Movement> {
  const movements = await readMovements(db, simulation.id)
  checkLeaders(null, body.parents, movements)
  const name = makeUniqueName(
    body.name,
    movements.map((m) => m.name),
  )
  const input: MovementInput = { ...body, name }
  checkMovementRules(input, simulation)
  const { id } = await db
    .insertInto('movements')
    .values({
      simulation_id: simulation.id,
      part_id: partId,
      type: body.type,
      name,
      motion: JSON.stringify(motionOf(input)),
      created_at: nowIso,
      updated_at: nowIso,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  for (const leader of new Set(body.parents))
    await db.insertInto('movement_links').values({ leader_id: leader, follower_id: id }).execute()
  return readMovement(db, simulation.id, id)
}

export async function updateStoredMovement(
  db: Db,
  simulation: SimulationRow,
  movementId: number,
  body: MovementUpdate,
  nowIso: string,
): Promise<Movement> {
  const movements = await readMovements(db, simulation.id)
  const existing = movements.find((m) => m.id === movementId)
  if (!existing) throw notFound('Movement')
  if (existing.type === 'translatory' && (body.axis !== undefined || body.center !== undefined))
    throw refuseField('axis', 'A translatory movement has a direction, not an axis.')
  if (existing.type === 'rotatory' && body.direction !== undefined)
    throw refuseField('direction', 'A rotatory movement has an axis, not a direction.')
  const { direction, axis, center, ...shared } = body
  const next = {
    ...existing,
    ...shared,
    ...(existing.type === 'translatory'
      ? direction !== undefined && { direction }
      : { ...(axis !== undefined && { axis }), ...(center !== undefined && { center }) }),
  } as Movement
  if (body.name !== undefined)
    next.name = makeUniqueName(
      body.name,
      movements.filter((m) => m.id !== movementId).map((m) => m.name),
    )
  if (body.parents !== undefined) checkLeaders(movementId, body.parents, movements)
  checkMovementRules({ ...next, id: movementId }, simulation)
  await db
    .updateTable('movements')
    .set({
      name: next.name,
      motion: JSON.stringify(motionOf(next as MovementInput)),
      updated_at: nowIso,
    })
    .where('id', '=', movementId)
    .execute()
  if (body.parents !== undefined) {
    await db.deleteFrom('movement_links').where('follower_id', '=', movementId).execute()
    for (const leader of new Set(body.parents))
      await db
        .insertInto('movement_links')
        .values({ leader_id: leader, follower_id: movementId })
        .execute()
  }
  return readMovement(db, simulation.id, movementId)
}

/** Makes `followerId` follow `leaderId` (idempotent); both must be movements of the simulation. */
export async function linkFollower(
  db: Db,
  simulation: SimulationRow,
  leaderId: number,
  followerId: number,
): Promise<Movement> {
  const movements = await readMovements(db, simulation.id)
  const follower = movements.find((m) => m.id === followerId)
  if (!follower) throw notFound('Movement')
  if (leaderId === followerId || descendantIds(followerId, movements).has(leaderId))
    throw refuseField('followerId', MOVEMENT_MESSAGES.leaderCycle)
  if (!follower.parents.includes(leaderId))
    await db
      .insertInto('movement_links')
      .values({ leader_id: leaderId, follower_id: followerId })
      .execute()
  return readMovement(db, simulation.id, leaderId)
}

export async function unlinkFollower(
  db: Db,
  simulation: SimulationRow,
  leaderId: number,
  followerId: number,
): Promise<Movement> {
  const deleted = await db
    .deleteFrom('movement_links')
    .where('leader_id', '=', leaderId)
    .where('follower_id', '=', followerId)
    .executeTakeFirst()
  if (Number(deleted.numDeletedRows) === 0) throw notFound('Follower')
  return readMovement(db, simulation.id, leaderId)
}

/**
 * Keyframes of a part over the simulation time (domain computePartKeyframes, with the
 * 5000-keyframe warning). Rotations without a centre turn about the part's centre.
 */
export async function computeStoredKeyframes(
  db: Db,
  simulation: SimulationRow,
  part: Part,
  interpolate: boolean,
): Promise<KeyframesResult> {
  const [movements, parts] = await Promise.all([
    readMovements(db, simulation.id),
    readParts(db, simulation.id),
  ])
  const settings = readSettings(simulation.settings)
  const ends = movements.map((m) => m.end ?? m.start)
  const endTime =
    settings.endTime !== null && settings.endTime > 0 ? settings.endTime : Math.max(1, ...ends)
  const centres = new Map(parts.map((p) => [p.id, p.shape.info?.center]))
  return computePartKeyframes(part, movements, {
    endTime,
    interpolate,
    partCenter: (id) => centres.get(id) ?? null,
  })
}

/**
 * Rigid parts whose moving-wall condition names one of these (deleted) movements lose it, so no
 * part points at a movement that no longer exists ('Movement is required' shows instead).
 */
export async function clearMovementReferences(
  db: Db,
  simulationId: number,
  movementIds: readonly number[],
  nowIso: string,
): Promise<void> {
  if (movementIds.length === 0) return
  for (const part of await readParts(db, simulationId)) {
    const component = part.component
    if (component.type !== 'rigid' || component.velocityConditionMovementId === null) continue
    if (!movementIds.includes(component.velocityConditionMovementId)) continue
    await db
      .updateTable('parts')
      .set({
        component: JSON.stringify({ ...component, velocityConditionMovementId: null }),
        updated_at: nowIso,
      })
      .where('id', '=', part.id)
      .execute()
  }
}
