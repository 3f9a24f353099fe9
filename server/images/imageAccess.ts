import type { Kysely } from 'kysely'
import { notFound } from '../api/apiError.ts'
import { canViewAllProjects } from '../api/access.ts'
import type { SessionUser } from '../api/context.ts'
import type { ImageContentType } from '../../domain/rest/imageRoutes.ts'
import type { Database, UploadRow } from '../db/schema.ts'

/** The uploads-table kind of an image. */
export const IMAGE_UPLOAD_KIND = 'image'

/** What an image row keeps in its info (JSON text). */
export interface ImageInfo {
  contentType: ImageContentType
  /** The simulation the image was uploaded for (Save Image), if any. */
  simulationId?: number
}

/** The simulation an image was uploaded for, or null (older uploads and unattached images). */
export function imageSimulationId(row: Pick<UploadRow, 'info'>): number | null {
  try {
    const info = JSON.parse(row.info) as Partial<ImageInfo> | null
    return typeof info?.simulationId === 'number' ? info.simulationId : null
  } catch {
    return null
  }
}

/**
 * The image if the user may see it, else 404 like a missing one (issue 13: a contributor could
 * read and delete a manager's post image, ids being sequential). Images are their organization's;
 * roles with PROJECTS_VIEW_ALL see every one of it, a contributor only those they uploaded, the
 * post images of simulations they can see and the images uploaded for those simulations.
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
  const simulationId = imageSimulationId(row)
  const postImageOf = await db
    .selectFrom('simulations')
    .innerJoin('projects', 'projects.id', 'simulations.project_id')
    .select('simulations.id')
    .where((eb) =>
      simulationId === null
        ? eb('simulations.post_image_id', '=', row.id)
        : eb.or([
            eb('simulations.post_image_id', '=', row.id),
            eb('simulations.id', '=', simulationId),
          ]),
    )
    .where('projects.organization_id', '=', user.organization_id)
    .where('projects.creator_id', '=', user.id)
    .executeTakeFirst()
  if (!postImageOf) throw notFound('Image')
  return row
}
