import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { Readable } from 'node:stream'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Kysely } from 'kysely'
import * as v from 'valibot'
import { encodeBundleHeader, type WrittenDataset } from '../../domain/outputFormat.ts'
import { API_PREFIX } from '../../domain/rest.ts'
import {
  BundleDatasetSchema,
  OUTPUT_BUNDLE_CONTENT_TYPE,
  OUTPUT_BUNDLE_PATH,
} from '../../domain/rest/resultsRoutes.ts'
import { findAccessibleSimulation } from '../api/access.ts'
import { ApiError } from '../api/apiError.ts'
import { authenticateAccessToken, readBearerToken } from '../auth/sessions.ts'
import type { Clock } from '../clock.ts'
import type { Database } from '../db/schema.ts'
import { readOutputManifest, statObjectPayload, type ObjectPayloadFile } from './outputFiles.ts'

/*
 * GET /api/simulations/{id}/runs/{runId}/outputs/{outputNo}/bundle?dataset=full&objects=a,b
 * streams a DIVB bundle (docs/output-format.md "Bundle") of the requested objects of one complete
 * output: the header first, then each object file as written by the solver, never concatenated in
 * memory. A complete output never changes (its manifest is written last), so the reply carries a
 * strong ETag and may be cached for a year; it is private because it needs a bearer token.
 */

/** Cache-Control of a bundle: outputs are immutable once their manifest exists. */
export const BUNDLE_CACHE_CONTROL = 'private, max-age=31536000, immutable'

/** Bytes read per chunk from an object file. */
const READ_CHUNK_BYTES = 1024 * 1024

export interface BundleRouteOptions {
  db: Kysely<Database>
  clock: Clock
  dataDir: string
}

const positiveInteger = (name: string) =>
  v.pipe(
    v.string(),
    v.regex(/^\d{1,12}$/, `${name} must be a non-negative integer`),
    v.transform(Number),
  )

const BundleParamsSchema = v.object({
  id: positiveInteger('id'),
  runId: positiveInteger('runId'),
  outputNo: positiveInteger('outputNo'),
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

/** Header, then each payload padded to the bundle alignment, streamed from disk. */
async function* streamBundle(
  header: Uint8Array,
  files: readonly ObjectPayloadFile[],
  offsets: readonly number[],
): AsyncGenerator<Uint8Array> {
  yield header
  let position = header.length
  for (const [index, file] of files.entries()) {
    const offset = offsets[index] ?? position
    if (offset > position) yield new Uint8Array(offset - position)
    position = offset
    let read = 0
    for await (const chunk of createReadStream(file.path, { highWaterMark: READ_CHUNK_BYTES })) {
      const bytes = chunk as Buffer
      // A file that grew since stat would break the header's lengths: send only what it announced.
      const wanted = Math.min(bytes.length, file.sizeBytes - read)
      if (wanted <= 0) break
      yield wanted === bytes.length ? bytes : bytes.subarray(0, wanted)
      read += wanted
    }
    if (read < file.sizeBytes) throw new Error(`${file.path} shrank while it was being sent`)
    position += read
  }
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
  const known = new Map(manifest.objects.map((object) => [object.objectId, object]))
  const wanted = requestedObjectIds(query.objects)
  const objectIds = wanted.length > 0 ? wanted : [...known.keys()]
  const unknown = objectIds.filter((id) => !known.has(id))
  if (unknown.length > 0)
    throw new ApiError(
      'resource_not_found',
      `Output ${location.outputNo} has no object ${unknown.join(', ')}.`,
    )
  const files: ObjectPayloadFile[] = []
  for (const objectId of objectIds) {
    const file = await statObjectPayload(options.dataDir, location, objectId, query.dataset)
    if (!file)
      throw new ApiError(
        'resource_not_found',
        `The ${query.dataset} data of ${objectId} in output ${location.outputNo} was not found.`,
      )
    files.push(file)
  }

  const tag = entityTag(location, query.dataset, files)
  reply.header('ETag', tag).header('Cache-Control', BUNDLE_CACHE_CONTROL)
  if (matchesEntityTag(request.headers['if-none-match'], tag)) return reply.code(304).send()

  const layout = encodeBundleHeader(
    files.map((file) => ({
      objectId: file.objectId,
      kind: known.get(file.objectId)?.kind ?? 'fluid',
      dataset: query.dataset,
      outputNo: location.outputNo,
      byteLength: file.sizeBytes,
    })),
  )
  reply
    .code(200)
    .header('Content-Type', OUTPUT_BUNDLE_CONTENT_TYPE)
    .header('Content-Length', String(layout.totalByteLength))
  const offsets = layout.entries.map((entry) => entry.byteOffset)
  return reply.send(Readable.from(streamBundle(layout.header, files, offsets)))
}

/** Registers the bundle call on the Fastify instance (it is binary, so it is not in ROUTES). */
export function registerOutputBundleRoute(app: FastifyInstance, options: BundleRouteOptions): void {
  app.get(API_PREFIX + OUTPUT_BUNDLE_PATH.replace(/\{(\w+)\}/g, ':$1'), {
    // The app marks every /api reply no-store; this route-level hook runs after it and restores caching.
    onSend: async (_request, reply, payload) => {
      if (reply.statusCode === 200 || reply.statusCode === 304)
        reply.header('Cache-Control', BUNDLE_CACHE_CONTROL)
      return payload
    },
    handler: (request, reply) => sendBundle(options, request, reply),
  })
}
