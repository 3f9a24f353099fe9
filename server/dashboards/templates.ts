import type { Kysely } from 'kysely'
import * as v from 'valibot'
import { hasPermission } from '../../domain/account.ts'
import {
  DashboardTemplateSchema,
  TEMPLATE_NAME_TAKEN_MESSAGE,
  templateTiles,
  type DashboardTemplate,
  type TileSeed,
} from '../../domain/dashboards.ts'
import { ApiError, notFound } from '../api/apiError.ts'
import type { SessionUser } from '../api/context.ts'
import { isUniqueViolation } from '../db/connect.ts'
import type { Database } from '../db/schema.ts'
import type { DashboardTemplateRow } from './tables.ts'
import { nameKey, readView, toSeed } from './views.ts'

/*
 * Templates (table dashboard_templates) belong to an organization: every member lists them and
 * makes views from them; only their creator, or a role that sees all projects, removes one (403).
 */

const TileSeedsSchema = DashboardTemplateSchema.entries.tiles

function readTiles(text: string): TileSeed[] {
  try {
    const parsed = v.safeParse(TileSeedsSchema, JSON.parse(text))
    return parsed.success ? parsed.output : []
  } catch {
    return []
  }
}

function toTemplate(row: DashboardTemplateRow): DashboardTemplate {
  return {
    id: row.id,
    name: row.name,
    creatorId: row.creator_id,
    createdAt: row.created_at,
    tiles: readTiles(row.tiles),
  }
}

/** The organization's templates by name. */
export async function listTemplates(
  db: Kysely<Database>,
  user: SessionUser,
): Promise<DashboardTemplate[]> {
  const rows = await db
    .selectFrom('dashboard_templates')
    .selectAll()
    .where('organization_id', '=', user.organization_id)
    .orderBy('name_key')
    .execute()
  return rows.map(toTemplate)
}

/** A template of the user's organization, else 404. */
export async function findTemplate(
  db: Kysely<Database>,
  user: SessionUser,
  id: number,
): Promise<DashboardTemplateRow> {
  const row = await db
    .selectFrom('dashboard_templates')
    .selectAll()
    .where('id', '=', id)
    .where('organization_id', '=', user.organization_id)
    .executeTakeFirst()
  if (!row) throw notFound('Template')
  return row
}

/** The tiles a view made from a template starts with. */
export function tilesOfTemplate(row: DashboardTemplateRow): TileSeed[] {
  return readTiles(row.tiles)
}

/** Saves a view's tiles as a template (name taken: 400 'Template with entered name already exists.'). */
export async function createTemplate(
  db: Kysely<Database>,
  user: SessionUser,
  input: { name: string; viewId: number; copyCustom: boolean },
  nowIso: string,
): Promise<DashboardTemplate> {
  const view = await readView(db, input.viewId)
  const tiles = templateTiles(view.tiles.map(toSeed), input.copyCustom)
  try {
    const { id } = await db
      .insertInto('dashboard_templates')
      .values({
        organization_id: user.organization_id,
        creator_id: user.id,
        name: input.name,
        name_key: nameKey(input.name),
        tiles: JSON.stringify(tiles),
        created_at: nowIso,
        updated_at: nowIso,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    return toTemplate(await findTemplate(db, user, id))
  } catch (error) {
    if (isUniqueViolation(error))
      throw new ApiError('duplicate_key', TEMPLATE_NAME_TAKEN_MESSAGE, [
        { path: 'name', message: TEMPLATE_NAME_TAKEN_MESSAGE },
      ])
    throw error
  }
}

/** Removes a template: its creator or a role with PROJECTS_VIEW_ALL, else 403. */
export async function deleteTemplate(
  db: Kysely<Database>,
  user: SessionUser,
  id: number,
): Promise<void> {
  const row = await findTemplate(db, user, id)
  if (row.creator_id !== user.id && !hasPermission(user.role, 'PROJECTS_VIEW_ALL'))
    throw new ApiError('forbidden', 'Only the creator of this template or a manager may delete it.')
  await db.deleteFrom('dashboard_templates').where('id', '=', row.id).execute()
}
