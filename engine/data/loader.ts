/**
 * Loading one output for the render worker: cache first, else fetch the bundle; decode with the
 * domain reader (columns are views, nothing copied); build RenderableObjects whose columns are
 * offsets into one ArrayBuffer, ready to transfer. A fetched bundle is read into a pooled buffer
 * and transferred as it is (zero copy); cached payloads that come in several chunks are joined into
 * a pooled buffer (one copy). Every failure is a {@link LoadError} with a message for the user.
 */
import {
  FORMAT_MINOR_VERSION,
  FORMAT_VERSION,
  formatVersionString,
  OutputFormatError,
  type WrittenDataset,
} from '../../domain/outputFormat.ts'
import { readBundle, readObjectStream, type ObjectView } from '../../domain/output/reader.ts'
import type { LoadRequest, OutputKey, RenderableOutput } from '../protocol.ts'
import type { BufferPool } from './bufferPool.ts'
import { isQuotaError, OBJECT_LIST_ID, type OutputCache, type OutputCacheKey } from './cache.ts'
import { LoadError, toLoadError } from './loadErrors.ts'
import { buildRenderableObject } from './renderable.ts'
import { buildBundleUrl, readResponseBytes } from './responseBytes.ts'
import { createAbortError, isAbortError } from './scheduler.ts'

export { LOAD_ERROR_CODES, LoadError, type LoadErrorCode } from './loadErrors.ts'
export { buildRenderableObject } from './renderable.ts'
export { buildBundleUrl, readResponseBytes } from './responseBytes.ts'

/** The reader version cached bytes are keyed by: a reader upgrade never trusts older entries. */
export const CACHE_FORMAT_VERSION = formatVersionString({
  major: FORMAT_VERSION,
  minor: FORMAT_MINOR_VERSION,
})

/** What a loader needs from its surroundings (a data worker, a test, a bench). */
export interface LoaderContext {
  fetch: typeof fetch
  cache: OutputCache
  pool: BufferPool
  /** Overrides the request's token when set (the client pushes fresh ones). */
  accessToken?: string | null
  /** Milliseconds, for the summary's timings. */
  now?: () => number
}

/** One output ready to post: the renderable output and the buffers to transfer with it. */
export interface LoadedOutput {
  output: RenderableOutput
  /** Every distinct buffer the output's columns lie in (the transfer list). */
  transfer: ArrayBuffer[]
  fromCache: boolean
  /** Payload bytes read (from the cache or the network). */
  bytes: number
  decodeMs: number
  /**
   * Settles when the cache writes are done: why (part of) the output was not cached, or null. The
   * load succeeded either way; post the output first, then wait for this.
   */
  cacheWrite: Promise<string | null>
}

/** The object payloads an output is made of, each a view into a buffer it may transfer. */
interface PayloadSet {
  payloads: { objectId: string; bytes: Uint8Array }[]
  bytes: number
}

/** Fetches a bundle of `objectIds` (empty: all) of an output and splits it into payloads. */
async function fetchPayloads(
  request: LoadRequest,
  objectIds: readonly string[],
  context: LoaderContext,
  signal: AbortSignal | undefined,
): Promise<PayloadSet> {
  const outputNo = request.key.outputNo
  const token = context.accessToken !== undefined ? context.accessToken : request.source.accessToken
  let response: Response
  try {
    response = await context.fetch(buildBundleUrl(request.source, request.dataset, objectIds), {
      headers: token ? { Authorization: `Bearer ${token}` } : {},
      signal,
    })
  } catch (error) {
    if (isAbortError(error)) throw error
    throw new LoadError(
      'network',
      outputNo,
      `Output ${outputNo} could not be loaded: the server could not be reached.`,
    )
  }
  if (response.status === 404) {
    await response.body?.cancel().catch(() => undefined)
    throw new LoadError('not_found', outputNo, `Output ${outputNo} was not found on the server.`)
  }
  if (response.status === 401 || response.status === 403) {
    await response.body?.cancel().catch(() => undefined)
    throw new LoadError('forbidden', outputNo, `You do not have access to output ${outputNo}.`)
  }
  if (!response.ok) {
    await response.body?.cancel().catch(() => undefined)
    throw new LoadError(
      'http',
      outputNo,
      `Output ${outputNo} could not be loaded (the server answered ${response.status}).`,
    )
  }
  let bytes: Uint8Array
  try {
    bytes = await readResponseBytes(response, context.pool, signal)
  } catch (error) {
    if (isAbortError(error)) throw error
    throw new LoadError(
      'network',
      outputNo,
      `Output ${outputNo} could not be loaded: the download was interrupted.`,
    )
  }
  const entries = readBundle(bytes).filter(
    (entry) => entry.outputNo === outputNo && entry.dataset === request.dataset,
  )
  const wanted = objectIds.length > 0 ? objectIds : entries.map((entry) => entry.objectId)
  const payloads = wanted.map((objectId) => {
    const entry = entries.find((candidate) => candidate.objectId === objectId)
    if (entry === undefined) {
      throw new LoadError(
        'missing_object',
        outputNo,
        `Output ${outputNo} has no object "${objectId}" in its ${request.dataset} data.`,
      )
    }
    return { objectId, bytes: entry.bytes }
  })
  return { payloads, bytes: bytes.length }
}

function cacheKeyOf(key: OutputKey, dataset: WrittenDataset, objectId: string): OutputCacheKey {
  return {
    simulationId: key.simulationId,
    runId: key.runId,
    outputNo: key.outputNo,
    objectId,
    dataset,
    formatVersion: CACHE_FORMAT_VERSION,
  }
}

/** One buffer holding the chunks: the chunk itself when it owns its buffer, else a pooled copy. */
function joinChunks(chunks: readonly Uint8Array[], pool: BufferPool): Uint8Array {
  const only = chunks.length === 1 ? chunks[0]! : null
  if (only !== null && only.byteOffset === 0 && only.byteLength === only.buffer.byteLength) {
    return only
  }
  const total = chunks.reduce((sum, chunk) => sum + chunk.length, 0)
  const joined = new Uint8Array(pool.acquire(total), 0, total)
  let offset = 0
  for (const chunk of chunks) {
    joined.set(chunk, offset)
    offset += chunk.length
  }
  return joined
}

/** Ids of every object of an output, when the cache knows them. */
async function readCachedObjectList(
  request: LoadRequest,
  cache: OutputCache,
): Promise<string[] | null> {
  const chunks = await cache.get(cacheKeyOf(request.key, request.dataset, OBJECT_LIST_ID))
  if (chunks === null) return null
  try {
    const text = new TextDecoder().decode(
      joinChunks(chunks, { acquire: (n) => new ArrayBuffer(n) } as BufferPool),
    )
    const ids: unknown = JSON.parse(text)
    return Array.isArray(ids) && ids.every((id) => typeof id === 'string') ? ids : null
  } catch {
    return null
  }
}

/** Cached payloads of the objects, by id (validated later, when read). */
async function readCachedPayloads(
  request: LoadRequest,
  objectIds: readonly string[],
  context: LoaderContext,
): Promise<Map<string, Uint8Array>> {
  const found = new Map<string, Uint8Array>()
  let read: (Uint8Array[] | null)[]
  try {
    // All of them at once (IndexedDB: overlapping readonly transactions).
    read = await context.cache.getMany(
      objectIds.map((objectId) => cacheKeyOf(request.key, request.dataset, objectId)),
    )
  } catch {
    // An unreadable cache is a miss.
    return found
  }
  objectIds.forEach((objectId, index) => {
    const chunks = read[index]
    if (chunks !== null && chunks !== undefined)
      found.set(objectId, joinChunks(chunks, context.pool))
  })
  return found
}

/** Reads one payload and checks it is the object asked for. */
function readPayload(request: LoadRequest, objectId: string, bytes: Uint8Array): ObjectView {
  const view = readObjectStream(bytes)
  const { meta } = view
  if (
    meta.objectId !== objectId ||
    meta.outputNo !== request.key.outputNo ||
    meta.dataset !== request.dataset
  ) {
    throw new OutputFormatError(
      'corrupt',
      `expected object ${objectId} of output ${request.key.outputNo} (${request.dataset}), got ${meta.objectId} of output ${meta.outputNo} (${meta.dataset})`,
    )
  }
  return view
}

/**
 * Loads the objects of one output as object views: from the cache where it has them (a cached
 * payload that no longer reads is refetched), the rest from the server, which are then written to
 * the cache. Views are in request order (or bundle order when every object was asked for).
 */
export async function loadObjectViews(
  request: LoadRequest,
  context: LoaderContext,
  signal?: AbortSignal,
): Promise<{
  views: ObjectView[]
  fromCache: boolean
  bytes: number
  decodeMs: number
  cacheWrite: Promise<string | null>
}> {
  const now = context.now ?? (() => performance.now())
  const outputNo = request.key.outputNo
  try {
    signal?.throwIfAborted()
    const listed =
      request.objectIds.length > 0
        ? request.objectIds
        : await readCachedObjectList(request, context.cache).catch(() => null)
    const cached =
      listed === null
        ? new Map<string, Uint8Array>()
        : await readCachedPayloads(request, listed, context)
    signal?.throwIfAborted()
    const views = new Map<string, ObjectView>()
    let decodeMs = 0
    let bytes = 0
    for (const [objectId, payload] of cached) {
      const start = now()
      try {
        views.set(objectId, readPayload(request, objectId, payload))
        bytes += payload.length
      } catch {
        // A stale or damaged entry: fetch it again.
      }
      decodeMs += now() - start
    }
    const missing = listed === null ? null : listed.filter((objectId) => !views.has(objectId))
    let order = listed
    let cacheWrite: Promise<string | null> = Promise.resolve(null)
    if (missing === null || missing.length > 0) {
      const fetched = await fetchPayloads(request, missing ?? [], context, signal)
      bytes += fetched.bytes
      const start = now()
      const fresh = fetched.payloads.map(({ objectId, bytes: payload }) => ({
        objectId,
        payload,
        view: readPayload(request, objectId, payload),
      }))
      decodeMs += now() - start
      for (const { objectId, view } of fresh) views.set(objectId, view)
      order ??= fresh.map((entry) => entry.objectId)
      cacheWrite = writeToCache(request, fresh, missing === null ? order : null, context.cache)
    }
    return {
      views: (order ?? []).map((objectId) => views.get(objectId)!),
      fromCache: missing !== null && missing.length === 0,
      bytes,
      decodeMs,
      cacheWrite,
    }
  } catch (error) {
    throw toLoadError(outputNo, error)
  }
}

/**
 * Writes fetched payloads (and the object list, when every object was fetched) to the cache. The
 * cache copies synchronously, so the caller may transfer the buffers once this returns; the
 * writes finish in the background. A full cache skips the write and says why.
 */
function writeToCache(
  request: LoadRequest,
  fresh: readonly { objectId: string; payload: Uint8Array }[],
  objectList: readonly string[] | null,
  cache: OutputCache,
): Promise<string | null> {
  const writes: Promise<void>[] = []
  const put = (objectId: string, bytes: Uint8Array) => {
    try {
      writes.push(cache.put(cacheKeyOf(request.key, request.dataset, objectId), bytes))
    } catch (error) {
      writes.push(Promise.reject(error instanceof Error ? error : new Error(String(error))))
    }
  }
  for (const { objectId, payload } of fresh) put(objectId, payload)
  // The list goes last: it promises that every object it names is cached.
  if (objectList !== null) put(OBJECT_LIST_ID, new TextEncoder().encode(JSON.stringify(objectList)))
  return Promise.allSettled(writes).then((results) => {
    const failure = results.find((result) => result.status === 'rejected')
    if (failure === undefined) return null
    const reason: unknown = failure.reason
    if (isQuotaError(reason)) {
      return `The output cache is full: output ${request.key.outputNo} was loaded but not cached.`
    }
    const detail = reason instanceof Error ? reason.message : String(reason)
    return `Output ${request.key.outputNo} was loaded but could not be cached (${detail}).`
  })
}

/**
 * Loads one output and builds its RenderableOutput: objects' columns as offsets into the buffers
 * the payloads lie in (a fetched bundle's buffer is shared by all its objects), ready to post with
 * `transfer` as the transfer list. Throws {@link LoadError}, or an AbortError when `signal` aborts.
 */
export async function loadRenderableOutput(
  request: LoadRequest,
  context: LoaderContext,
  signal?: AbortSignal,
): Promise<LoadedOutput> {
  const loaded = await loadObjectViews(request, context, signal)
  if (signal?.aborted) throw createAbortError()
  const objects = loaded.views.map((view) => buildRenderableObject(view))
  const timeS = loaded.views[0]?.meta.timeS ?? 0
  const transfer = [...new Set(objects.map((object) => object.buffer))]
  return {
    output: { key: { ...request.key }, timeS, dataset: request.dataset, objects },
    transfer,
    fromCache: loaded.fromCache,
    bytes: loaded.bytes,
    decodeMs: loaded.decodeMs,
    cacheWrite: loaded.cacheWrite,
  }
}
