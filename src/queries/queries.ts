import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { simulationPollIntervalMs } from '../../domain/constants.ts'
import type { Feature } from '../../domain/account.ts'
import type { RouteInput, RouteName } from '../../domain/rest.ts'
import { isApiError } from '../api/ApiError.ts'
import { callApi, tokenStore } from '../api/index.ts'

/**
 * Server state is keyed by route: [route name, input]. Invalidating ['listProjects'] refreshes
 * every projects list (pages and pickers) at once.
 */
export function routeKey<N extends RouteName>(name: N, input?: RouteInput<N>) {
  return input === undefined ? ([name] as const) : ([name, input] as const)
}

export function useCurrentUserQuery(enabled = true) {
  return useQuery({
    queryKey: routeKey('currentUser'),
    queryFn: async ({ signal }) => {
      try {
        return await callApi('currentUser', {}, { signal })
      } catch (error) {
        // Still refused after a refresh: these tokens are worthless, so the login page must not reuse them.
        if (isApiError(error) && error.status === 401) tokenStore.clear()
        throw error
      }
    },
    staleTime: 5 * 60_000,
    enabled,
  })
}

/** The organization the user acts in (with its features). */
export function useOrganizationQuery(organizationId: number | undefined) {
  return useQuery({
    queryKey: routeKey('organizations'),
    queryFn: ({ signal }) => callApi('organizations', {}, { signal }),
    staleTime: 5 * 60_000,
    enabled: organizationId !== undefined,
    select: (organizations) => organizations.find((o) => o.id === organizationId) ?? null,
  })
}

/** Whether the organization has a feature; false until known. */
export function useHasFeature(organizationId: number | undefined, feature: Feature): boolean {
  const { data } = useOrganizationQuery(organizationId)
  return data?.features.includes(feature) ?? false
}

export function useStorageConsumptionQuery() {
  return useQuery({
    queryKey: routeKey('storageConsumption'),
    queryFn: ({ signal }) => callApi('storageConsumption', {}, { signal }),
    staleTime: 60_000,
  })
}

export type ProjectListInput = NonNullable<RouteInput<'listProjects'>['query']>

export function useProjectsQuery(query: ProjectListInput) {
  return useQuery({
    queryKey: routeKey('listProjects', { query }),
    queryFn: ({ signal }) => callApi('listProjects', { query }, { signal }),
    placeholderData: keepPreviousData,
  })
}

/** Every project the user may see, names and simulation names only (pickers). */
export function useSlimProjectsQuery(enabled = true) {
  const query = { slim: true } as const
  return useQuery({
    queryKey: routeKey('listProjects', { query }),
    queryFn: ({ signal }) => callApi('listProjects', { query }, { signal }),
    enabled,
  })
}

export function useTeamUsersQuery(enabled: boolean) {
  return useQuery({
    queryKey: routeKey('teamUsers'),
    queryFn: ({ signal }) => callApi('teamUsers', {}, { signal }),
    enabled,
    staleTime: 5 * 60_000,
  })
}

/** One simulation, polled at 5 s while it is busy and at 60 s otherwise. */
export function useSimulationQuery(id: string) {
  const params = { id }
  return useQuery({
    queryKey: routeKey('getSimulation', { params }),
    queryFn: ({ signal }) => callApi('getSimulation', { params }, { signal }),
    refetchInterval: (query) =>
      query.state.data ? simulationPollIntervalMs(query.state.data.state) : false,
  })
}
