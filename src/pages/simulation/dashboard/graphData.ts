import {
  LOG_GRAPH_LABELS,
  type GraphSettings,
  type LogGraph,
  type SensorGraphQuantity,
} from '../../../../domain/dashboards.ts'
import { thinIndices, type LogGraphs } from '../../../../domain/logGraphs.ts'
import { formatCount, formatNumber } from '../../../../domain/units.ts'
import type { SensorSeries } from '../../../../domain/sensorSampling.ts'

/*
 * What a graph tile draws, from the run's log graphs (GET /simulations/{id}/log_graphs), a
 * sensor's series (GET /custom_sensors/{id}/series) or an uploaded graph.
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
 * The points of a log graph from the server's columns (GET /simulations/{id}/log_graphs: already
 * thinned, time in s, progress 0 … 1).
 */
export function logGraphSeries(
  graphs: LogGraphs | undefined,
  graph: LogGraph,
  percentage: boolean,
): GraphSeries {
  const points: GraphPoint[] = []
  const series = graphs?.graphs[graph]
  if (series) {
    const xs = percentage ? series.progress : series.timeS
    const scale = percentage ? 100 : 1
    for (let i = 0; i < series.value.length; i++)
      points.push({ x: (xs[i] ?? 0) * scale, y: series.value[i] ?? 0 })
  }
  const label = LOG_GRAPH_LABELS[graph]
  return {
    points,
    xTitle: xAxisTitle(percentage),
    yTitle: titleWithUnit(label.title, label.unit),
  }
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
  | { kind: 'log'; graphs: LogGraphs | undefined }
  | { kind: 'sensor'; series: SensorSeries | undefined; endTimeS: number }
  | {
      kind: 'custom'
      graph: { x: number[]; y: number[]; xLabel: string; yLabel: string } | undefined
    }

/** The series of a graph tile from its data and settings. */
export function buildGraphSeries(settings: GraphSettings, input: GraphInput): GraphSeries {
  const source = settings.source
  if (input.kind === 'log' && source.kind === 'log')
    return logGraphSeries(input.graphs, source.graph, settings.percentage)
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
  const kept = thinIndices(
    points.map((p) => p.y),
    maxPoints,
  )
  return kept.map((i) => points[i]).filter((p): p is GraphPoint => p !== undefined)
}

/**
 * A value under the pointer as people write it: whole numbers from 1,000 on with thousands
 * separated ('17,002' particles), anything else to 6 significant digits ('0.000927289').
 */
export function formatGraphValue(value: number): string {
  return Number.isInteger(value) && Math.abs(value) >= 1000
    ? formatCount(value)
    : formatNumber(value, 6)
}
