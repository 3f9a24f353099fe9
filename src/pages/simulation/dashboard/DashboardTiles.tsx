import { useMemo, useState } from 'react'
import {
  type DashboardTile,
  type GraphSettings,
  type UploadedGraph,
  type Variable,
} from '../../../../domain/dashboards.ts'
import type { Sensor } from '../../../../domain/meshes.ts'
import type { Simulation } from '../../../../domain/projects.ts'
import { IconEdit } from '../../../components/icons.tsx'
import { graphTitle } from './AddGraphDialog.tsx'
import { useLogGraphsQuery, useSensorSeriesQuery } from './dashboardQueries.ts'
import type { GraphInput } from './graphData.ts'
import { ImageTileBody, NoteTileBody, VariablesTileBody } from './tiles/ContentTiles.tsx'
import { GraphChart, GraphSettingsDialog } from './tiles/GraphTile.tsx'
import {
  BudgetTileBody,
  DetailsTileBody,
  JobTileBody,
  ProgressTileBody,
} from './tiles/StatusTiles.tsx'
import { TileFrame } from './tiles/TileFrame.tsx'

/** What every tile may need from the page. */
export interface TileContext {
  simulation: Simulation
  sensors: readonly Sensor[]
  graphs: readonly UploadedGraph[]
  variables: readonly Variable[]
  nowMs: number
  onUpdate: (
    tileId: number,
    body: { graph?: GraphSettings; text?: string; imageId?: number | null },
  ) => Promise<unknown>
  onRemove: (tileId: number) => void
  /** Moves or resizes a tile from the keyboard (saved like a drag). */
  onArrange: (
    tile: DashboardTile,
    change: { dx: number; dy: number; dw: number; dh: number },
  ) => void
  onAddVariable: (variable: { name: string; value: string; unit: string }) => Promise<unknown>
  onRemoveVariable: (id: number) => void
  savingTileId: number | null
}

const TITLES = {
  details: 'Details',
  job: 'Jobs',
  progress: 'Progress',
  budget: 'Budget',
  note: 'Note',
  variables: 'Variables',
  image: 'Image',
} as const

/** The data of a graph tile, from the run's log, a sensor's samples or an uploaded graph. */
function useGraphInput(
  settings: GraphSettings,
  context: TileContext,
): { input: GraphInput; loading: boolean } {
  const source = settings.source
  const log = useLogGraphsQuery(context.simulation)
  const sensorSeries = useSensorSeriesQuery(
    context.simulation,
    source.kind === 'sensor' ? source.sensorId : null,
  )
  const logData = log.data
  const sensorData = sensorSeries.data
  const endTimeS = context.simulation.settings.endTime ?? 0
  const graph =
    source.kind === 'custom' ? context.graphs.find((g) => g.id === source.graphId) : undefined
  // One object per data version: the chart recomputes only when its data or settings change.
  const input = useMemo<GraphInput>(() => {
    if (source.kind === 'log') return { kind: 'log', graphs: logData }
    if (source.kind === 'sensor') return { kind: 'sensor', series: sensorData, endTimeS }
    return { kind: 'custom', graph }
  }, [source.kind, logData, sensorData, endTimeS, graph])
  const loading =
    source.kind === 'log' ? log.isLoading : source.kind === 'sensor' && sensorSeries.isLoading
  return { input, loading }
}

function GraphTile({
  tile,
  settings,
  context,
}: {
  tile: DashboardTile
  settings: GraphSettings
  context: TileContext
}) {
  const [editing, setEditing] = useState(false)
  const { input, loading } = useGraphInput(settings, context)
  const title = graphTitle(settings.source, context.sensors, context.graphs)
  const emptyText = loading
    ? 'Loading…'
    : context.simulation.activeRunId === null && settings.source.kind !== 'custom'
      ? 'No data yet: the graph fills while the simulation runs.'
      : 'No data to display yet.'
  return (
    <TileFrame
      title={title}
      onRemove={() => context.onRemove(tile.id)}
      onArrange={(change) => context.onArrange(tile, change)}
      actions={
        <button
          type="button"
          className="icon-button"
          aria-label={`Graph settings of ${title}`}
          title="Graph settings"
          onClick={() => setEditing(true)}
        >
          <IconEdit />
        </button>
      }
    >
      <GraphChart settings={settings} input={input} emptyText={emptyText} />
      {editing && (
        <GraphSettingsDialog
          title={title}
          settings={settings}
          onClose={() => setEditing(false)}
          onSave={(graph) => {
            void context.onUpdate(tile.id, { graph }).then(() => setEditing(false))
          }}
        />
      )}
    </TileFrame>
  )
}

/** One tile of the grid, by its type. */
export function DashboardTileView({
  tile,
  context,
}: {
  tile: DashboardTile
  context: TileContext
}) {
  if (tile.type === 'graph') {
    if (!tile.graph) return null
    return <GraphTile tile={tile} settings={tile.graph} context={context} />
  }
  const title = TITLES[tile.type]
  const remove = () => context.onRemove(tile.id)
  const body = (() => {
    switch (tile.type) {
      case 'details':
        return <DetailsTileBody simulation={context.simulation} />
      case 'progress':
        return <ProgressTileBody simulation={context.simulation} nowMs={context.nowMs} />
      case 'budget':
        return <BudgetTileBody simulation={context.simulation} />
      case 'job':
        return <JobTileBody simulation={context.simulation} />
      case 'note':
        return (
          <NoteTileBody
            text={tile.text ?? ''}
            saving={context.savingTileId === tile.id}
            onSave={(text) => void context.onUpdate(tile.id, { text })}
          />
        )
      case 'variables':
        return (
          <VariablesTileBody
            variables={context.variables}
            onAdd={context.onAddVariable}
            onRemove={context.onRemoveVariable}
          />
        )
      case 'image':
        return (
          <ImageTileBody
            simulation={context.simulation}
            imageId={tile.imageId}
            saving={context.savingTileId === tile.id}
            onPick={(imageId) => void context.onUpdate(tile.id, { imageId })}
          />
        )
    }
  })()
  return (
    <TileFrame
      title={title}
      onRemove={remove}
      onArrange={(change) => context.onArrange(tile, change)}
    >
      {body}
    </TileFrame>
  )
}
