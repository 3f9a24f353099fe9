import { createReadStream } from 'node:fs'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import type { Shape } from '../../domain/parts.ts'
import { encodePointCloudFile } from '../../domain/pointCloudFile.ts'
import { IdParamSchema } from '../../domain/projects.ts'
import { API_PREFIX } from '../../domain/rest.ts'
import {
  AIR_DRAG_GRID_PATH,
  MESH_FILE_PATH,
  PART_MESH_PATH,
  PART_POINTCLOUD_PATH,
  SETUP_FILE_CONTENT_TYPE,
} from '../../domain/rest/setupSchemas.ts'
import { ApiError } from '../api/apiError.ts'
import type { SessionUser } from '../api/context.ts'
import { parseInput } from '../api/validation.ts'
import { authenticateAccessToken, readBearerToken } from '../auth/sessions.ts'
import type { Clock } from '../clock.ts'
import type { Database } from '../db/schema.ts'
import { findMeshRow, meshDefinitionHash, toMesh } from '../meshes/store.ts'
import { findObjectSimulation } from '../sensors/access.ts'
import { pointCloudStoredPath } from '../storage/pointClouds.ts'
import { findReadablePart, findReadableSimulation } from './access.ts'
import { airDragGridBytes, airDragGridOf } from './airDragGrid.ts'
import { partMeshSource, placedMeshBytes, findStoredFile, type FileSource } from './meshFiles.ts'
import {
  partMeshHash,
  pointCloudHash,
  readPartPointClouds,
  referencePreviewHash,
} from './partFiles.ts'
import { placeCloudPositions, readReferenceCloud } from './referenceOutputs.ts'
import { toPart } from './views.ts'

/*
 * The setup's binary downloads (docs/setup-editor.md "Binary downloads", described for OpenAPI in
 * server/api/binaryOperations.ts): GET /parts/{id}/mesh, /parts/{id}/pointcloud,
 * /meshes/{id}/mesh and /simulations/{id}/air_drag_domain/grid. Bearer token and access as the JSON routes (out of reach is 404). The ETag
 * is the content hash the JSON carries in the URL's `v`; If-None-Match answers 304 before any
 * file is touched. Stored files (STL meshes, point clouds) are streamed from disk, never read
 * whole per request.
 */

/** Clients cache by URL (`?v={hash}`) and revalidate with the ETag. */
export const SETUP_FILE_CACHE_CONTROL = 'private, no-cache'

interface FileRoutesOptions {
  db: Kysely<Database>
  clock: Clock
  dataDir: string
}

/** What a download resolves to: its hash (ETag) and a way to get its bytes. */
interface Download {
  hash: string
  source: () => Promise<FileSource | null>
}

function notFound(description: string): ApiError {
  return new ApiError('resource_not_found', description)
}

function matchesEntityTag(header: string | undefined, tag: string): boolean {
  if (!header) return false
  return header
    .split(',')
    .map((item) => item.trim().replace(/^W\//, ''))
    .some((item) => item === tag || item === '*')
}

async function partMesh(options: FileRoutesOptions, user: SessionUser, id: number) {
  const { part, simulation } = await findReadablePart(options.db, user, id)
  const { shape } = toPart(part)
  const hash = partMeshHash(shape)
  if (hash === null) throw notFound('The part has no mesh.')
  return {
    hash,
    source: () => partMeshSource(options.db, options.dataDir, simulation.organization_id, shape),
  } satisfies Download
}

/** A pointcloud part's reference output particles, placed, as a DPCL file. */
function referencePreview(
  options: FileRoutesOptions,
  organizationId: number,
  partId: number,
  shape: Shape,
): Download | null {
  const hash = referencePreviewHash(partId, shape)
  if (hash === null || shape.type !== 'pointcloud') return null
  return {
    hash,
    source: async () => {
      const cloud = await readReferenceCloud(options.db, options.dataDir, organizationId, shape)
      return cloud && { bytes: encodePointCloudFile(placeCloudPositions(shape, cloud.positions)) }
    },
  }
}

async function partPointCloud(options: FileRoutesOptions, user: SessionUser, id: number) {
  const { part, simulation } = await findReadablePart(options.db, user, id)
  const cloud = (await readPartPointClouds(options.db, part.simulation_id)).get(part.id)
  if (!cloud) {
    const preview = referencePreview(
      options,
      simulation.organization_id,
      part.id,
      toPart(part).shape,
    )
    if (preview) return preview
    throw notFound('The part has no particles from a successful discretization.')
  }
  const storedPath = pointCloudStoredPath(part.simulation_id, cloud.jobId, part.id)
  return {
    hash: pointCloudHash(part.id, cloud),
    source: () => findStoredFile(options.dataDir, storedPath),
  } satisfies Download
}

async function placedMesh(options: FileRoutesOptions, user: SessionUser, id: number) {
  const row = await findMeshRow(options.db, id)
  await findObjectSimulation(options.db, user, row?.simulation_id, 'Mesh')
  const mesh = toMesh(row!)
  if (mesh.meshUrl === null) throw notFound(`A ${mesh.kind} mesh has no triangles to download.`)
  return {
    hash: meshDefinitionHash(mesh),
    source: () => {
      const bytes = placedMeshBytes(mesh)
      return Promise.resolve(bytes && { bytes })
    },
  } satisfies Download
}

async function airDragGrid(options: FileRoutesOptions, user: SessionUser, id: number) {
  const simulation = await findReadableSimulation(options.db, user, id)
  const grid = await airDragGridOf(options.db, simulation.id)
  if (typeof grid === 'string') throw notFound(grid)
  return {
    hash: grid.hash,
    source: () => Promise.resolve({ bytes: airDragGridBytes(grid.grid) }),
  } satisfies Download
}

type Resolve = (options: FileRoutesOptions, user: SessionUser, id: number) => Promise<Download>

async function sendDownload(
  options: FileRoutesOptions,
  resolve: Resolve,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const { user } = await authenticateAccessToken(
    options.db,
    options.clock,
    readBearerToken(request.headers.authorization),
  )
  const { id } = parseInput(IdParamSchema, request.params)
  const download = await resolve(options, user, id)
  const tag = `"${download.hash}"`
  reply.header('ETag', tag)
  if (matchesEntityTag(request.headers['if-none-match'], tag)) return reply.code(304).send()
  const source = await download.source()
  if (!source) throw notFound('The file was not found.')
  reply.code(200).header('Content-Type', SETUP_FILE_CONTENT_TYPE)
  if ('bytes' in source)
    return reply
      .header('Content-Length', String(source.bytes.length))
      .send(Buffer.from(source.bytes))
  return reply
    .header('Content-Length', String(source.sizeBytes))
    .send(createReadStream(source.path))
}

/** Registers the downloads (binary, so they are not in ROUTES). */
export function registerSetupFileRoutes(app: FastifyInstance, options: FileRoutesOptions): void {
  const routes: [string, Resolve][] = [
    [PART_MESH_PATH, partMesh],
    [PART_POINTCLOUD_PATH, partPointCloud],
    [MESH_FILE_PATH, placedMesh],
    [AIR_DRAG_GRID_PATH, airDragGrid],
  ]
  for (const [path, resolve] of routes)
    app.get(API_PREFIX + path.replace(/\{(\w+)\}/g, ':$1'), {
      // The app marks every /api reply no-store; this route-level hook runs after it.
      onSend: async (_request, reply, payload) => {
        if (reply.statusCode === 200 || reply.statusCode === 304)
          reply.header('Cache-Control', SETUP_FILE_CACHE_CONTROL)
        return payload
      },
      handler: (request, reply) => sendDownload(options, resolve, request, reply),
    })
}
