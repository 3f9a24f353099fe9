import type { ChartOptions } from 'chart.js'
import {
  LOG_GRAPH_LABELS,
  type GraphSettings,
  type LogGraph,
  type SensorGraphQuantity,
} from '../../../../domain/dashboards.ts'
import type { LogList } from '../../../../domain/rest/runRoutes.ts'
import type { SensorSeries } from '../../../../domain/sensorSampling.ts'
import { formatNumber } from '../../../../domain/units.ts'

/*
 * What a graph tile draws, from the run's log (GET /simulations/{id}/logs: time and runtime in ms,
 * particles, dt in s, progress 0 … 1) or a sensor's series (GET /custom_sensors/{id}/series).
 */

/** One point of a graph. */
export interface GraphPoint {
  x: number
  y: number
}

/** A graph ready to draw: points and axis titles with units. */
export interface GraphSeries {
  points: GraphPoint[]
  xTitle: string
  yTitle: string
}

/** The x axis title: simulated time in s, or progress in percent. */
export function xAxisTitle(percentage: boolean): string {
  return percentage ? 'Progress (%)' : 'Simulated time (s)'
}

function titleWithUnit(title: string, unit: string): string {
  return unit === '' ? title : `${title} (${unit})`
}

/**
 * The points of a log graph. particles and dt are read per line; runtimePerS is the wall time the
 * run took per simulated second between two lines (Δruntime / Δtime), so a slow stretch shows
 * where it happened instead of being averaged away.
 */
export function logGraphSeries(log: LogList | undefined, graph: LogGraph, percentage: boolean) {
  const points: GraphPoint[] = []
  const lines = log?.lines ?? []
  let previous: { time: number; runtime: number } | null = null
  for (const line of lines) {
    const { time, runtime, progress } = line
    if (time === undefined) continue
    const x = percentage ? (progress ?? 0) * 100 : time / 1000
    if (graph === 'particles' && line.particles !== undefined) points.push({ x, y: line.particles })
    if (graph === 'dt' && line.dt !== undefined) points.push({ x, y: line.dt })
    if (graph === 'runtimePerS' && runtime !== undefined) {
      if (previous && time > previous.time)
        points.push({ x, y: (runtime - previous.runtime) / (time - previous.time) })
      previous = { time, runtime }
    }
  }
  const label = LOG_GRAPH_LABELS[graph]
  return {
    points,
    xTitle: xAxisTitle(percentage),
    yTitle: titleWithUnit(label.title, label.unit),
  } satisfies GraphSeries
}

/** The points of a sensor quantity (pressure in Pa, velocity magnitude in m/s). */
export function sensorGraphSeries(
  series: SensorSeries | undefined,
  quantity: SensorGraphQuantity,
  percentage: boolean,
  endTimeS: number,
): GraphSeries {
  const points: GraphPoint[] = []
  if (series) {
    for (let i = 0; i < series.timeS.length; i++) {
      const t = series.timeS[i] ?? 0
      const x = percentage ? (endTimeS > 0 ? (t / endTimeS) * 100 : 0) : t
      let y: number | null | undefined
      if (quantity === 'pressure') y = series.pressure[i]
      else {
        const vx = series.vx[i]
        const vy = series.vy[i]
        const vz = series.vz[i]
        y =
          vx === null || vy === null || vz === null || vx === undefined
            ? null
            : Math.hypot(vx, vy ?? 0, vz ?? 0)
      }
      if (y !== null && y !== undefined && Number.isFinite(y)) points.push({ x, y })
    }
  }
  return {
    points,
    xTitle: xAxisTitle(percentage),
    yTitle: quantity === 'pressure' ? 'Pressure (Pa)' : 'Velocity (m/s)',
  }
}

/** An uploaded graph's points (its own x; percentage does not apply). */
export function uploadedGraphSeries(graph: {
  x: number[]
  y: number[]
  xLabel: string
  yLabel: string
}): GraphSeries {
  const points = graph.x.map((x, i) => ({ x, y: graph.y[i] ?? Number.NaN }))
  return {
    points: points.filter((p) => Number.isFinite(p.y)),
    xTitle: graph.xLabel,
    yTitle: graph.yLabel,
  }
}

/** The data a graph tile draws from, as its query holds it (computed into a series later). */
export type GraphInput =
  | { kind: 'log'; log: LogList | undefined }
  | { kind: 'sensor'; series: SensorSeries | undefined; endTimeS: number }
  | {
      kind: 'custom'
      graph: { x: number[]; y: number[]; xLabel: string; yLabel: string } | undefined
    }

/** The series of a graph tile from its data and settings. */
export function buildGraphSeries(settings: GraphSettings, input: GraphInput): GraphSeries {
  const source = settings.source
  if (input.kind === 'log' && source.kind === 'log')
    return logGraphSeries(input.log, source.graph, settings.percentage)
  if (input.kind === 'sensor' && source.kind === 'sensor')
    return sensorGraphSeries(input.series, source.quantity, settings.percentage, input.endTimeS)
  if (input.kind === 'custom' && input.graph) return uploadedGraphSeries(input.graph)
  return { points: [], xTitle: xAxisTitle(settings.percentage), yTitle: '' }
}

/** A logarithmic axis cannot place 0 or negative values: they are left out. */
export function drawablePoints(points: readonly GraphPoint[], logValues: boolean): GraphPoint[] {
  return logValues ? points.filter((p) => p.y > 0) : [...points]
}

/**
 * At most about `maxPoints` points, keeping each bucket's lowest and highest (in x order) so a
 * spike survives thinning; fewer points are returned as they are.
 */
export function thinPoints(points: readonly GraphPoint[], maxPoints: number): GraphPoint[] {
  if (points.length <= maxPoints) return [...points]
  const buckets = Math.max(1, Math.floor(maxPoints / 2))
  const size = points.length / buckets
  const thinned: GraphPoint[] = []
  for (let bucket = 0; bucket < buckets; bucket++) {
    const start = Math.floor(bucket * size)
    const end = Math.min(points.length, Math.floor((bucket + 1) * size))
    let low = start
    let high = start
    for (let i = start + 1; i < end; i++) {
      if ((points[i]?.y ?? 0) < (points[low]?.y ?? 0)) low = i
      if ((points[i]?.y ?? 0) > (points[high]?.y ?? 0)) high = i
    }
    const first = Math.min(low, high)
    const second = Math.max(low, high)
    const a = points[first]
    const b = points[second]
    if (a) thinned.push(a)
    if (b && second !== first) thinned.push(b)
  }
  const last = points[points.length - 1]
  if (last && thinned[thinned.length - 1] !== last) thinned.push(last)
  return thinned
}

/** Tick labels as people write numbers (formatNumber, 6 significant digits). */
function tickLabel(value: number | string): string {
  return typeof value === 'number' ? formatNumber(value, 6) : value
}

/**
 * chart.js options of a graph tile: a linear x axis, a linear or logarithmic y axis (logValues),
 * each with the tile's manual range unless automatic. No animation: a refresh every 10 s redraws
 * once, without frames of tweening on the main thread.
 */
export function graphChartOptions(
  settings: GraphSettings,
  series: Pick<GraphSeries, 'xTitle' | 'yTitle'>,
): ChartOptions<'line'> {
  const manual = (auto: boolean, min: number | null, max: number | null) =>
    auto ? {} : { ...(min !== null && { min }), ...(max !== null && { max }) }
  return {
    animation: false,
    responsive: true,
    maintainAspectRatio: false,
    parsing: false,
    normalized: true,
    spanGaps: true,
    plugins: { legend: { display: false }, tooltip: { enabled: true } },
    elements: { point: { radius: 0, hitRadius: 6 }, line: { borderWidth: 2 } },
    scales: {
      x: {
        type: 'linear',
        title: { display: true, text: series.xTitle },
        ticks: { callback: tickLabel, maxTicksLimit: 6 },
        ...manual(settings.xAuto, settings.xMin, settings.xMax),
      },
      y: {
        type: settings.logValues ? 'logarithmic' : 'linear',
        title: { display: true, text: series.yTitle },
        ticks: { callback: tickLabel, maxTicksLimit: 6 },
        ...manual(settings.yAuto, settings.yMin, settings.yMax),
      },
    },
  }
}
