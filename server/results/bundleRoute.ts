import { createHash } from 'node:crypto'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import * as v from 'valibot'
import type { WrittenDataset } from '../../domain/outputFormat.ts'
import { API_PREFIX } from '../../domain/rest.ts'
import {
  BundleDatasetSchema,
  OUTPUT_BUNDLE_CONTENT_TYPE,
  OUTPUT_BUNDLE_PATH,
} from '../../domain/rest/resultsRoutes.ts'
import { findAccessibleSimulation } from '../api/access.ts'
import { ApiError } from '../api/apiError.ts'
import { idParamSchema } from '../../domain/ids.ts'
import { authenticateAccessToken, readBearerToken } from '../auth/sessions.ts'
import type { Clock } from '../clock.ts'
import type { Database } from '../db/schema.ts'
import { BundleBody, parseRangeHeader } from './bundleBody.ts'
import { prepareOutputBundle } from './bundleStream.ts'
import { readOutputManifest, type ObjectPayloadFile } from './outputFiles.ts'

/*
 * GET /api/simulations/{id}/runs/{runId}/outputs/{outputNo}/bundle?dataset=full&objects=a,b
 * streams a DIVB bundle (docs/output-format.md "Bundle") of the requested objects of one complete
 * output: the header first, then each object file as written by the solver, never concatenated in
 * memory (bundleBody.ts: pieces read into reused buffers, written with the socket's backpressure).
 * A complete output never changes (its manifest is written last), so the reply carries a strong
 * ETag and may be cached for a year; it is private because it needs a bearer token. One byte range
 * (`Range: bytes=a-b`, `If-Range` with the ETag) is answered 206; a range past the end 416.
 */

/** Cache-Control of a bundle: outputs are immutable once their manifest exists. */
export const BUNDLE_CACHE_CONTROL = 'private, max-age=31536000, immutable'

export interface BundleRouteOptions {
  db: Kysely<Database>
  clock: Clock
  dataDir: string
}

const BundleParamsSchema = v.object({
  id: idParamSchema('id'),
  runId: idParamSchema('runId'),
  outputNo: idParamSchema('outputNo', 0),
})

const BundleQuerySchema = v.object({
  dataset: v.optional(BundleDatasetSchema, 'full'),
  objects: v.optional(v.pipe(v.string(), v.maxLength(10_000)), ''),
})

function parseOrThrow<S extends v.GenericSchema>(schema: S, input: unknown): v.InferOutput<S> {
  const result = v.safeParse(schema, input)
  if (result.success) return result.output
  throw new ApiError('validation_error', result.issues[0]?.message ?? 'Invalid input')
}

function requestedObjectIds(text: string): string[] {
  const ids = text
    .split(',')
    .map((id) => id.trim())
    .filter((id) => id !== '')
  return [...new Set(ids)]
}

function entityTag(
  location: { simulationId: number; runId: number; outputNo: number },
  dataset: WrittenDataset,
  files: readonly ObjectPayloadFile[],
): string {
  const hash = createHash('sha256')
  hash.update(`${location.simulationId}/${location.runId}/${location.outputNo}/${dataset}`)
  for (const file of files) hash.update(`|${file.objectId}:${file.sizeBytes}:${file.modifiedMs}`)
  return `"${hash.digest('base64url').slice(0, 32)}"`
}

function matchesEntityTag(header: string | undefined, tag: string): boolean {
  if (!header) return false
  return header
    .split(',')
    .map((item) => item.trim().replace(/^W\//, ''))
    .some((item) => item === tag || item === '*')
}

async function sendBundle(
  options: BundleRouteOptions,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const { user } = await authenticateAccessToken(
    options.db,
    options.clock,
    readBearerToken(request.headers.authorization),
  )
  const params = parseOrThrow(BundleParamsSchema, request.params)
  const query = parseOrThrow(BundleQuerySchema, request.query ?? {})
  const simulation = await findAccessibleSimulation(options.db, user, params.id)
  const location = { simulationId: simulation.id, runId: params.runId, outputNo: params.outputNo }
  const manifest = await readOutputManifest(
    options.dataDir,
    location.simulationId,
    location.runId,
    location.outputNo,
  )
  if (!manifest)
    throw new ApiError(
      'resource_not_found',
      `Output ${location.outputNo} of run ${location.runId} was not found.`,
    )
  const wanted = requestedObjectIds(query.objects)
  const { bundle, problems } = await prepareOutputBundle(
    options.dataDir,
    location,
    manifest,
    wanted,
    query.dataset,
  )
  if (problems.unknownObjectIds.length > 0)
    throw new ApiError(
      'resource_not_found',
      `Output ${location.outputNo} has no object ${problems.unknownObjectIds.join(', ')}.`,
    )
  const missing = problems.missingFileObjectIds[0]
  if (missing !== undefined || !bundle)
    throw new ApiError(
      'resource_not_found',
      `The ${query.dataset} data of ${missing ?? 'the output'} in output ${location.outputNo} was not found.`,
    )
  const files = bundle.files

  const tag = entityTag(location, query.dataset, files)
  reply.header('ETag', tag).header('Cache-Control', BUNDLE_CACHE_CONTROL)
  if (matchesEntityTag(request.headers['if-none-match'], tag)) return reply.code(304).send()

  const total = bundle.totalByteLength
  reply.header('Accept-Ranges', 'bytes').header('Content-Type', OUTPUT_BUNDLE_CONTENT_TYPE)
  const ifRange = request.headers['if-range']
  const range =
    ifRange === undefined || String(ifRange).trim() === tag
      ? parseRangeHeader(request.headers.range, total)
      : null
  if (range === 'unsatisfiable')
    return reply.code(416).header('Content-Range', `bytes */${total}`).send()
  if (range === null) {
    reply.code(200).header('Content-Length', String(total))
    return reply.send(new BundleBody(bundle, { start: 0, end: total - 1 }))
  }
  reply
    .code(206)
    .header('Content-Range', `bytes ${range.start}-${range.end}/${total}`)
    .header('Content-Length', String(range.end - range.start + 1))
  return reply.send(new BundleBody(bundle, range))
}

/** Registers the bundle call on the Fastify instance (it is binary, so it is not in ROUTES). */
export function registerOutputBundleRoute(app: FastifyInstance, options: BundleRouteOptions): void {
  app.get(API_PREFIX + OUTPUT_BUNDLE_PATH.replace(/\{(\w+)\}/g, ':$1'), {
    // The app marks every /api reply no-store; this route-level hook runs after it and restores caching.
    onSend: async (_request, reply, payload) => {
      if (reply.statusCode === 200 || reply.statusCode === 206 || reply.statusCode === 304)
        reply.header('Cache-Control', BUNDLE_CACHE_CONTROL)
      return payload
    },
    handler: (request, reply) => sendBundle(options, request, reply),
  })
}
