/**
 * The data of the dashboard's log graphs (particles, runtime per simulated second, time step),
 * computed by the server from the run's log and thinned to a few hundred points per graph with
 * each bucket's lowest and highest value kept, so a spike survives. The solver logs a line a
 * second: a day's run is 86,400 lines (about 9 MB of JSON), which the browser must not download,
 * parse and walk every 10 s on its main thread when a tile draws 600 points at most.
 */
import * as v from 'valibot'
import { LOG_GRAPHS, type LogGraph } from './dashboards.ts'

/** Points per log graph when the call does not say (a 6-column tile is about 750 px wide). */
export const LOG_GRAPH_POINTS = 600
/** Most points per log graph a call may ask for. */
export const LOG_GRAPH_MAX_POINTS = 5000

/** One log graph: simulated time (s), progress (0 … 1) and the value, one entry per point. */
export const LogGraphSeriesSchema = v.object({
  timeS: v.array(v.number()),
  progress: v.array(v.number()),
  value: v.array(v.number()),
})
/** One log graph's points, column by column. */
export type LogGraphSeries = v.InferOutput<typeof LogGraphSeriesSchema>

/** GET /simulations/{id}/log_graphs reply: the active run's log graphs. */
export const LogGraphsSchema = v.object({
  runId: v.nullable(v.number()),
  /** Lines in the run's log (the graphs hold fewer points once thinned). */
  lineCount: v.number(),
  graphs: v.object({
    particles: LogGraphSeriesSchema,
    runtimePerS: LogGraphSeriesSchema,
    dt: LogGraphSeriesSchema,
  }),
})
/** The active run's log graphs. */
export type LogGraphs = v.InferOutput<typeof LogGraphsSchema>

/** GET /simulations/{id}/log_graphs query: points per graph at most (default 600). */
export const LogGraphsQuerySchema = v.object({
  maxPoints: v.optional(
    v.pipe(
      v.string('maxPoints must be a whole number'),
      v.regex(/^\d{1,7}$/, 'maxPoints must be a whole number'),
      v.transform(Number),
      v.minValue(4, 'maxPoints must be at least 4'),
      v.maxValue(LOG_GRAPH_MAX_POINTS, `maxPoints must be at most ${LOG_GRAPH_MAX_POINTS}`),
    ),
  ),
})

/** A log line as the solver writes it: time and runtime in ms, dt in s, progress 0 … 1. */
export interface LogGraphLine {
  time?: number
  runtime?: number
  particles?: number
  dt?: number
  progress?: number
}

function emptySeries(): LogGraphSeries {
  return { timeS: [], progress: [], value: [] }
}

/**
 * Indices to keep of `values` for about `maxPoints` points: per bucket (in order) its lowest and
 * highest, in their order, and the last point. All of them when there are no more than maxPoints.
 */
export function thinIndices(values: ArrayLike<number>, maxPoints: number): number[] {
  const count = values.length
  if (count <= maxPoints) return Array.from({ length: count }, (_, i) => i)
  const buckets = Math.max(1, Math.floor((maxPoints - 1) / 2))
  const size = count / buckets
  const kept: number[] = []
  for (let bucket = 0; bucket < buckets; bucket++) {
    const start = Math.floor(bucket * size)
    const end = Math.min(count, Math.floor((bucket + 1) * size))
    let low = start
    let high = start
    for (let i = start + 1; i < end; i++) {
      const value = values[i] ?? 0
      if (value < (values[low] ?? 0)) low = i
      if (value > (values[high] ?? 0)) high = i
    }
    kept.push(Math.min(low, high))
    if (high !== low) kept.push(Math.max(low, high))
  }
  if (kept[kept.length - 1] !== count - 1) kept.push(count - 1)
  return kept
}

function thinSeries(series: LogGraphSeries, maxPoints: number): LogGraphSeries {
  if (series.value.length <= maxPoints) return series
  const kept = thinIndices(series.value, maxPoints)
  return {
    timeS: kept.map((i) => series.timeS[i] ?? 0),
    progress: kept.map((i) => series.progress[i] ?? 0),
    value: kept.map((i) => series.value[i] ?? 0),
  }
}

/**
 * The three log graphs of a run's lines, each thinned to about `maxPoints`. particles and dt are
 * read per line; runtimePerS is the wall time the run took per simulated second between two lines
 * (Δruntime / Δtime), so a slow stretch shows where it happened instead of being averaged away.
 * Lines without a time (or the value) are skipped.
 */
export function buildLogGraphs(
  lines: readonly LogGraphLine[],
  maxPoints: number = LOG_GRAPH_POINTS,
): LogGraphs['graphs'] {
  const full: Record<LogGraph, LogGraphSeries> = {
    particles: emptySeries(),
    runtimePerS: emptySeries(),
    dt: emptySeries(),
  }
  const push = (graph: LogGraph, timeMs: number, progress: number, value: number) => {
    if (!Number.isFinite(value)) return
    const series = full[graph]
    series.timeS.push(timeMs / 1000)
    series.progress.push(progress)
    series.value.push(value)
  }
  let previous: { time: number; runtime: number } | null = null
  for (const line of lines) {
    const { time, runtime } = line
    if (time === undefined) continue
    const progress = line.progress ?? 0
    if (line.particles !== undefined) push('particles', time, progress, line.particles)
    if (line.dt !== undefined) push('dt', time, progress, line.dt)
    if (runtime !== undefined) {
      if (previous && time > previous.time)
        push('runtimePerS', time, progress, (runtime - previous.runtime) / (time - previous.time))
      previous = { time, runtime }
    }
  }
  const graphs = {} as Record<LogGraph, LogGraphSeries>
  for (const graph of LOG_GRAPHS) graphs[graph] = thinSeries(full[graph], maxPoints)
  return graphs
}
