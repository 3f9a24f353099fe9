import { createReadStream, createWriteStream } from 'node:fs'
import { chown, lstat, mkdir, readdir, rename, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { pipeline } from 'node:stream/promises'
import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import { API_PREFIX } from '../../domain/rest.ts'
import {
  isStorableFileName,
  ORGANIZATION_STORAGE_DOWNLOAD_PATH,
  ORGANIZATION_STORAGE_MESSAGES,
  ORGANIZATION_STORAGE_PAGE_SIZE,
  ORGANIZATION_STORAGE_UPLOAD_LIMIT_BYTES,
  ORGANIZATION_STORAGE_UPLOAD_PATH,
  type ORGANIZATION_STORAGE_ROUTES,
  type OrganizationStorageFile,
  type OrganizationStoragePage,
} from '../../domain/rest/organizationStorageRoutes.ts'
import { ApiError, notFound } from '../api/apiError.ts'
import type { AreaHandlers } from '../api/context.ts'
import { authenticateAccessToken, readBearerToken } from '../auth/sessions.ts'
import type { Clock } from '../clock.ts'
import type { Database } from '../db/schema.ts'
import { assertStorageAvailable } from '../storage/usage.ts'
import { crossesSymlink, jailPath } from './sftpPaths.ts'
import { organizationStorageDirectory, refreshOrganizationStorageBytes } from './storageUsage.ts'

/*
 * The organization storage on the server (domain/rest/organizationStorageRoutes.ts): the listing
 * by pages, the upload and the download. Its folder is shared with the organization's VMs, which
 * can write links into it, so the listing skips links and the download follows none.
 */

type Db = Kysely<Database>

/** The user the sandboxes run as when the server runs as root (localProvider.ts). */
const NOBODY = 65534

/** Every regular file under `root` (links skipped), as paths below it with '/'. */
async function walkFiles(root: string, prefix = ''): Promise<OrganizationStorageFile[]> {
  let entries
  try {
    entries = await readdir(join(root, prefix), { withFileTypes: true })
  } catch {
    return []
  }
  const files: OrganizationStorageFile[] = []
  for (const entry of entries) {
    const name = prefix === '' ? entry.name : `${prefix}/${entry.name}`
    if (entry.isDirectory()) files.push(...(await walkFiles(root, name)))
    else if (entry.isFile()) {
      const stats = await lstat(join(root, name))
      files.push({ name, sizeBytes: stats.size, updatedAt: stats.mtime.toISOString() })
    }
  }
  return files
}

function decodeToken(token: string): string {
  const name = Buffer.from(token, 'base64url').toString('utf8')
  if (name === '' || Buffer.from(name, 'utf8').toString('base64url') !== token)
    throw new ApiError('validation_error', ORGANIZATION_STORAGE_MESSAGES.badToken, [
      { path: 'continuationToken', message: ORGANIZATION_STORAGE_MESSAGES.badToken },
    ])
  return name
}

/** One page of the organization storage's files by name, after the token's file. */
export async function listOrganizationStorage(
  dataDir: string,
  organizationId: number,
  continuationToken: string | null | undefined,
): Promise<OrganizationStoragePage> {
  const after = continuationToken ? decodeToken(continuationToken) : null
  const all = (await walkFiles(organizationStorageDirectory(dataDir, organizationId)))
    .filter((file) => after === null || file.name > after)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
  const files = all.slice(0, ORGANIZATION_STORAGE_PAGE_SIZE)
  const last = files.at(-1)
  return {
    files,
    continuationToken:
      all.length > files.length && last
        ? Buffer.from(last.name, 'utf8').toString('base64url')
        : null,
  }
}

/** Handlers of ORGANIZATION_STORAGE_ROUTES: the user's own organization's storage. */
export const organizationStorageHandlers: AreaHandlers<typeof ORGANIZATION_STORAGE_ROUTES> = {
  listOrganizationStorage({ query }, context) {
    return listOrganizationStorage(
      context.dataDir,
      context.user.organization_id,
      query.continuationToken,
    )
  },
  queryOrganizationStorage({ body }, context) {
    return listOrganizationStorage(
      context.dataDir,
      context.user.organization_id,
      body.continuationToken,
    )
  },
}

interface StorageRouteOptions {
  db: Db
  clock: Clock
  dataDir: string
}

async function organizationOf(options: StorageRouteOptions, request: FastifyRequest) {
  const token = readBearerToken(request.headers.authorization)
  const auth = await authenticateAccessToken(options.db, options.clock, token)
  return auth.user.organization_id
}

/** The upload and the download of the organization storage (binary, beside ROUTES). */
export function registerOrganizationStorageRoutes(
  app: FastifyInstance,
  options: StorageRouteOptions,
): void {
  app.post(`${API_PREFIX}${ORGANIZATION_STORAGE_UPLOAD_PATH}`, async (request, reply) => {
    const organizationId = await organizationOf(options, request)
    const length = Number(request.headers['content-length'] ?? 0)
    await assertStorageAvailable(options.db, organizationId, length)
    const part = await request.file({
      limits: { fileSize: ORGANIZATION_STORAGE_UPLOAD_LIMIT_BYTES, files: 1 },
    })
    if (!part) throw new ApiError('wrong_input', ORGANIZATION_STORAGE_MESSAGES.oneFile)
    const name = part.filename
    if (!isStorableFileName(name)) {
      part.file.resume()
      throw new ApiError('validation_error', ORGANIZATION_STORAGE_MESSAGES.badName, [
        { path: 'file', message: ORGANIZATION_STORAGE_MESSAGES.badName },
      ])
    }
    const folder = organizationStorageDirectory(options.dataDir, organizationId)
    await mkdir(folder, { recursive: true })
    // Written beside, then moved over: a same-named file (or a link a VM left) is replaced whole.
    const partial = join(folder, `.upload-${process.pid}-${Date.now()}`)
    try {
      await pipeline(part.file, createWriteStream(partial, { mode: 0o644, flags: 'wx' }))
      if (part.file.truncated)
        throw new ApiError('payload_too_large', ORGANIZATION_STORAGE_MESSAGES.tooLarge)
      if (process.getuid?.() === 0) await chown(partial, NOBODY, NOBODY)
      await rename(partial, join(folder, name))
    } finally {
      await rm(partial, { force: true })
    }
    await refreshOrganizationStorageBytes(
      options.db,
      options.dataDir,
      organizationId,
      options.clock.nowIso(),
    )
    const stats = await lstat(join(folder, name))
    return reply.code(201).send({ name, sizeBytes: stats.size })
  })

  app.get(`${API_PREFIX}${ORGANIZATION_STORAGE_DOWNLOAD_PATH}`, async (request, reply) => {
    const organizationId = await organizationOf(options, request)
    const requested = (request.query as { name?: unknown }).name
    if (typeof requested !== 'string' || requested === '')
      throw new ApiError('validation_error', 'name is required', [
        { path: 'name', message: 'name is required' },
      ])
    const root = organizationStorageDirectory(options.dataDir, organizationId)
    const path = jailPath(root, requested)
    if (!path || path.parts.length === 0 || (await crossesSymlink(root, path)))
      throw notFound('File')
    const stats = await lstat(path.host).catch(() => null)
    if (!stats?.isFile()) throw notFound('File')
    const fileName = path.parts.at(-1) ?? 'download'
    return reply
      .header('content-type', 'application/octet-stream')
      .header('content-length', stats.size)
      .header('content-disposition', `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}`)
      .header('cache-control', 'private, no-store')
      .send(createReadStream(path.host))
  })
}
