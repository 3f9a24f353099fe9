/**
 * The results side (spec/results.md §3–§5): outputs and datasets, viewport state, colour ranges,
 * the attribute catalogue, statistics, chart windows, user export, playback and the scale bar.
 * Every rule here returns `Issue`s (validation.ts) with the spec's exact messages.
 */
import * as v from 'valibot'
import {
  CHART_DEFAULT_COLOURS,
  COLOUR_SCHEMES,
  DEFAULT_COLOUR_SCHEME,
  EXPORT_STEP,
  PLAYBACK,
  SCALE_BAR,
  SMALL_SCREEN_WIDTH_PX,
} from './constants.ts'
import { JOB_STATES, JobMessageSchema } from './jobs.ts'
import type { SimulationState } from './simulationState.ts'
import { formatNumber, type Quantity } from './units.ts'
import { checkNumber, issue, type Issue } from './validation.ts'

// ── Outputs ─────────────────────────────────────────────────────────────────────────────────────

/** Visualization and sensor states of one output. */
export const OUTPUT_STATES = ['pending', 'ready', 'failed'] as const
/** One output visualization or sensor state. */
export type OutputState = (typeof OUTPUT_STATES)[number]

/** States of the wall sensors of one output. */
export const WALL_SENSOR_STATES = ['unknown', 'pending', 'failed'] as const
/** One wall sensor state. */
export type WallSensorState = (typeof WALL_SENSOR_STATES)[number]

/** One output (time step) as listed by GET /simulations/{id}/outputs. */
export const OutputInfoSchema = v.object({
  outputNo: v.pipe(v.number(), v.integer(), v.minValue(0)),
  states: v.object({
    visualization: v.picklist(OUTPUT_STATES),
    sensor: v.picklist(OUTPUT_STATES),
  }),
  wallSensorState: v.picklist(WALL_SENSOR_STATES),
})
/** One output (time step). */
export type OutputInfo = v.InferOutput<typeof OutputInfoSchema>

/** True once every output's visualization is ready (the outputs poll slows to 600 s). */
export function allOutputsReady(outputs: readonly OutputInfo[]): boolean {
  return outputs.every((output) => output.states.visualization === 'ready')
}

/** Particle and triangle counts of one dataset of an output. */
export const DatasetStatsSchema = v.object({
  particleCount: v.pipe(v.number(), v.integer(), v.minValue(0)),
  triangleCount: v.pipe(v.number(), v.integer(), v.minValue(0)),
})
/** Output dataset stats for the full and the fast dataset. */
export const OutputDatasetStatsSchema = v.object({
  full: DatasetStatsSchema,
  fast: DatasetStatsSchema,
})
/** Output dataset stats for the full and the fast dataset. */
export type OutputDatasetStats = v.InferOutput<typeof OutputDatasetStatsSchema>

/**
 * Datasets of an output: fast (reduced, spatially uniform subset), full, surface (reconstructed
 * fluid surface), raw (statistics input), static (geometry that does not move).
 */
export const DATASETS = ['fast', 'full', 'surface', 'raw', 'static'] as const
/** One output dataset. */
export type Dataset = (typeof DATASETS)[number]

/** Kinds of objects an output holds. */
export const OUTPUT_OBJECT_KINDS = [
  'fluid',
  'wall_boundary',
  'open_boundary',
  'material',
  'volume_clip',
  'sensor',
  'air_drag',
] as const
/** One output object kind. */
export type OutputObjectKind = (typeof OUTPUT_OBJECT_KINDS)[number]

/** One object of an output (a fluid material, a wall part, an open boundary, a volume clip …). */
export const OutputObjectSchema = v.object({
  id: v.number(),
  kind: v.picklist(OUTPUT_OBJECT_KINDS),
  name: v.string(),
  /** Materials only: index of the material in the setup and its reference. */
  materialIndex: v.optional(v.number()),
  material: v.optional(v.object({ id: v.number(), name: v.string() })),
  /** The manifest's object id (e.g. `fluid-1`): the render object and bundle entry it maps to. */
  objectKey: v.optional(v.string()),
})
/** One object of an output. */
export type OutputObject = v.InferOutput<typeof OutputObjectSchema>

/** A volume clip mask over one material. */
export const OutputMaskSchema = v.object({
  id: v.number(),
  materialId: v.number(),
  appearance: v.object({ visibility: v.boolean() }),
  /** The volume clip the mask belongs to (a clip for all materials has one mask per material). */
  volumeClipId: v.optional(v.number()),
  /** Object id (resultsObjects.ts) of the fluid the mask is aligned with. */
  objId: v.optional(v.number()),
})
/** A volume clip mask over one material. */
export type OutputMask = v.InferOutput<typeof OutputMaskSchema>

/** Loading states of volume clip masks. */
export const MASK_STATES = [
  'missing',
  'metadata loading',
  'masks loading',
  'empty',
  'valid',
  'incomplete setup',
] as const
/** One mask loading state. */
export type MaskState = (typeof MASK_STATES)[number]

/** Info line of a volume clip item in the explorer (loading shows a spinner, no text). */
export const VOLUME_CLIP_INFO = {
  missing: 'Results can not be loaded yet, please wait.',
  empty: 'Volume Clip is empty at current output. Check position and normal orientation.',
} as const

/** Physical time of an output: output number × output time interval (s). */
export function outputTime(outputNo: number, outputTimeIntervalS: number): number {
  return outputNo * outputTimeIntervalS
}

/** Output count used when none is set: endTime ÷ outputTimeInterval (rounded), else 200. */
export const FALLBACK_OUTPUT_COUNT = 200

/** The default output count of spec/results.md §5. */
export function defaultOutputCount(endTimeS: number | null, outputTimeIntervalS: number | null) {
  if (
    endTimeS !== null &&
    outputTimeIntervalS !== null &&
    Number.isFinite(endTimeS) &&
    Number.isFinite(outputTimeIntervalS) &&
    endTimeS > 0 &&
    outputTimeIntervalS > 0
  )
    return Math.round(endTimeS / outputTimeIntervalS)
  return FALLBACK_OUTPUT_COUNT
}

// ── Attributes ──────────────────────────────────────────────────────────────────────────────────

/** Sub-options of vector attributes. */
export const VECTOR_SUB_OPTIONS = ['x', 'y', 'z', 'magnitude'] as const
/** One vector sub-option. */
export type VectorSubOption = (typeof VECTOR_SUB_OPTIONS)[number]

/** What an attribute is: its quantity and whether it is a vector or depends on a material. */
export interface AttributeDef {
  label: string
  quantity: Quantity
  kind: 'scalar' | 'vector'
  /** Per-material values: the sub-option is a material id. */
  materialDependent: boolean
}

/** The attribute catalogue (colour map, statistics, export). */
export const ATTRIBUTES = {
  velocity: { label: 'Velocity', quantity: 'velocity', kind: 'vector', materialDependent: false },
  acceleration: {
    label: 'Acceleration',
    quantity: 'acceleration',
    kind: 'vector',
    materialDependent: false,
  },
  position: { label: 'Position', quantity: 'position', kind: 'vector', materialDependent: false },
  pressure: { label: 'Pressure', quantity: 'pressure', kind: 'scalar', materialDependent: false },
  density: { label: 'Density', quantity: 'density', kind: 'scalar', materialDependent: false },
  temperature: {
    label: 'Temperature',
    quantity: 'temperature',
    kind: 'scalar',
    materialDependent: false,
  },
  heat_flux: {
    label: 'Heat flux',
    quantity: 'heat_flux',
    kind: 'scalar',
    materialDependent: false,
  },
  kinematic_viscosity: {
    label: 'Kinematic viscosity',
    quantity: 'kinematic_viscosity',
    kind: 'scalar',
    materialDependent: false,
  },
  mass: { label: 'Mass', quantity: 'mass', kind: 'scalar', materialDependent: false },
  mass_flux: {
    label: 'Mass flux',
    quantity: 'mass_flux',
    kind: 'scalar',
    materialDependent: false,
  },
  normal_stress: {
    label: 'Normal stress',
    quantity: 'normal_stress',
    kind: 'scalar',
    materialDependent: false,
  },
  shear_stress: {
    label: 'Shear stress',
    quantity: 'shear_stress',
    kind: 'vector',
    materialDependent: false,
  },
  combined_stress: {
    label: 'Combined stress',
    quantity: 'combined_stress',
    kind: 'vector',
    materialDependent: false,
  },
  power_density: {
    label: 'Power density',
    quantity: 'power_density',
    kind: 'scalar',
    materialDependent: false,
  },
  shear_rate: {
    label: 'Shear rate',
    quantity: 'shear_rate',
    kind: 'scalar',
    materialDependent: false,
  },
  volume: { label: 'Volume', quantity: 'volume', kind: 'scalar', materialDependent: false },
  volume_flux: {
    label: 'Volume flux',
    quantity: 'volume_flux',
    kind: 'scalar',
    materialDependent: false,
  },
  shepard_summation: {
    label: 'Shepard summation',
    quantity: 'dimensionless',
    kind: 'scalar',
    materialDependent: false,
  },
  wetting: { label: 'Wetting', quantity: 'dimensionless', kind: 'scalar', materialDependent: true },
} as const satisfies Record<string, AttributeDef>

/** One attribute name of the catalogue. */
export type AttributeName = keyof typeof ATTRIBUTES
/** Every attribute name, in menu order. */
export const ATTRIBUTE_NAMES = Object.keys(ATTRIBUTES) as [AttributeName, ...AttributeName[]]

/** '{value} is not a known attribute name'. */
export function unknownAttributeMessage(value: unknown): string {
  return `${String(value)} is not a known attribute name`
}

/** An attribute name on the wire; anything else fails with '{value} is not a known attribute name'. */
export const AttributeNameSchema = v.picklist(ATTRIBUTE_NAMES, (failure) =>
  unknownAttributeMessage(failure.input),
)

/** True for a name of the catalogue. */
export function isAttributeName(value: unknown): value is AttributeName {
  return typeof value === 'string' && Object.hasOwn(ATTRIBUTES, value)
}

/**
 * Sub-options of an attribute: x, y, z, magnitude for vectors; the material ids (as strings) for a
 * material-dependent attribute; none for scalars.
 */
export function attributeSubOptions(
  attribute: AttributeName,
  materials: readonly { id: number }[] = [],
): readonly string[] {
  const def: AttributeDef = ATTRIBUTES[attribute]
  if (def.kind === 'vector') return VECTOR_SUB_OPTIONS
  if (def.materialDependent) return materials.map((material) => String(material.id))
  return []
}

// ── Colour range ────────────────────────────────────────────────────────────────────────────────

/** A colour map range. */
export const ColourRangeSchema = v.object({ min: v.number(), max: v.number() })
/** A colour map range. */
export type ColourRange = v.InferOutput<typeof ColourRangeSchema>

/** Fixed ends of the colour range per attribute; the other end comes from the data. */
export const DEFAULT_COLOUR_RANGES: Partial<Record<AttributeName, { min?: number; max?: number }>> =
  {
    shepard_summation: { min: 0.9, max: 1.1 },
    power_density: { min: -100, max: 100 },
    pressure: { min: 0 },
    shear_rate: { min: 0 },
    wetting: { min: 0, max: 1 },
  }

/** 'Max must be greater than Min.' */
export const COLOUR_RANGE_MESSAGE = 'Max must be greater than Min.'

/** Checks the editable min and max of the colour map bar. */
export function checkColourRange(min: unknown, max: unknown): Issue[] {
  const issues = [...checkNumber('min', 'Min', min), ...checkNumber('max', 'Max', max)]
  if (issues.length > 0) return issues
  if ((max as number) <= (min as number)) return [issue('error', 'max', COLOUR_RANGE_MESSAGE)]
  return []
}

/** A range is applied as (smaller, larger), whichever order the two values came in. */
export function applyColourRange(first: number, second: number): ColourRange {
  return { min: Math.min(first, second), max: Math.max(first, second) }
}

/** Min and max of the finite values (NaN and ±Infinity are ignored); null when there are none. */
export function computeColourRange(values: ArrayLike<number>): ColourRange | null {
  let min = Infinity
  let max = -Infinity
  for (let i = 0; i < values.length; i++) {
    const value = values[i] as number
    // NaN fails both comparisons; ±Infinity is excluded explicitly.
    if (value === Infinity || value === -Infinity) continue
    if (value < min) min = value
    if (value > max) max = value
  }
  return min === Infinity ? null : { min, max }
}

/**
 * The range a colour map starts with: the attribute's default ends over the data's range, applied
 * as (smaller, larger). Null when neither data nor a full default range exists.
 */
export function initialColourRange(
  attribute: AttributeName,
  dataRange: ColourRange | null,
): ColourRange | null {
  const defaults = DEFAULT_COLOUR_RANGES[attribute] ?? {}
  const min = defaults.min ?? dataRange?.min
  const max = defaults.max ?? dataRange?.max
  if (min === undefined || max === undefined) return null
  return applyColourRange(min, max)
}

/** Status line of the colour map for the selected output. */
export const COLOUR_MAP_STATUS = {
  notAvailable: (attribute: string) => `${attribute} is not available for this output.`,
  computing: (attribute: string) =>
    `We are currently computing ${attribute} for the selected output...`,
  failed: (attribute: string) => `We could not compute ${attribute} for the selected output.`,
  derivedFailed: 'We could not compute any of the derived attributes for the selected output.',
  sensorsFailed: (outputs: readonly number[]) =>
    `Computation failed for outputs: ${outputs.join(', ')}`,
} as const

// ── Viewport state ──────────────────────────────────────────────────────────────────────────────

/** 'Camera up vector must be normalized' */
export const CAMERA_UP_MESSAGE = 'Camera up vector must be normalized'
/** A vector that is not exactly three finite numbers. */
export const VECTOR_COMPONENTS_MESSAGE = 'Vectors need three components'
/** Tolerance of the unit-length check of the camera up vector. */
export const NORMALIZED_TOLERANCE = 1e-6

/** True for a vector of length 1 (within NORMALIZED_TOLERANCE). */
export function isNormalized(vector: readonly number[]): boolean {
  return Math.abs(Math.hypot(...vector) - 1) <= NORMALIZED_TOLERANCE
}

const finite = v.pipe(v.number(VECTOR_COMPONENTS_MESSAGE), v.finite(VECTOR_COMPONENTS_MESSAGE))
/** A vector of exactly three finite numbers ('Vectors need three components'). */
export const StrictVec3Schema = v.strictTuple([finite, finite, finite], VECTOR_COMPONENTS_MESSAGE)

/** Camera projections; switching keeps position, up and target. */
export const CAMERA_MODES = ['perspective', 'orthographic'] as const
/** One camera projection. */
export type CameraMode = (typeof CAMERA_MODES)[number]

/** A saved camera. */
export const CameraStateSchema = v.object({
  position: StrictVec3Schema,
  target: StrictVec3Schema,
  up: v.pipe(
    StrictVec3Schema,
    v.check((up) => isNormalized(up), CAMERA_UP_MESSAGE),
  ),
  mode: v.picklist(CAMERA_MODES),
})
/** A saved camera. */
export type CameraState = v.InferOutput<typeof CameraStateSchema>

/** Axes a clipping plane can be normal to. */
export const CLIP_AXES = ['x', 'y', 'z'] as const
/** One clipping axis. */
export type ClipAxis = (typeof CLIP_AXES)[number]

/** The clipping plane: along x, y or z, flipped or not, at an offset in metres. */
export const ClippingPlaneSchema = v.object({
  enabled: v.boolean(),
  axis: v.picklist(CLIP_AXES),
  flipped: v.boolean(),
  offsetM: v.pipe(v.number(), v.finite()),
})
/** The clipping plane. */
export type ClippingPlane = v.InferOutput<typeof ClippingPlaneSchema>

/** How a part is drawn. */
export const PART_VIEW_MODES = ['surface', 'wireframe', 'translucent'] as const
/** How a material is drawn. */
export const MATERIAL_DISPLAY_MODES = [
  'particles_spheres',
  'particles_circles',
  'particles_outlined_circles',
  'hidden',
  'surface',
] as const
/** One way of drawing a part. */
export type PartViewMode = (typeof PART_VIEW_MODES)[number]
/** One way of drawing a material. */
export type MaterialDisplayMode = (typeof MATERIAL_DISPLAY_MODES)[number]

/** Names of the part views (solid view dialog, explorer), in menu order. */
export const PART_VIEW_LABELS: Record<PartViewMode, string> = {
  surface: 'Surface',
  wireframe: 'Wireframe',
  translucent: 'Translucent',
}

/** Names of the material display modes (fluid view dialog, explorer), in menu order. */
export const MATERIAL_DISPLAY_LABELS: Record<MaterialDisplayMode, string> = {
  particles_spheres: 'Spheres',
  particles_circles: 'Circles',
  particles_outlined_circles: 'Outlined circles',
  hidden: 'Hidden',
  surface: 'Surface',
}

/** The colour map part of the viewport state (min/max null: from the data). */
export const ColourMapStateSchema = v.object({
  scheme: v.picklist(COLOUR_SCHEMES),
  attribute: AttributeNameSchema,
  subAttribute: v.nullable(v.string()),
  min: v.nullable(v.number()),
  max: v.nullable(v.number()),
})
/** The colour map part of the viewport state. */
export type ColourMapState = v.InferOutput<typeof ColourMapStateSchema>

/** Viewport state is saved separately for the preprocessor and the postprocessor. */
export const VIEWPORT_MODES = ['pre', 'post'] as const
/** Which page a viewport state belongs to. */
export type ViewportMode = (typeof VIEWPORT_MODES)[number]

/** The viewport state saved per simulation (PUT /simulations/{id}/viewport_state). */
export const ViewportStateSchema = v.object({
  camera: CameraStateSchema,
  colorMap: v.nullable(ColourMapStateSchema),
  output: v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0))),
  coordinateSystem: v.boolean(),
  clippingPlane: ClippingPlaneSchema,
  parts: v.record(
    v.string(),
    v.object({ visible: v.boolean(), viewMode: v.picklist(PART_VIEW_MODES) }),
  ),
  materials: v.record(
    v.string(),
    v.object({ visible: v.boolean(), displayMode: v.picklist(MATERIAL_DISPLAY_MODES) }),
  ),
})
/** The viewport state saved per simulation. */
export type ViewportState = v.InferOutput<typeof ViewportStateSchema>

/** A fresh viewport: perspective camera looking at the origin with z up, colour map off. */
export function defaultViewportState(): ViewportState {
  return {
    camera: { position: [2, -2, 2], target: [0, 0, 0], up: [0, 0, 1], mode: 'perspective' },
    colorMap: null,
    output: null,
    coordinateSystem: true,
    clippingPlane: { enabled: false, axis: 'x', flipped: false, offsetM: 0 },
    parts: {},
    materials: {},
  }
}

/** A new colour map: rainbow, range from the data. */
export function defaultColourMap(attribute: AttributeName): ColourMapState {
  return { scheme: DEFAULT_COLOUR_SCHEME, attribute, subAttribute: null, min: null, max: null }
}

// ── Sensors ─────────────────────────────────────────────────────────────────────────────────────

/** A sensor is in post mode when the current output is among its outputs, else pre mode. */
export function sensorMode(
  sensorOutputs: readonly number[],
  currentOutput: number | null,
): 'pre' | 'post' {
  return currentOutput !== null && sensorOutputs.includes(currentOutput) ? 'post' : 'pre'
}

/** Sensors cannot be added or edited while the simulation is running or scheduled. */
export function canEditSensors(state: SimulationState): boolean {
  return state !== 'running' && state !== 'scheduled'
}

// ── Statistics ──────────────────────────────────────────────────────────────────────────────────

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

// ── Chart windows ───────────────────────────────────────────────────────────────────────────────

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

// ── User export ─────────────────────────────────────────────────────────────────────────────────

/** Boundary export modes. */
export const BOUNDARIES_MODES = ['full', 'reduced'] as const
/** Boundary export file types. */
export const BOUNDARIES_TYPES = ['vtu', 'stl'] as const
/** Export output modes. */
export const EXPORT_OUTPUT_MODES = ['single', 'range'] as const

const ids = v.array(v.pipe(v.number(), v.integer()))
const maybeNumber = v.nullable(v.number())

/** A user export request (POST /simulations/{id}/user_exports); empty inputs are null. */
export const ExportRequestSchema = v.object({
  simulationId: v.number(),
  allObjects: v.boolean(),
  /** Material ids. */
  materials: ids,
  /** Part ids. */
  boundaries: ids,
  sensors: ids,
  /** Material ids of the fluids whose surface is reconstructed. */
  surfaceReconstructions: ids,
  boundariesMode: v.picklist(BOUNDARIES_MODES),
  boundariesType: v.picklist(BOUNDARIES_TYPES),
  allAttributes: v.boolean(),
  attributes: v.array(v.string()),
  outputMode: v.picklist(EXPORT_OUTPUT_MODES),
  outputsSingle: maybeNumber,
  outputsRange: v.tuple([maybeNumber, maybeNumber]),
  stepSize: maybeNumber,
  logs: v.boolean(),
  setup: v.boolean(),
})
/** A user export request. */
export type ExportRequest = v.InferOutput<typeof ExportRequestSchema>

/** Texts of the export form (spec/results.md §4 "Export", §5, §8). */
export const EXPORT_MESSAGES = {
  configurationError: 'Error in export configuration',
  selectItem: 'Select at least 1 item to start export',
  missingSingleOutput: 'Missing data for the selected output',
  surfaceNeedsFluid: 'A fluid must be selected to export surface reconstructions.',
  confirmNew: 'Previously exported files will be deleted. Are you sure?',
  confirmNoAttributes: 'No attributes are selected. Are you sure?',
  defaultName: 'Exporting files to download',
  failed: 'Exporting files failed because of unknown reason.',
  deleted: 'Previously exported data was deleted. Start new export.',
  missingOutputs: (outputs: readonly number[]) =>
    `Missing data for outputs: ${listMissingOutputs(outputs)}`,
} as const

/** The two tabs of the export form. */
export const EXPORT_TABS = ['1. Select Data', '2. Download Files'] as const

/** The download tab is disabled when the previous export expired. */
export function isDownloadTabDisabled(previousExportState: string | null): boolean {
  return previousExportState === 'expired'
}

/** Missing outputs as listed in export messages: all of them, or the first 3 and last 2 from 6 on. */
export function listMissingOutputs(outputs: readonly number[]): string {
  const unique = [...new Set(outputs)].sort((a, b) => a - b)
  if (unique.length < MISSING_OUTPUTS_LIST_LIMIT) return unique.join(', ')
  return [...unique.slice(0, 3), '...', ...unique.slice(-2)].join(', ')
}

/** A new export form: single output (the last one), step 1, vtu boundaries, nothing selected. */
export function defaultExportRequest(
  simulationId: number,
  lastOutputNo: number | null,
): ExportRequest {
  return {
    simulationId,
    allObjects: false,
    materials: [],
    boundaries: [],
    sensors: [],
    surfaceReconstructions: [],
    boundariesMode: 'full',
    boundariesType: 'vtu',
    allAttributes: false,
    attributes: [],
    outputMode: 'single',
    outputsSingle: lastOutputNo,
    outputsRange: [0, lastOutputNo],
    stepSize: EXPORT_STEP.default,
    logs: false,
    setup: false,
  }
}

function selectsObjects(request: ExportRequest): boolean {
  return (
    request.allObjects ||
    request.materials.length > 0 ||
    request.boundaries.length > 0 ||
    request.sensors.length > 0 ||
    request.surfaceReconstructions.length > 0
  )
}

/** The outputs an export covers: the single one, or start, start + step … up to end. */
export function exportOutputs(request: ExportRequest): number[] {
  if (request.outputMode === 'single')
    return request.outputsSingle === null ? [] : [request.outputsSingle]
  const [start, end] = request.outputsRange
  const step = request.stepSize
  if (start === null || end === null || step === null || !(step >= 1)) return []
  const outputs: number[] = []
  for (let n = start; n <= end; n += step) outputs.push(n)
  return outputs
}

/** What the export rules need: the outputs that have data and the fluids' material ids. */
export interface ExportContext {
  availableOutputs: readonly number[]
  fluidMaterialIds: readonly number[]
}

/**
 * Every rule of the export form: at least one item; with objects, a valid existing single output
 * or a valid range (integers, start <= end <= the largest output with data) with an integer step
 * of 1 … 100, where missing outputs of the range are a warning; surface reconstructions need a
 * selected fluid.
 */
export function checkExportRequest(request: ExportRequest, context: ExportContext): Issue[] {
  if (!selectsObjects(request) && !request.logs && !request.setup)
    return [issue('error', 'selection', EXPORT_MESSAGES.selectItem)]
  const issues: Issue[] = []
  if (request.surfaceReconstructions.length > 0) {
    const selected = request.allObjects ? context.fluidMaterialIds : request.materials
    if (!selected.some((id) => context.fluidMaterialIds.includes(id)))
      issues.push(issue('error', 'surfaceReconstructions', EXPORT_MESSAGES.surfaceNeedsFluid))
  }
  if (!selectsObjects(request)) return issues
  if (request.outputMode === 'single') {
    const outputIssues = checkNumber('outputsSingle', 'Output', request.outputsSingle, {
      min: 0,
      integer: true,
    })
    issues.push(...outputIssues)
    if (
      outputIssues.length === 0 &&
      !context.availableOutputs.includes(request.outputsSingle as number)
    )
      issues.push(issue('error', 'outputsSingle', EXPORT_MESSAGES.missingSingleOutput))
    return issues
  }
  // The range ends at the largest output with data, which also bounds exportOutputs().
  const lastOutputNo = Math.max(0, ...context.availableOutputs)
  const rangeIssues = checkOutputRange(
    request.outputsRange,
    { lastOutputNo, outputTimeIntervalS: 1 },
    'outputsRange',
  )
  const stepIssues = checkNumber('stepSize', 'Step size', request.stepSize, {
    min: EXPORT_STEP.min,
    max: EXPORT_STEP.max,
    integer: true,
  })
  issues.push(...rangeIssues, ...stepIssues)
  if (rangeIssues.length === 0 && stepIssues.length === 0) {
    const available = new Set(context.availableOutputs)
    const missing = exportOutputs(request).filter((n) => !available.has(n))
    if (missing.length > 0)
      issues.push(issue('warning', 'outputsRange', EXPORT_MESSAGES.missingOutputs(missing)))
  }
  return issues
}

/** 'Error in export configuration' while any error exists; null when the export may start. */
export function exportBlockedMessage(issues: readonly Issue[]): string | null {
  return issues.some((i) => i.level === 'error') ? EXPORT_MESSAGES.configurationError : null
}

/** The confirmations a new export asks for, in order. */
export function exportConfirmations(request: ExportRequest, hasPreviousExport: boolean): string[] {
  const confirmations: string[] = []
  if (hasPreviousExport) confirmations.push(EXPORT_MESSAGES.confirmNew)
  if (selectsObjects(request) && !request.allAttributes && request.attributes.length === 0)
    confirmations.push(EXPORT_MESSAGES.confirmNoAttributes)
  return confirmations
}

/** An error of an export, with the outputs it concerns. */
export const ExportErrorSchema = v.object({
  ...JobMessageSchema.entries,
  outputs: v.optional(v.array(v.number()), []),
})

/** A user export record (GET /simulations/{id}/user_exports). */
export const ExportRecordSchema = v.object({
  id: v.number(),
  name: v.string(),
  state: v.picklist(JOB_STATES),
  files: v.array(v.object({ id: v.number(), filename: v.string(), state: v.string() })),
  warnings: v.array(ExportErrorSchema),
  errors: v.array(ExportErrorSchema),
})
/** A user export record. */
export type ExportRecord = v.InferOutput<typeof ExportRecordSchema>

// ── Playback ────────────────────────────────────────────────────────────────────────────────────

/** A speed within the playback bounds; NaN falls back to the default speed 1. */
export function clampPlaybackSpeed(speed: number): number {
  if (Number.isNaN(speed)) return PLAYBACK.speed
  return Math.min(PLAYBACK.maxSpeed, Math.max(PLAYBACK.minSpeed, speed))
}

/** One step slower: half the speed, not below 2^-10. */
export function halvePlaybackSpeed(speed: number): number {
  return clampPlaybackSpeed(speed / 2)
}

/** One step faster: twice the speed, not above 2048. */
export function doublePlaybackSpeed(speed: number): number {
  return clampPlaybackSpeed(speed * 2)
}

/** Time between playback frames: 1/3 s ÷ speed (3 × speed outputs per second). */
export function playbackFrameIntervalMs(speed: number): number {
  return 1000 / (PLAYBACK.framesPerSecond * clampPlaybackSpeed(speed))
}

/** Progress clamped to 0 … 1; NaN is 0. */
export function clampProgress(progress: number): number {
  if (Number.isNaN(progress)) return 0
  return Math.min(1, Math.max(0, progress))
}

/** The frame after `index` of `count`: wraps to 0 when looping, null at the end otherwise. */
export function nextPlaybackFrame(index: number, count: number, loop: boolean): number | null {
  if (count <= 0) return null
  if (index + 1 < count) return index + 1
  return loop ? 0 : null
}

/** Progress of frame `index` of `count` (0 for a single frame). */
export function progressForFrame(index: number, count: number): number {
  return count <= 1 ? 0 : clampProgress(index / (count - 1))
}

/** The frame nearest to a progress value. */
export function frameForProgress(progress: number, count: number): number {
  return count <= 1 ? 0 : Math.round(clampProgress(progress) * (count - 1))
}

/**
 * The outputs played by default: up to `target` (10) outputs spread evenly over the available
 * ones, first and last included.
 */
export function selectPlaybackOutputs(
  outputs: readonly number[],
  target: number = PLAYBACK.targetOutputs,
): number[] {
  const sorted = [...new Set(outputs)].sort((a, b) => a - b)
  if (sorted.length <= target) return sorted
  if (target <= 1) return sorted.slice(-1)
  const picked = new Set<number>()
  for (let i = 0; i < target; i++)
    picked.add(sorted[Math.round((i * (sorted.length - 1)) / (target - 1))] as number)
  return [...picked]
}

// ── Scale bar ───────────────────────────────────────────────────────────────────────────────────

/** A scale bar: its length in metres and its width on screen. */
export interface ScaleBar {
  lengthM: number
  widthPx: number
}

/**
 * The scale bar for a view: the largest 1, 2, 5 or 10 × 10^k metres that fits in 300 px and in
 * 30 % of the viewport width. Null for a degenerate view (zero, negative or non-finite inputs).
 */
export function computeScaleBar(metresPerPixel: number, viewportWidthPx: number): ScaleBar | null {
  if (!(metresPerPixel > 0) || !Number.isFinite(metresPerPixel)) return null
  if (!(viewportWidthPx > 0) || !Number.isFinite(viewportWidthPx)) return null
  const maxWidthPx = Math.min(SCALE_BAR.maxWidthPx, SCALE_BAR.maxWidthFraction * viewportWidthPx)
  const maxLengthM = maxWidthPx * metresPerPixel
  const decade = 10 ** Math.floor(Math.log10(maxLengthM))
  let lengthM = decade
  for (const step of SCALE_BAR.niceSteps) {
    // Relative slack so that exact fits (e.g. 300 px × 0.01 m = 3 m) survive rounding.
    if (step * decade <= maxLengthM * (1 + 1e-12)) lengthM = step * decade
  }
  return { lengthM, widthPx: lengthM / metresPerPixel }
}
