import { useQuery } from '@tanstack/react-query'
import type { AirDragDomain, AirDragDomainUpdate } from '../../../../../domain/airDrag.ts'
import type { MeshBody, RefinementUpdate } from '../../../../../domain/meshes.ts'
import type { PeriodicBoundaryUpdate } from '../../../../../domain/periodic.ts'
import { callApi } from '../../../../api/index.ts'
import { routeKey } from '../../../../queries/queries.ts'
import { paramsOf } from '../queries/setupQueries.ts'
import { useSetupMutation } from '../queries/useSetupMutation.ts'

/*
 * Server state of the refinement zones, the air drag domain and the periodic boundary
 * (domain/rest/setupObjectRoutes.ts), keyed by route; edits show the spec's failure toasts.
 */

export function useRefinementsQuery(simulationId: number) {
  const input = paramsOf(simulationId)
  return useQuery({
    queryKey: routeKey('listRefinements', input),
    queryFn: ({ signal }) => callApi('listRefinements', input, { signal }),
  })
}

const airDragDomainInput = (simulationId: number) => ({
  ...paramsOf(simulationId),
  query: { cache: 'true' as const },
})

export function useAirDragDomainQuery(simulationId: number) {
  const input = airDragDomainInput(simulationId)
  return useQuery({
    queryKey: routeKey('getAirDragDomain', input),
    queryFn: ({ signal }) => callApi('getAirDragDomain', input, { signal }),
  })
}

export function usePeriodicsQuery(simulationId: number) {
  const input = paramsOf(simulationId)
  return useQuery({
    queryKey: routeKey('listPeriodics', input),
    queryFn: ({ signal }) => callApi('listPeriodics', input, { signal }),
  })
}

/** A new refinement zone: its mesh first, then the zone ('Adding refinement zone failed'). */
export function useAddRefinementMutation(simulationId: number) {
  return useSetupMutation({
    mutationFn: async (input: { name: string; mesh: MeshBody }) => {
      const mesh = await callApi('createMesh', { ...paramsOf(simulationId), body: input.mesh })
      return callApi('createRefinement', {
        ...paramsOf(simulationId),
        body: { name: input.name, meshId: mesh.id },
      })
    },
    failure: { action: 'add', entity: 'refinement' },
    invalidate: ['listRefinements', 'getSettings'],
  })
}

/** What the refinement form changes: the zone, and its mesh's shape. */
export interface RefinementEdit {
  refinementId: number
  update?: RefinementUpdate
  mesh?: { meshId: number; body: MeshBody }
}

export function useUpdateRefinementMutation() {
  return useSetupMutation({
    mutationFn: async ({ refinementId, update, mesh }: RefinementEdit) => {
      if (mesh) await callApi('updateMesh', { ...paramsOf(mesh.meshId), body: mesh.body })
      return callApi('updateRefinement', { ...paramsOf(refinementId), body: update ?? {} })
    },
    failure: { action: 'update', entity: 'refinement' },
    invalidate: ['listRefinements'],
  })
}

export function useDeleteRefinementMutation() {
  return useSetupMutation({
    mutationFn: (refinementId: number) => callApi('deleteRefinement', paramsOf(refinementId)),
    failure: { action: 'delete', entity: 'refinement' },
    invalidate: ['listRefinements', 'getSettings'],
  })
}

/**
 * PUT the air drag domain ('Updating air drag domain failed'), applied to the cache at once: the
 * form's next edit (Size y after Size x) is built on this one, not on the value before it.
 */
export function useUpdateAirDragDomainMutation(simulationId: number) {
  return useSetupMutation({
    mutationFn: (update: AirDragDomainUpdate) =>
      callApi('updateAirDragDomain', { ...paramsOf(simulationId), body: update }),
    failure: { title: 'Updating air drag domain failed' },
    optimistic: [
      {
        queryKey: routeKey('getAirDragDomain', airDragDomainInput(simulationId)),
        update: (domain: AirDragDomain, update: AirDragDomainUpdate) => ({ ...domain, ...update }),
      },
    ],
    invalidate: ['getAirDragDomain'],
  })
}

/** Air drag on with a domain around the parts, or off (the domain is kept for later). */
export function useSwitchAirDragMutation(simulationId: number) {
  return useSetupMutation({
    mutationFn: async (input: { on: boolean; domain?: AirDragDomainUpdate }) => {
      if (input.domain)
        await callApi('updateAirDragDomain', { ...paramsOf(simulationId), body: input.domain })
      return callApi('updateSettings', {
        ...paramsOf(simulationId),
        body: { airDrag: input.on },
      })
    },
    failure: { action: 'update', entity: 'settings' },
    invalidate: ['getAirDragDomain', 'getSettings'],
  })
}

export function useAddPeriodicMutation(simulationId: number) {
  return useSetupMutation({
    mutationFn: (body: PeriodicBoundaryUpdate) =>
      callApi('createPeriodic', { ...paramsOf(simulationId), body }),
    failure: { action: 'add', entity: 'periodic' },
    invalidate: ['listPeriodics'],
  })
}

export function useUpdatePeriodicMutation() {
  return useSetupMutation({
    mutationFn: ({ id, update }: { id: number; update: PeriodicBoundaryUpdate }) =>
      callApi('updatePeriodic', { ...paramsOf(id), body: update }),
    failure: { action: 'update', entity: 'periodic' },
    invalidate: ['listPeriodics'],
  })
}

export function useDeletePeriodicMutation() {
  return useSetupMutation({
    mutationFn: (id: number) => callApi('deletePeriodic', paramsOf(id)),
    failure: { action: 'delete', entity: 'periodic' },
    invalidate: ['listPeriodics'],
  })
}
