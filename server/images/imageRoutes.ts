import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import { API_PREFIX } from '../../domain/rest.ts'
import {
  IMAGE_FORMAT_MESSAGE,
  IMAGE_NAME_MAX_LENGTH,
  IMAGE_UPLOAD_LIMIT_BYTES,
  IMAGE_UPLOAD_PATH,
  imagePath,
  sniffImageContentType,
  type Image,
  type ImageContentType,
} from '../../domain/rest/imageRoutes.ts'
import { findAccessibleSimulation } from '../api/access.ts'
import { ApiError, notFound } from '../api/apiError.ts'
import { parseIdParam } from '../api/validation.ts'
import {
  IMAGE_UPLOAD_KIND,
  findAccessibleImage,
  imageSimulationId,
  type ImageInfo,
} from './imageAccess.ts'
import type { SessionUser } from '../api/context.ts'
import { authenticateAccessToken, readBearerToken } from '../auth/sessions.ts'
import type { Clock } from '../clock.ts'
import type { Database, UploadRow } from '../db/schema.ts'
import { forgetTileImage } from '../dashboards/tiles.ts'
import { removeStoredFile, resolveStoredPath, writeStoredFile } from '../storage/files.ts'
import { assertStorageAvailable } from '../storage/usage.ts'

/*
 * Images (domain/rest/imageRoutes.ts): POST /client-upload/images takes a multipart `file` (PNG or
 * JPEG, recognised by its bytes) and an optional `name`; GET /images/{id} returns the bytes;
 * DELETE /images/{id} removes it and clears it as any simulation's post image and from image
 * tiles. Images are rows of the uploads table (kind 'image', one organization's) with the file under
 * images/{organizationId}/{id}.{png|jpg} in the data directory: no table of their own. An upload
 * may name the simulation it is of (`simulationId` field, kept in the row's info); GET
 * /simulations/{id}/images lists those and the simulation's post image (the image tiles' picker).
 */

export { IMAGE_UPLOAD_KIND }

interface ImageRoutesOptions {
  db: Kysely<Database>
  clock: Clock
  dataDir: string
}

/** Where image `imageId` of an organization is kept, relative to the data directory. */
export function imageStoredPath(
  organizationId: number,
  imageId: number,
  contentType: ImageContentType,
): string {
  return join(
    'images',
    String(organizationId),
    `${imageId}.${contentType === 'image/png' ? 'png' : 'jpg'}`,
  )
}

function toImage(row: UploadRow): Image {
  const info = JSON.parse(row.info) as Partial<ImageInfo>
  return {
    id: row.id,
    name: row.file_name,
    contentType: info.contentType === 'image/jpeg' ? 'image/jpeg' : 'image/png',
    sizeBytes: row.size_bytes,
    createdAt: row.created_at,
    url: `${API_PREFIX}${imagePath(row.id)}`,
  }
}

async function authenticate(
  options: ImageRoutesOptions,
  request: FastifyRequest,
): Promise<SessionUser> {
  const { user } = await authenticateAccessToken(
    options.db,
    options.clock,
    readBearerToken(request.headers.authorization),
  )
  return user
}

/** The `file` part (within the limit) and the `name` field of a multipart upload. */
async function receiveImage(request: FastifyRequest): Promise<{
  bytes: Uint8Array
  fileName: string
  name: string | null
  simulationId: string | null
}> {
  if (!request.isMultipart())
    throw new ApiError('wrong_input', 'Send the image as multipart/form-data (field "file").')
  let received: { bytes: Uint8Array; fileName: string } | undefined
  let name: string | null = null
  let simulationId: string | null = null
  let tooLarge = false
  try {
    for await (const part of request.parts({
      limits: { fileSize: IMAGE_UPLOAD_LIMIT_BYTES + 1, files: 1 },
    })) {
      if (part.type !== 'file') {
        if (part.fieldname === 'name' && typeof part.value === 'string') name = part.value
        if (part.fieldname === 'simulationId' && typeof part.value === 'string')
          simulationId = part.value
        continue
      }
      if (part.fieldname !== 'file') {
        part.file.resume()
        continue
      }
      const chunks: Buffer[] = []
      let size = 0
      for await (const chunk of part.file as AsyncIterable<Buffer>) {
        size += chunk.length
        if (size > IMAGE_UPLOAD_LIMIT_BYTES) tooLarge = true
        else chunks.push(chunk)
      }
      if (part.file.truncated) tooLarge = true
      if (!tooLarge)
        received = {
          bytes: new Uint8Array(Buffer.concat(chunks)),
          fileName: (part.filename || '').trim(),
        }
    }
  } catch (error) {
    if (error instanceof ApiError) throw error
    if ((error as { code?: unknown }).code !== 'FST_REQ_FILE_TOO_LARGE')
      throw new ApiError('wrong_input', 'The multipart body could not be read.')
    tooLarge = true
  }
  if (tooLarge)
    throw new ApiError(
      'payload_too_large',
      `The image is larger than ${IMAGE_UPLOAD_LIMIT_BYTES / 1024 / 1024} MiB.`,
    )
  if (!received)
    throw new ApiError('body_keys_missing', 'file is required', [
      { path: 'file', message: 'file is required' },
    ])
  return { ...received, name, simulationId }
}

/** The image row if the user may see it (findAccessibleImage), else 404. */
async function findImage(
  options: ImageRoutesOptions,
  user: SessionUser,
  rawId: unknown,
): Promise<UploadRow> {
  return findAccessibleImage(options.db, user, parseIdParam(rawId, 'id'))
}

/**
 * Registers POST /api/client-upload/images, GET and DELETE /api/images/:id, and GET
 * /api/simulations/:id/images (domain simulationImagesPath).
 */
export function registerImageRoutes(app: FastifyInstance, options: ImageRoutesOptions): void {
  app.post(`${API_PREFIX}${IMAGE_UPLOAD_PATH}`, async (request, reply) => {
    const user = await authenticate(options, request)
    const received = await receiveImage(request)
    const contentType = sniffImageContentType(received.bytes)
    if (contentType === null) throw new ApiError('wrong_input', IMAGE_FORMAT_MESSAGE)
    const name = (received.name ?? received.fileName).replace(/^.*[\\/]/, '').trim()
    // The simulation the image is of, if named: one the user can see (else 404).
    const simulationId =
      received.simulationId === null
        ? undefined
        : (
            await findAccessibleSimulation(
              options.db,
              user,
              parseIdParam(received.simulationId, 'simulationId'),
            )
          ).id
    await assertStorageAvailable(options.db, user.organization_id, received.bytes.length)
    const nowIso = options.clock.nowIso()
    const info: ImageInfo =
      simulationId === undefined ? { contentType } : { contentType, simulationId }
    const image = await options.db.transaction().execute(async (trx) => {
      const { id } = await trx
        .insertInto('uploads')
        .values({
          organization_id: user.organization_id,
          uploader_id: user.id,
          kind: IMAGE_UPLOAD_KIND,
          file_name: (name || 'image').slice(0, IMAGE_NAME_MAX_LENGTH),
          unit: null,
          size_bytes: received.bytes.length,
          stored_path: '',
          info: JSON.stringify(info),
          created_at: nowIso,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      const storedPath = imageStoredPath(user.organization_id, id, contentType)
      await trx
        .updateTable('uploads')
        .set({ stored_path: storedPath })
        .where('id', '=', id)
        .execute()
      // Written inside the transaction: a failed write stores no row either.
      await writeStoredFile(options.dataDir, storedPath, received.bytes)
      return toImage(
        await trx.selectFrom('uploads').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
      )
    })
    return reply.code(201).send(image)
  })

  app.get(`${API_PREFIX}/simulations/:id/images`, async (request) => {
    const user = await authenticate(options, request)
    const simulation = await findAccessibleSimulation(
      options.db,
      user,
      parseIdParam((request.params as { id?: unknown }).id, 'id'),
    )
    // Images have no simulation column: the organization's are few enough to read their info.
    const rows = await options.db
      .selectFrom('uploads')
      .selectAll()
      .where('kind', '=', IMAGE_UPLOAD_KIND)
      .where('organization_id', '=', user.organization_id)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute()
    return rows
      .filter(
        (row) => row.id === simulation.post_image_id || imageSimulationId(row) === simulation.id,
      )
      .map(toImage)
  })

  app.get(`${API_PREFIX}/images/:id`, async (request, reply) => {
    const user = await authenticate(options, request)
    const row = await findImage(options, user, (request.params as { id?: unknown }).id)
    const image = toImage(row)
    let bytes: Buffer
    try {
      bytes = await readFile(resolveStoredPath(options.dataDir, row.stored_path))
    } catch {
      throw notFound('Image')
    }
    return reply
      .header('content-type', image.contentType)
      .header('cache-control', 'private, max-age=3600')
      .send(bytes)
  })

  app.delete(`${API_PREFIX}/images/:id`, async (request, reply) => {
    const user = await authenticate(options, request)
    const row = await findImage(options, user, (request.params as { id?: unknown }).id)
    await options.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('simulations')
        .set({ post_image_id: null })
        .where('post_image_id', '=', row.id)
        .execute()
      await forgetTileImage(trx, row.organization_id, row.id)
      await trx.deleteFrom('uploads').where('id', '=', row.id).execute()
    })
    await removeStoredFile(options.dataDir, row.stored_path)
    return reply.code(204).send()
  })
}
