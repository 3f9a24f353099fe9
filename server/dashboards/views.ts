import type { Kysely, Transaction } from 'kysely'
import * as v from 'valibot'
import {
  DEFAULT_VIEW_NAME,
  GraphSettingsSchema,
  VIEW_NAME_TAKEN_MESSAGE,
  defaultViewTiles,
  placeTile,
  type DashboardTile,
  type DashboardView,
  type GraphSettings,
  type TileCreate,
  type TileSeed,
  type TileType,
} from '../../domain/dashboards.ts'
import { findAccessibleSimulation } from '../api/access.ts'
import { ApiError, notFound } from '../api/apiError.ts'
import type { SessionUser } from '../api/context.ts'
import { isUniqueViolation } from '../db/connect.ts'
import type { Database, SimulationRow } from '../db/schema.ts'
import { fromFlag, toFlag } from '../db/schema.ts'
import { findAccessibleImage } from '../images/imageAccess.ts'
import type { DashboardTileRow, DashboardViewRow } from './tables.ts'

/*
 * Views and tiles (tables dashboard_views, dashboard_tiles). Whoever sees a simulation sees and
 * arranges its dashboard; a view, tile or variable out of reach is 404 like a missing one.
 */

type Db = Kysely<Database> | Transaction<Database>

/** The key a name is unique by: trimmed, lower case. */
export function nameKey(name: string): string {
  return name.trim().toLowerCase()
}

/** What a tile keeps besides its place (JSON in dashboard_tiles.settings). */
export interface TileSettings {
  graph?: GraphSettings | null
  text?: string | null
  imageId?: number | null
}

/** A tile's stored settings. */
export function readSettings(text: string): TileSettings {
  try {
    const parsed = JSON.parse(text) as Record<string, unknown>
    const graph = v.safeParse(GraphSettingsSchema, parsed.graph)
    return {
      graph: graph.success ? graph.output : null,
      text: typeof parsed.text === 'string' ? parsed.text : null,
      imageId: typeof parsed.imageId === 'number' ? parsed.imageId : null,
    }
  } catch {
    return {}
  }
}

/** A stored tile as the API returns it. */
export function toTile(row: DashboardTileRow): DashboardTile {
  const settings = readSettings(row.settings)
  return {
    id: row.id,
    viewId: row.view_id,
    type: row.type as TileType,
    x: row.x,
    y: row.y,
    w: row.w,
    h: row.h,
    graph: row.type === 'graph' ? (settings.graph ?? null) : null,
    text: row.type === 'note' ? (settings.text ?? '') : null,
    imageId: row.type === 'image' ? (settings.imageId ?? null) : null,
  }
}

/** A tile without its ids (for templates). */
export function toSeed(tile: DashboardTile): TileSeed {
  const { id: _id, viewId: _viewId, ...seed } = tile
  return seed
}

async function viewWithTiles(db: Db, row: DashboardViewRow): Promise<DashboardView> {
  const tiles = await db
    .selectFrom('dashboard_tiles')
    .selectAll()
    .where('view_id', '=', row.id)
    .orderBy('id')
    .execute()
  return {
    id: row.id,
    simulationId: row.simulation_id,
    name: row.name,
    default: fromFlag(row.is_default),
    tiles: tiles.map(toTile),
  }
}

/** Checks what a tile refers to belongs to the simulation (or the user's images): else 404. */
export async function assertTileReferences(
  db: Db,
  user: SessionUser,
  simulationId: number,
  settings: TileSettings,
): Promise<void> {
  const source = settings.graph?.source
  if (source?.kind === 'sensor') {
    const sensor = await db
      .selectFrom('sensors')
      .select('id')
      .where('id', '=', source.sensorId)
      .where('simulation_id', '=', simulationId)
      .executeTakeFirst()
    if (!sensor) throw notFound('Sensor')
  }
  if (source?.kind === 'custom') {
    const graph = await db
      .selectFrom('dashboard_graphs')
      .select('id')
      .where('id', '=', source.graphId)
      .where('simulation_id', '=', simulationId)
      .executeTakeFirst()
    if (!graph) throw notFound('Graph')
  }
  if (settings.imageId !== undefined && settings.imageId !== null)
    await findAccessibleImage(db, user, settings.imageId)
}

/** The settings a tile of `type` keeps from a create or update body. */
export function settingsOf(
  type: TileType,
  body: TileSettings,
  previous: TileSettings = {},
): TileSettings {
  if (type === 'graph') {
    const graph = body.graph !== undefined ? body.graph : previous.graph
    if (!graph)
      throw new ApiError('validation_error', 'A graph tile needs its graph settings.', [
        { path: 'graph', message: 'A graph tile needs its graph settings.' },
      ])
    return { graph }
  }
  if (type === 'note')
    return { text: body.text !== undefined ? (body.text ?? '') : (previous.text ?? '') }
  if (type === 'image')
    return { imageId: body.imageId !== undefined ? body.imageId : (previous.imageId ?? null) }
  return {}
}

/** Inserts tiles into a view, each placed no smaller than its type's minimum. */
async function insertTiles(
  db: Db,
  viewId: number,
  tiles: readonly (TileSeed | TileCreate)[],
  nowIso: string,
): Promise<void> {
  for (const tile of tiles) {
    const settings = settingsOf(tile.type, tile)
    await db
      .insertInto('dashboard_tiles')
      .values({
        view_id: viewId,
        type: tile.type,
        ...placeTile(tile.type, tile),
        settings: JSON.stringify(settings),
        created_at: nowIso,
        updated_at: nowIso,
      })
      .execute()
  }
}

/** Makes the default view of a simulation that has none (its first read). */
async function ensureDefaultView(db: Kysely<Database>, simulationId: number, nowIso: string) {
  const any = await db
    .selectFrom('dashboard_views')
    .select('id')
    .where('simulation_id', '=', simulationId)
    .executeTakeFirst()
  if (any) return
  try {
    await db.transaction().execute(async (trx) => {
      const { id } = await trx
        .insertInto('dashboard_views')
        .values({
          simulation_id: simulationId,
          name: DEFAULT_VIEW_NAME,
          name_key: nameKey(DEFAULT_VIEW_NAME),
          is_default: toFlag(true),
          created_at: nowIso,
          updated_at: nowIso,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      await insertTiles(trx, id, defaultViewTiles(), nowIso)
    })
  } catch (error) {
    // Two first reads at once: the other one made it.
    if (!isUniqueViolation(error)) throw error
  }
}

/** A simulation's views, the default first (made with the default tiles on first read). */
export async function listViews(
  db: Kysely<Database>,
  simulation: SimulationRow,
  nowIso: string,
): Promise<DashboardView[]> {
  await ensureDefaultView(db, simulation.id, nowIso)
  const rows = await db
    .selectFrom('dashboard_views')
    .selectAll()
    .where('simulation_id', '=', simulation.id)
    .orderBy('is_default', 'desc')
    .orderBy('id')
    .execute()
  return Promise.all(rows.map((row) => viewWithTiles(db, row)))
}

/** A view and its simulation if the user sees the simulation, else 404. */
export async function findAccessibleView(
  db: Kysely<Database>,
  user: SessionUser,
  id: number,
): Promise<{ view: DashboardViewRow; simulation: SimulationRow }> {
  const view = await db
    .selectFrom('dashboard_views')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst()
  if (!view) throw notFound('Dashboard')
  try {
    return { view, simulation: await findAccessibleSimulation(db, user, view.simulation_id) }
  } catch {
    throw notFound('Dashboard')
  }
}

/** A tile and its view and simulation if the user sees the simulation, else 404. */
export async function findAccessibleTile(
  db: Kysely<Database>,
  user: SessionUser,
  id: number,
): Promise<{ tile: DashboardTileRow; view: DashboardViewRow; simulation: SimulationRow }> {
  const tile = await db
    .selectFrom('dashboard_tiles')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst()
  if (!tile) throw notFound('Dashboard tile')
  try {
    return { tile, ...(await findAccessibleView(db, user, tile.view_id)) }
  } catch {
    throw notFound('Dashboard tile')
  }
}

function nameTaken(): ApiError {
  return new ApiError('duplicate_key', VIEW_NAME_TAKEN_MESSAGE, [
    { path: 'name', message: VIEW_NAME_TAKEN_MESSAGE },
  ])
}

/** Adds a view with the given tiles; a name in use is 400 'View with entered name already exists'. */
export async function createView(
  db: Kysely<Database>,
  user: SessionUser,
  simulation: SimulationRow,
  input: { name: string; tiles: readonly (TileSeed | TileCreate)[]; makeDefault: boolean },
  nowIso: string,
): Promise<DashboardView> {
  await ensureDefaultView(db, simulation.id, nowIso)
  for (const tile of input.tiles) await assertTileReferences(db, user, simulation.id, tile)
  try {
    const id = await db.transaction().execute(async (trx) => {
      if (input.makeDefault)
        await trx
          .updateTable('dashboard_views')
          .set({ is_default: toFlag(false) })
          .where('simulation_id', '=', simulation.id)
          .execute()
      const { id } = await trx
        .insertInto('dashboard_views')
        .values({
          simulation_id: simulation.id,
          name: input.name,
          name_key: nameKey(input.name),
          is_default: toFlag(input.makeDefault),
          created_at: nowIso,
          updated_at: nowIso,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      await insertTiles(trx, id, input.tiles, nowIso)
      return id
    })
    return await readView(db, id)
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken()
    throw error
  }
}

/** A view with its tiles. */
export async function readView(db: Db, id: number): Promise<DashboardView> {
  const row = await db
    .selectFrom('dashboard_views')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
  return viewWithTiles(db, row)
}

/** Renames a view, makes it the default, and moves its tiles (tiles of other views: 404). */
export async function updateView(
  db: Kysely<Database>,
  view: DashboardViewRow,
  body: {
    name?: string
    default?: true
    tiles?: { id: number; x: number; y: number; w: number; h: number }[]
  },
  nowIso: string,
): Promise<DashboardView> {
  try {
    await db.transaction().execute(async (trx) => {
      if (body.name !== undefined)
        await trx
          .updateTable('dashboard_views')
          .set({ name: body.name, name_key: nameKey(body.name), updated_at: nowIso })
          .where('id', '=', view.id)
          .execute()
      if (body.default) {
        await trx
          .updateTable('dashboard_views')
          .set({ is_default: toFlag(false) })
          .where('simulation_id', '=', view.simulation_id)
          .execute()
        await trx
          .updateTable('dashboard_views')
          .set({ is_default: toFlag(true), updated_at: nowIso })
          .where('id', '=', view.id)
          .execute()
      }
      for (const place of body.tiles ?? []) {
        const tile = await trx
          .selectFrom('dashboard_tiles')
          .select(['id', 'type'])
          .where('id', '=', place.id)
          .where('view_id', '=', view.id)
          .executeTakeFirst()
        if (!tile) throw notFound('Dashboard tile')
        await trx
          .updateTable('dashboard_tiles')
          .set({ ...placeTile(tile.type as TileType, place), updated_at: nowIso })
          .where('id', '=', tile.id)
          .execute()
      }
    })
  } catch (error) {
    if (isUniqueViolation(error)) throw nameTaken()
    throw error
  }
  return readView(db, view.id)
}

/** Removes a view; the default view stays (409). */
export async function deleteView(db: Kysely<Database>, view: DashboardViewRow): Promise<void> {
  if (fromFlag(view.is_default))
    throw new ApiError(
      'conflict',
      'The default view cannot be deleted. Make another view the default first.',
    )
  await db.deleteFrom('dashboard_views').where('id', '=', view.id).execute()
}
