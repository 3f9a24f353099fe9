import { useMutation, useQueryClient } from '@tanstack/react-query'
import type { Part, PartUpdate } from '../../../../../domain/parts.ts'
import { geometryUpdateFailedMessage } from '../../../../../domain/setupMessages.ts'
import { messageOf } from '../../../../api/ApiError.ts'
import { callApi } from '../../../../api/index.ts'
import { usePushToast } from '../../../../components/Toasts.tsx'
import { routeKey } from '../../../../queries/queries.ts'
import { applyPartUpdate } from '../queries/partMutations.ts'
import { paramsOf } from '../queries/setupQueries.ts'

/** A change made in the 3D view: a gizmo drag ('geometry') or a seed-point drag ('seed_point'). */
export interface PlacePart {
  partId: number
  update: PartUpdate
  kind: 'geometry' | 'seed_point'
}

/** Refetched once a placement settles (as after every part edit). */
const AFTER_PLACEMENT = [
  'listParts',
  'listSimulationMovements',
  'getSetupValidation',
  'getSimulation',
]

/**
 * PUT /parts/{id} for what was dragged in the 3D view, applied to the parts at once and rolled
 * back when the server refuses (spec/setup.md §8): a refused gizmo drag says 'Could not update
 * geometry: {message}', a refused seed-point drag is only logged. `onRefused` lets the view put
 * the object back where the server has it.
 */
export function usePlacePartMutation(simulationId: number, onRefused: () => void) {
  const queryClient = useQueryClient()
  const pushToast = usePushToast()
  const partsKey = routeKey('listParts', paramsOf(simulationId))
  return useMutation({
    mutationFn: (input: PlacePart) =>
      callApi('updatePart', { ...paramsOf(input.partId), body: input.update }),
    onMutate: async (input) => {
      await queryClient.cancelQueries({ queryKey: partsKey })
      const previous = queryClient.getQueryData<Part[]>(partsKey)
      if (previous)
        queryClient.setQueryData<Part[]>(
          partsKey,
          previous.map((p) => (p.id === input.partId ? applyPartUpdate(p, input.update) : p)),
        )
      return { previous }
    },
    onError: (error, input, context) => {
      if (context?.previous) queryClient.setQueryData(partsKey, context.previous)
      if (input.kind === 'geometry')
        pushToast({ kind: 'error', title: geometryUpdateFailedMessage(messageOf(error)) })
      else console.warn(`Updating the seed point of part ${input.partId} failed:`, error)
      onRefused()
    },
    onSettled: () =>
      Promise.all(
        AFTER_PLACEMENT.map((name) => queryClient.invalidateQueries({ queryKey: [name] })),
      ),
  })
}
