import { sql, type Kysely } from 'kysely'
import { DEFAULT_PROJECT_PAGE_SIZE, SLIM_PAGE_LIMIT } from '../../../domain/limits.ts'
import { NAME_USED_MESSAGE, type ProjectListQuery } from '../../../domain/projects.ts'
import type { Database } from '../../db/schema.ts'
import { ApiError } from '../apiError.ts'
import { canViewAllProjects, findAccessibleProject } from '../access.ts'
import type { AuthedContext, RouteHandlers } from '../context.ts'
import { planSimulationRemoval, removeSimulationFiles } from '../../storage/removal.ts'
import { loadProjects, loadSlimProjects } from '../views.ts'

type Db = Kysely<Database>

/** `%text%` for LIKE, with LIKE's own wildcards taken literally. */
function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

const DEFAULT_DIRECTION = { updatedAt: 'desc', name: 'asc', size: 'desc' } as const

/** Projects the user may see that match the list filters (no order, no page). */
function filterProjects(db: Db, user: AuthedContext['user'], query: ProjectListQuery) {
  let builder = db
    .selectFrom('projects')
    .where('projects.organization_id', '=', user.organization_id)
  if (!canViewAllProjects(user)) builder = builder.where('projects.creator_id', '=', user.id)
  if (query.projectIds && query.projectIds.length > 0)
    builder = builder.where('projects.id', 'in', query.projectIds)
  if (query.createdBy && query.createdBy.length > 0)
    builder = builder.where('projects.creator_id', 'in', query.createdBy)
  const q = query.q?.trim()
  if (q) {
    const pattern = containsPattern(q)
    builder = builder.where((eb) =>
      eb.or([
        sql<boolean>`lower(projects.name) like ${pattern} escape '\\'`,
        eb.exists(
          eb
            .selectFrom('simulations')
            .select('simulations.id')
            .whereRef('simulations.project_id', '=', 'projects.id')
            .where(sql<boolean>`lower(simulations.name) like ${pattern} escape '\\'`),
        ),
      ]),
    )
  }
  return builder
}

export const listProjects: RouteHandlers['listProjects'] = async ({ query }, { db, user }) => {
  const pageLimit = query.pageLimit ?? (query.slim ? SLIM_PAGE_LIMIT : DEFAULT_PROJECT_PAGE_SIZE)
  const direction =
    query.asc === undefined ? DEFAULT_DIRECTION[query.orderBy] : query.asc ? 'asc' : 'desc'
  const filtered = filterProjects(db, user, query)
  const { count } = await filtered
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .executeTakeFirstOrThrow()
  const resultCount = Number(count)
  const sizeBytes = sql<number>`coalesce((select sum(s.size_bytes) from simulations s where s.project_id = projects.id), 0)`
  let ordered = filtered.selectAll('projects')
  if (query.orderBy === 'name') ordered = ordered.orderBy(sql`lower(projects.name)`, direction)
  else if (query.orderBy === 'size') ordered = ordered.orderBy(sizeBytes, direction)
  else ordered = ordered.orderBy('projects.updated_at', direction)
  const rows = await ordered
    .orderBy('projects.id', direction)
    .limit(pageLimit)
    .offset((query.pageNumber - 1) * pageLimit)
    .execute()
  const results = query.slim ? await loadSlimProjects(db, rows) : await loadProjects(db, rows)
  return { results, resultCount, pageCount: Math.ceil(resultCount / pageLimit) }
}

/** 409 when another project of the organization already has this name. */
async function assertProjectNameFree(
  db: Db,
  organizationId: number,
  name: string,
  exceptId?: number,
) {
  let query = db
    .selectFrom('projects')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('name', '=', name)
  if (exceptId !== undefined) query = query.where('id', '!=', exceptId)
  if (await query.executeTakeFirst()) throw new ApiError('duplicate_key', NAME_USED_MESSAGE)
}

async function loadProject(db: Db, id: number) {
  const row = await db
    .selectFrom('projects')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
  const [project] = await loadProjects(db, [row])
  if (!project) throw new Error(`project ${id} vanished`)
  return project
}

export const createProject: RouteHandlers['createProject'] = async (
  { body },
  { db, user, clock },
) =>
  db.transaction().execute(async (trx) => {
    await assertProjectNameFree(trx, user.organization_id, body.name)
    const nowIso = clock.nowIso()
    const { id } = await trx
      .insertInto('projects')
      .values({
        organization_id: user.organization_id,
        creator_id: user.id,
        name: body.name,
        description: body.description,
        created_at: nowIso,
        updated_at: nowIso,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    return loadProject(trx, id)
  })

export const getProject: RouteHandlers['getProject'] = async ({ params }, { db, user }) => {
  const row = await findAccessibleProject(db, user, params.id)
  return loadProject(db, row.id)
}

export const updateProject: RouteHandlers['updateProject'] = async (
  { params, body },
  { db, user, clock },
) =>
  db.transaction().execute(async (trx) => {
    const project = await findAccessibleProject(trx, user, params.id)
    if (body.name !== undefined && body.name !== project.name)
      await assertProjectNameFree(trx, user.organization_id, body.name, project.id)
    await trx
      .updateTable('projects')
      .set({
        ...(body.name !== undefined && { name: body.name }),
        ...(body.description !== undefined && { description: body.description }),
        updated_at: clock.nowIso(),
      })
      .where('id', '=', project.id)
      .execute()
    return loadProject(trx, project.id)
  })

export const deleteProject: RouteHandlers['deleteProject'] = async (
  { params },
  { db, user, dataDir },
) => {
  const removal = await db.transaction().execute(async (trx) => {
    const project = await findAccessibleProject(trx, user, params.id)
    const simulations = await trx
      .selectFrom('simulations')
      .select('id')
      .where('project_id', '=', project.id)
      .execute()
    const plan = await planSimulationRemoval(
      trx,
      project.organization_id,
      simulations.map((s) => s.id),
    )
    await trx.deleteFrom('simulations').where('project_id', '=', project.id).execute()
    await trx.deleteFrom('projects').where('id', '=', project.id).execute()
    return plan
  })
  // Every simulation's files and the uploads only they used go with the project (issue 13).
  await removeSimulationFiles(db, dataDir, removal)
  return { id: params.id }
}
