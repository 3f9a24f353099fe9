/**
 * The dashboard bench page: the product's dashboard grid (src/pages/simulation/dashboard/) with a
 * view of graph tiles reading the run's log graphs from the react-query cache, as on the Monitor
 * page. A refresh fetches the next reply of GET /simulations/{id}/log_graphs (written by the bench
 * as the server computes it), parses and validates it as callApi does, and puts it in the cache the
 * way the 10 s poll (useLogGraphsQuery) does; every tile posts its points to the chart worker,
 * where chart.js redraws it.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { createRoot } from 'react-dom/client'
import { defaultGraphSettings, LOG_GRAPHS, type DashboardView } from '../../../domain/dashboards.ts'
import type { Simulation } from '../../../domain/projects.ts'
import * as v from 'valibot'
import { LogGraphsSchema } from '../../../domain/logGraphs.ts'
import { onGraphChartReport } from '../../../src/pages/simulation/dashboard/chartWorker.ts'
import { logGraphsKey } from '../../../src/pages/simulation/dashboard/dashboardQueries.ts'
import { DashboardGrid } from '../../../src/pages/simulation/dashboard/DashboardGrid.tsx'
import type { TileContext } from '../../../src/pages/simulation/dashboard/DashboardTiles.tsx'
import '../../../src/styles.css'
import '../../../src/pages/simulation/dashboard/dashboard.css'
import { publishBenchApi, readHeapBytes, runIndexedDb, takeLongTasks } from './common.ts'
import type { DashboardPageApi, DashboardRunResult } from './dashboardApi.ts'

const SIMULATION = {
  id: 1,
  name: 'Bench',
  state: 'completed',
  activeRunId: 1,
  settings: { endTime: 10, outputTimeInterval: 0.05 },
  log: null,
} as unknown as Simulation

// The poll's fetch is the bench's: the cache holds what it brings, as between two polls.
const queryClient = new QueryClient({
  defaultOptions: { queries: { staleTime: Infinity, retry: false, refetchOnMount: false } },
})
const LOG_GRAPHS_KEY = logGraphsKey(SIMULATION)

/** What the poll does on the main thread: fetch, parse and validate the reply, fill the cache. */
async function refreshLogGraphs(url: string): Promise<void> {
  const response = await fetch(url)
  const parsed = v.safeParse(LogGraphsSchema, await response.json())
  if (!parsed.success) throw new Error(`${url} is not a log graphs reply`)
  queryClient.setQueryData(LOG_GRAPHS_KEY, parsed.output)
}

// Charts draw in the chart worker, which reports each draw with its chart.js time.
let draws = 0
const drawMs: number[] = []
const drawListeners = new Set<() => void>()
onGraphChartReport((report) => {
  if (report.type !== 'drawn') return
  drawMs.push(report.durationMs)
  draws++
  for (const listener of drawListeners) listener()
})

let tileCount = 0

function waitForDraws(count: number, timeoutMs: number): Promise<number> {
  const start = draws
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      drawListeners.delete(listener)
      resolve(-1)
    }, timeoutMs)
    const listener = () => {
      if (draws - start < count) return
      clearTimeout(timer)
      drawListeners.delete(listener)
      resolve(performance.now())
    }
    drawListeners.add(listener)
  })
}

const context: TileContext = {
  simulation: SIMULATION,
  sensors: [],
  graphs: [],
  variables: [],
  nowMs: 0,
  savingTileId: null,
  onUpdate: () => Promise.resolve(),
  onRemove: () => undefined,
  onArrange: () => undefined,
  onAddVariable: () => Promise.resolve(),
  onRemoveVariable: () => undefined,
}

const api: DashboardPageApi = {
  takeLongTasks,
  readHeapBytes,
  runIndexedDb,
  async mount({ tiles, url }) {
    tileCount = tiles
    await refreshLogGraphs(url)
    const view: DashboardView = {
      id: 1,
      simulationId: 1,
      name: 'Bench',
      default: true,
      tiles: Array.from({ length: tiles }, (_, index) => ({
        id: index + 1,
        viewId: 1,
        type: 'graph' as const,
        x: (index % 2) * 6,
        y: Math.floor(index / 2) * 2,
        w: 6,
        h: 2,
        graph: defaultGraphSettings({
          kind: 'log',
          graph: LOG_GRAPHS[index % LOG_GRAPHS.length] ?? 'particles',
        }),
        text: null,
        imageId: null,
      })),
    }
    const startMs = performance.now()
    const drawn = waitForDraws(tiles, 30_000)
    const root = document.getElementById('root')
    if (!root) throw new Error('no #root')
    createRoot(root).render(
      <QueryClientProvider client={queryClient}>
        <DashboardGrid view={view} context={context} onPlacesChange={() => undefined} />
      </QueryClientProvider>,
    )
    const atMs = await drawn
    return atMs < 0 ? -1 : atMs - startMs
  },
  async run({ urls, intervalMs }) {
    const result: DashboardRunResult = {
      updateMs: [],
      drawsPerUpdate: [],
      pointsDrawn: 0,
      drawMs: [],
      refreshStartsMs: [],
    }
    drawMs.length = 0
    for (const url of urls) {
      await new Promise((resolve) => setTimeout(resolve, intervalMs))
      const before = draws
      const startMs = performance.now()
      result.refreshStartsMs.push(startMs)
      const drawn = waitForDraws(tileCount, 30_000)
      await refreshLogGraphs(url)
      const atMs = await drawn
      result.updateMs.push(atMs < 0 ? -1 : atMs - startMs)
      // Draws still landing in the same frame count for this refresh.
      await new Promise((resolve) => requestAnimationFrame(resolve))
      result.drawsPerUpdate.push(draws - before)
    }
    result.drawMs = drawMs.splice(0)
    result.pointsDrawn = Number(
      document.querySelector('.dashboard-graph')?.getAttribute('data-points') ?? 0,
    )
    return result
  },
}

publishBenchApi(api)
