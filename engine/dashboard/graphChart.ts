/**
 * The dashboard's graph charts, drawn off the main thread: chart.js on the OffscreenCanvas of each
 * graph tile, in one worker (workers/graphChart.worker.ts). On the main thread twelve chart.js
 * updates at every 10 s refresh cost 5-10 ms each (options resolution, layout, ticks, drawing) and
 * gave long tasks under load (bench/browser/dashboard.bench.ts); here the page only posts points.
 */
import {
  Chart,
  LinearScale,
  LineController,
  LineElement,
  LogarithmicScale,
  PointElement,
  type ChartOptions,
} from 'chart.js'
import type { GraphSettings } from '../../domain/dashboards.ts'
import { formatNumber } from '../../domain/units.ts'
import type { GraphFrame } from './graphFrame.ts'

Chart.register(LineController, LineElement, PointElement, LinearScale, LogarithmicScale)

const LINE_COLOUR = '#2D69B2'

/** What a graph tile's chart draws: its points as x0, y0, x1, y1 … and its axes. */
export interface GraphChartContent {
  points: Float64Array
  settings: GraphSettings
  xTitle: string
  yTitle: string
}

/** The size of a chart's canvas on the page, CSS px, and the screen's pixel ratio. */
export interface GraphChartSize {
  width: number
  height: number
  pixelRatio: number
}

/** Messages from the page to the chart worker, one chart per id. */
export type GraphChartIntent =
  | { type: 'attach'; id: number; canvas: OffscreenCanvas; size: GraphChartSize }
  | { type: 'draw'; id: number; content: GraphChartContent }
  | { type: 'resize'; id: number; size: GraphChartSize }
  | { type: 'detach'; id: number }

/**
 * Messages from the chart worker: a chart drew (id, ms of chart.js work), laid out its plot (where
 * the page answers a pointer: graphFrame.ts), or failed.
 */
export type GraphChartReport =
  | { type: 'drawn'; id: number; durationMs: number }
  | { type: 'frame'; id: number; frame: GraphFrame }
  | { type: 'error'; id: number; message: string }

/** Tick labels as people write numbers (formatNumber, 6 significant digits). */
function tickLabel(value: number | string): string {
  return typeof value === 'number' ? formatNumber(value, 6) : value
}

/**
 * chart.js options of a graph tile: a linear x axis, a linear or logarithmic y axis (logValues),
 * each with the tile's manual range unless automatic. No animation: a refresh every 10 s redraws
 * once, without frames of tweening.
 */
export function graphChartOptions(
  settings: GraphSettings,
  titles: { xTitle: string; yTitle: string },
): ChartOptions<'line'> {
  const manual = (auto: boolean, min: number | null, max: number | null) =>
    auto ? {} : { ...(min !== null && { min }), ...(max !== null && { max }) }
  return {
    animation: false,
    responsive: false,
    maintainAspectRatio: false,
    parsing: false,
    normalized: true,
    spanGaps: true,
    events: [],
    plugins: { legend: { display: false }, tooltip: { enabled: false } },
    elements: { point: { radius: 0 }, line: { borderWidth: 2 } },
    scales: {
      x: {
        type: 'linear',
        title: { display: true, text: titles.xTitle },
        ticks: { callback: tickLabel, maxTicksLimit: 6 },
        ...manual(settings.xAuto, settings.xMin, settings.xMax),
      },
      y: {
        type: settings.logValues ? 'logarithmic' : 'linear',
        title: { display: true, text: titles.yTitle },
        ticks: { callback: tickLabel, maxTicksLimit: 6 },
        ...manual(settings.yAuto, settings.yMin, settings.yMax),
      },
    },
  }
}

function pointsOf(flat: Float64Array): { x: number; y: number }[] {
  const points: { x: number; y: number }[] = []
  for (let i = 0; i + 1 < flat.length; i += 2) points.push({ x: flat[i] ?? 0, y: flat[i + 1] ?? 0 })
  return points
}

interface HostedChart {
  canvas: OffscreenCanvas
  size: GraphChartSize
  chart: Chart<'line', { x: number; y: number }[]> | null
  optionsKey: string
}

/**
 * The charts of one worker: attach a tile's canvas, draw its content (a new chart, or new data and
 * options on the one it has), resize it, detach it. `report` hears of each draw.
 */
export function createGraphChartHost(report: (message: GraphChartReport) => void) {
  const charts = new Map<number, HostedChart>()
  const reportFrame = (id: number, chart: HostedChart['chart']) => {
    const x = chart?.scales['x']
    const y = chart?.scales['y']
    if (!chart || !x || !y) return
    const area = chart.chartArea
    report({
      type: 'frame',
      id,
      frame: {
        left: area.left,
        right: area.right,
        top: area.top,
        bottom: area.bottom,
        xMin: x.min,
        xMax: x.max,
        yMin: y.min,
        yMax: y.max,
        yLog: y.type === 'logarithmic',
      },
    })
  }
  const applySize = (hosted: HostedChart) => {
    const { width, height, pixelRatio } = hosted.size
    if (hosted.chart) {
      hosted.chart.options.devicePixelRatio = pixelRatio
      hosted.chart.resize(width, height)
    } else {
      hosted.canvas.width = Math.round(width * pixelRatio)
      hosted.canvas.height = Math.round(height * pixelRatio)
    }
  }
  const draw = (id: number, hosted: HostedChart, content: GraphChartContent) => {
    const startMs = performance.now()
    const titles = { xTitle: content.xTitle, yTitle: content.yTitle }
    const options = {
      ...graphChartOptions(content.settings, titles),
      devicePixelRatio: hosted.size.pixelRatio,
    }
    const data = pointsOf(content.points)
    const optionsKey = JSON.stringify([content.settings, titles])
    if (!hosted.chart) {
      // chart.js reads the canvas size once: a new chart takes the size the tile has.
      hosted.canvas.width = Math.round(hosted.size.width * hosted.size.pixelRatio)
      hosted.canvas.height = Math.round(hosted.size.height * hosted.size.pixelRatio)
      hosted.chart = new Chart(hosted.canvas as unknown as HTMLCanvasElement, {
        type: 'line',
        data: {
          datasets: [{ data, borderColor: LINE_COLOUR, backgroundColor: LINE_COLOUR }],
        },
        options,
      })
      hosted.chart.resize(hosted.size.width, hosted.size.height)
    } else {
      const dataset = hosted.chart.data.datasets[0]
      if (dataset) dataset.data = data
      if (optionsKey !== hosted.optionsKey) hosted.chart.options = options
      hosted.chart.update('none')
    }
    hosted.optionsKey = optionsKey
    report({ type: 'drawn', id, durationMs: performance.now() - startMs })
    reportFrame(id, hosted.chart)
  }
  return {
    handle(intent: GraphChartIntent): void {
      try {
        if (intent.type === 'attach') {
          charts.set(intent.id, {
            canvas: intent.canvas,
            size: intent.size,
            chart: null,
            optionsKey: '',
          })
          return
        }
        const hosted = charts.get(intent.id)
        if (!hosted) return
        if (intent.type === 'draw') draw(intent.id, hosted, intent.content)
        else if (intent.type === 'resize') {
          hosted.size = intent.size
          applySize(hosted)
          reportFrame(intent.id, hosted.chart)
        } else {
          hosted.chart?.destroy()
          charts.delete(intent.id)
        }
      } catch (error) {
        report({
          type: 'error',
          id: intent.id,
          message: error instanceof Error ? error.message : String(error),
        })
      }
    },
    /** Charts attached (tests). */
    count: () => charts.size,
  }
}
