/**
 * The monitoring dashboard (spec/results.md §2 "Dashboard"): views of tiles on a 12-column grid,
 * templates, tile types with minimum sizes, graph tiles and the name rules of views and templates.
 */
import * as v from 'valibot'
import { DASHBOARD_GRID, DEFAULT_TILE_LAYOUT } from './constants.ts'
import { issue, type Issue } from './validation.ts'

/** Tile types. */
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

/** Minimum tile sizes in grid cells (w × h). */
export const TILE_MIN_SIZES: Readonly<Record<TileType, { w: number; h: number }>> = {
  details: { w: 3, h: 1 },
  job: { w: 3, h: 2 },
  progress: { w: 3, h: 1 },
  budget: { w: 3, h: 1 },
  note: { w: 3, h: 2 },
  graph: { w: 6, h: 2 },
  variables: { w: 3, h: 2 },
  image: { w: 3, h: 4 },
}

/** The graphs a graph tile can show by default (log series). */
export const DEFAULT_GRAPHS = ['particles', 'runtimePerS', 'dt'] as const

/** A tile's place on the grid, in cells. */
export const TileLayoutSchema = v.object({
  x: v.pipe(v.number(), v.integer(), v.minValue(0)),
  y: v.pipe(v.number(), v.integer(), v.minValue(0)),
  w: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(DASHBOARD_GRID.columns)),
  h: v.pipe(v.number(), v.integer(), v.minValue(1)),
})
/** A tile's place on the grid. */
export type TileLayout = v.InferOutput<typeof TileLayoutSchema>

/** Settings of a graph tile; the min/max apply when the matching auto flag is off. */
export const GraphTileConfigSchema = v.object({
  /** Name of the plotted series ('particles', 'runtimePerS', 'dt', or a custom graph). */
  graph: v.string(),
  logValues: v.boolean(),
  xMin: v.nullable(v.number()),
  xMax: v.nullable(v.number()),
  yMin: v.nullable(v.number()),
  yMax: v.nullable(v.number()),
  xAuto: v.boolean(),
  yAuto: v.boolean(),
  percentage: v.boolean(),
})
/** Settings of a graph tile. */
export type GraphTileConfig = v.InferOutput<typeof GraphTileConfigSchema>

/** A graph tile for one series: linear axes, automatic ranges. */
export function defaultGraphTileConfig(graph: string): GraphTileConfig {
  return {
    graph,
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

/** One tile of a view; `config` is the graph settings for graph tiles, else type-specific. */
export const TileSchema = v.object({
  id: v.number(),
  type: v.picklist(TILE_TYPES),
  ...TileLayoutSchema.entries,
  config: v.nullable(v.union([GraphTileConfigSchema, v.record(v.string(), v.unknown())])),
})
/** One tile of a view. */
export type Tile = v.InferOutput<typeof TileSchema>

/** A new tile (POST /dashboards/{id}/tiles): the layout defaults to DEFAULT_TILE_LAYOUT. */
export const TileCreateSchema = v.strictObject({
  type: v.picklist(TILE_TYPES),
  x: v.optional(TileLayoutSchema.entries.x, DEFAULT_TILE_LAYOUT.x),
  y: v.optional(TileLayoutSchema.entries.y, DEFAULT_TILE_LAYOUT.y),
  w: v.optional(TileLayoutSchema.entries.w, DEFAULT_TILE_LAYOUT.w),
  h: v.optional(TileLayoutSchema.entries.h, DEFAULT_TILE_LAYOUT.h),
  config: v.optional(v.nullable(v.record(v.string(), v.unknown())), null),
})
/** A new tile. */
export type TileCreate = v.InferOutput<typeof TileCreateSchema>

/** Grows a layout to the tile type's minimum size and keeps it inside the 12 columns. */
export function fitTileLayout(type: TileType, layout: TileLayout): TileLayout {
  const min = TILE_MIN_SIZES[type]
  const w = Math.min(DASHBOARD_GRID.columns, Math.max(min.w, layout.w))
  const h = Math.max(min.h, layout.h)
  const x = Math.max(0, Math.min(layout.x, DASHBOARD_GRID.columns - w))
  return { x, y: Math.max(0, layout.y), w, h }
}

/** A tile of a new view, before it has an id. */
export interface TileSeed {
  type: TileType
  config: GraphTileConfig | null
}

/**
 * Tiles of the default view, in order: details, progress, budget, variables, job, the graphs
 * particles, runtimePerS and dt, note, image.
 */
export function defaultViewTiles(): TileSeed[] {
  return [
    { type: 'details', config: null },
    { type: 'progress', config: null },
    { type: 'budget', config: null },
    { type: 'variables', config: null },
    { type: 'job', config: null },
    ...DEFAULT_GRAPHS.map((graph) => ({
      type: 'graph' as const,
      config: defaultGraphTileConfig(graph),
    })),
    { type: 'note', config: null },
    { type: 'image', config: null },
  ]
}

/** A dashboard view. */
export const DashboardViewSchema = v.object({
  id: v.number(),
  name: v.string(),
  default: v.boolean(),
  tiles: v.array(TileSchema),
})
/** A dashboard view. */
export type DashboardView = v.InferOutput<typeof DashboardViewSchema>

/** A dashboard template. */
export const DashboardTemplateSchema = v.object({ id: v.number(), name: v.string() })
/** A dashboard template. */
export type DashboardTemplate = v.InferOutput<typeof DashboardTemplateSchema>

/** Longest view or template name. */
export const DASHBOARD_NAME_MAX = 100

const dashboardName = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, 'Name is required'),
  v.maxLength(DASHBOARD_NAME_MAX, `Name must be at most ${DASHBOARD_NAME_MAX} characters`),
)

/** POST /simulations/{id}/dashboards: a new view, optionally from a template. */
export const DashboardCreateSchema = v.strictObject({
  name: dashboardName,
  templateId: v.optional(v.nullable(v.number()), null),
  tiles: v.optional(v.array(TileCreateSchema)),
  default: v.optional(v.boolean(), false),
})
/** A new view. */
export type DashboardCreate = v.InferOutput<typeof DashboardCreateSchema>

/** POST /dashboardtemplates: saving a view as a template (copyCustom is always false). */
export const TemplateCreateSchema = v.strictObject({
  name: dashboardName,
  dashboardId: v.number(),
  copyCustom: v.optional(v.literal(false), false),
})
/** Saving a view as a template. */
export type TemplateCreate = v.InferOutput<typeof TemplateCreateSchema>

/** Texts of the dashboard (tooltips and toasts). */
export const DASHBOARD_MESSAGES = {
  viewExists: 'View with entered name already exists',
  templateExists: 'Template with entered name already exists.',
  addViewFailed: 'Adding new view failed',
  chooseGraph: 'Choose the graph',
} as const

/**
 * Name rules of views and templates: non-empty (info while empty), at most 100 characters, unique
 * among the existing names (compared trimmed).
 */
export function checkDashboardName(
  kind: 'view' | 'template',
  name: string,
  existingNames: readonly string[],
): Issue[] {
  const trimmed = name.trim()
  if (trimmed === '') return [issue('info', 'name', 'Name is required')]
  if (trimmed.length > DASHBOARD_NAME_MAX)
    return [issue('error', 'name', `Name must be at most ${DASHBOARD_NAME_MAX} characters`)]
  if (existingNames.some((existing) => existing.trim() === trimmed))
    return [
      issue(
        'error',
        'name',
        kind === 'view' ? DASHBOARD_MESSAGES.viewExists : DASHBOARD_MESSAGES.templateExists,
      ),
    ]
  return []
}
