/**
 * The dashboard bench page: the product's dashboard grid (src/pages/simulation/dashboard/) with a
 * view of graph tiles reading the run log from the react-query cache, as on the Monitor page. A
 * refresh writes a longer log into the cache, the way the 10 s poll (useRunLogQuery) does, and
 * every tile redraws its chart.js chart.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { Chart as ChartJS } from 'chart.js'
import { createRoot } from 'react-dom/client'
import { defaultGraphSettings, LOG_GRAPHS, type DashboardView } from '../../../domain/dashboards.ts'
import type { Simulation } from '../../../domain/projects.ts'
import type { LogList } from '../../../domain/rest/runRoutes.ts'
import { routeKey } from '../../../src/queries/queries.ts'
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

// Nothing is fetched: the cache is the only source, as between two polls.
const queryClient = new QueryClient({
  defaultOptions: { queries: { staleTime: Infinity, retry: false, refetchOnMount: false } },
})
const LOG_KEY = [
  ...routeKey('listLogs', { params: { id: String(SIMULATION.id) }, query: {} }),
  SIMULATION.activeRunId,
]

let draws = 0
let drawStartMs = 0
const drawMs: number[] = []
const drawListeners = new Set<() => void>()
ChartJS.register({
  id: 'diveBenchDashboardDraws',
  beforeDraw() {
    drawStartMs = performance.now()
  },
  afterDraw() {
    drawMs.push(performance.now() - drawStartMs)
    draws++
    for (const listener of drawListeners) listener()
  },
})

let log: LogList = { runId: 1, lines: [] }
let tileCount = 0

/** Lines of a run: 1 ms of simulated time each, runtime growing with bumps at outputs. */
function appendLines(count: number): void {
  const lines = [...log.lines]
  for (let i = 0; i < count; i++) {
    const n = lines.length
    lines.push({
      time: n,
      runtime: n * 300 + (n % 50 === 0 ? 900 : 0),
      runtimeLeft: null,
      particles: 1_000_000 - Math.floor(n / 100),
      dt: 1e-3 * (1 + 0.1 * Math.sin(n / 20)),
      progress: Math.min(1, n / 10_000),
      output: Math.floor(n / 50),
    })
  }
  log = { runId: 1, lines }
}

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
  async mount({ tiles, lines }) {
    tileCount = tiles
    appendLines(lines)
    queryClient.setQueryData(LOG_KEY, log)
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
  async run({ updates, intervalMs, linesPerUpdate }) {
    const result: DashboardRunResult = {
      updateMs: [],
      drawsPerUpdate: [],
      pointsDrawn: 0,
      drawMs: [],
      refreshStartsMs: [],
    }
    drawMs.length = 0
    for (let update = 0; update < updates; update++) {
      await new Promise((resolve) => setTimeout(resolve, intervalMs))
      appendLines(linesPerUpdate)
      const before = draws
      const startMs = performance.now()
      result.refreshStartsMs.push(startMs)
      const drawn = waitForDraws(tileCount, 30_000)
      queryClient.setQueryData(LOG_KEY, log)
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
