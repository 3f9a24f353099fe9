/** Chart windows of the results screen: datasets, colours, CSV export and their rules. */
import * as v from 'valibot'
import { CHART_DEFAULT_COLOURS, SMALL_SCREEN_WIDTH_PX } from '../constants.ts'
import { formatNumber } from '../units.ts'
import { issue, type Issue } from '../validation.ts'
import { outputTime } from './outputs.ts'
import { AttributeNameSchema } from './attributes.ts'
import { StatisticsDatasetSchema } from './statistics.ts'

/** Line styles of a chart dataset. */
export const LINE_STYLES = ['solid', 'dashed', 'none'] as const
/** Marker styles of a chart dataset. */
export const MARKER_STYLES = ['dot', 'triangle', 'square', 'cross', 'none'] as const
/** Chart interpolations (linear by default). */
export const INTERPOLATIONS = ['linear', 'monotoneX'] as const
/** Chart X axes (time by default). */
export const CHART_X_AXES = ['time', 'outputs'] as const
/** One chart X axis. */
export type ChartXAxis = (typeof CHART_X_AXES)[number]
/** X axis titles. */
export const CHART_X_AXIS_LABELS: Record<ChartXAxis, string> = {
  time: 'Time (s)',
  outputs: 'Output',
}
/** An empty chart says this. */
export const EMPTY_CHART_MESSAGE = 'Add data from the Statistics table'

/** How one dataset is drawn. */
export const DatasetLayoutSchema = v.object({
  name: v.string(),
  lineStyle: v.picklist(LINE_STYLES),
  markerStyle: v.picklist(MARKER_STYLES),
  color: v.pipe(v.string(), v.regex(/^#[0-9a-fA-F]{6}$/)),
})
/** How one dataset is drawn. */
export type DatasetLayout = v.InferOutput<typeof DatasetLayoutSchema>

/** A chart's layout; minY / maxY null means automatic. */
export const ChartLayoutSchema = v.object({
  name: v.string(),
  yLabel: v.string(),
  xAxis: v.picklist(CHART_X_AXES),
  minY: v.nullable(v.number()),
  maxY: v.nullable(v.number()),
  interpolation: v.picklist(INTERPOLATIONS),
  timeIndicator: v.boolean(),
  /** By dataset id. */
  datasetLayouts: v.record(v.string(), DatasetLayoutSchema),
})
/** A chart's layout. */
export type ChartLayout = v.InferOutput<typeof ChartLayoutSchema>

/** One chart window of the stats chart window system. */
export const ChartWindowSchema = v.object({
  id: v.string(),
  attribute: AttributeNameSchema,
  datasets: v.array(StatisticsDatasetSchema),
  layout: ChartLayoutSchema,
})
/** One chart window. */
export type ChartWindow = v.InferOutput<typeof ChartWindowSchema>

/** The colour of the n-th dataset: the five default colours in turn. */
export function defaultDatasetColour(index: number): string {
  const count = CHART_DEFAULT_COLOURS.length
  return CHART_DEFAULT_COLOURS[((index % count) + count) % count] ?? CHART_DEFAULT_COLOURS[0]
}

/** A new dataset's layout: solid line, dot markers, the next default colour. */
export function defaultDatasetLayout(name: string, index: number): DatasetLayout {
  return { name, lineStyle: 'solid', markerStyle: 'dot', color: defaultDatasetColour(index) }
}

/** A new chart's layout: time axis, automatic Y range, linear interpolation, no time indicator. */
export function defaultChartLayout(name: string, yLabel: string): ChartLayout {
  return {
    name,
    yLabel,
    xAxis: 'time',
    minY: null,
    maxY: null,
    interpolation: 'linear',
    timeIndicator: false,
    datasetLayouts: {},
  }
}

/** 'Min must be smaller than max.' */
export const CHART_Y_RANGE_MESSAGE = 'Min must be smaller than max.'

/** Checks the chart's Y min and max (null is automatic and always fine). */
export function checkChartYRange(minY: number | null, maxY: number | null): Issue[] {
  if (minY === null || maxY === null) return []
  if (!Number.isFinite(minY) || !Number.isFinite(maxY)) return []
  return minY < maxY ? [] : [issue('error', 'maxY', CHART_Y_RANGE_MESSAGE)]
}

/** The Y bounds drawn: on a violation the upper bound used is the min; NaN counts as automatic. */
export function effectiveYRange(
  minY: number | null,
  maxY: number | null,
): { min: number | null; max: number | null } {
  const min = minY !== null && Number.isFinite(minY) ? minY : null
  const max = maxY !== null && Number.isFinite(maxY) ? maxY : null
  if (min !== null && max !== null && min >= max) return { min, max: min }
  return { min, max }
}

/**
 * Closing a window: the remaining windows, and the active one (the last remaining when the closed
 * window was active; null when none remains).
 */
export function closeChartWindow<T extends { id: string }>(
  windows: readonly T[],
  closingId: string,
  activeId: string | null,
): { windows: T[]; activeId: string | null } {
  const remaining = windows.filter((window) => window.id !== closingId)
  const stillActive = activeId !== closingId && remaining.some((window) => window.id === activeId)
  return { windows: remaining, activeId: stillActive ? activeId : (remaining.at(-1)?.id ?? null) }
}

/** The close button shows only when more than one window exists. */
export function canCloseChartWindow(windowCount: number): boolean {
  return windowCount > 1
}

/** Below 1700 px the chart window is forced minimized and fullscreen. */
export function chartWindowDisplay(
  windowWidthPx: number,
  requested: { minimized: boolean; fullscreen: boolean },
): { minimized: boolean; fullscreen: boolean; forced: boolean } {
  if (windowWidthPx < SMALL_SCREEN_WIDTH_PX)
    return { minimized: true, fullscreen: true, forced: true }
  return { ...requested, forced: false }
}

/** Separator of the chart CSV export. */
export const CSV_SEPARATOR = ';'

function csvCell(text: string): string {
  return /[;"\n\r]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text
}

/**
 * Chart CSV: columns Output, Time (s) and one per dataset, ';'-separated, one row per output
 * present in any dataset; time = output × output interval; an empty cell where a dataset has no
 * value. Numbers carry 12 significant digits.
 */
export function chartToCsv(
  datasets: readonly { name: string; data: readonly { x: number; y: number | null }[] }[],
  outputTimeIntervalS: number,
): string {
  const outputs = [...new Set(datasets.flatMap((d) => d.data.map((p) => p.x)))].sort(
    (a, b) => a - b,
  )
  const columns = datasets.map((d) => new Map(d.data.map((p) => [p.x, p.y])))
  const header = ['Output', CHART_X_AXIS_LABELS.time, ...datasets.map((d) => d.name)]
  const rows = outputs.map((output) =>
    [
      formatNumber(output),
      formatNumber(outputTime(output, outputTimeIntervalS)),
      ...columns.map((column) => {
        const y = column.get(output)
        return y === null || y === undefined ? '' : formatNumber(y)
      }),
    ].join(CSV_SEPARATOR),
  )
  return [header.map(csvCell).join(CSV_SEPARATOR), ...rows].join('\n') + '\n'
}

/** Export file name: simulation name and chart name ('Dam break - Pressure.csv'). */
export function chartExportFileName(
  simulationName: string,
  chartName: string,
  extension: 'csv' | 'png',
): string {
  const safe = (text: string) => text.replace(/[\\/:*?"<>|]/g, '_').trim()
  return `${safe(simulationName)} - ${safe(chartName)}.${extension}`
}
