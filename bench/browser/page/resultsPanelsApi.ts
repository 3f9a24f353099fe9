/**
 * What the results-panels bench page exposes as `window.diveBench` (plain data only: the Node side
 * imports this file too).
 */
import type { BenchOutput, BenchPageApi } from './api.ts'

/** Plays the outputs while statistics keep arriving for the chart. */
export interface PanelsRunRequest {
  speed: number
  durationMs: number
  /** How often a new statistics result replaces the chart's datasets. */
  statisticsIntervalMs: number
}

export interface PanelsRunResult {
  durationMs: number
  /** Main-thread frame intervals (requestAnimationFrame to requestAnimationFrame), ms. */
  frameIntervalsMs: number[]
  /** From a statistics result handed to the chart store to chart.js having drawn it, ms. */
  chartUpdateMs: number[]
  /** When each statistics result was handed over (page clock, as long tasks) and how long until drawn. */
  chartUpdates: { startMs: number; durationMs: number }[]
  /** Every chart.js draw (beforeDraw to afterDraw), page clock. */
  chartDraws: { startMs: number; durationMs: number }[]
  /** Time-indicator moves drawn (one redraw each, no chart update). */
  indicatorDraws: number
  /** Output numbers in the order the snapshots showed them, with when each first appeared. */
  shown: { outputNo: number; atMs: number }[]
}

/** bench/browser/page/resultsPanels.html: the product's Viewport and ChartWindows on one store. */
export interface ResultsPanelsPageApi extends BenchPageApi {
  /** Renders the view and the chart windows and waits for the engine. */
  mount(size: { width: number; height: number }): Promise<void>
  /** Lists the outputs and shows one, resolving when a snapshot has it drawn (ms, or -1 on timeout). */
  showOutput(request: {
    simulationId: number
    runId: number
    outputs: BenchOutput[]
    outputNo: number
    timeoutMs: number
  }): Promise<number>
  /** Plots `datasets` series of `points` outputs into one chart window, time indicator on; ms until drawn (-1: never). */
  plotDatasets(request: { datasets: number; points: number }): Promise<number>
  run(request: PanelsRunRequest): Promise<PanelsRunResult>
}
