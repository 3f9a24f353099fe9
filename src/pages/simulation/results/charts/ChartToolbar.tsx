import { useSetAtom } from 'jotai'
import { useId, useState } from 'react'
import {
  CHART_X_AXES,
  CHART_X_AXIS_LABELS,
  chartExportFileName,
  checkChartYRange,
  EMPTY_CHART_MESSAGE,
  INTERPOLATIONS,
  type ChartLayout,
  type ChartWindow,
} from '../../../../../domain/results.ts'
import { Dialog, DialogForm } from '../../../../components/Dialog.tsx'
import type { ChartInstanceRef } from './ChartCanvas.tsx'
import {
  buildChartCsvFile,
  CHART_EXPORT_FORMATS,
  renderChartPng,
  saveBlobAs,
  type ChartExportFormat,
} from './chartExport.ts'
import { datasetLayoutOf, parseYBound } from './chartModel.ts'
import { updateChartLayoutAtom } from './chartStore.ts'

const INTERPOLATION_LABELS: Record<ChartLayout['interpolation'], string> = {
  linear: 'Linear',
  monotoneX: 'Monotone',
}
const EXPORT_FORMAT_LABELS: Record<ChartExportFormat, string> = { csv: 'CSV', png: 'PNG' }

/** Interpolation, Y min and max (with their rule), reset, X axis, time indicator and export. */
export function ChartToolbar({
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

/** Export dialog: CSV (';'-separated) or PNG (white background), saved under the chart's name. */
export function ChartExportDialog({
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
