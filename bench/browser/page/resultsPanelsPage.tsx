/**
 * The results-panels bench page: the product's 3D view (src/components/viewport/Viewport.tsx with
 * the real engine and workers) and chart windows (src/pages/simulation/results/charts/) sharing one
 * Jotai store, as on the Results page. Statistics results are handed to the chart store the way
 * the Statistics panel hands them (addChartDatasetAtom), while the view plays.
 */
import { Chart as ChartJS } from 'chart.js'
import { createStore, Provider as JotaiProvider } from 'jotai'
import { createRoot } from 'react-dom/client'
import type { Simulation } from '../../../domain/projects.ts'
import type { StatisticsDataset } from '../../../domain/results.ts'
import { Viewport } from '../../../src/components/viewport/Viewport.tsx'
import {
  activeChartWindowIdAtom,
  addChartDatasetAtom,
  updateChartLayoutAtom,
} from '../../../src/pages/simulation/results/charts/chartStore.ts'
import { ChartWindows } from '../../../src/pages/simulation/results/charts/ChartWindows.tsx'
import { viewportEngineAtom, viewportStateAtom } from '../../../src/state/viewportAtoms.ts'
import '../../../src/styles.css'
import { publishBenchApi, readHeapBytes, runIndexedDb, takeLongTasks } from './common.ts'
import type { PanelsRunResult, ResultsPanelsPageApi } from './resultsPanelsApi.ts'

const OUTPUT_TIME_INTERVAL_S = 0.05
const SIMULATION = {
  id: 1,
  name: 'Bench',
  state: 'completed',
  outputTimeInterval: OUTPUT_TIME_INTERVAL_S,
  settings: { outputTimeInterval: OUTPUT_TIME_INTERVAL_S },
} as unknown as Simulation

const store = createStore()

// Every chart.js draw, timed: a statistics result counts as shown once chart.js has drawn it
// (afterDraw: full renders and the time indicator's plain redraws alike).
const renderListeners = new Set<(atMs: number) => void>()
let renderCount = 0
const chartDraws: { startMs: number; durationMs: number }[] = []
let drawStartMs = 0
ChartJS.register({
  id: 'diveBenchDrawClock',
  beforeDraw() {
    drawStartMs = performance.now()
  },
  afterDraw() {
    chartDraws.push({ startMs: drawStartMs, durationMs: performance.now() - drawStartMs })
    renderCount++
    const atMs = performance.now()
    for (const listener of renderListeners) listener(atMs)
  },
})

function nextChartRender(timeoutMs: number): Promise<number> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      renderListeners.delete(listener)
      resolve(-1)
    }, timeoutMs)
    const listener = (atMs: number) => {
      clearTimeout(timer)
      renderListeners.delete(listener)
      resolve(atMs)
    }
    renderListeners.add(listener)
  })
}

let datasetShape = { datasets: 0, points: 0 }
let generation = 0

/** One statistics result per series: `points` outputs, values that change with each result. */
function publishStatistics(): void {
  generation++
  for (let index = 0; index < datasetShape.datasets; index++) {
    const dataset: StatisticsDataset = {
      id: `bench-${index}`,
      operation: 'mean',
      attribute: 'pressure',
      subAttribute: null,
      objs: [1],
      data: Array.from({ length: datasetShape.points }, (_, x) => ({
        x,
        y: 1000 * (index + 1) + 100 * Math.sin((x + generation) / 7),
      })),
    }
    store.set(addChartDatasetAtom, {
      dataset,
      name: `Pressure ${['mean', 'min', 'max', 'median', '95th percentile'][index] ?? index}`,
      yLabel: 'Pressure (Pa)',
    })
  }
}

function waitFor<T>(read: () => T | null, timeoutMs: number): Promise<T | null> {
  return new Promise((resolve) => {
    const startMs = performance.now()
    const poll = () => {
      const value = read()
      if (value !== null) resolve(value)
      else if (performance.now() - startMs > timeoutMs) resolve(null)
      else setTimeout(poll, 20)
    }
    poll()
  })
}

const api: ResultsPanelsPageApi = {
  takeLongTasks,
  readHeapBytes,
  runIndexedDb,

  async mount(size) {
    const host = document.getElementById('root')
    if (!host) throw new Error('Could not find the root element.')
    document.getElementById('status')?.remove()
    createRoot(host).render(
      <JotaiProvider store={store}>
        <div style={{ width: size.width, padding: 8 }}>
          {/* The view's own CSS height is the Results page's; here it takes the asked size. */}
          <style>{`.bench-view .viewport { height: ${size.height}px; }`}</style>
          <div className="bench-view" style={{ marginBottom: 8 }}>
            <Viewport label="Bench view" />
          </div>
          <ChartWindows simulation={SIMULATION} />
        </div>
      </JotaiProvider>,
    )
    const engine = await waitFor(() => store.get(viewportEngineAtom), 30_000)
    if (!engine) throw new Error('The engine did not start.')
    await engine.ready
  },

  async showOutput(request) {
    const engine = store.get(viewportEngineAtom)
    if (!engine) throw new Error('Mount the page first.')
    const startMs = performance.now()
    engine.dispatch({
      type: 'set_outputs',
      simulationId: request.simulationId,
      runId: request.runId,
      outputs: request.outputs,
    })
    engine.dispatch({ type: 'show_output', outputNo: request.outputNo })
    const drawn = await waitFor(() => {
      const snapshot = store.get(viewportStateAtom).snapshot
      return snapshot?.shownOutput === request.outputNo && snapshot.pointsDrawn > 0 ? true : null
    }, request.timeoutMs)
    return drawn ? performance.now() - startMs : -1
  },

  async plotDatasets(request) {
    datasetShape = request
    const startMs = performance.now()
    const rendered = nextChartRender(30_000)
    publishStatistics()
    const windowId = store.get(activeChartWindowIdAtom)
    if (windowId) store.set(updateChartLayoutAtom, { windowId, layout: { timeIndicator: true } })
    const atMs = await rendered
    return atMs < 0 ? -1 : atMs - startMs
  },

  run(request) {
    const engine = store.get(viewportEngineAtom)
    if (!engine) throw new Error('Mount the page first.')
    return new Promise<PanelsRunResult>((resolve) => {
      const startMs = performance.now()
      const frameIntervalsMs: number[] = []
      const chartUpdateMs: number[] = []
      const chartUpdates: PanelsRunResult['chartUpdates'] = []
      const shown: PanelsRunResult['shown'] = []
      const rendersBefore = renderCount
      chartDraws.length = 0
      let statisticsRenders = 0
      let lastFrameMs = startMs
      let running = true

      const onFrame = (nowMs: number) => {
        if (!running) return
        frameIntervalsMs.push(nowMs - lastFrameMs)
        lastFrameMs = nowMs
        requestAnimationFrame(onFrame)
      }
      requestAnimationFrame((nowMs) => {
        lastFrameMs = nowMs
        requestAnimationFrame(onFrame)
      })

      const unsubscribe = store.sub(viewportStateAtom, () => {
        const outputNo = store.get(viewportStateAtom).snapshot?.shownOutput ?? null
        if (outputNo === null || shown.at(-1)?.outputNo === outputNo) return
        shown.push({ outputNo, atMs: performance.now() - startMs })
      })

      const statisticsTimer = setInterval(() => {
        const handedMs = performance.now()
        chartUpdates.push({ startMs: handedMs, durationMs: Number.NaN })
        const update = chartUpdates.at(-1)!
        void nextChartRender(5_000).then((atMs) => {
          if (atMs < 0) return
          chartUpdateMs.push(atMs - handedMs)
          update.durationMs = atMs - handedMs
        })
        statisticsRenders++
        publishStatistics()
      }, request.statisticsIntervalMs)

      engine.dispatch({ type: 'play', speed: request.speed, loop: true })
      setTimeout(() => {
        running = false
        clearInterval(statisticsTimer)
        engine.dispatch({ type: 'pause' })
        unsubscribe()
        resolve({
          durationMs: performance.now() - startMs,
          frameIntervalsMs,
          chartUpdateMs,
          chartUpdates,
          chartDraws: [...chartDraws],
          indicatorDraws: Math.max(0, renderCount - rendersBefore - statisticsRenders),
          shown,
        })
      }, request.durationMs)
    })
  },
}

publishBenchApi(api)
