/*
 * Pure chart helpers: what chart.js draws for a chart window (datasets, scales, styles), the
 * tick formats and the time indicator's position. No chart.js import here, so these stay testable
 * without a canvas.
 */
import { STATISTICS_FORMAT } from '../../../../../domain/constants.ts'
import {
  CHART_X_AXIS_LABELS,
  defaultDatasetLayout,
  effectiveYRange,
  outputTime,
  type ChartWindow,
  type DatasetLayout,
} from '../../../../../domain/results.ts'

/** chart.js point styles per marker; 'none' draws no point. */
export const MARKER_POINT_STYLES = {
  dot: 'circle',
  triangle: 'triangle',
  square: 'rect',
  cross: 'crossRot',
  none: false,
} as const

/** Dash pattern per line style, px (solid and none: no dashes). */
export const LINE_DASHES = { solid: [], dashed: [6, 4], none: [] } as const

/** Dash pattern of the time indicator, px. */
export const TIME_INDICATOR_DASH = [4, 4] as const

/** One chart.js line dataset, as far as the chart windows set it. */
export interface ChartLineDataset {
  /** The statistics dataset id. */
  id: string
  label: string
  data: { x: number; y: number | null }[]
  borderColor: string
  backgroundColor: string
  borderDash: number[]
  showLine: boolean
  pointStyle: (typeof MARKER_POINT_STYLES)[keyof typeof MARKER_POINT_STYLES]
  pointRadius: number
  cubicInterpolationMode: 'default' | 'monotone'
  tension: number
  spanGaps: false
}

/** The layout of a dataset, or a default one when a window lacks it. */
export function datasetLayoutOf(
  window: ChartWindow,
  datasetId: string,
  index: number,
): DatasetLayout {
  return window.layout.datasetLayouts[datasetId] ?? defaultDatasetLayout(datasetId, index)
}

/** The output interval of a simulation, s (NaN when it has none: times are then unknown). */
export function outputIntervalOf(simulation: {
  outputTimeInterval?: number | null
  settings: { outputTimeInterval: number | null }
}): number {
  return simulation.settings.outputTimeInterval ?? simulation.outputTimeInterval ?? Number.NaN
}

/**
 * The X value of an output: its time (output number × output interval) or its number. Without a
 * known interval the time axis falls back to output numbers rather than draw nothing.
 */
export function chartXOf(
  outputNo: number,
  xAxis: ChartWindow['layout']['xAxis'],
  outputTimeIntervalS: number,
): number {
  return xAxis === 'time' && Number.isFinite(outputTimeIntervalS)
    ? outputTime(outputNo, outputTimeIntervalS)
    : outputNo
}

/** The chart.js datasets of a window, points sorted by output. */
export function buildChartDatasets(
  window: ChartWindow,
  outputTimeIntervalS: number,
): ChartLineDataset[] {
  const monotone = window.layout.interpolation === 'monotoneX'
  return window.datasets.map((dataset, index) => {
    const layout = datasetLayoutOf(window, dataset.id, index)
    const data = [...dataset.data]
      .sort((a, b) => a.x - b.x)
      .map((point) => ({
        x: chartXOf(point.x, window.layout.xAxis, outputTimeIntervalS),
        y: point.y,
      }))
    return {
      id: dataset.id,
      label: layout.name,
      data,
      borderColor: layout.color,
      backgroundColor: layout.color,
      borderDash: [...LINE_DASHES[layout.lineStyle]],
      showLine: layout.lineStyle !== 'none',
      pointStyle: MARKER_POINT_STYLES[layout.markerStyle],
      pointRadius: layout.markerStyle === 'none' ? 0 : 3,
      cubicInterpolationMode: monotone ? 'monotone' : 'default',
      tension: 0,
      spanGaps: false,
    }
  })
}

/** A tick label with at most `decimals` decimals and no trailing zeros. */
export function formatTick(value: number, decimals: number): string {
  if (!Number.isFinite(value)) return ''
  const rounded = Number(value.toFixed(decimals))
  return String(Object.is(rounded, -0) ? 0 : rounded)
}

/** The axes of a window: titles, the Y bounds drawn, 6 ticks, 8 decimals on X and 9 on Y. */
export function buildChartAxes(window: ChartWindow): {
  x: { title: string; decimals: number; maxTicks: number }
  y: {
    title: string
    decimals: number
    maxTicks: number
    min: number | undefined
    max: number | undefined
  }
} {
  const range = effectiveYRange(window.layout.minY, window.layout.maxY)
  return {
    x: {
      title: CHART_X_AXIS_LABELS[window.layout.xAxis],
      decimals: STATISTICS_FORMAT.xAxisDecimals,
      maxTicks: STATISTICS_FORMAT.tickCount,
    },
    y: {
      title: window.layout.yLabel,
      decimals: STATISTICS_FORMAT.yAxisDecimals,
      maxTicks: STATISTICS_FORMAT.tickCount,
      min: range.min ?? undefined,
      max: range.max ?? undefined,
    },
  }
}

/** Where the time indicator stands: the shown output on the window's X axis (null: not drawn). */
export function timeIndicatorX(
  window: ChartWindow,
  shownOutput: number | null,
  outputTimeIntervalS: number,
): number | null {
  if (!window.layout.timeIndicator || shownOutput === null) return null
  return chartXOf(shownOutput, window.layout.xAxis, outputTimeIntervalS)
}

/** The CSV rows of a window: each dataset under its legend name, in tab order. */
export function csvDatasetsOf(
  window: ChartWindow,
): { name: string; data: { x: number; y: number | null }[] }[] {
  return window.datasets.map((dataset, index) => ({
    name: datasetLayoutOf(window, dataset.id, index).name,
    data: dataset.data,
  }))
}

/** A Y bound typed into a field: blank is automatic (null); text that is not a number is NaN. */
export function parseYBound(text: string): number | null {
  const trimmed = text.trim()
  if (trimmed === '') return null
  const value = Number(trimmed)
  return Number.isFinite(value) ? value : Number.NaN
}
