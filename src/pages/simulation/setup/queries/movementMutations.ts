import { useQueryClient } from '@tanstack/react-query'
import { useCallback } from 'react'
import type { Movement, MovementCreate, MovementUpdate } from '../../../../../domain/movements.ts'
import { callApi } from '../../../../api/index.ts'
import { routeKey } from '../../../../queries/queries.ts'
import { paramsOf } from './setupQueries.ts'
import { useSetupMutation } from './useSetupMutation.ts'

/*
 * Movement edits (spec/setup.md §7 "Movements"): add to a part, change, delete, and the follower
 * links. Every edit refetches the simulation's movements (the keyframes of every part they lead
 * change with them) and the parts (a deleted movement clears a moving wall's condition).
 */

const movementsKey = (simulationId: number) =>
  routeKey('listSimulationMovements', paramsOf(simulationId))

const AFTER_MOVEMENT_EDIT = ['listSimulationMovements', 'listPartMovements', 'listParts'] as const

/** POST /parts/{partId}/movements ('Adding movement failed'). */
export function useCreateMovementMutation() {
  return useSetupMutation({
    mutationFn: (input: { partId: number; movement: MovementCreate }) =>
      callApi('createMovement', { ...paramsOf(input.partId), body: input.movement }),
    failure: { action: 'add', entity: 'movement' },
    invalidate: AFTER_MOVEMENT_EDIT,
  })
}

/** A movement with an update applied, for the optimistic list (the type never changes). */
export function applyMovementUpdate(movement: Movement, update: MovementUpdate): Movement {
  const { direction, axis, center, ...shared } = update
  const next = { ...movement, ...shared } as Movement
  if (next.type === 'translatory' && direction !== undefined) next.direction = direction
  if (next.type === 'rotatory') {
    if (axis !== undefined) next.axis = axis
    if (center !== undefined) next.center = center
  }
  return next
}

/** PUT /movements/{id}, applied to the list at once ('Updating movement failed', rolled back). */
export function useUpdateMovementMutation(simulationId: number) {
  return useSetupMutation({
    mutationFn: (input: { movementId: number; update: MovementUpdate }) =>
      callApi('updateMovement', { ...paramsOf(input.movementId), body: input.update }),
    failure: { action: 'update', entity: 'movement' },
    optimistic: [
      {
        queryKey: movementsKey(simulationId),
        update: (movements: Movement[], input: { movementId: number; update: MovementUpdate }) =>
          movements.map((m) =>
            m.id === input.movementId ? applyMovementUpdate(m, input.update) : m,
          ),
      },
    ],
    invalidate: AFTER_MOVEMENT_EDIT,
  })
}

/** DELETE /movements/{id} ('Deleting movement failed'); gone from the list at once. */
export function useDeleteMovementMutation(simulationId: number) {
  return useSetupMutation({
    mutationFn: (movementId: number) => callApi('deleteMovement', paramsOf(movementId)),
    failure: { action: 'delete', entity: 'movement' },
    optimistic: [
      {
        queryKey: movementsKey(simulationId),
        update: (movements: Movement[], movementId: number) =>
          movements
            .filter((m) => m.id !== movementId)
            .map((m) => ({
              ...m,
              parents: m.parents.filter((id) => id !== movementId),
              followers: m.followers.filter((id) => id !== movementId),
            })),
      },
    ],
    invalidate: AFTER_MOVEMENT_EDIT,
  })
}

/** The follower links to add and to remove to go from `before` to `after`. */
export function followerChanges(
  before: readonly number[],
  after: readonly number[],
): { add: number[]; remove: number[] } {
  return {
    add: after.filter((id) => !before.includes(id)),
    remove: before.filter((id) => !after.includes(id)),
  }
}

/**
 * Links and unlinks followers of a movement (PUT / DELETE /movements/{id}/followers/{followerId}),
 * then refetches the movements. A failed link is only logged (spec/setup.md §8); the refetch shows
 * what the server kept.
 */
export function useSetFollowers(simulationId: number) {
  const queryClient = useQueryClient()
  return useCallback(
    async (leaderId: number, changes: { add: readonly number[]; remove: readonly number[] }) => {
      const calls = [
        ...changes.add.map((followerId) =>
          callApi('addFollower', {
            params: { id: String(leaderId), followerId: String(followerId) },
          }),
        ),
        ...changes.remove.map((followerId) =>
          callApi('removeFollower', {
            params: { id: String(leaderId), followerId: String(followerId) },
          }),
        ),
      ]
      const results = await Promise.allSettled(calls)
      for (const result of results)
        if (result.status === 'rejected')
          console.error('Movement follower link failed', leaderId, result.reason)
      if (calls.length > 0)
        await queryClient.invalidateQueries({ queryKey: movementsKey(simulationId) })
    },
    [queryClient, simulationId],
  )
}
