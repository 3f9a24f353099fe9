import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import type { ConditionCreate } from '../../../../domain/conditions.ts'
import type { Simulation } from '../../../../domain/projects.ts'
import { callApi } from '../../../api/index.ts'
import { routeKey } from '../../../queries/queries.ts'
import { trackEvent } from '../../../analytics/analytics.ts'

/*
 * Server state of the run controls, keyed by route like every query; the live channel
 * (src/live/) writes into the same keys, so these refetch rarely.
 */

const paramsOf = (simulationId: number) => ({ params: { id: String(simulationId) } })

export function useSolversQuery() {
  return useQuery({
    queryKey: routeKey('listSolvers'),
    queryFn: ({ signal }) => callApi('listSolvers', {}, { signal }),
    staleTime: 5 * 60_000,
  })
}

/** The Input Validation bar's verdict (not asked for uploaded setups, which are not checked). */
export function useSetupValidationQuery(simulation: Simulation) {
  const input = paramsOf(simulation.id)
  return useQuery({
    queryKey: routeKey('getSetupValidation', input),
    queryFn: ({ signal }) => callApi('getSetupValidation', input, { signal }),
    enabled: !simulation.uploadedSetup && simulation.state === 'not started',
    staleTime: 10_000,
  })
}

export function useNextRunConditionsQuery(simulationId: number, enabled: boolean) {
  const input = { ...paramsOf(simulationId), query: { runId: -1 } }
  return useQuery({
    queryKey: routeKey('listConditions', input),
    queryFn: ({ signal }) => callApi('listConditions', input, { signal }),
    enabled,
  })
}

/** Writes a simulation the server returned into its cache entry. */
function useStoreSimulation() {
  const queryClient = useQueryClient()
  return (simulation: Simulation) => {
    queryClient.setQueryData(routeKey('getSimulation', paramsOf(simulation.id)), simulation)
    void queryClient.invalidateQueries({ queryKey: ['listJobs'] })
    void queryClient.invalidateQueries({ queryKey: ['listProjects'] })
  }
}

export function useStartRunMutation(simulationId: number) {
  const storeSimulation = useStoreSimulation()
  return useMutation({
    mutationFn: (input: { cores: number; solverId: number; resume: boolean }) =>
      callApi('startJob', {
        ...paramsOf(simulationId),
        query: { resume: input.resume },
        body: { cores: input.cores, solver_id: input.solverId },
      }),
    onSuccess: (simulation) => {
      storeSimulation(simulation)
      trackEvent('ui_simulation_started', { simulationId })
    },
  })
}

export function useStopRunMutation(simulationId: number) {
  const storeSimulation = useStoreSimulation()
  return useMutation({
    mutationFn: () => callApi('stopJob', paramsOf(simulationId)),
    onSuccess: storeSimulation,
  })
}

export function useUnlockSetupMutation(simulationId: number) {
  const storeSimulation = useStoreSimulation()
  return useMutation({
    mutationFn: () => callApi('unlockSetup', paramsOf(simulationId)),
    onSuccess: storeSimulation,
  })
}

export function useAddConditionMutation(simulationId: number) {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (body: Pick<ConditionCreate, 'valueType' | 'action' | 'threshold'>) =>
      callApi('createCondition', { ...paramsOf(simulationId), body }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['listConditions'] }),
  })
}

export function useDeleteConditionMutation() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (conditionId: number) =>
      callApi('deleteCondition', { params: { id: String(conditionId) } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['listConditions'] }),
  })
}
