import { useQuery } from '@tanstack/react-query'
import type { AirDragDomain, AirDragDomainUpdate } from '../../../../../domain/airDrag.ts'
import type { Mesh, MeshBody, Refinement, RefinementUpdate } from '../../../../../domain/meshes.ts'
import type { PeriodicBoundary, PeriodicBoundaryUpdate } from '../../../../../domain/periodic.ts'
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

/** A zone with an edit applied, for the optimistic list (the server's answer replaces it). */
function applyRefinementEdit(zone: Refinement, { update, mesh }: RefinementEdit): Refinement {
  const { appearance, ...fields } = update ?? {}
  return {
    ...zone,
    ...fields,
    appearance: { ...zone.appearance, ...appearance },
    mesh: mesh ? ({ ...zone.mesh, ...mesh.body } as Mesh) : zone.mesh,
  }
}

/**
 * PUT a zone and its mesh, applied to the list at once: the form's next edit (Center y after
 * Center x) is built on this one, not on the value before it.
 */
export function useUpdateRefinementMutation(simulationId: number) {
  return useSetupMutation({
    mutationFn: async ({ refinementId, update, mesh }: RefinementEdit) => {
      if (mesh) await callApi('updateMesh', { ...paramsOf(mesh.meshId), body: mesh.body })
      return callApi('updateRefinement', { ...paramsOf(refinementId), body: update ?? {} })
    },
    failure: { action: 'update', entity: 'refinement' },
    optimistic: [
      {
        queryKey: routeKey('listRefinements', paramsOf(simulationId)),
        update: (zones: Refinement[], edit: RefinementEdit) =>
          zones.map((zone) =>
            zone.id === edit.refinementId ? applyRefinementEdit(zone, edit) : zone,
          ),
      },
    ],
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

/** PUT a periodic boundary, applied to the list at once (as the air drag domain's edits are). */
export function useUpdatePeriodicMutation(simulationId: number) {
  return useSetupMutation({
    mutationFn: ({ id, update }: { id: number; update: PeriodicBoundaryUpdate }) =>
      callApi('updatePeriodic', { ...paramsOf(id), body: update }),
    failure: { action: 'update', entity: 'periodic' },
    optimistic: [
      {
        queryKey: routeKey('listPeriodics', paramsOf(simulationId)),
        update: (list: PeriodicBoundary[], edit: { id: number; update: PeriodicBoundaryUpdate }) =>
          list.map((periodic) =>
            periodic.id === edit.id ? { ...periodic, ...edit.update } : periodic,
          ),
      },
    ],
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
