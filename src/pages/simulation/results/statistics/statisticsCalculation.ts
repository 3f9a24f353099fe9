/*
 * A Statistics calculation's rules that need no React: the stats.calc requests a config becomes,
 * how stream frames fill the table, and the series a result hands to the charts.
 */
import {
  ATTRIBUTES,
  STATISTICS_MESSAGES,
  defaultTemporalAggregator,
  missingOutputsMessage,
  statisticsWireOperation,
  type StatisticsCalculationState,
  type StatisticsConfig,
  type StatisticsDataset,
  type StatisticsOperation,
} from '../../../../../domain/results.ts'
import type { StatsCalcRequest } from '../../../../../domain/resultsProtocol.ts'

import {
  OPERATION_LABELS,
  attributeAxisLabel,
  configOperations,
  displayValue,
} from './statisticsModel.ts'

/** One stats.calc request and how its wire statistics map back to the table's operations. */
export interface PlannedRequest {
  request: Omit<StatsCalcRequest, 'type' | 'requestId'>
  operationOf: Record<string, StatisticsOperation>
}

/**
 * The stats.calc requests of a config: one per wire attribute (the combined stress magnitude
 * integral goes as combined_stress integral_magnitude, so it gets its own request).
 */
export function planStatisticsRequests(
  simId: number,
  config: StatisticsConfig,
  outputs: number[],
  masks: number[],
): PlannedRequest[] {
  const groups = new Map<string, PlannedRequest>()
  for (const op of configOperations(config)) {
    const wire = statisticsWireOperation(config.attribute, config.subAttribute, op)
    const key = `${wire.attribute}|${wire.subAttribute ?? ''}`
    let group = groups.get(key)
    if (!group) {
      group = {
        request: {
          simId,
          outputs,
          attribute: wire.attribute,
          subAttribute: wire.subAttribute,
          dataset: 'raw',
          objIds: [...config.selection],
          masks,
          operations: {},
          mode: config.outputMode === 'current' ? 'output_only' : 'both',
        },
        operationOf: {},
      }
      groups.set(key, group)
    }
    // Only the operation has a wire form; the aggregator combines plain values per output.
    const aggregator = config.operations[op] ?? defaultTemporalAggregator(op)
    group.request.operations[wire.operation] = [aggregator]
    group.operationOf[wire.operation] = op
  }
  return [...groups.values()]
}

/** What the table shows of one calculation. */
export interface StatisticsResult {
  state: StatisticsCalculationState
  /** 0 … 1: outputs answered over outputs asked. */
  progress: number
  config: StatisticsConfig
  /** The volume clip used as the mask (null: none). */
  clipId: number | null
  outputs: number[]
  /** Per output: operation → value (null: no data). */
  values: Map<number, Partial<Record<StatisticsOperation, number | null>>>
  /** Operation → value over all outputs (mode both). */
  aggregates: Partial<Record<StatisticsOperation, number | null>>
  missingOutputs: number[]
}

/** A calculation that just started. */
export function startedResult(
  config: StatisticsConfig,
  outputs: number[],
  clipId: number | null = null,
): StatisticsResult {
  return {
    state: 'running',
    progress: 0,
    config,
    clipId,
    outputs,
    values: new Map(),
    aggregates: {},
    missingOutputs: [],
  }
}

/** Frames of a stats.calc stream as this module reads them. */
export type StatisticsFrame =
  | {
      type: 'stats.calc.output_statistic'
      outputNo: number
      statistic: string
      value: number | null
    }
  | { type: 'stats.calc.all_output_statistic'; statistic: string; value: number | null }
  | { type: 'stats.calc.error'; outputNo: number; message: string }
  | { type: 'stats.calc.done'; state: 'completed' | 'failed' | 'canceled' }

/** Folds one frame into the result (a new object; the old one is left as it was). */
export function applyStatisticsFrame(
  result: StatisticsResult,
  frame: StatisticsFrame,
  operationOf: Record<string, StatisticsOperation>,
): StatisticsResult {
  const next: StatisticsResult = { ...result }
  if (frame.type === 'stats.calc.output_statistic') {
    const op = operationOf[frame.statistic]
    if (!op) return result
    next.values = new Map(result.values)
    next.values.set(frame.outputNo, { ...result.values.get(frame.outputNo), [op]: frame.value })
  } else if (frame.type === 'stats.calc.all_output_statistic') {
    const op = operationOf[frame.statistic]
    if (!op) return result
    next.aggregates = { ...result.aggregates, [op]: frame.value }
  } else if (frame.type === 'stats.calc.error') {
    if (!result.missingOutputs.includes(frame.outputNo))
      next.missingOutputs = [...result.missingOutputs, frame.outputNo]
  } else return result
  const answered = new Set([...next.values.keys(), ...next.missingOutputs])
  next.progress =
    result.outputs.length === 0 ? 1 : Math.min(1, answered.size / result.outputs.length)
  return next
}

/** How several streams of one calculation end together: failed beats canceled beats completed. */
export function combineEnds(
  ends: readonly StatisticsCalculationState[],
): StatisticsCalculationState {
  if (ends.includes('failed')) return 'failed'
  if (ends.includes('canceled')) return 'canceled'
  return 'completed'
}

/** The message under the table for an ended calculation (null: none). */
export function calculationMessage(result: StatisticsResult | null): string | null {
  if (!result) return null
  if (result.state === 'canceled') return STATISTICS_MESSAGES.cancelled
  if (result.state === 'failed')
    return result.missingOutputs.length > 0
      ? STATISTICS_MESSAGES.missingSelected
      : STATISTICS_MESSAGES.failed
  if (result.missingOutputs.length > 0) return missingOutputsMessage(result.missingOutputs)
  return null
}

/** A series of one operation for the charts: x = output number, y = value. */
export function chartDatasetOf(
  result: StatisticsResult,
  operation: StatisticsOperation,
  objectNames: ReadonlyMap<number, string>,
): { dataset: StatisticsDataset; name: string; yLabel: string } {
  const { config } = result
  const objs = [...config.selection].sort((a, b) => a - b)
  const names = objs.map((id) => objectNames.get(id) ?? `#${id}`).join(', ')
  const def = ATTRIBUTES[config.attribute]
  const sub = config.subAttribute && def.kind === 'vector' ? ` ${config.subAttribute}` : ''
  return {
    dataset: {
      id: [config.attribute, config.subAttribute ?? '', operation, objs.join('-')].join(':'),
      operation,
      attribute: config.attribute,
      subAttribute: config.subAttribute,
      objs,
      data: result.outputs.map((x) => {
        const y = result.values.get(x)?.[operation] ?? null
        return { x, y: y === null ? null : displayValue(config.attribute, y) }
      }),
    },
    name: `${def.label}${sub} ${OPERATION_LABELS[operation].toLowerCase()} (${names})`,
    yLabel: attributeAxisLabel(config.attribute, config.subAttribute),
  }
}
