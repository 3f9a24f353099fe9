import { useAtom, useAtomValue, useSetAtom } from 'jotai'
import { selectAtom } from 'jotai/utils'
import { useEffect, useId, useRef, useState, useSyncExternalStore } from 'react'
import { SMALL_SCREEN_WIDTH_PX } from '../../../../../domain/constants.ts'
import type { Simulation } from '../../../../../domain/projects.ts'
import {
  canCloseChartWindow,
  CHART_X_AXES,
  CHART_X_AXIS_LABELS,
  chartExportFileName,
  chartWindowDisplay,
  checkChartYRange,
  EMPTY_CHART_MESSAGE,
  INTERPOLATIONS,
  type ChartLayout,
  type ChartWindow,
} from '../../../../../domain/results.ts'
import { Dialog, DialogForm } from '../../../../components/Dialog.tsx'
import { viewportStateAtom } from '../../../../state/viewportAtoms.ts'
import { ChartCanvas, type ChartInstanceRef } from './ChartCanvas.tsx'
import {
  buildChartCsvFile,
  CHART_EXPORT_FORMATS,
  renderChartPng,
  saveBlobAs,
  type ChartExportFormat,
} from './chartExport.ts'
import { datasetLayoutOf, outputIntervalOf, parseYBound } from './chartModel.ts'
import {
  activeChartWindowIdAtom,
  chartPanelDisplayAtom,
  chartWindowsAtom,
  claimChartsForSimulationAtom,
  closeChartWindowAtom,
  removeChartDatasetAtom,
  renameChartWindowAtom,
  updateChartLayoutAtom,
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
import './charts.css'

const INTERPOLATION_LABELS: Record<ChartLayout['interpolation'], string> = {
  linear: 'Linear',
  monotoneX: 'Monotone',
}
/** The shown output alone: snapshots change every frame (fps), the charts only care about this. */
const shownOutputAtom = selectAtom(
  viewportStateAtom,
  (state) => state.snapshot?.shownOutput ?? null,
)

const EXPORT_FORMAT_LABELS: Record<ChartExportFormat, string> = { csv: 'CSV', png: 'PNG' }

function subscribeToResize(onChange: () => void): () => void {
  window.addEventListener('resize', onChange)
  return () => window.removeEventListener('resize', onChange)
}

/** The browser window's width, px, following resizes. */
function useWindowWidthPx(): number {
  return useSyncExternalStore(
    subscribeToResize,
    () => window.innerWidth,
    () => SMALL_SCREEN_WIDTH_PX,
  )
}

/** One tab: its name (double click renames it) and, with more than one window, a close button. */
function ChartTab({
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

/** Interpolation, Y min and max (with their rule), reset, X axis, time indicator and export. */
function ChartToolbar({
  chartWindow,
  onExport,
}: {
  chartWindow: ChartWindow
  onExport: () => void
}) {
  const updateLayout = useSetAtom(updateChartLayoutAtom)
  const layout = chartWindow.layout
  const [minText, setMinText] = useState(layout.minY === null ? '' : String(layout.minY))
  const [maxText, setMaxText] = useState(layout.maxY === null ? '' : String(layout.maxY))
  const ids = { interpolation: useId(), min: useId(), max: useId(), x: useId(), error: useId() }
  const change = (next: Partial<Omit<ChartLayout, 'datasetLayouts'>>) =>
    updateLayout({ windowId: chartWindow.id, layout: next })
  const error = checkChartYRange(parseYBound(minText), parseYBound(maxText))[0]?.message ?? null

  return (
    <div className="chart-toolbar">
      <label className="chart-toolbar__field">
        <span>Interpolation</span>
        <select
          id={ids.interpolation}
          className="select select--compact"
          value={layout.interpolation}
          onChange={(event) =>
            change({ interpolation: event.target.value as ChartLayout['interpolation'] })
          }
        >
          {INTERPOLATIONS.map((interpolation) => (
            <option key={interpolation} value={interpolation}>
              {INTERPOLATION_LABELS[interpolation]}
            </option>
          ))}
        </select>
      </label>
      <label className="chart-toolbar__field">
        <span>Y min</span>
        <input
          id={ids.min}
          className={`input input--small chart-toolbar__number${error ? ' input--invalid' : ''}`}
          inputMode="decimal"
          placeholder="auto"
          value={minText}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? ids.error : undefined}
          onChange={(event) => {
            setMinText(event.target.value)
            change({ minY: parseYBound(event.target.value) })
          }}
        />
      </label>
      <label className="chart-toolbar__field">
        <span>Y max</span>
        <input
          id={ids.max}
          className={`input input--small chart-toolbar__number${error ? ' input--invalid' : ''}`}
          inputMode="decimal"
          placeholder="auto"
          value={maxText}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? ids.error : undefined}
          onChange={(event) => {
            setMaxText(event.target.value)
            change({ maxY: parseYBound(event.target.value) })
          }}
        />
      </label>
      <button
        type="button"
        className="button button--ghost button--small"
        onClick={() => {
          setMinText('')
          setMaxText('')
          change({ minY: null, maxY: null })
        }}
      >
        Reset
      </button>
      <label className="chart-toolbar__field">
        <span>X axis</span>
        <select
          id={ids.x}
          className="select select--compact"
          value={layout.xAxis}
          onChange={(event) => change({ xAxis: event.target.value as ChartLayout['xAxis'] })}
        >
          {CHART_X_AXES.map((axis) => (
            <option key={axis} value={axis}>
              {CHART_X_AXIS_LABELS[axis]}
            </option>
          ))}
        </select>
      </label>
      <label className="chart-toolbar__check">
        <input
          type="checkbox"
          checked={layout.timeIndicator}
          onChange={(event) => change({ timeIndicator: event.target.checked })}
        />
        <span>Time indicator</span>
      </label>
      <button
        type="button"
        className="button button--secondary button--small chart-toolbar__export"
        onClick={onExport}
      >
        Export
      </button>
      {error && (
        <p id={ids.error} className="field__error chart-toolbar__error" role="alert">
          {error}
        </p>
      )}
    </div>
  )
}

/** The datasets of a window: colour, name, an edit dialog and a remove button each. */
function DatasetList({ chartWindow }: { chartWindow: ChartWindow }) {
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

/** Export dialog: CSV (';'-separated) or PNG (white background), saved under the chart's name. */
function ChartExportDialog({
  simulationName,
  chartWindow,
  outputTimeIntervalS,
  chartRef,
  onClose,
}: {
  simulationName: string
  chartWindow: ChartWindow
  outputTimeIntervalS: number
  chartRef: ChartInstanceRef
  onClose: () => void
}) {
  const [format, setFormat] = useState<ChartExportFormat>('csv')
  const [failure, setFailure] = useState<string | null>(null)
  const empty = chartWindow.datasets.length === 0

  const exportChart = async () => {
    try {
      if (format === 'csv') {
        const file = buildChartCsvFile(simulationName, chartWindow, outputTimeIntervalS)
        saveBlobAs(file.blob, file.fileName)
      } else {
        const canvas = chartRef.current?.canvas
        if (!canvas) throw new Error('Could not find canvas element.')
        const legend = chartWindow.datasets.map((dataset, index) =>
          datasetLayoutOf(chartWindow, dataset.id, index),
        )
        const png = await renderChartPng(canvas, chartWindow.layout.name, legend)
        saveBlobAs(png, chartExportFileName(simulationName, chartWindow.layout.name, 'png'))
      }
      onClose()
    } catch (error) {
      setFailure(error instanceof Error ? error.message : String(error))
    }
  }

  return (
    <Dialog title="Export chart" subtitle={chartWindow.layout.name} onClose={onClose} size="small">
      <DialogForm
        onSubmit={() => void exportChart()}
        footer={
          <>
            <button type="button" className="button button--secondary" onClick={onClose}>
              Cancel
            </button>
            <button type="submit" className="button button--primary" disabled={empty}>
              Export
            </button>
          </>
        }
      >
        <fieldset className="chart-export__formats">
          <legend className="field__label">Format</legend>
          {CHART_EXPORT_FORMATS.map((option) => (
            <label key={option} className="chart-export__format">
              <input
                type="radio"
                name="chart-export-format"
                value={option}
                checked={format === option}
                onChange={() => setFormat(option)}
              />
              <span>{EXPORT_FORMAT_LABELS[option]}</span>
            </label>
          ))}
        </fieldset>
        <p className="field__hint">
          {chartExportFileName(simulationName, chartWindow.layout.name, format)}
        </p>
        {empty && <p className="field__hint">{EMPTY_CHART_MESSAGE}</p>}
        {failure && (
          <p className="field__error" role="alert">
            {failure}
          </p>
        )}
      </DialogForm>
    </Dialog>
  )
}

/** The panel buttons: minimize, maximize, half-screen, fullscreen (one of the last three at a time). */
function PanelButtons({
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

/**
 * The stats chart window system of the Results screen: one tab per chart window, the active
 * window's chart (chart.js) with its controls and datasets, and the panel's display modes. Below
 * 1700 px the panel is minimized when the screen gets that narrow and opens fullscreen.
 */
export function ChartWindows({ simulation }: { simulation: Simulation }) {
  const windows = useAtomValue(chartWindowsAtom)
  const [activeId, setActiveId] = useAtom(activeChartWindowIdAtom)
  const [requested, setRequested] = useAtom(chartPanelDisplayAtom)
  const shownOutput = useAtomValue(shownOutputAtom)
  const widthPx = useWindowWidthPx()
  const chartRef: ChartInstanceRef = useRef(null)
  const [exporting, setExporting] = useState(false)
  const outputTimeIntervalS = outputIntervalOf(simulation)
  const claimCharts = useSetAtom(claimChartsForSimulationAtom)
  useEffect(() => claimCharts(simulation.id), [claimCharts, simulation.id])

  const smallScreen = chartWindowDisplay(widthPx, requested).forced
  // Entering the small-screen layout forces the panel minimized; opened again, it is fullscreen.
  useEffect(() => {
    if (smallScreen) setRequested((display) => ({ ...display, minimized: true }))
  }, [smallScreen, setRequested])
  const display: ChartPanelDisplay = smallScreen
    ? { minimized: requested.minimized, maximized: false, halfScreen: false, fullscreen: true }
    : requested

  // Escape leaves an overlaying panel: docked again, or minimized where it is forced fullscreen.
  const overlaying = !display.minimized && (display.fullscreen || display.halfScreen)
  useEffect(() => {
    if (!overlaying) return
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented) return
      // A dialog or a field (a tab being renamed) takes its own Escape.
      if (document.querySelector('[role="dialog"]') || event.target instanceof HTMLInputElement)
        return
      setRequested((current) =>
        smallScreen
          ? { ...current, minimized: true }
          : { ...current, fullscreen: false, halfScreen: false },
      )
    }
    window.addEventListener('keydown', onKeyDown)
    return () => window.removeEventListener('keydown', onKeyDown)
  }, [overlaying, smallScreen, setRequested])

  const active = windows.find((chartWindow) => chartWindow.id === activeId) ?? windows.at(-1)
  const closable = canCloseChartWindow(windows.length)
  const modeClass = display.minimized
    ? ' chart-panel--minimized'
    : display.fullscreen
      ? ' chart-panel--fullscreen'
      : display.halfScreen
        ? ' chart-panel--half'
        : display.maximized
          ? ' chart-panel--maximized'
          : ''

  return (
    <section className={`chart-panel${modeClass}`} aria-label="Charts">
      <header className="chart-panel__header">
        {/* A tab list only when there are tabs: an empty one has no required tab (issue 23). */}
        {windows.length === 0 ? (
          <div className="chart-tabs">
            <span className="chart-tabs__title">Charts</span>
          </div>
        ) : (
          <div className="chart-tabs" role="tablist" aria-label="Chart windows">
            {windows.map((chartWindow) => (
              <ChartTab
                key={chartWindow.id}
                chartWindow={chartWindow}
                active={chartWindow.id === active?.id}
                closable={closable}
                onSelect={() => {
                  setActiveId(chartWindow.id)
                  if (display.minimized) setRequested({ ...requested, minimized: false })
                }}
              />
            ))}
          </div>
        )}
        <PanelButtons display={display} forced={smallScreen} onChange={setRequested} />
      </header>
      {!display.minimized && (
        <div className="chart-panel__body" role={active ? 'tabpanel' : undefined}>
          {active && (
            <ChartToolbar
              key={`toolbar-${active.id}`}
              chartWindow={active}
              onExport={() => setExporting(true)}
            />
          )}
          {!active || active.datasets.length === 0 ? (
            <p className="chart-panel__empty">{EMPTY_CHART_MESSAGE}</p>
          ) : (
            <div className="chart-panel__plot">
              <ChartCanvas
                window={active}
                outputTimeIntervalS={outputTimeIntervalS}
                shownOutput={shownOutput}
                chartRef={chartRef}
              />
            </div>
          )}
          {active && <DatasetList key={`datasets-${active.id}`} chartWindow={active} />}
        </div>
      )}
      {exporting && active && (
        <ChartExportDialog
          simulationName={simulation.name}
          chartWindow={active}
          outputTimeIntervalS={outputTimeIntervalS}
          chartRef={chartRef}
          onClose={() => setExporting(false)}
        />
      )}
    </section>
  )
}
