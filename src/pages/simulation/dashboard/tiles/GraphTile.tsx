import { useEffect, useMemo, useRef, useState } from 'react'
import { graphSettingsErrors, type GraphSettings } from '../../../../../domain/dashboards.ts'
import { LOG_GRAPH_POINTS } from '../../../../../domain/logGraphs.ts'
import {
  nearestPointIndex,
  pixelOf,
  tooltipPlacement,
  type GraphFrame,
} from '../../../../../engine/dashboard/graphFrame.ts'
import { Dialog } from '../../../../components/Dialog.tsx'
import {
  attachGraphChart,
  CHARTS_OFF_THREAD,
  chartSizeOf,
  detachGraphChart,
  drawGraphChart,
  onGraphChartReport,
  resizeGraphChart,
} from '../chartWorker.ts'
import {
  buildGraphSeries,
  drawablePoints,
  formatGraphValue,
  thinPoints,
  type GraphInput,
  type GraphPoint,
  type GraphSeries,
} from '../graphData.ts'

/**
 * Points a tile draws at most: a 6-column tile is about 750 px wide, a bucket's low and high every
 * 2.5 px (the server thins the log graphs to as many).
 */
const MAX_DRAWN_POINTS = LOG_GRAPH_POINTS

/** The series and the points a chart draws (thinned, without what a log axis cannot place). */
function drawnGraph(settings: GraphSettings, input: GraphInput) {
  const series: GraphSeries = buildGraphSeries(settings, input)
  const points = thinPoints(drawablePoints(series.points, settings.logValues), MAX_DRAWN_POINTS)
  return { series, points }
}

function flatten(points: readonly GraphPoint[]): Float64Array {
  const flat = new Float64Array(points.length * 2)
  points.forEach((point, i) => {
    flat[2 * i] = point.x
    flat[2 * i + 1] = point.y
  })
  return flat
}

/**
 * A graph tile's chart: the series drawn by chart.js in the chart worker on this tile's canvas
 * (the main thread only posts points), a count of its points for readers (and tests:
 * `data-points`), or what is missing when there is nothing to draw. A pointer over the plot shows
 * the nearest point's values, placed from the frame the worker reports (graphFrame.ts).
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
  const { series, points } = useMemo(() => drawnGraph(settings, input), [settings, input])
  const holderRef = useRef<HTMLDivElement>(null)
  const [chartId, setChartId] = useState<number | null>(null)
  const [frame, setFrame] = useState<GraphFrame | null>(null)
  const [hovered, setHovered] = useState<number | null>(null)
  // A canvas of our own per attachment: a canvas is handed to the worker only once.
  useEffect(() => {
    const holder = holderRef.current
    if (!holder || !CHARTS_OFF_THREAD) return
    const canvas = document.createElement('canvas')
    canvas.setAttribute('aria-hidden', 'true')
    holder.append(canvas)
    const id = attachGraphChart(canvas, chartSizeOf(holder))
    setChartId(id)
    const observer = new ResizeObserver(() => resizeGraphChart(id, chartSizeOf(holder)))
    observer.observe(holder)
    return () => {
      observer.disconnect()
      detachGraphChart(id)
      canvas.remove()
      setChartId(null)
    }
  }, [])
  useEffect(() => {
    if (chartId === null) return
    return onGraphChartReport((report) => {
      if (report.type === 'frame' && report.id === chartId) setFrame(report.frame)
    })
  }, [chartId])
  const { xTitle, yTitle } = series
  useEffect(() => {
    if (chartId === null) return
    drawGraphChart(chartId, { points: flatten(points), settings, xTitle, yTitle })
  }, [chartId, points, settings, xTitle, yTitle])
  const empty = points.length === 0
  const hoveredPoint = hovered === null ? undefined : points[hovered]
  const marker = frame && hoveredPoint ? pixelOf(frame, hoveredPoint.x, hoveredPoint.y) : null
  const placement = frame && marker ? tooltipPlacement(frame, marker.px, marker.py) : null
  return (
    <div className="dashboard-graph" data-points={points.length}>
      {empty && <p className="placeholder__text">{emptyText}</p>}
      <div
        className="dashboard-graph__plot"
        hidden={empty}
        onPointerMove={(event) => {
          if (!frame) return
          const rect = event.currentTarget.getBoundingClientRect()
          const x = event.clientX - rect.left
          const y = event.clientY - rect.top
          setHovered(nearestPointIndex(frame, points, x, y))
        }}
        onPointerLeave={() => setHovered(null)}
      >
        {/* The worker's canvas alone in its holder: React keeps out of what it did not render. */}
        <div className="dashboard-graph__canvas" ref={holderRef} />
        {hoveredPoint && marker && Number.isFinite(marker.py) && (
          <>
            <span
              className="dashboard-graph__marker"
              style={{ left: marker.px, top: marker.py }}
              aria-hidden="true"
            />
            <span
              className={`dashboard-graph__tooltip dashboard-graph__tooltip--${placement?.horizontal ?? 'right'} dashboard-graph__tooltip--${placement?.vertical ?? 'above'}`}
              role="tooltip"
              style={{ left: marker.px, top: marker.py }}
            >
              <span>{`${xTitle}: ${formatGraphValue(hoveredPoint.x)}`}</span>
              <span>{`${yTitle}: ${formatGraphValue(hoveredPoint.y)}`}</span>
            </span>
          </>
        )}
      </div>
      {!empty && (
        <p className="visually-hidden">{`${points.length} points, ${yTitle} against ${xTitle}`}</p>
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
