import { useSetAtom } from 'jotai'
import { useState } from 'react'
import type { ChartWindow } from '../../../../../domain/results.ts'
import { datasetLayoutOf } from './chartModel.ts'
import {
  closeChartWindowAtom,
  removeChartDatasetAtom,
  renameChartWindowAtom,
  updateDatasetLayoutAtom,
  type ChartPanelDisplay,
} from './chartStore.ts'
import {
  IconFullscreen,
  IconHalfScreen,
  IconMaximize,
  IconMinimize,
  IconRestore,
} from './chartIcons.tsx'
import { DatasetEditDialog } from './DatasetEditDialog.tsx'

/** One tab: its name (double click renames it) and, with more than one window, a close button. */
export function ChartTab({
  chartWindow,
  active,
  closable,
  onSelect,
}: {
  chartWindow: ChartWindow
  active: boolean
  closable: boolean
  onSelect: () => void
}) {
  const rename = useSetAtom(renameChartWindowAtom)
  const close = useSetAtom(closeChartWindowAtom)
  const [draft, setDraft] = useState<string | null>(null)
  const name = chartWindow.layout.name

  const commit = () => {
    if (draft !== null) rename({ windowId: chartWindow.id, name: draft })
    setDraft(null)
  }

  return (
    <div className={`chart-tabs__tab${active ? ' chart-tabs__tab--active' : ''}`}>
      {draft === null ? (
        <button
          type="button"
          role="tab"
          aria-selected={active}
          className="chart-tabs__name"
          title="Double click to rename"
          onClick={onSelect}
          onDoubleClick={() => setDraft(name)}
        >
          {name}
        </button>
      ) : (
        <input
          className="input input--small chart-tabs__rename"
          aria-label="Chart name"
          value={draft}
          autoFocus
          onChange={(event) => setDraft(event.target.value)}
          onBlur={commit}
          onKeyDown={(event) => {
            if (event.key === 'Enter') commit()
            if (event.key === 'Escape') setDraft(null)
          }}
        />
      )}
      {closable && (
        <button
          type="button"
          className="chart-tabs__close"
          aria-label={`Close ${name}`}
          onClick={() => close(chartWindow.id)}
        >
          ×
        </button>
      )}
    </div>
  )
}

/** The datasets of a window: colour, name, an edit dialog and a remove button each. */
export function DatasetList({ chartWindow }: { chartWindow: ChartWindow }) {
  const updateDataset = useSetAtom(updateDatasetLayoutAtom)
  const removeDataset = useSetAtom(removeChartDatasetAtom)
  const [editingId, setEditingId] = useState<string | null>(null)
  const editingIndex = chartWindow.datasets.findIndex((dataset) => dataset.id === editingId)

  return (
    <>
      <ul className="chart-datasets" aria-label="Datasets">
        {chartWindow.datasets.map((dataset, index) => {
          const layout = datasetLayoutOf(chartWindow, dataset.id, index)
          return (
            <li key={dataset.id} className="chart-datasets__item">
              <span
                className={`chart-datasets__swatch chart-datasets__swatch--${layout.lineStyle}`}
                style={{ borderColor: layout.color, backgroundColor: layout.color }}
                aria-hidden="true"
              />
              <span className="chart-datasets__name">{layout.name}</span>
              <button
                type="button"
                className="button button--ghost button--small"
                aria-label={`Edit ${layout.name}`}
                onClick={() => setEditingId(dataset.id)}
              >
                Edit
              </button>
              <button
                type="button"
                className="button button--ghost button--small button--danger-text"
                aria-label={`Remove ${layout.name}`}
                onClick={() => removeDataset({ windowId: chartWindow.id, datasetId: dataset.id })}
              >
                Remove
              </button>
            </li>
          )
        })}
      </ul>
      {editingId !== null && editingIndex >= 0 && (
        <DatasetEditDialog
          layout={datasetLayoutOf(chartWindow, editingId, editingIndex)}
          onClose={() => setEditingId(null)}
          onSave={(layout) =>
            updateDataset({ windowId: chartWindow.id, datasetId: editingId, layout })
          }
        />
      )}
    </>
  )
}

/** The panel buttons: minimize, maximize, half-screen, fullscreen (one of the last three at a time). */
export function PanelButtons({
  display,
  forced,
  onChange,
}: {
  display: ChartPanelDisplay
  forced: boolean
  onChange: (display: ChartPanelDisplay) => void
}) {
  const toggle = (mode: 'maximized' | 'halfScreen' | 'fullscreen') =>
    onChange({
      minimized: false,
      maximized: false,
      halfScreen: false,
      fullscreen: false,
      [mode]: !display[mode],
    })
  return (
    <div className="chart-panel__buttons">
      <button
        type="button"
        className="icon-button icon-button--small"
        aria-label={display.minimized ? 'Restore charts' : 'Minimize charts'}
        aria-pressed={display.minimized}
        onClick={() => onChange({ ...display, minimized: !display.minimized })}
      >
        {display.minimized ? <IconRestore /> : <IconMinimize />}
      </button>
      <button
        type="button"
        className="icon-button icon-button--small"
        aria-label="Maximize charts"
        aria-pressed={display.maximized}
        disabled={forced}
        onClick={() => toggle('maximized')}
      >
        <IconMaximize />
      </button>
      <button
        type="button"
        className="icon-button icon-button--small"
        aria-label="Half-screen charts"
        aria-pressed={display.halfScreen}
        disabled={forced}
        onClick={() => toggle('halfScreen')}
      >
        <IconHalfScreen />
      </button>
      <button
        type="button"
        className="icon-button icon-button--small"
        aria-label="Fullscreen charts"
        aria-pressed={display.fullscreen}
        disabled={forced}
        onClick={() => toggle('fullscreen')}
      >
        <IconFullscreen />
      </button>
    </div>
  )
}
