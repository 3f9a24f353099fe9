import {
  Chart as ChartJS,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  type ChartData,
  type ChartOptions,
  type Plugin,
} from 'chart.js'
import { useEffect, useMemo, useState, type RefObject } from 'react'
import { Line } from 'react-chartjs-2'
import type { ChartWindow } from '../../../../../domain/results.ts'
import { formatNumber } from '../../../../../domain/units.ts'
import {
  buildChartAxes,
  buildChartDatasets,
  formatTick,
  TIME_INDICATOR_DASH,
  timeIndicatorX,
} from './chartModel.ts'

// Only the parts a line chart of {x, y} points needs: chart.js tree-shakes the rest.
ChartJS.register(LineController, LineElement, PointElement, LinearScale, Tooltip)

/** The chart instance of the window on screen, for the PNG export. */
export type ChartInstanceRef = RefObject<ChartJS<'line', { x: number; y: number | null }[]> | null>

const INDICATOR_COLOUR = '#444444'

/** True when this browser gives canvases a 2D context (chart.js draws nothing without one). */
function canDrawCharts(): boolean {
  try {
    return document.createElement('canvas').getContext('2d') !== null
  } catch {
    return false
  }
}

/** Where each chart draws its time indicator (X value; absent or null: not drawn). */
const indicatorPositions = new WeakMap<ChartJS, number | null>()

/**
 * The dashed vertical line at the shown output. Its position is looked up per chart, so moving it
 * during playback is one redraw, not a chart update (no re-layout, no new datasets).
 */
const TIME_INDICATOR_PLUGIN: Plugin<'line'> = {
  id: 'diveTimeIndicator',
  afterDatasetsDraw(chart) {
    const x = indicatorPositions.get(chart)
    const scale = chart.scales.x
    if (x === null || x === undefined || !scale) return
    const px = scale.getPixelForValue(x)
    const area = chart.chartArea
    if (!Number.isFinite(px) || px < area.left || px > area.right) return
    const context = chart.ctx
    context.save()
    context.strokeStyle = INDICATOR_COLOUR
    context.lineWidth = 1
    context.setLineDash([...TIME_INDICATOR_DASH])
    context.beginPath()
    context.moveTo(px, area.top)
    context.lineTo(px, area.bottom)
    context.stroke()
    context.restore()
  },
}
const PLUGINS = [TIME_INDICATOR_PLUGIN]

/** One chart window's plot: chart.js line chart of its datasets, without animations. */
export function ChartCanvas({
  window: chartWindow,
  outputTimeIntervalS,
  shownOutput,
  chartRef,
}: {
  window: ChartWindow
  outputTimeIntervalS: number
  shownOutput: number | null
  chartRef: ChartInstanceRef
}) {
  const drawable = useMemo(() => canDrawCharts(), [])
  // The chart is created one frame after its panel: the panel's layout and the chart's first
  // draw then run as two tasks, not one long one.
  const [mounted, setMounted] = useState(false)
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => setMounted(true), 0)
    })
    return () => {
      cancelAnimationFrame(frame)
      clearTimeout(timer)
    }
  }, [])

  const data = useMemo<ChartData<'line', { x: number; y: number | null }[]>>(
    () => ({ datasets: buildChartDatasets(chartWindow, outputTimeIntervalS) }),
    [chartWindow, outputTimeIntervalS],
  )
  const options = useMemo<ChartOptions<'line'>>(() => {
    const axes = buildChartAxes(chartWindow)
    return {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      parsing: false,
      normalized: true,
      interaction: { mode: 'nearest', intersect: false },
      plugins: {
        tooltip: {
          enabled: true,
          callbacks: {
            title: (items) =>
              items[0]
                ? `${axes.x.title}: ${formatTick(items[0].parsed.x ?? Number.NaN, axes.x.decimals)}`
                : '',
            label: (item) =>
              `${item.dataset.label ?? ''}: ${formatNumber(item.parsed.y ?? Number.NaN)}`,
          },
        },
      },
      scales: {
        x: {
          type: 'linear',
          title: { display: true, text: axes.x.title },
          ticks: {
            maxTicksLimit: axes.x.maxTicks,
            callback: (value) => formatTick(Number(value), axes.x.decimals),
          },
        },
        y: {
          type: 'linear',
          min: axes.y.min,
          max: axes.y.max,
          title: { display: true, text: axes.y.title },
          ticks: {
            maxTicksLimit: axes.y.maxTicks,
            callback: (value) => formatTick(Number(value), axes.y.decimals),
          },
        },
      },
    }
  }, [chartWindow])

  const indicatorX = timeIndicatorX(chartWindow, shownOutput, outputTimeIntervalS)
  // After every render: the chart may be new (first mount) or the output may have moved.
  useEffect(() => {
    const chart = chartRef.current as ChartJS | null
    if (!chart || indicatorPositions.get(chart) === indicatorX) return
    indicatorPositions.set(chart, indicatorX)
    chart.draw()
  })

  if (!drawable)
    return (
      <p className="chart-window__fallback" role="note">
        This browser cannot draw charts.
      </p>
    )
  if (!mounted) return <div className="chart-window__pending" aria-hidden="true" />
  return (
    <Line
      ref={chartRef}
      data={data}
      options={options}
      plugins={PLUGINS}
      datasetIdKey="id"
      updateMode="none"
      aria-label={`Chart ${chartWindow.layout.name}`}
      role="img"
    />
  )
}
