import { useId, useState } from 'react'
import {
  CHOOSE_GRAPH_MESSAGE,
  LOG_GRAPHS,
  LOG_GRAPH_LABELS,
  type GraphSource,
  type UploadedGraph,
} from '../../../../domain/dashboards.ts'
import type { Sensor } from '../../../../domain/meshes.ts'
import { Dialog } from '../../../components/Dialog.tsx'

/** The key of a graph choice in the list (log:particles, sensor:3:pressure, custom:5). */
function choiceKey(source: GraphSource): string {
  if (source.kind === 'log') return `log:${source.graph}`
  if (source.kind === 'sensor') return `sensor:${source.sensorId}:${source.quantity}`
  return `custom:${source.graphId}`
}

/** The title of a graph tile. */
export function graphTitle(
  source: GraphSource,
  sensors: readonly Pick<Sensor, 'id' | 'name'>[],
  graphs: readonly Pick<UploadedGraph, 'id' | 'name'>[],
): string {
  if (source.kind === 'log') return LOG_GRAPH_LABELS[source.graph].title
  if (source.kind === 'sensor') {
    const name = sensors.find((s) => s.id === source.sensorId)?.name ?? `Sensor ${source.sensorId}`
    return `${source.quantity === 'pressure' ? 'Pressure' : 'Velocity'} at ${name}`
  }
  return graphs.find((g) => g.id === source.graphId)?.name ?? 'Uploaded graph'
}

/**
 * Add Graph (spec §2): the solver's log graphs, each sensor's pressure and velocity, and the
 * uploaded graphs, one to choose; Add stays disabled until one is chosen ('Choose the graph').
 * An uploaded CSV of x;y rows becomes a new choice.
 */
export function AddGraphDialog({
  sensors,
  graphs,
  onAdd,
  onUpload,
  onClose,
}: {
  sensors: readonly Pick<Sensor, 'id' | 'name'>[]
  graphs: readonly Pick<UploadedGraph, 'id' | 'name'>[]
  onAdd: (source: GraphSource) => void
  onUpload: (input: { name: string; file: File }) => Promise<unknown>
  onClose: () => void
}) {
  const [chosen, setChosen] = useState<GraphSource | null>(null)
  const [uploadError, setUploadError] = useState<string | null>(null)
  const [uploading, setUploading] = useState(false)
  const hintId = useId()
  const choices: GraphSource[] = [
    ...LOG_GRAPHS.map((graph) => ({ kind: 'log', graph }) as const),
    ...sensors.flatMap((sensor) =>
      (['pressure', 'velocity'] as const).map(
        (quantity) => ({ kind: 'sensor', sensorId: sensor.id, quantity }) as const,
      ),
    ),
    ...graphs.map((graph) => ({ kind: 'custom', graphId: graph.id }) as const),
  ]
  return (
    <Dialog title="Add Graph" onClose={onClose} size="small">
      <form
        className="dialog__form"
        onSubmit={(event) => {
          event.preventDefault()
          if (chosen) onAdd(chosen)
        }}
      >
        <div className="dialog__body form">
          <fieldset className="dashboard-fieldset">
            <legend>Graph</legend>
            <div className="dashboard-choices" role="radiogroup" aria-label="Graph">
              {choices.map((source) => {
                const key = choiceKey(source)
                return (
                  <label key={key} className="checkbox">
                    <input
                      type="radio"
                      name="graph"
                      value={key}
                      checked={chosen !== null && choiceKey(chosen) === key}
                      onChange={() => setChosen(source)}
                    />
                    {graphTitle(source, sensors, graphs)}
                  </label>
                )
              })}
            </div>
          </fieldset>
          <label className="field">
            <span className="field__label">Upload a graph (CSV of x;y rows)</span>
            <input
              className="input input--file"
              type="file"
              accept=".csv,text/csv,text/plain"
              disabled={uploading}
              onChange={(event) => {
                const file = event.target.files?.[0]
                if (!file) return
                setUploading(true)
                setUploadError(null)
                onUpload({ name: file.name.replace(/\.[^.]*$/, ''), file })
                  .catch((error: unknown) =>
                    setUploadError(error instanceof Error ? error.message : 'Upload failed.'),
                  )
                  .finally(() => setUploading(false))
              }}
            />
          </label>
          {uploadError && (
            <p className="field__error" role="alert">
              {uploadError}
            </p>
          )}
          {chosen === null && (
            <p id={hintId} className="dialog__text">
              {CHOOSE_GRAPH_MESSAGE}
            </p>
          )}
        </div>
        <footer className="dialog__footer">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button
            type="submit"
            className="button button--primary"
            disabled={chosen === null}
            title={chosen === null ? CHOOSE_GRAPH_MESSAGE : undefined}
            aria-describedby={chosen === null ? hintId : undefined}
          >
            Add
          </button>
        </footer>
      </form>
    </Dialog>
  )
}
