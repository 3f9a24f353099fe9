/*
 * The Statistics table's rules that need no React: which objects and operations it offers, the
 * stats.calc requests a config becomes, how stream frames fill the table, the panel state and the
 * series handed to the charts. Messages and range rules come from domain/results.ts.
 */
import {
  ATTRIBUTES,
  SENSOR_STATISTICS_OPERATIONS,
  STATISTICS_MESSAGES,
  VOLUME_CLIP_INFO,
  defaultTemporalAggregator,
  isAttributeName,
  missingOutputsMessage,
  statisticsPanelState,
  statisticsWireOperation,
  type AttributeName,
  type OutputMask,
  type OutputMode,
  type OutputObject,
  type StatisticsCalculationState,
  type StatisticsConfig,
  type StatisticsDataset,
  type StatisticsOperation,
  type StatisticsPanelState,
} from '../../../../../domain/results.ts'
import type { StatsCalcRequest } from '../../../../../domain/resultsProtocol.ts'
import { convertFromSi, unitSymbol } from '../../../../../domain/units.ts'

/** One attribute as stats.info offers it. */
export interface StatisticsAttributeInfo {
  attribute: string
  subAttributes: string[]
  operations: string[]
}

/** Labels of the operations in the table. */
export const OPERATION_LABELS: Record<StatisticsOperation, string> = {
  mean: 'Mean',
  min: 'Min',
  max: 'Max',
  '5th_percentile': '5th percentile',
  median: 'Median',
  '95th_percentile': '95th percentile',
  integral: 'Integral',
}

/** Labels of the output modes. */
export const OUTPUT_MODE_LABELS: Record<OutputMode, string> = {
  current: 'Current output',
  outputRange: 'Output range',
  timeRange: 'Time range',
}

/** Operations ticked in a new panel. */
export const DEFAULT_OPERATIONS: readonly StatisticsOperation[] = ['mean', 'min', 'max']

/** The attribute a new panel shows when the outputs have it. */
export const DEFAULT_ATTRIBUTE: AttributeName = 'pressure'

/** The attribute info a new panel starts with: pressure when offered, else the first. */
export function defaultAttributeInfo<T extends { attribute: string }>(infos: readonly T[]) {
  return infos.find((info) => info.attribute === DEFAULT_ATTRIBUTE) ?? infos[0]
}

/** A value as the table and the charts show it (volume in liters, the rest in SI). */
export function displayValue(attribute: AttributeName, value: number): number {
  return convertFromSi(ATTRIBUTES[attribute].quantity, value)
}

/** Object kinds statistics run over: fluids (per material) and walls. */
const FLUID_KINDS: readonly string[] = ['fluid', 'material']
const WALL_KINDS: readonly string[] = ['wall_boundary']
const SENSOR_KINDS: readonly string[] = ['sensor']

/** What an object counts as in the panel: statistics never mix these. */
export type ObjectGroup = 'fluid' | 'wall' | 'sensor'

/** The group of an object kind. */
export function objectGroup(kind: string): ObjectGroup {
  if (WALL_KINDS.includes(kind)) return 'wall'
  if (SENSOR_KINDS.includes(kind)) return 'sensor'
  return 'fluid'
}

/** Fluids, walls and sensors of an output, in that order. */
export function selectableObjects(objects: readonly OutputObject[]): OutputObject[] {
  return [
    ...objects.filter((o) => FLUID_KINDS.includes(o.kind)),
    ...objects.filter((o) => WALL_KINDS.includes(o.kind)),
    ...objects.filter((o) => SENSOR_KINDS.includes(o.kind)),
  ]
}

/** A new panel selects every fluid. */
export function defaultSelection(objects: readonly OutputObject[]): number[] {
  return objects.filter((o) => FLUID_KINDS.includes(o.kind)).map((o) => o.id)
}

/** The attributes of stats.info the catalogue knows, in the catalogue's order. */
export function knownAttributes(infos: readonly StatisticsAttributeInfo[]) {
  const byName = new Map(infos.map((info) => [info.attribute, info]))
  return Object.keys(ATTRIBUTES)
    .filter((name) => byName.has(name))
    .map((name) => byName.get(name) as StatisticsAttributeInfo & { attribute: AttributeName })
    .filter((info) => isAttributeName(info.attribute))
}

/** The operations offered for an attribute, in table order (all when stats.info names none). */
export function offeredOperations(
  info: StatisticsAttributeInfo | undefined,
): StatisticsOperation[] {
  const listed = info?.operations ?? []
  return SENSOR_STATISTICS_OPERATIONS.filter(
    (op) =>
      listed.length === 0 ||
      listed.includes(op) ||
      (op === 'integral' && listed.includes('integral_magnitude')),
  )
}

/** The sub-option a new attribute starts with: magnitude when offered, else the first, else none. */
export function defaultSubAttribute(info: StatisticsAttributeInfo | undefined): string | null {
  const subs = info?.subAttributes ?? []
  if (subs.length === 0) return null
  return subs.includes('magnitude') ? 'magnitude' : (subs[0] ?? null)
}

/** A config for the panel: current output, the attribute's default sub-option, default operations. */
export function initialStatisticsConfig(
  info: (StatisticsAttributeInfo & { attribute: AttributeName }) | undefined,
  lastOutputNo: number,
  lastTimeS: number,
  selection: number[],
): StatisticsConfig {
  const attribute = info?.attribute ?? DEFAULT_ATTRIBUTE
  return {
    attribute,
    subAttribute: defaultSubAttribute(info),
    outputMode: 'current',
    output: null,
    outputRange: [0, lastOutputNo],
    timeRange: [0, lastTimeS],
    selection,
    operations: operationsRecord(
      offeredOperations(info).filter((op) => DEFAULT_OPERATIONS.includes(op)),
    ),
  }
}

/** Operations as the config stores them: operation → its temporal aggregator. */
export function operationsRecord(
  operations: readonly StatisticsOperation[],
): StatisticsConfig['operations'] {
  const record: StatisticsConfig['operations'] = {}
  for (const op of operations) record[op] = defaultTemporalAggregator(op)
  return record
}

/** The ticked operations of a config, in table order. */
export function configOperations(config: StatisticsConfig): StatisticsOperation[] {
  return SENSOR_STATISTICS_OPERATIONS.filter((op) => op in config.operations)
}

/** The operations can run: some are ticked, all are offered, and a needed sub-option is set. */
export function canComputeOperations(
  config: StatisticsConfig,
  info: StatisticsAttributeInfo | undefined,
): boolean {
  const ops = configOperations(config)
  if (ops.length === 0) return false
  const offered = offeredOperations(info)
  if (!ops.every((op) => offered.includes(op))) return false
  const needsSub = (info?.subAttributes.length ?? 0) > 0
  return (
    !needsSub ||
    (config.subAttribute !== null && info?.subAttributes.includes(config.subAttribute) === true)
  )
}

/** Everything but the selection, for "config changed" (the selection is compared on its own). */
export function configKey(config: StatisticsConfig): string {
  const { selection: _selection, ...rest } = config
  return JSON.stringify(rest)
}

/** The selection as a comparable key (order does not matter). */
export function selectionKey(selection: readonly number[]): string {
  return [...selection].sort((a, b) => a - b).join(',')
}

/** The mask ids of a volume clip in an output's info (a mask names its clip, else its id is the clip's). */
export function masksOfClip(masks: readonly OutputMask[], clipId: number | null): number[] {
  if (clipId === null) return []
  return masks
    .filter((mask) => ((mask as { volumeClipId?: number }).volumeClipId ?? mask.id) === clipId)
    .map((mask) => mask.id)
}

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

/** Texts of the panel states that are not 'valid' or a running calculation. */
export const PANEL_STATE_MESSAGES: Partial<Record<StatisticsPanelState, string>> = {
  emptySelection: 'Select at least one object.',
  incompleteSetup: 'Statistics are not available for this simulation yet.',
  masksLoading: 'Loading the volume clip...',
  masksMissing: VOLUME_CLIP_INFO.missing,
  sensorsLoading: 'Sensors are being computed...',
  sensorResultsMissing: 'No sensor results for the selected outputs. Compute Sensors first.',
  differentObjects: 'Select fluids, walls or sensors, not a mix.',
  statsLoading: 'Loading statistics...',
}

/** What the panel state is derived from. */
export interface PanelInputs {
  selection: readonly number[]
  objects: readonly OutputObject[]
  attributesLoading: boolean
  attributeCount: number
  clipId: number | null
  masksLoading: boolean
  clipMasks: readonly number[]
  running: boolean
  /** A sensor recomputation is scheduled or running. */
  sensorsComputing: boolean
  /** No output of the config has sensor results. */
  sensorResultsMissing: boolean
}

/** The panel state (domain priority list) for the inputs. */
export function panelStateOf(inputs: PanelInputs): StatisticsPanelState {
  const groups = new Set(
    inputs.objects.filter((o) => inputs.selection.includes(o.id)).map((o) => objectGroup(o.kind)),
  )
  const sensors = groups.has('sensor')
  return statisticsPanelState({
    emptySelection: inputs.selection.length === 0,
    sensorsLoading: sensors && inputs.sensorsComputing,
    sensorResultsMissing: sensors && inputs.sensorResultsMissing,
    incompleteSetup: !inputs.attributesLoading && inputs.attributeCount === 0,
    masksLoading: inputs.clipId !== null && inputs.masksLoading,
    masksMissing: inputs.clipId !== null && !inputs.masksLoading && inputs.clipMasks.length === 0,
    differentObjects: groups.size > 1,
    statsLoading: inputs.attributesLoading,
    operationsLoading: inputs.running,
  })
}

/** A sub-option as the select shows it: a material's name for material-dependent attributes. */
export function subAttributeLabel(
  attribute: AttributeName,
  subAttribute: string,
  objects: readonly OutputObject[],
): string {
  const def: { materialDependent: boolean } = ATTRIBUTES[attribute]
  if (!def.materialDependent) return subAttribute
  const material = objects.find((o) => o.material && String(o.material.id) === subAttribute)
  return material?.material?.name ?? subAttribute
}

/** The attribute's axis label with unit: 'Pressure (Pa)', 'Velocity magnitude (m/s)'. */
export function attributeAxisLabel(attribute: AttributeName, subAttribute: string | null): string {
  const def = ATTRIBUTES[attribute]
  const unit = unitSymbol(def.quantity)
  const name = subAttribute && def.kind === 'vector' ? `${def.label} ${subAttribute}` : def.label
  return unit === '' ? name : `${name} (${unit})`
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
