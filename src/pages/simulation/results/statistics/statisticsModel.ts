/*
 * The Statistics table's rules that need no React: which objects and operations it offers, the
 * stats.calc requests a config becomes, how stream frames fill the table, the panel state and the
 * series handed to the charts. Messages and range rules come from domain/results.ts.
 */
import {
  ATTRIBUTES,
  SENSOR_STATISTICS_OPERATIONS,
  VOLUME_CLIP_INFO,
  defaultTemporalAggregator,
  isAttributeName,
  statisticsPanelState,
  type AttributeName,
  type OutputMask,
  type OutputMode,
  type OutputObject,
  type StatisticsConfig,
  type StatisticsOperation,
  type StatisticsPanelState,
} from '../../../../../domain/results.ts'
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
