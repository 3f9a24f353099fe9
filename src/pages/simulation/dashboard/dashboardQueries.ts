import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import {
  GRAPH_REFRESH_MS,
  GRAPH_UPLOAD_PATH,
  UploadedGraphSchema,
  type TileCreate,
  type TileUpdate,
  type ViewCreate,
  type ViewUpdate,
  type VariableCreate,
} from '../../../../domain/dashboards.ts'
import { LOG_GRAPH_POINTS } from '../../../../domain/logGraphs.ts'
import type { Simulation } from '../../../../domain/projects.ts'
import {
  SimulationImagesSchema,
  simulationImagesPath,
} from '../../../../domain/rest/imageRoutes.ts'
import { callApi, api } from '../../../api/index.ts'
import { routeKey } from '../../../queries/queries.ts'
import * as v from 'valibot'

/*
 * Server state of the dashboard, keyed by route like every query. Views, templates and variables
 * change only through this page's mutations (which refresh them); graph data is polled every 10 s
 * (spec §9) while the run is active.
 */

const paramsOf = (id: number) => ({ params: { id: String(id) } })

/** True while a run writes new log lines (graphs poll only then). */
export function isRunLive(simulation: Simulation): boolean {
  return ['creating', 'launching', 'running', 'stopping', 'scheduled'].includes(simulation.state)
}

export function useDashboardViewsQuery(simulationId: number) {
  const input = paramsOf(simulationId)
  return useQuery({
    queryKey: routeKey('listDashboards', input),
    queryFn: ({ signal }) => callApi('listDashboards', input, { signal }),
  })
}

export function useTemplatesQuery() {
  return useQuery({
    queryKey: routeKey('listDashboardTemplates'),
    queryFn: ({ signal }) => callApi('listDashboardTemplates', {}, { signal }),
  })
}

export function useVariablesQuery(simulationId: number) {
  const input = paramsOf(simulationId)
  return useQuery({
    queryKey: routeKey('listVariables', input),
    queryFn: ({ signal }) => callApi('listVariables', input, { signal }),
  })
}

export function useUploadedGraphsQuery(simulationId: number) {
  const input = paramsOf(simulationId)
  return useQuery({
    queryKey: routeKey('listGraphs', input),
    queryFn: ({ signal }) => callApi('listGraphs', input, { signal }),
  })
}

/** The query key of the active run's log graphs. */
export function logGraphsKey(simulation: Simulation) {
  return [
    ...routeKey('getLogGraphs', { ...paramsOf(simulation.id), query: {} }),
    simulation.activeRunId,
  ]
}

/**
 * The active run's log graphs, thinned by the server to the points a tile draws: one query feeds
 * every log graph tile. The page refreshes it (useLogGraphsRefresh): on pushed progress, or every
 * 10 s as the fallback, while the run is live.
 */
export function useLogGraphsQuery(simulation: Simulation) {
  const input = { ...paramsOf(simulation.id), query: {} }
  return useQuery({
    queryKey: logGraphsKey(simulation),
    queryFn: ({ signal }) => callApi('getLogGraphs', input, { signal }),
    // A refresh brings new columns: comparing them deeply is work for nothing.
    structuralSharing: false,
    enabled: simulation.activeRunId !== null,
  })
}

/** A sensor's samples of the active run, every 10 s while live. */
export function useSensorSeriesQuery(simulation: Simulation, sensorId: number | null) {
  const input = {
    params: { id: String(sensorId ?? 0) },
    query: { maxPoints: String(LOG_GRAPH_POINTS) },
  }
  return useQuery({
    queryKey: [...routeKey('getSensorSeries', input), simulation.activeRunId],
    queryFn: ({ signal }) => callApi('getSensorSeries', input, { signal }),
    refetchInterval: isRunLive(simulation) ? GRAPH_REFRESH_MS : false,
    enabled: sensorId !== null && simulation.activeRunId !== null,
  })
}

export function useSensorsListQuery(simulationId: number) {
  const input = { ...paramsOf(simulationId), query: {} }
  return useQuery({
    queryKey: routeKey('listSensors', input),
    queryFn: ({ signal }) => callApi('listSensors', input, { signal }),
  })
}

/** The query key of a simulation's images (GET /simulations/{id}/images). */
export function simulationImagesKey(simulationId: number) {
  return ['simulationImages', simulationId] as const
}

/** The simulation's images (its Save Image pictures and post image), for the image tiles' picker. */
export function useSimulationImagesQuery(simulationId: number) {
  return useQuery({
    queryKey: simulationImagesKey(simulationId),
    queryFn: async ({ signal }) => {
      const response = await api.requestRaw({
        method: 'GET',
        path: simulationImagesPath(simulationId),
        expectedStatus: 200,
        signal,
      })
      return v.parse(SimulationImagesSchema, await response.json())
    },
  })
}

/** Mutations of the dashboard; each refreshes the views (or what it changed). */
export function useDashboardMutations(simulationId: number) {
  const queryClient = useQueryClient()
  const refreshViews = () =>
    queryClient.invalidateQueries({ queryKey: routeKey('listDashboards', paramsOf(simulationId)) })
  const refreshTemplates = () =>
    queryClient.invalidateQueries({ queryKey: routeKey('listDashboardTemplates') })
  const refreshVariables = () =>
    queryClient.invalidateQueries({ queryKey: routeKey('listVariables', paramsOf(simulationId)) })
  const refreshGraphs = () =>
    queryClient.invalidateQueries({ queryKey: routeKey('listGraphs', paramsOf(simulationId)) })
  return {
    createView: useMutation({
      mutationFn: (body: ViewCreate) =>
        callApi('createDashboard', { ...paramsOf(simulationId), body }),
      onSuccess: refreshViews,
    }),
    updateView: useMutation({
      mutationFn: ({ id, body }: { id: number; body: ViewUpdate }) =>
        callApi('updateDashboard', { params: { id: String(id) }, body }),
      onSuccess: refreshViews,
    }),
    deleteView: useMutation({
      mutationFn: (id: number) => callApi('deleteDashboard', { params: { id: String(id) } }),
      onSuccess: refreshViews,
    }),
    createTile: useMutation({
      mutationFn: ({ viewId, body }: { viewId: number; body: TileCreate }) =>
        callApi('createDashboardTile', { params: { id: String(viewId) }, body }),
      onSuccess: refreshViews,
    }),
    updateTile: useMutation({
      mutationFn: ({ id, body }: { id: number; body: TileUpdate }) =>
        callApi('updateDashboardTile', { params: { id: String(id) }, body }),
      onSuccess: refreshViews,
    }),
    deleteTile: useMutation({
      mutationFn: (id: number) => callApi('deleteDashboardTile', { params: { id: String(id) } }),
      onSuccess: refreshViews,
    }),
    createTemplate: useMutation({
      mutationFn: (body: { name: string; dashboardId: number }) =>
        callApi('createDashboardTemplate', { body: { ...body, copyCustom: false } }),
      onSuccess: refreshTemplates,
    }),
    deleteTemplate: useMutation({
      mutationFn: (id: number) =>
        callApi('deleteDashboardTemplate', { params: { id: String(id) } }),
      onSuccess: refreshTemplates,
    }),
    createVariable: useMutation({
      mutationFn: (body: VariableCreate) =>
        callApi('createVariable', { ...paramsOf(simulationId), body }),
      onSuccess: refreshVariables,
    }),
    deleteVariable: useMutation({
      mutationFn: (id: number) => callApi('deleteVariable', { params: { id: String(id) } }),
      onSuccess: refreshVariables,
    }),
    uploadGraph: useMutation({
      mutationFn: async (input: { name: string; file: File }) => {
        const form = new FormData()
        form.append('simulationId', String(simulationId))
        form.append('name', input.name)
        form.append('file', input.file)
        const response = await api.requestRaw({
          method: 'POST',
          path: GRAPH_UPLOAD_PATH,
          body: form,
          expectedStatus: 201,
        })
        return v.parse(UploadedGraphSchema, await response.json())
      },
      onSuccess: refreshGraphs,
    }),
  }
}
