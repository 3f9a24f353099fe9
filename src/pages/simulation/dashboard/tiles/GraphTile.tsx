import {
  Chart as ChartJS,
  LinearScale,
  LineController,
  LineElement,
  LogarithmicScale,
  PointElement,
  Tooltip,
  type ChartData,
} from 'chart.js'
import { useEffect, useMemo, useState } from 'react'
import { flushSync } from 'react-dom'
import { Line } from 'react-chartjs-2'
import { graphSettingsErrors, type GraphSettings } from '../../../../../domain/dashboards.ts'
import { LOG_GRAPH_POINTS } from '../../../../../domain/logGraphs.ts'
import { Dialog } from '../../../../components/Dialog.tsx'
import { enqueueChartUpdate } from '../chartQueue.ts'
import {
  buildGraphSeries,
  drawablePoints,
  graphChartOptions,
  thinPoints,
  type GraphInput,
  type GraphPoint,
  type GraphSeries,
} from '../graphData.ts'

ChartJS.register(LineController, LineElement, PointElement, LinearScale, LogarithmicScale, Tooltip)

const LINE_COLOUR = '#2D69B2'
/**
 * Points a tile draws at most: a 6-column tile is about 750 px wide, a bucket's low and high every
 * 2.5 px. chart.js makes an element per point: 1,500 points in each of 12 tiles made every refresh
 * a main-thread long task (bench/browser/dashboard.bench.ts).
 */
const MAX_DRAWN_POINTS = LOG_GRAPH_POINTS

interface DrawnGraph {
  settings: GraphSettings
  input: GraphInput
  series: GraphSeries
  points: GraphPoint[]
}

/** The series and the points a chart draws (thinned, without what a log axis cannot place). */
function drawnGraph(settings: GraphSettings, input: GraphInput): DrawnGraph {
  const series = buildGraphSeries(settings, input)
  const points = thinPoints(drawablePoints(series.points, settings.logValues), MAX_DRAWN_POINTS)
  return { settings, input, series, points }
}

/** True when this browser gives canvases a 2D context (chart.js draws nothing without one). */
function canDrawCharts(): boolean {
  try {
    return document.createElement('canvas').getContext('2d') !== null
  } catch {
    return false
  }
}
const CHARTS_DRAWABLE = typeof document !== 'undefined' && canDrawCharts()

/**
 * A graph tile's chart: the series drawn with chart.js, a count of its points for readers (and
 * tests: `data-points`), or what is missing when there is nothing to draw.
 */
export function GraphChart({
  settings,
  input,
  emptyText,
}: {
  settings: GraphSettings
  input: GraphInput
  emptyText: string
}) {
  const [shown, setShown] = useState(() => drawnGraph(settings, input))
  useEffect(() => {
    if (shown.input === input && shown.settings === settings) return
    // flushSync: this chart's series, render and chart.js update happen in this task, not with
    // the next tiles' in one long task at every refresh.
    return enqueueChartUpdate(() => flushSync(() => setShown(drawnGraph(settings, input))))
  }, [input, settings, shown])
  const { series, points } = shown
  const data = useMemo<ChartData<'line', { x: number; y: number }[]>>(
    () => ({
      datasets: [
        {
          label: series.yTitle,
          data: points,
          borderColor: LINE_COLOUR,
          backgroundColor: LINE_COLOUR,
        },
      ],
    }),
    [points, series.yTitle],
  )
  const { xTitle, yTitle } = series
  const shownSettings = shown.settings
  // Options change only with the settings or titles: new options make chart.js lay out again.
  const options = useMemo(
    () => graphChartOptions(shownSettings, { xTitle, yTitle }),
    [shownSettings, xTitle, yTitle],
  )
  const summary =
    points.length === 0
      ? emptyText
      : `${points.length} points, ${series.yTitle} against ${series.xTitle}`
  return (
    <div className="dashboard-graph" data-points={points.length}>
      {points.length === 0 ? (
        <p className="placeholder__text">{emptyText}</p>
      ) : (
        <>
          {CHARTS_DRAWABLE && (
            <div className="dashboard-graph__canvas">
              <Line data={data} options={options} updateMode="none" aria-hidden="true" />
            </div>
          )}
          <p className="visually-hidden">{summary}</p>
        </>
      )}
    </div>
  )
}

function numberOrNull(text: string): number | null {
  if (text.trim() === '') return null
  const value = Number(text)
  return Number.isFinite(value) ? value : null
}

/** The graph settings dialog: log values, automatic or manual ranges, percentage on the x axis. */
export function GraphSettingsDialog({
  title,
  settings,
  onSave,
  onClose,
}: {
  title: string
  settings: GraphSettings
  onSave: (settings: GraphSettings) => void
  onClose: () => void
}) {
  const [draft, setDraft] = useState(settings)
  const [texts, setTexts] = useState({
    xMin: settings.xMin?.toString() ?? '',
    xMax: settings.xMax?.toString() ?? '',
    yMin: settings.yMin?.toString() ?? '',
    yMax: settings.yMax?.toString() ?? '',
  })
  const next: GraphSettings = {
    ...draft,
    xMin: numberOrNull(texts.xMin),
    xMax: numberOrNull(texts.xMax),
    yMin: numberOrNull(texts.yMin),
    yMax: numberOrNull(texts.yMax),
  }
  const errors = graphSettingsErrors(next)
  const rangeInput = (key: keyof typeof texts, label: string, disabled: boolean) => (
    <label className="field field--inline">
      <span className="field__label">{label}</span>
      <input
        className="input"
        type="number"
        value={texts[key]}
        disabled={disabled}
        onChange={(event) => setTexts({ ...texts, [key]: event.target.value })}
      />
    </label>
  )
  return (
    <Dialog title={`Graph settings: ${title}`} onClose={onClose} size="small">
      <form
        className="dialog__form"
        onSubmit={(event) => {
          event.preventDefault()
          if (errors.length === 0) onSave(next)
        }}
      >
        <div className="dialog__body form">
          <label className="checkbox">
            <input
              type="checkbox"
              checked={draft.logValues}
              onChange={(event) => setDraft({ ...draft, logValues: event.target.checked })}
            />
            Logarithmic values
          </label>
          <label className="checkbox">
            <input
              type="checkbox"
              checked={draft.percentage}
              onChange={(event) => setDraft({ ...draft, percentage: event.target.checked })}
            />
            Progress in percent on the x axis
          </label>
          <fieldset className="dashboard-fieldset">
            <legend>X axis</legend>
            <label className="checkbox">
              <input
                type="checkbox"
                checked={draft.xAuto}
                onChange={(event) => setDraft({ ...draft, xAuto: event.target.checked })}
              />
              Automatic range
            </label>
            {rangeInput('xMin', 'X min', draft.xAuto)}
            {rangeInput('xMax', 'X max', draft.xAuto)}
          </fieldset>
          <fieldset className="dashboard-fieldset">
            <legend>Y axis</legend>
            <label className="checkbox">
              <input
                type="checkbox"
                checked={draft.yAuto}
                onChange={(event) => setDraft({ ...draft, yAuto: event.target.checked })}
              />
              Automatic range
            </label>
            {rangeInput('yMin', 'Y min', draft.yAuto)}
            {rangeInput('yMax', 'Y max', draft.yAuto)}
          </fieldset>
          {errors.map((error) => (
            <p key={error} className="field__error" role="alert">
              {error}
            </p>
          ))}
        </div>
        <footer className="dialog__footer">
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button button--primary" disabled={errors.length > 0}>
            Save
          </button>
        </footer>
      </form>
    </Dialog>
  )
}
