import type { Part, PartCreate, PartUpdate } from '../../../../../domain/parts.ts'
import { callApi } from '../../../../api/index.ts'
import { routeKey } from '../../../../queries/queries.ts'
import { paramsOf } from './setupQueries.ts'
import { useSetupMutation } from './useSetupMutation.ts'

/**
 * A part with an update applied for the optimistic cache: fields replace; component, shape and
 * appearance merge (a changed type keeps the old fields until the server's answer replaces them
 * with the new type's defaults; a changed shape type drops the geometry facts).
 */
export function applyPartUpdate(part: Part, update: PartUpdate): Part {
  const next: Part = { ...part }
  if (update.name !== undefined) next.name = update.name
  if (update.materialId !== undefined) next.materialId = update.materialId
  if (update.seedPoint !== undefined) next.seedPoint = update.seedPoint
  if (update.appearance) next.appearance = { ...part.appearance, ...update.appearance }
  if (update.component)
    next.component = { ...part.component, ...update.component } as Part['component']
  if (update.shape)
    next.shape = (
      update.shape.type === part.shape.type
        ? { ...part.shape, ...update.shape }
        : { ...part.shape, ...update.shape, info: null }
    ) as Part['shape']
  return next
}

const partsKey = (simulationId: number) => routeKey('listParts', paramsOf(simulationId))

/** Refetched after any part edit: parts, their movements (deletes cascade), the discretization. */
const AFTER_PART_EDIT = ['listParts', 'listSimulationMovements'] as const

/** POST /simulations/{id}/parts ('Adding part failed'). */
export function useCreatePartMutation(simulationId: number) {
  return useSetupMutation({
    mutationFn: (body: PartCreate) => callApi('createPart', { ...paramsOf(simulationId), body }),
    failure: { action: 'add', entity: 'part' },
    invalidate: AFTER_PART_EDIT,
  })
}

/** PUT /parts/{id}, applied to the list at once ('Updating part failed', rolled back). */
export function useUpdatePartMutation(simulationId: number) {
  return useSetupMutation({
    mutationFn: (input: { partId: number; update: PartUpdate }) =>
      callApi('updatePart', { ...paramsOf(input.partId), body: input.update }),
    failure: { action: 'update', entity: 'part' },
    optimistic: [
      {
        queryKey: partsKey(simulationId),
        update: (parts: Part[], input: { partId: number; update: PartUpdate }) =>
          parts.map((p) => (p.id === input.partId ? applyPartUpdate(p, input.update) : p)),
      },
    ],
    invalidate: AFTER_PART_EDIT,
  })
}

/** PUT /simulations/{id}/parts: one update for several parts at once (a multi-selection). */
export function useUpdatePartsMutation(simulationId: number) {
  return useSetupMutation({
    mutationFn: (input: { partIds: readonly number[]; update: PartUpdate }) =>
      callApi('updateParts', {
        ...paramsOf(simulationId),
        body: input.partIds.map((id) => ({ id, ...input.update })),
      }),
    failure: { action: 'update', entity: 'part' },
    optimistic: [
      {
        queryKey: partsKey(simulationId),
        update: (parts: Part[], input: { partIds: readonly number[]; update: PartUpdate }) =>
          parts.map((p) => (input.partIds.includes(p.id) ? applyPartUpdate(p, input.update) : p)),
      },
    ],
    invalidate: AFTER_PART_EDIT,
  })
}

/** DELETE /parts/{id} ('Deleting part failed'); gone from the list at once. */
export function useDeletePartMutation(simulationId: number) {
  return useSetupMutation({
    mutationFn: (partId: number) => callApi('deletePart', paramsOf(partId)),
    failure: { action: 'delete', entity: 'part' },
    optimistic: [
      {
        queryKey: partsKey(simulationId),
        update: (parts: Part[], partId: number) => parts.filter((p) => p.id !== partId),
      },
    ],
    invalidate: AFTER_PART_EDIT,
  })
}
