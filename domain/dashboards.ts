/**
 * The Monitor dashboard (spec/results.md §2 Dashboard, §7, §9): views of tiles on a 12-column grid,
 * templates, variables and graph settings. Shared by the server (validation, storage) and the UI
 * (layout, Add Graph, name rules). Imports only domain/.
 */
import * as v from 'valibot'
import { DASHBOARD_GRID, DEFAULT_TILE_LAYOUT } from './constants.ts'
import { idSchema } from './ids.ts'

export * from './dashboardGraphs.ts'
export { DASHBOARD_GRID, DEFAULT_TILE_LAYOUT }

/** Tile types of spec §2. */
export const TILE_TYPES = [
  'details',
  'job',
  'progress',
  'budget',
  'note',
  'graph',
  'variables',
  'image',
] as const
/** One tile type. */
export type TileType = (typeof TILE_TYPES)[number]

/** Smallest size of each tile type, in grid columns (w) and rows (h). */
export const TILE_MIN_SIZES: Record<TileType, { w: number; h: number }> = {
  details: { w: 3, h: 1 },
  job: { w: 3, h: 2 },
  progress: { w: 3, h: 1 },
  budget: { w: 3, h: 1 },
  note: { w: 3, h: 2 },
  graph: { w: 6, h: 2 },
  variables: { w: 3, h: 2 },
  image: { w: 3, h: 4 },
}

/** The built-in graphs of the solver's log (spec §2: particles, runtimePerS, dt). */
export const LOG_GRAPHS = ['particles', 'runtimePerS', 'dt'] as const
/** One built-in graph. */
export type LogGraph = (typeof LOG_GRAPHS)[number]

/** Sensor quantities a graph can plot from GET /custom_sensors/{id}/series. */
export const SENSOR_GRAPH_QUANTITIES = ['pressure', 'velocity'] as const
/** One sensor quantity. */
export type SensorGraphQuantity = (typeof SENSOR_GRAPH_QUANTITIES)[number]

/** Titles and y-axis units of the built-in graphs. */
export const LOG_GRAPH_LABELS: Record<LogGraph, { title: string; unit: string }> = {
  particles: { title: 'Particles', unit: '' },
  runtimePerS: { title: 'Runtime per simulated second', unit: 's' },
  dt: { title: 'Time step', unit: 's' },
}

/** What a graph tile plots: a log graph, a sensor's quantity or an uploaded graph. */
export const GraphSourceSchema = v.variant('kind', [
  v.object({ kind: v.literal('log'), graph: v.picklist(LOG_GRAPHS) }),
  v.object({
    kind: v.literal('sensor'),
    sensorId: v.pipe(v.number(), v.integer(), v.minValue(1)),
    quantity: v.picklist(SENSOR_GRAPH_QUANTITIES),
  }),
  v.object({ kind: v.literal('custom'), graphId: v.pipe(v.number(), v.integer(), v.minValue(1)) }),
])
/** What a graph tile plots. */
export type GraphSource = v.InferOutput<typeof GraphSourceSchema>

const finiteOrNull = v.nullable(v.pipe(v.number(), v.finite()))

/**
 * A graph tile's settings (spec §2): logValues draws the y axis logarithmic; xAuto/yAuto take the
 * axis range from the data, otherwise xMin … xMax / yMin … yMax; percentage puts the run's
 * progress (0 … 100 %) on the x axis instead of simulated time.
 */
export const GraphSettingsSchema = v.object({
  source: GraphSourceSchema,
  logValues: v.boolean(),
  xMin: finiteOrNull,
  xMax: finiteOrNull,
  yMin: finiteOrNull,
  yMax: finiteOrNull,
  xAuto: v.boolean(),
  yAuto: v.boolean(),
  percentage: v.boolean(),
})
/** A graph tile's settings. */
export type GraphSettings = v.InferOutput<typeof GraphSettingsSchema>

/** A graph's settings with automatic ranges, linear values and time on the x axis. */
export function defaultGraphSettings(source: GraphSource): GraphSettings {
  return {
    source,
    logValues: false,
    xMin: null,
    xMax: null,
    yMin: null,
    yMax: null,
    xAuto: true,
    yAuto: true,
    percentage: false,
  }
}

/** Range messages of the graph settings form (the chart's wording, spec §5). */
export const AXIS_RANGE_MESSAGE = 'Min must be smaller than max.'
/** A logarithmic axis has no place for zero or negative bounds. */
export const LOG_RANGE_MESSAGE = 'A logarithmic axis needs a min above 0.'

/** Problems of a graph's manual ranges (empty: none). */
export function graphSettingsErrors(settings: GraphSettings): string[] {
  const errors: string[] = []
  const check = (auto: boolean, min: number | null, max: number | null) => {
    if (auto || min === null || max === null) return
    if (min >= max) errors.push(AXIS_RANGE_MESSAGE)
  }
  check(settings.xAuto, settings.xMin, settings.xMax)
  check(settings.yAuto, settings.yMin, settings.yMax)
  if (settings.logValues && !settings.yAuto && settings.yMin !== null && settings.yMin <= 0)
    errors.push(LOG_RANGE_MESSAGE)
  return errors
}

/** The longest note. */
export const NOTE_MAX_LENGTH = 5000

const gridInt = (name: string, min: number, max: number) =>
  v.pipe(
    v.number(`${name} must be a whole number`),
    v.integer(`${name} must be a whole number`),
    v.minValue(min, `${name} must be at least ${min}`),
    v.maxValue(max, `${name} must be at most ${max}`),
  )

/** A tile's place on the grid. */
export const TileLayoutSchema = v.object({
  x: gridInt('x', 0, DASHBOARD_GRID.columns - 1),
  y: gridInt('y', 0, 9999),
  w: gridInt('w', 1, DASHBOARD_GRID.columns),
  h: gridInt('h', 1, 100),
})
/** A tile's place on the grid. */
export type TileLayout = v.InferOutput<typeof TileLayoutSchema>

/** A tile as stored: its type, place and the settings of its type (null where not its type). */
export const DashboardTileSchema = v.object({
  id: v.number(),
  viewId: v.number(),
  type: v.picklist(TILE_TYPES),
  ...TileLayoutSchema.entries,
  /** Graph tiles. */
  graph: v.nullable(GraphSettingsSchema),
  /** Note tiles. */
  text: v.nullable(v.string()),
  /** Image tiles: the image shown; null shows the simulation's post image (Save Image). */
  imageId: v.nullable(v.number()),
})
/** A tile as stored. */
export type DashboardTile = v.InferOutput<typeof DashboardTileSchema>

/** A new tile (POST /dashboards/{id}/tiles); a missing place is DEFAULT_TILE_LAYOUT. */
export const TileCreateSchema = v.object({
  type: v.picklist(TILE_TYPES, `type must be one of ${TILE_TYPES.join(', ')}`),
  x: v.optional(TileLayoutSchema.entries.x),
  y: v.optional(TileLayoutSchema.entries.y),
  w: v.optional(TileLayoutSchema.entries.w),
  h: v.optional(TileLayoutSchema.entries.h),
  graph: v.optional(v.nullable(GraphSettingsSchema)),
  text: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(NOTE_MAX_LENGTH)))),
  imageId: v.optional(v.nullable(idSchema('imageId'))),
})
/** A new tile. */
export type TileCreate = v.InferInput<typeof TileCreateSchema>

/** PUT /dashboardtiles/{id}: any of a tile's place and settings. */
export const TileUpdateSchema = v.partial(v.omit(TileCreateSchema, ['type']))
/** A tile's changes. */
export type TileUpdate = v.InferInput<typeof TileUpdateSchema>

/** Size and place of a tile of `type`, never below the type's minimum size. */
export function placeTile(type: TileType, layout: Partial<TileLayout> = {}): TileLayout {
  const min = TILE_MIN_SIZES[type]
  const w = Math.min(DASHBOARD_GRID.columns, Math.max(min.w, layout.w ?? DEFAULT_TILE_LAYOUT.w))
  return {
    x: Math.min(layout.x ?? DEFAULT_TILE_LAYOUT.x, DASHBOARD_GRID.columns - w),
    y: layout.y ?? DEFAULT_TILE_LAYOUT.y,
    w,
    h: Math.max(min.h, layout.h ?? DEFAULT_TILE_LAYOUT.h),
  }
}

/** A tile of a template or a new view: a tile without its ids. */
export type TileSeed = Omit<DashboardTile, 'id' | 'viewId'>

/** The default view's tiles (spec §2): details, progress, budget, variables, job, three graphs, note, image. */
export function defaultViewTiles(): TileSeed[] {
  const tile = (type: TileType, layout: TileLayout, rest: Partial<TileSeed> = {}): TileSeed => ({
    type,
    ...layout,
    graph: null,
    text: null,
    imageId: null,
    ...rest,
  })
  const graph = (name: LogGraph, x: number, y: number) =>
    tile(
      'graph',
      { x, y, w: 6, h: 2 },
      { graph: defaultGraphSettings({ kind: 'log', graph: name }) },
    )
  return [
    // Three columns: the run's facts, budget and jobs; progress over the graphs; what the user
    // writes and saves. Each fact tile gets the rows its lines need.
    tile('details', { x: 0, y: 0, w: 3, h: 2 }),
    tile('progress', { x: 3, y: 0, w: 6, h: 1 }),
    tile('variables', { x: 9, y: 0, w: 3, h: 2 }),
    graph('particles', 3, 1),
    tile('budget', { x: 0, y: 2, w: 3, h: 2 }),
    tile('note', { x: 9, y: 2, w: 3, h: 2 }, { text: '' }),
    graph('runtimePerS', 3, 3),
    tile('job', { x: 0, y: 4, w: 3, h: 2 }),
    tile('image', { x: 9, y: 4, w: 3, h: 4 }),
    graph('dt', 3, 5),
  ]
}

/** The name of the view every simulation starts with. */
export const DEFAULT_VIEW_NAME = 'Default'
/** Longest view and template name (spec §2). */
export const VIEW_NAME_MAX_LENGTH = 100
/** Tooltips of spec §2 for a name already taken. */
export const VIEW_NAME_TAKEN_MESSAGE = 'View with entered name already exists'
export const TEMPLATE_NAME_TAKEN_MESSAGE = 'Template with entered name already exists.'
/** A name must have characters other than spaces. */
export const NAME_EMPTY_MESSAGE = 'Name cannot be empty.'
export const NAME_TOO_LONG_MESSAGE = `Name must be at most ${VIEW_NAME_MAX_LENGTH} characters.`
/** The toast title of spec §2 when a view cannot be added (its text: the error's message). */
export const ADD_VIEW_FAILED_MESSAGE = 'Adding new view failed'
/** The Add Graph modal's hint while nothing is chosen (spec §2). */
export const CHOOSE_GRAPH_MESSAGE = 'Choose the graph'

/**
 * The error of a view or template name, or null when it is fine: non-empty, at most 100
 * characters, not the name of another (compared trimmed, ignoring case).
 */
export function dashboardNameError(
  name: string,
  takenNames: readonly string[],
  takenMessage: string,
): string | null {
  const trimmed = name.trim()
  if (trimmed === '') return NAME_EMPTY_MESSAGE
  if (trimmed.length > VIEW_NAME_MAX_LENGTH) return NAME_TOO_LONG_MESSAGE
  const key = trimmed.toLowerCase()
  if (takenNames.some((taken) => taken.trim().toLowerCase() === key)) return takenMessage
  return null
}

const NameSchema = v.pipe(
  v.string(NAME_EMPTY_MESSAGE),
  v.trim(),
  v.minLength(1, NAME_EMPTY_MESSAGE),
  v.maxLength(VIEW_NAME_MAX_LENGTH, NAME_TOO_LONG_MESSAGE),
)

/** A view of a simulation's dashboard (spec §2: id, name, default, tiles). */
export const DashboardViewSchema = v.object({
  id: v.number(),
  simulationId: v.number(),
  name: v.string(),
  default: v.boolean(),
  tiles: v.array(DashboardTileSchema),
})
/** A view of a dashboard. */
export type DashboardView = v.InferOutput<typeof DashboardViewSchema>

/** POST /simulations/{id}/dashboards: a name, and the tiles of a template (templateId) or given tiles. */
export const ViewCreateSchema = v.object({
  name: NameSchema,
  templateId: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1)))),
  tiles: v.optional(v.array(TileCreateSchema)),
  default: v.optional(v.boolean()),
})
/** A new view. */
export type ViewCreate = v.InferInput<typeof ViewCreateSchema>

/** A tile's new place in PUT /dashboards/{id} (the grid after a drag or resize). */
export const TilePlaceSchema = v.object({ id: v.number(), ...TileLayoutSchema.entries })

/** PUT /dashboards/{id}: rename, make default, or move tiles. */
export const ViewUpdateSchema = v.object({
  name: v.optional(NameSchema),
  default: v.optional(v.literal(true, 'default can only be set to true')),
  tiles: v.optional(v.array(TilePlaceSchema)),
})
/** A view's changes. */
export type ViewUpdate = v.InferInput<typeof ViewUpdateSchema>

/** A template: a named set of tiles of the organization (spec §2: id, name). */
export const DashboardTemplateSchema = v.object({
  id: v.number(),
  name: v.string(),
  creatorId: v.number(),
  createdAt: v.string(),
  tiles: v.array(v.omit(DashboardTileSchema, ['id', 'viewId'])),
})
/** A template. */
export type DashboardTemplate = v.InferOutput<typeof DashboardTemplateSchema>

/**
 * POST /dashboardtemplates: saves a view (dashboardId) as a template. copyCustom false (the spec's
 * default) leaves out what belongs to the simulation: note texts and chosen images are emptied,
 * graph tiles of its sensors and uploaded graphs are left out.
 */
export const TemplateCreateSchema = v.object({
  name: NameSchema,
  dashboardId: v.pipe(v.number(), v.integer(), v.minValue(1)),
  copyCustom: v.optional(v.boolean(), false),
})
/** A new template. */
export type TemplateCreate = v.InferInput<typeof TemplateCreateSchema>

/** A template's tiles from a view's: without simulation-bound content unless copyCustom. */
export function templateTiles(tiles: readonly TileSeed[], copyCustom: boolean): TileSeed[] {
  if (copyCustom) return tiles.map((tile) => ({ ...tile }))
  return tiles
    .filter((tile) => tile.type !== 'graph' || tile.graph?.source.kind === 'log')
    .map((tile) => ({
      ...tile,
      text: tile.type === 'note' ? '' : null,
      imageId: null,
    }))
}

/** The longest variable name and value. */
export const VARIABLE_NAME_MAX_LENGTH = 100
export const VARIABLE_VALUE_MAX_LENGTH = 200

/** A variable of a simulation, shown in the variables tile (e.g. inlet speed = 2 m/s). */
export const VariableSchema = v.object({
  id: v.number(),
  simulationId: v.number(),
  name: v.string(),
  value: v.string(),
  unit: v.string(),
})
/** A variable. */
export type Variable = v.InferOutput<typeof VariableSchema>

/** POST /simulations/{id}/variables. */
export const VariableCreateSchema = v.object({
  name: v.pipe(
    v.string(NAME_EMPTY_MESSAGE),
    v.trim(),
    v.minLength(1, NAME_EMPTY_MESSAGE),
    v.maxLength(
      VARIABLE_NAME_MAX_LENGTH,
      `Name must be at most ${VARIABLE_NAME_MAX_LENGTH} characters.`,
    ),
  ),
  value: v.pipe(
    v.string('Value is required.'),
    v.trim(),
    v.minLength(1, 'Value is required.'),
    v.maxLength(
      VARIABLE_VALUE_MAX_LENGTH,
      `Value must be at most ${VARIABLE_VALUE_MAX_LENGTH} characters.`,
    ),
  ),
  unit: v.optional(
    v.pipe(v.string(), v.trim(), v.maxLength(20, 'Unit must be at most 20 characters.')),
    '',
  ),
})
/** A new variable. */
export type VariableCreate = v.InferInput<typeof VariableCreateSchema>

/** A variable's name is unique within its simulation. */
export const VARIABLE_NAME_TAKEN_MESSAGE = 'Variable with entered name already exists'

/** How often graph tiles refresh (spec §9: graphs 10 s). */
export const GRAPH_REFRESH_MS = 10_000
/** After this long in launching, the progress tile says it is delayed (spec §9: 15 min). */
export const LAUNCH_DELAY_MS = 15 * 60_000
/** Progress tile texts of spec §2. */
export const LAUNCH_DELAYED_MESSAGE = 'Simulation delayed due to resource limits.'
export const RUN_FAILED_MESSAGE =
  'Your setup could not be simulated to completion. Please check your setup or submit a ticket.'
export const LAUNCH_FAILED_MESSAGE =
  'The launch of the simulation job failed. Please try again soon.'
/** Budget hours of an organization's credits (spec §9: credits divided by 120). */
export function estimatedBudgetHours(credits: number): number {
  return credits / 120
}
