import type {
  GraphChartContent,
  GraphChartIntent,
  GraphChartReport,
  GraphChartSize,
} from '../../../../engine/dashboard/graphChart.ts'

/*
 * The page's side of the dashboard chart worker (workers/graphChart.worker.ts): each graph tile
 * hands its canvas over once and then posts its points; chart.js lays out and draws in the worker.
 */

/** True where a canvas can be drawn from a worker (not in jsdom, nor in old browsers). */
export const CHARTS_OFF_THREAD =
  typeof Worker !== 'undefined' &&
  typeof OffscreenCanvas !== 'undefined' &&
  typeof HTMLCanvasElement !== 'undefined' &&
  'transferControlToOffscreen' in HTMLCanvasElement.prototype

let worker: Worker | null = null
let nextId = 1
const listeners = new Set<(report: GraphChartReport) => void>()

function chartWorker(): Worker {
  if (worker) return worker
  const created = new Worker(new URL('../../../../workers/graphChart.worker.ts', import.meta.url), {
    type: 'module',
  })
  created.addEventListener('message', (event: MessageEvent<GraphChartReport>) => {
    if (event.data.type === 'error') console.warn('Graph chart failed:', event.data.message)
    for (const listener of listeners) listener(event.data)
  })
  worker = created
  return created
}

function post(intent: GraphChartIntent, transfer: Transferable[] = []): void {
  chartWorker().postMessage(intent, transfer)
}

/** The size of an element for its chart: CSS px and the screen's pixel ratio. */
export function chartSizeOf(element: Element): GraphChartSize {
  const rect = element.getBoundingClientRect()
  return {
    width: Math.max(1, Math.floor(rect.width)),
    height: Math.max(1, Math.floor(rect.height)),
    pixelRatio: window.devicePixelRatio || 1,
  }
}

/** Hands a canvas to the worker (once per canvas); returns the chart's id. */
export function attachGraphChart(canvas: HTMLCanvasElement, size: GraphChartSize): number {
  const id = nextId++
  const offscreen = canvas.transferControlToOffscreen()
  post({ type: 'attach', id, canvas: offscreen, size }, [offscreen])
  return id
}

/** Draws a chart's content; its points' buffer is transferred (no copy). */
export function drawGraphChart(id: number, content: GraphChartContent): void {
  post({ type: 'draw', id, content }, [content.points.buffer])
}

export function resizeGraphChart(id: number, size: GraphChartSize): void {
  post({ type: 'resize', id, size })
}

export function detachGraphChart(id: number): void {
  post({ type: 'detach', id })
}

/** Hears every chart's draws and failures; returns the unsubscribe. */
export function onGraphChartReport(listener: (report: GraphChartReport) => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}
