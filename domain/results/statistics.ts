/** Statistics over outputs (spec/results.md §4): operations, datasets, output ranges and their messages. */
import * as v from 'valibot'
import { formatNumber } from '../units.ts'
import { checkNumber, issue, type Issue } from '../validation.ts'
import { outputTime } from './outputs.ts'
import {
  type AttributeDef,
  ATTRIBUTES,
  type AttributeName,
  AttributeNameSchema,
} from './attributes.ts'

/** Operations over the objects of one output. */
export const STATISTICS_OPERATIONS = [
  'mean',
  'min',
  'max',
  '5th_percentile',
  'median',
  '95th_percentile',
] as const
/** Sensor statistics add the integral. */
export const SENSOR_STATISTICS_OPERATIONS = [...STATISTICS_OPERATIONS, 'integral'] as const
/** One statistics operation. */
export type StatisticsOperation = (typeof SENSOR_STATISTICS_OPERATIONS)[number]

/** How outputs are chosen: the current one, a range of outputs or a range of time. */
export const OUTPUT_MODES = ['current', 'outputRange', 'timeRange'] as const
/** One statistics output mode. */
export type OutputMode = (typeof OUTPUT_MODES)[number]

/** Statistics configuration (table and chart). */
export const StatisticsConfigSchema = v.object({
  attribute: AttributeNameSchema,
  subAttribute: v.nullable(v.string()),
  outputMode: v.picklist(OUTPUT_MODES),
  output: v.nullable(v.number()),
  outputRange: v.tuple([v.nullable(v.number()), v.nullable(v.number())]),
  timeRange: v.tuple([v.nullable(v.number()), v.nullable(v.number())]),
  /** Object ids. */
  selection: v.array(v.number()),
  /** Operation over objects → temporal aggregator over outputs. */
  operations: v.record(
    v.picklist(SENSOR_STATISTICS_OPERATIONS),
    v.picklist(SENSOR_STATISTICS_OPERATIONS),
  ),
})
/** Statistics configuration. */
export type StatisticsConfig = v.InferOutput<typeof StatisticsConfigSchema>

/** The temporal aggregator an operation starts with: itself, except the integral maps to mean. */
export function defaultTemporalAggregator(operation: StatisticsOperation): StatisticsOperation {
  return operation === 'integral' ? 'mean' : operation
}

/** A chart's statistics config: time range from 0 to the last output's time. */
export function defaultChartStatisticsConfig(
  attribute: AttributeName,
  lastOutputNo: number,
  outputTimeIntervalS: number,
): StatisticsConfig {
  return {
    attribute,
    subAttribute: ATTRIBUTES[attribute].kind === 'vector' ? 'magnitude' : null,
    outputMode: 'timeRange',
    output: null,
    outputRange: [0, lastOutputNo],
    timeRange: [0, outputTime(lastOutputNo, outputTimeIntervalS)],
    selection: [],
    operations: { mean: 'mean' },
  }
}

/** Whether a statistics request goes to objects of the output or to sensors. */
export type StatisticsSource = 'objects' | 'sensors'

/**
 * Statistics are computed only when the operations are valid for the attribute: every operation is
 * offered for the source, and vector and material-dependent attributes carry a sub-option.
 */
export function areOperationsValid(
  attribute: AttributeName,
  subAttribute: string | null,
  operations: readonly StatisticsOperation[],
  source: StatisticsSource,
): boolean {
  const offered: readonly string[] =
    source === 'sensors' ? SENSOR_STATISTICS_OPERATIONS : STATISTICS_OPERATIONS
  if (operations.length === 0 || !operations.every((op) => offered.includes(op))) return false
  const def: AttributeDef = ATTRIBUTES[attribute]
  if ((def.kind === 'vector' || def.materialDependent) && subAttribute === null) return false
  return true
}

/**
 * The wire form of one statistic: the combined stress magnitude integral is computed as the
 * combined_stress attribute's integral_magnitude operation.
 */
export function statisticsWireOperation(
  attribute: AttributeName,
  subAttribute: string | null,
  operation: StatisticsOperation,
): { attribute: AttributeName; subAttribute: string | null; operation: string } {
  if (attribute === 'combined_stress' && subAttribute === 'magnitude' && operation === 'integral')
    return { attribute, subAttribute: null, operation: 'integral_magnitude' }
  return { attribute, subAttribute, operation }
}

/** 'The end output must be bigger than the start.' */
export const OUTPUT_RANGE_ORDER_MESSAGE = 'The end output must be bigger than the start.'
/** 'The end time must be bigger than the start.' */
export const TIME_RANGE_ORDER_MESSAGE = 'The end time must be bigger than the start.'
/** 'The simulation only has N outputs.' (N: the largest output number). */
export function outputLimitMessage(lastOutputNo: number): string {
  return `The simulation only has ${lastOutputNo} outputs.`
}
/** 'The simulation only lasts N seconds.' (N: last output × output interval). */
export function timeLimitMessage(lastTimeS: number): string {
  return `The simulation only lasts ${formatNumber(lastTimeS)} seconds.`
}

/** What the range rules need to know about the run. */
export interface OutputContext {
  /** Largest output number available (outputs run 0 … lastOutputNo). */
  lastOutputNo: number
  outputTimeIntervalS: number
}

/**
 * Output range rules: start and end integers ≥ 0, start <= end, end <= the largest output. The
 * field names are `${prefix}.0` / `${prefix}.1`.
 */
export function checkOutputRange(
  range: readonly [unknown, unknown],
  context: OutputContext,
  prefix = 'outputRange',
): Issue[] {
  const [start, end] = range
  const bounds = { min: 0, integer: true }
  const issues = [
    ...checkNumber(`${prefix}.0`, 'Start', start, bounds),
    ...checkNumber(`${prefix}.1`, 'End', end, bounds),
  ]
  if (issues.length > 0) return issues
  if ((end as number) < (start as number))
    return [issue('error', `${prefix}.1`, OUTPUT_RANGE_ORDER_MESSAGE)]
  if ((end as number) > context.lastOutputNo)
    return [issue('error', `${prefix}.1`, outputLimitMessage(context.lastOutputNo))]
  return []
}

/** Time range rules: start ≥ 0, start <= end, end <= last output × output interval. */
export function checkTimeRange(
  range: readonly [unknown, unknown],
  context: OutputContext,
): Issue[] {
  const [start, end] = range
  const issues = [
    ...checkNumber('timeRange.0', 'Start', start, { min: 0 }),
    ...checkNumber('timeRange.1', 'End', end, { min: 0 }),
  ]
  if (issues.length > 0) return issues
  if ((end as number) < (start as number))
    return [issue('error', 'timeRange.1', TIME_RANGE_ORDER_MESSAGE)]
  const lastTimeS = outputTime(context.lastOutputNo, context.outputTimeIntervalS)
  // 3 × 0.1 is 0.30000000000000004: allow a relative rounding slack.
  if ((end as number) > lastTimeS + 1e-9 * Math.max(1, Math.abs(lastTimeS)))
    return [issue('error', 'timeRange.1', timeLimitMessage(lastTimeS))]
  return []
}

/** The range rules of the config's output mode (current: one output between 0 and the last). */
export function checkStatisticsConfig(config: StatisticsConfig, context: OutputContext): Issue[] {
  switch (config.outputMode) {
    case 'current':
      return checkNumber('output', 'Output', config.output, {
        min: 0,
        max: context.lastOutputNo,
        integer: true,
      })
    case 'outputRange':
      return checkOutputRange(config.outputRange, context)
    case 'timeRange':
      return checkTimeRange(config.timeRange, context)
  }
}

/** The outputs a statistics config covers (in time mode: outputs whose time lies in the range). */
export function statisticsOutputs(config: StatisticsConfig, context: OutputContext): number[] {
  const outputs: number[] = []
  const push = (from: number, to: number) => {
    for (let n = Math.max(0, from); n <= Math.min(to, context.lastOutputNo); n++) outputs.push(n)
  }
  if (config.outputMode === 'current') {
    if (config.output !== null) push(config.output, config.output)
  } else if (config.outputMode === 'outputRange') {
    const [start, end] = config.outputRange
    if (start !== null && end !== null) push(start, end)
  } else {
    const [start, end] = config.timeRange
    const interval = context.outputTimeIntervalS
    if (start !== null && end !== null && interval > 0)
      push(Math.ceil(start / interval - 1e-9), Math.floor(end / interval + 1e-9))
  }
  return outputs
}

/** States of a statistics calculation. */
export const STATISTICS_CALCULATION_STATES = ['running', 'completed', 'failed', 'canceled'] as const
/** One statistics calculation state. */
export type StatisticsCalculationState = (typeof STATISTICS_CALCULATION_STATES)[number]

/** One statistics series: values per output number (null where the output has no data). */
export const StatisticsDatasetSchema = v.object({
  id: v.string(),
  operation: v.picklist(SENSOR_STATISTICS_OPERATIONS),
  attribute: AttributeNameSchema,
  subAttribute: v.nullable(v.string()),
  objs: v.array(v.number()),
  data: v.array(v.object({ x: v.number(), y: v.nullable(v.number()) })),
})
/** One statistics series. */
export type StatisticsDataset = v.InferOutput<typeof StatisticsDatasetSchema>

/** A statistics calculation: progress 0 … 1, the config it runs and the one last requested. */
export const StatisticsCalculationSchema = v.object({
  state: v.picklist(STATISTICS_CALCULATION_STATES),
  progress: v.number(),
  config: StatisticsConfigSchema,
  requestedConfig: v.nullable(StatisticsConfigSchema),
  missingOutputs: v.array(v.number()),
})
/** A statistics calculation. */
export type StatisticsCalculation = v.InferOutput<typeof StatisticsCalculationSchema>

/** The states of the statistics results panel, highest priority first. */
export const STATISTICS_PANEL_STATES = [
  'emptySelection',
  'sensorsLoading',
  'sensorResultsMissing',
  'incompleteSetup',
  'masksLoading',
  'masksMissing',
  'differentObjects',
  'statsLoading',
  'operationsLoading',
  'valid',
] as const
/** One statistics panel state. */
export type StatisticsPanelState = (typeof STATISTICS_PANEL_STATES)[number]

/** The conditions the panel state is derived from (absent means false). */
export type StatisticsPanelFlags = Partial<Record<Exclude<StatisticsPanelState, 'valid'>, boolean>>

/** The first condition that holds in priority order, else 'valid'. */
export function statisticsPanelState(flags: StatisticsPanelFlags): StatisticsPanelState {
  for (const state of STATISTICS_PANEL_STATES) {
    if (state === 'valid') break
    if (flags[state]) return state
  }
  return 'valid'
}

/** Messages of the statistics panel. */
export const STATISTICS_MESSAGES = {
  loadPrompt: 'Click the Load button to view the selected data.',
  cancelled: 'Computation cancelled.',
  failed: 'Computation failed for unknown reason.',
  missingSelected: 'Missing data in selected outputs.',
  loadPrevious: 'Load previous data',
} as const

/** Fewer than this many missing outputs are listed one by one; from it on only counted. */
export const MISSING_OUTPUTS_LIST_LIMIT = 6

/** 'Missing data in outputs: 1, 4, 7' for fewer than 6 outputs, 'Missing data in outputs: 9 outputs' otherwise. */
export function missingOutputsMessage(outputs: readonly number[]): string {
  const unique = [...new Set(outputs)].sort((a, b) => a - b)
  const listed =
    unique.length < MISSING_OUTPUTS_LIST_LIMIT ? unique.join(', ') : `${unique.length} outputs`
  return `Missing data in outputs: ${listed}`
}

/** A Load prompt shows outside current mode when the config or selection changed, or no data exists. */
export function showsLoadPrompt(input: {
  outputMode: OutputMode
  configChanged: boolean
  selectionChanged: boolean
  hasData: boolean
}): boolean {
  if (input.outputMode === 'current') return false
  return input.configChanged || input.selectionChanged || !input.hasData
}

/** 'Load previous data' restores the earlier config when the selection differs and it was not canceled. */
export function showsLoadPrevious(
  selectionDiffers: boolean,
  state: StatisticsCalculationState | null,
): boolean {
  return selectionDiffers && state !== 'canceled'
}

/**
 * In current-output mode results recompute on every output, config or selection change, unless
 * playing or a material-dependent attribute has no sub-option yet.
 */
export function recomputesAutomatically(input: {
  outputMode: OutputMode
  playing: boolean
  attribute: AttributeName
  subAttribute: string | null
}): boolean {
  if (input.outputMode !== 'current' || input.playing) return false
  const def: AttributeDef = ATTRIBUTES[input.attribute]
  return !(def.materialDependent && input.subAttribute === null)
}
