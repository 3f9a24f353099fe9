import type { Kysely } from 'kysely'
import {
  placeTile,
  type DashboardTile,
  type TileCreate,
  type TileType,
} from '../../domain/dashboards.ts'
import type { SessionUser } from '../api/context.ts'
import type { Database } from '../db/schema.ts'
import type { DashboardTileRow, DashboardViewRow } from './tables.ts'
import { assertTileReferences, readSettings, settingsOf, toTile } from './views.ts'

/* Adding and changing one tile (table dashboard_tiles); views.ts reads and arranges them. */

/** Adds a tile to a view. */
export async function createTile(
  db: Kysely<Database>,
  user: SessionUser,
  view: DashboardViewRow,
  body: TileCreate,
  nowIso: string,
): Promise<DashboardTile> {
  const settings = settingsOf(body.type, body)
  await assertTileReferences(db, user, view.simulation_id, settings)
  const { id } = await db
    .insertInto('dashboard_tiles')
    .values({
      view_id: view.id,
      type: body.type,
      ...placeTile(body.type, body),
      settings: JSON.stringify(settings),
      created_at: nowIso,
      updated_at: nowIso,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return toTile(
    await db
      .selectFrom('dashboard_tiles')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow(),
  )
}

/** Changes a tile's place and settings. */
export async function updateTile(
  db: Kysely<Database>,
  user: SessionUser,
  tile: DashboardTileRow,
  simulationId: number,
  body: Omit<TileCreate, 'type'>,
  nowIso: string,
): Promise<DashboardTile> {
  const type = tile.type as TileType
  const settings = settingsOf(type, body, readSettings(tile.settings))
  await assertTileReferences(db, user, simulationId, settings)
  const place = placeTile(type, {
    x: body.x ?? tile.x,
    y: body.y ?? tile.y,
    w: body.w ?? tile.w,
    h: body.h ?? tile.h,
  })
  await db
    .updateTable('dashboard_tiles')
    .set({ ...place, settings: JSON.stringify(settings), updated_at: nowIso })
    .where('id', '=', tile.id)
    .execute()
  return toTile(
    await db
      .selectFrom('dashboard_tiles')
      .selectAll()
      .where('id', '=', tile.id)
      .executeTakeFirstOrThrow(),
  )
}

/** Clears a deleted image from the organization's image tiles: they show no image, not a 404. */
export async function forgetTileImage(
  db: Kysely<Database>,
  organizationId: number,
  imageId: number,
): Promise<void> {
  const tiles = await db
    .selectFrom('dashboard_tiles')
    .innerJoin('dashboard_views', 'dashboard_views.id', 'dashboard_tiles.view_id')
    .innerJoin('simulations', 'simulations.id', 'dashboard_views.simulation_id')
    .select(['dashboard_tiles.id', 'dashboard_tiles.settings'])
    .where('simulations.organization_id', '=', organizationId)
    .where('dashboard_tiles.type', '=', 'image')
    .execute()
  for (const tile of tiles) {
    const settings = readSettings(tile.settings)
    if (settings.imageId !== imageId) continue
    await db
      .updateTable('dashboard_tiles')
      .set({ settings: JSON.stringify({ ...settings, imageId: null }) })
      .where('id', '=', tile.id)
      .execute()
  }
}
