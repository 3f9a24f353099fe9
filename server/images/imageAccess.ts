import type { Kysely } from 'kysely'
import { notFound } from '../api/apiError.ts'
import { canViewAllProjects } from '../api/access.ts'
import type { SessionUser } from '../api/context.ts'
import type { Database, UploadRow } from '../db/schema.ts'

/** The uploads-table kind of an image. */
export const IMAGE_UPLOAD_KIND = 'image'

/**
 * The image if the user may see it, else 404 like a missing one (issue 13: a contributor could
 * read and delete a manager's post image, ids being sequential). Images are their organization's;
 * roles with PROJECTS_VIEW_ALL see every one of it, a contributor only those they uploaded and the
 * post images of simulations they can see.
 */
export async function findAccessibleImage(
  db: Kysely<Database>,
  user: SessionUser,
  id: number,
): Promise<UploadRow> {
  const row = await db
    .selectFrom('uploads')
    .selectAll()
    .where('id', '=', id)
    .where('kind', '=', IMAGE_UPLOAD_KIND)
    .where('organization_id', '=', user.organization_id)
    .executeTakeFirst()
  if (!row) throw notFound('Image')
  if (canViewAllProjects(user) || row.uploader_id === user.id) return row
  const postImageOf = await db
    .selectFrom('simulations')
    .innerJoin('projects', 'projects.id', 'simulations.project_id')
    .select('simulations.id')
    .where('simulations.post_image_id', '=', row.id)
    .where('projects.organization_id', '=', user.organization_id)
    .where('projects.creator_id', '=', user.id)
    .executeTakeFirst()
  if (!postImageOf) throw notFound('Image')
  return row
}
