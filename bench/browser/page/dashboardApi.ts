/** bench/browser/page/dashboard.html: the Monitor dashboard's graph tiles under a growing run log. */
import type { BenchPageApi } from './api.ts'

export interface DashboardMountRequest {
  /** Graph tiles on the view (spread over the three log graphs). */
  tiles: number
  /** The log graphs reply (GET /simulations/{id}/log_graphs body) when the page opens. */
  url: string
}

export interface DashboardRunRequest {
  /** One log graphs reply per refresh, fetched and parsed as the product's poll does. */
  urls: string[]
  /** Between two refreshes (the product polls every 10 s). */
  intervalMs: number
}

export interface DashboardRunResult {
  /** Per refresh: ms from the fetch of the new log graphs until every graph tile has drawn them. */
  updateMs: number[]
  /** chart.js draws per refresh (one per graph tile when nothing else redraws). */
  drawsPerUpdate: number[]
  /** When each refresh reached the cache (performance.now(), ms). */
  refreshStartsMs: number[]
  /** Duration of each chart.js update and draw in the chart worker, ms. */
  drawMs: number[]
  /** Points drawn by the first tile after the last refresh. */
  pointsDrawn: number
}

export interface DashboardPageApi extends BenchPageApi {
  mount(request: DashboardMountRequest): Promise<number>
  run(request: DashboardRunRequest): Promise<DashboardRunResult>
}
