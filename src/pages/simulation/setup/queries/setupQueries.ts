import { useQuery } from '@tanstack/react-query'
import { isJobActive } from '../../../../../domain/jobs.ts'
import { callApi } from '../../../../api/index.ts'
import { routeKey } from '../../../../queries/queries.ts'

/*
 * Server state of the Setup view, keyed by route like every query (src/queries/queries.ts): the
 * live channel and mutations write and invalidate the same keys. One hook per route.
 */

/** `{ params: { id } }` of a simulation (or any id) route. */
export const paramsOf = (id: number) => ({ params: { id: String(id) } })
/** Sensors and volume clips of the setup (no run chosen). */
const SETUP_RUN = {}

/** Discretization progress is polled every 0.5 s while it runs (spec/results.md job widgets). */
export const DISCRETIZATION_POLL_MS = 500

export function useSettingsQuery(simulationId: number) {
  const input = paramsOf(simulationId)
  return useQuery({
    queryKey: routeKey('getSettings', input),
    queryFn: ({ signal }) => callApi('getSettings', input, { signal }),
  })
}

export function usePartsQuery(simulationId: number) {
  const input = paramsOf(simulationId)
  return useQuery({
    queryKey: routeKey('listParts', input),
    queryFn: ({ signal }) => callApi('listParts', input, { signal }),
  })
}

export function useMaterialsQuery(simulationId: number) {
  const input = paramsOf(simulationId)
  return useQuery({
    queryKey: routeKey('listMaterials', input),
    queryFn: ({ signal }) => callApi('listMaterials', input, { signal }),
  })
}

export function useMaterialPresetsQuery() {
  return useQuery({
    queryKey: routeKey('materialPresets'),
    queryFn: ({ signal }) => callApi('materialPresets', {}, { signal }),
    staleTime: 60 * 60_000,
  })
}

export function useMovementsQuery(simulationId: number) {
  const input = paramsOf(simulationId)
  return useQuery({
    queryKey: routeKey('listSimulationMovements', input),
    queryFn: ({ signal }) => callApi('listSimulationMovements', input, { signal }),
  })
}

export function useCalcDomainQuery(simulationId: number) {
  const input = paramsOf(simulationId)
  return useQuery({
    queryKey: routeKey('getCalcDomain', input),
    queryFn: ({ signal }) => callApi('getCalcDomain', input, { signal }),
  })
}

/** The Input Validation bar (the same key as the run controls' query, so both stay in step). */
export function useSetupIssuesQuery(simulationId: number) {
  const input = paramsOf(simulationId)
  return useQuery({
    queryKey: routeKey('getSetupValidation', input),
    queryFn: ({ signal }) => callApi('getSetupValidation', input, { signal }),
  })
}

export function useSetupSensorsQuery(simulationId: number) {
  const input = { ...paramsOf(simulationId), query: SETUP_RUN }
  return useQuery({
    queryKey: routeKey('listSensors', input),
    queryFn: ({ signal }) => callApi('listSensors', input, { signal }),
  })
}

export function useSetupVolumeClipsQuery(simulationId: number) {
  const input = { ...paramsOf(simulationId), query: SETUP_RUN }
  return useQuery({
    queryKey: routeKey('listVolumeClips', input),
    queryFn: ({ signal }) => callApi('listVolumeClips', input, { signal }),
  })
}

/** The latest discretization, polled every 0.5 s while it is scheduled or running. */
export function useDiscretizationQuery(simulationId: number) {
  const input = paramsOf(simulationId)
  return useQuery({
    queryKey: routeKey('getDiscretization', input),
    queryFn: ({ signal }) => callApi('getDiscretization', input, { signal }),
    refetchInterval: (query) =>
      query.state.data && isJobActive(query.state.data.state) ? DISCRETIZATION_POLL_MS : false,
  })
}

/** The first `pageLimit` rows of a datatable (null id: no table, nothing fetched). */
export function useDatatableQuery(tableId: number | null, pageLimit: number) {
  const input = {
    ...paramsOf(tableId ?? 0),
    query: { pageLimit: String(pageLimit), pageNumber: '1' },
  }
  return useQuery({
    queryKey: routeKey('getDatatable', input),
    queryFn: ({ signal }) => callApi('getDatatable', input, { signal }),
    enabled: tableId !== null,
  })
}
