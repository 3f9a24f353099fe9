import type { Kysely } from 'kysely'
import { hasPermission } from '../../domain/account.ts'
import type { Database, ProjectRow, SimulationRow } from '../db/schema.ts'
import { notFound } from './apiError.ts'
import type { SessionUser } from './context.ts'

/*
 * Who sees what: an organization sees only its own data; a contributor only the projects they
 * created (and their simulations); roles with PROJECTS_VIEW_ALL see every project of the
 * organization. Anything out of reach is 404, never 403, so its existence does not leak.
 */

type Db = Kysely<Database>

export function canViewAllProjects(user: SessionUser): boolean {
  return hasPermission(user.role, 'PROJECTS_VIEW_ALL')
}

/** The project if the user may see it, else 404. */
export async function findAccessibleProject(
  db: Db,
  user: SessionUser,
  id: number,
): Promise<ProjectRow> {
  let query = db
    .selectFrom('projects')
    .selectAll()
    .where('id', '=', id)
    .where('organization_id', '=', user.organization_id)
  if (!canViewAllProjects(user)) query = query.where('creator_id', '=', user.id)
  const project = await query.executeTakeFirst()
  if (!project) throw notFound('Project')
  return project
}

/** The simulation if the user may see its project, else 404. */
export async function findAccessibleSimulation(
  db: Db,
  user: SessionUser,
  id: number,
): Promise<SimulationRow> {
  let query = db
    .selectFrom('simulations')
    .innerJoin('projects', 'projects.id', 'simulations.project_id')
    .selectAll('simulations')
    .where('simulations.id', '=', id)
    .where('projects.organization_id', '=', user.organization_id)
  if (!canViewAllProjects(user)) query = query.where('projects.creator_id', '=', user.id)
  const simulation = await query.executeTakeFirst()
  if (!simulation) throw notFound('Simulation')
  return simulation
}

/** Marks a project as edited now (any change to it or its simulations). */
export async function touchProject(db: Db, projectId: number, nowIso: string): Promise<void> {
  await db.updateTable('projects').set({ updated_at: nowIso }).where('id', '=', projectId).execute()
}
