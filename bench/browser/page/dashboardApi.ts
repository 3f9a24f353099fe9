/** bench/browser/page/dashboard.html: the Monitor dashboard's graph tiles under a growing run log. */
import type { BenchPageApi } from './api.ts'

export interface DashboardMountRequest {
  /** Graph tiles on the view (spread over the three log graphs). */
  tiles: number
  /** Log lines the run has when the page opens. */
  lines: number
}

export interface DashboardRunRequest {
  /** Log refreshes, one every intervalMs (the product polls every 10 s). */
  updates: number
  intervalMs: number
  /** Lines each refresh adds. */
  linesPerUpdate: number
}

export interface DashboardRunResult {
  /** Per refresh: ms from the new log in the query cache until every graph tile has drawn it. */
  updateMs: number[]
  /** chart.js draws per refresh (one per graph tile when nothing else redraws). */
  drawsPerUpdate: number[]
  /** When each refresh reached the cache (performance.now(), ms). */
  refreshStartsMs: number[]
  /** Duration of each chart.js draw (beforeDraw to afterDraw), ms. */
  drawMs: number[]
  /** Points drawn by the first tile after the last refresh. */
  pointsDrawn: number
}

export interface DashboardPageApi extends BenchPageApi {
  mount(request: DashboardMountRequest): Promise<number>
  run(request: DashboardRunRequest): Promise<DashboardRunResult>
}
