import { useQuery, useQueryClient } from '@tanstack/react-query'
import { POLL_INTERVALS_MS } from '../../../../domain/constants.ts'
import { isJobActive } from '../../../../domain/jobs.ts'
import type { Simulation } from '../../../../domain/projects.ts'
import { callApi } from '../../../api/index.ts'
import { routeKey } from '../../../queries/queries.ts'

/*
 * Server state of the Run sidebar, keyed by route like every query: the latest user export, the
 * run's history and the alerts of a run. Job records of other pages (discretization, sensors,
 * tessellation) come from their own hooks, so the sidebar and those pages share one cache entry.
 */

const paramsOf = (id: number) => ({ params: { id: String(id) } })

/** The history refreshes while the run is active, as often as the busy simulation poll. */
const HISTORY_POLL_MS = POLL_INTERVALS_MS.simulationBusy

/** The latest user export, polled every 5 s while it runs (the Export panel's key). */
export function useUserExportQuery(simulationId: number) {
  const input = paramsOf(simulationId)
  return useQuery({
    queryKey: routeKey('getUserExport', input),
    queryFn: ({ signal }) => callApi('getUserExport', input, { signal }),
    refetchInterval: (query) => {
      const record = query.state.data?.export
      return record && isJobActive(record.state) ? POLL_INTERVALS_MS.userExport : false
    },
  })
}

/** Cancels the running export (its files are deleted) and stores the answer. */
export function useCancelUserExport(simulationId: number) {
  const queryClient = useQueryClient()
  const input = paramsOf(simulationId)
  return async () => {
    const reply = await callApi('cancelUserExport', input)
    queryClient.setQueryData(routeKey('getUserExport', input), reply)
  }
}

/** Whether the simulation's run is going on (its log still grows). */
export function isRunGoingOn(simulation: Simulation): boolean {
  return ['creating', 'launching', 'running', 'stopping'].includes(simulation.state)
}

/** The active run's history with levels (DEBUG entries come only to admins). */
export function useRunHistoryQuery(simulation: Simulation) {
  const input = { ...paramsOf(simulation.id), query: {} }
  return useQuery({
    queryKey: [...routeKey('getRunHistory', input), simulation.activeRunId],
    queryFn: ({ signal }) => callApi('getRunHistory', input, { signal }),
    refetchInterval: isRunGoingOn(simulation) ? HISTORY_POLL_MS : false,
  })
}

/** The alerts of a run (-1: the next run), with whether each triggered. */
export function useRunConditionsQuery(simulation: Simulation, runId: number, enabled = true) {
  const input = { ...paramsOf(simulation.id), query: { runId } }
  return useQuery({
    queryKey: [...routeKey('listConditions', input), simulation.state],
    queryFn: ({ signal }) => callApi('listConditions', input, { signal }),
    refetchInterval: runId !== -1 && isRunGoingOn(simulation) ? HISTORY_POLL_MS : false,
    enabled,
  })
}
