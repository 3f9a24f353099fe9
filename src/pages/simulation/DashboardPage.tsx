import { useEffect, useState } from 'react'
import {
  ADD_VIEW_FAILED_MESSAGE,
  defaultGraphSettings,
  placeTile,
  type DashboardView,
  type GraphSource,
} from '../../../domain/dashboards.ts'
import { messageOf } from '../../api/ApiError.ts'
import { usePushToast } from '../../components/Toasts.tsx'
import { IconPlus } from '../../components/icons.tsx'
import { AddGraphDialog } from './dashboard/AddGraphDialog.tsx'
import { DashboardGrid } from './dashboard/DashboardGrid.tsx'
import type { TileContext } from './dashboard/DashboardTiles.tsx'
import {
  useDashboardMutations,
  useDashboardViewsQuery,
  useSensorsListQuery,
  useTemplatesQuery,
  useUploadedGraphsQuery,
  useVariablesQuery,
} from './dashboard/dashboardQueries.ts'
import { useLogGraphsRefresh } from './dashboard/graphRefresh.ts'
import { ViewBar } from './dashboard/ViewBar.tsx'
import { RunNumericsCard } from './run/RunNumericsCard.tsx'
import { RunSidebar } from './sidebar/RunSidebar.tsx'
import './dashboard/dashboard.css'
import { useSimulationContext } from './SimulationLayout.tsx'

/** The clock the progress tile's launch delay reads, ticking once a minute. */
function useMinuteClock(): number {
  const [nowMs, setNowMs] = useState(() => Date.now())
  useEffect(() => {
    const timer = window.setInterval(() => setNowMs(Date.now()), 60_000)
    return () => window.clearInterval(timer)
  }, [])
  return nowMs
}

/**
 * Monitor (spec/results.md §2 Dashboard): the views of the simulation's dashboard, its tiles on a
 * 12-column grid, templates, the graph-unit switch and the floating Add Graph button; the Run
 * sidebar (src/pages/simulation/sidebar/) beside it.
 */
export function DashboardPage() {
  const { simulation } = useSimulationContext()
  const views = useDashboardViewsQuery(simulation.id)
  const templates = useTemplatesQuery()
  const variables = useVariablesQuery(simulation.id)
  const graphs = useUploadedGraphsQuery(simulation.id)
  const sensors = useSensorsListQuery(simulation.id)
  const mutations = useDashboardMutations(simulation.id)
  useLogGraphsRefresh(simulation)
  const pushToast = usePushToast()
  const nowMs = useMinuteClock()
  const [selectedId, setSelectedId] = useState<number | null>(null)
  const [addingGraph, setAddingGraph] = useState(false)

  if (views.isError)
    return (
      <p className="placeholder__text" role="alert">
        The dashboard could not be loaded. {messageOf(views.error)}
      </p>
    )
  if (!views.data) return <p className="placeholder__text">Loading the dashboard…</p>
  const current: DashboardView | undefined =
    views.data.find((view) => view.id === selectedId) ??
    views.data.find((view) => view.default) ??
    views.data[0]
  if (!current) return null

  const graphTiles = current.tiles.filter((tile) => tile.type === 'graph')
  const allPercentage = graphTiles.length > 0 && graphTiles.every((tile) => tile.graph?.percentage)
  const failed = (title: string) => (error: unknown) =>
    pushToast({ kind: 'error', title, description: messageOf(error) })

  const context: TileContext = {
    simulation,
    sensors: sensors.data ?? [],
    graphs: graphs.data ?? [],
    variables: variables.data ?? [],
    nowMs,
    savingTileId: mutations.updateTile.isPending
      ? (mutations.updateTile.variables?.id ?? null)
      : null,
    onUpdate: (id, body) =>
      mutations.updateTile.mutateAsync({ id, body }).catch(failed('Saving the tile failed')),
    onRemove: (id) =>
      mutations.deleteTile.mutate(id, { onError: failed('Removing the tile failed') }),
    onArrange: (tile, change) => {
      const place = placeTile(tile.type, {
        x: Math.max(0, tile.x + change.dx),
        y: Math.max(0, tile.y + change.dy),
        w: tile.w + change.dw,
        h: tile.h + change.dh,
      })
      mutations.updateView.mutate(
        { id: current.id, body: { tiles: [{ id: tile.id, ...place }] } },
        { onError: failed('Saving the layout failed') },
      )
    },
    onAddVariable: (variable) => mutations.createVariable.mutateAsync(variable),
    onRemoveVariable: (id) =>
      mutations.deleteVariable.mutate(id, { onError: failed('Removing the variable failed') }),
  }

  const addGraph = (source: GraphSource) => {
    mutations.createTile.mutate(
      { viewId: current.id, body: { type: 'graph', graph: defaultGraphSettings(source) } },
      { onSuccess: () => setAddingGraph(false), onError: failed('Adding the graph failed') },
    )
  }

  return (
    <div className="dashboard-layout">
      <div className="dashboard">
        <ViewBar
          views={views.data}
          current={current}
          templates={templates.data ?? []}
          onSelect={setSelectedId}
          onCreateView={({ name, templateId }) =>
            mutations.createView.mutateAsync({ name, templateId }).then(
              (view) => setSelectedId(view.id),
              (error: unknown) => {
                failed(ADD_VIEW_FAILED_MESSAGE)(error)
                throw error
              },
            )
          }
          onCreateTemplate={(name) =>
            mutations.createTemplate.mutateAsync({ name, dashboardId: current.id })
          }
          onDeleteTemplate={(id) =>
            mutations.deleteTemplate.mutateAsync(id).catch((error: unknown) => {
              failed('Deleting the template failed')(error)
              throw error
            })
          }
          onMakeDefault={() =>
            mutations.updateView.mutate(
              { id: current.id, body: { default: true } },
              { onError: failed('Making the view the default failed') },
            )
          }
          onDeleteView={() =>
            mutations.deleteView.mutate(current.id, {
              onSuccess: () => setSelectedId(null),
              onError: failed('Deleting the view failed'),
            })
          }
          percentage={allPercentage}
          onPercentageChange={(percentage) => {
            for (const tile of graphTiles)
              if (tile.graph && tile.graph.percentage !== percentage)
                void context.onUpdate(tile.id, { graph: { ...tile.graph, percentage } })
          }}
        />
        {current.tiles.length === 0 && (
          <p className="placeholder__text">
            This view has no tiles yet: add a graph with the button at the bottom right.
          </p>
        )}
        <DashboardGrid
          view={current}
          context={context}
          onPlacesChange={(tiles) =>
            mutations.updateView.mutate(
              { id: current.id, body: { tiles } },
              { onError: failed('Saving the layout failed') },
            )
          }
        />
        <RunNumericsCard simulation={simulation} />
        <button
          type="button"
          className="button button--primary dashboard-fab"
          onClick={() => setAddingGraph(true)}
        >
          <IconPlus /> Add graph
        </button>
        {addingGraph && (
          <AddGraphDialog
            sensors={sensors.data ?? []}
            graphs={graphs.data ?? []}
            onAdd={addGraph}
            onUpload={(input) => mutations.uploadGraph.mutateAsync(input)}
            onClose={() => setAddingGraph(false)}
          />
        )}
      </div>
      <RunSidebar simulation={simulation} mode="dashboard" />
    </div>
  )
}
