/**
 * The data worker's setup calls (SetupDataWorkerApi): fetch a part's or a mesh's DMSH bytes, a
 * part's DPCL point cloud or its movement keyframes with the bearer token (as output bundles are
 * fetched: the pushed token wins over the request's, the body lands in a pooled buffer), decode
 * them and build what the render worker draws and picks with (engine/data/setupGeometry.ts,
 * engine/data/keyframes.ts). Every failure is a SetupLoadError with a message for the log.
 */
import * as v from 'valibot'
import { decodeMeshFile, MeshFileError } from '../../domain/meshFile.ts'
import { KeyframesResultSchema, MOVEMENT_MESSAGES } from '../../domain/movements.ts'
import { computeStratifiedOrder } from '../../domain/output/ordering.ts'
import { decodePointCloudFile, PointCloudFileError } from '../../domain/pointCloudFile.ts'
import type {
  KeyframeTrack,
  SetupFetchRequest,
  SetupMeshData,
  SetupPointCloudData,
} from '../setupProtocol.ts'
import type { BufferPool } from './bufferPool.ts'
import { sampleKeyframeTrack } from './keyframes.ts'
import { readResponseBytes } from './loader.ts'
import { isAbortError } from './scheduler.ts'
import { buildSetupMesh } from './setupGeometry.ts'

/** What the setup loaders need (the data worker's fetch, pool and pushed token). */
export interface SetupLoaderContext {
  fetch: typeof fetch
  pool: BufferPool
  /** Overrides the request's token when set (the client pushes fresh ones). */
  accessToken?: string | null
}

/** A setup resource that could not be loaded, with a message for the log. */
export class SetupLoadError extends Error {
  override name = 'SetupLoadError'
}

/** What is fetched, for the messages: 'mesh', 'point cloud', 'movements'. */
type Resource = 'mesh' | 'point cloud' | 'movements'

async function fetchResource(
  request: SetupFetchRequest,
  resource: Resource,
  context: SetupLoaderContext,
  signal: AbortSignal | undefined,
): Promise<Response> {
  const token = context.accessToken !== undefined ? context.accessToken : request.accessToken
  let response: Response
  try {
    response = await context.fetch(request.url, {
      headers: token ? { Authorization: `Bearer ${token}` } : {},
      signal,
    })
  } catch (error) {
    if (isAbortError(error)) throw error
    throw new SetupLoadError(
      `The ${resource} could not be loaded: the server could not be reached.`,
    )
  }
  if (response.ok) return response
  await response.body?.cancel().catch(() => undefined)
  if (response.status === 404)
    throw new SetupLoadError(`The ${resource} was not found on the server.`)
  if (response.status === 401 || response.status === 403)
    throw new SetupLoadError(`You do not have access to the ${resource}.`)
  throw new SetupLoadError(
    `The ${resource} could not be loaded (the server answered ${response.status}).`,
  )
}

/** The body's bytes (in a pooled buffer when its length is known), then `decode`, then the buffer back. */
async function fetchDecoded<T>(
  request: SetupFetchRequest,
  resource: Resource,
  context: SetupLoaderContext,
  signal: AbortSignal | undefined,
  decode: (bytes: Uint8Array) => T,
): Promise<T> {
  const response = await fetchResource(request, resource, context, signal)
  let bytes: Uint8Array
  try {
    bytes = await readResponseBytes(response, context.pool, signal)
  } catch (error) {
    if (isAbortError(error)) throw error
    throw new SetupLoadError(`The ${resource} could not be loaded: the download was interrupted.`)
  }
  try {
    // The decoders copy into fresh arrays, so the body's buffer can go back to the pool at once.
    return decode(bytes)
  } finally {
    context.pool.release(bytes.buffer as ArrayBuffer)
  }
}

/** GET a DMSH mesh (…/parts/{id}/mesh or …/meshes/{id}/mesh) and build it for drawing and picking. */
export async function loadSetupMesh(
  request: SetupFetchRequest,
  context: SetupLoaderContext,
  signal?: AbortSignal,
): Promise<SetupMeshData> {
  const mesh = await fetchDecoded(request, 'mesh', context, signal, (bytes) => {
    try {
      return decodeMeshFile(bytes)
    } catch (error) {
      if (error instanceof MeshFileError)
        throw new SetupLoadError(`The mesh could not be read: ${error.message}`)
      throw error
    }
  })
  signal?.throwIfAborted()
  return buildSetupMesh(mesh)
}

/** GET a part's DPCL point cloud (…/parts/{id}/pointcloud), in a stratified order. */
export async function loadSetupPointCloud(
  request: SetupFetchRequest,
  context: SetupLoaderContext,
  signal?: AbortSignal,
): Promise<SetupPointCloudData> {
  const cloud = await fetchDecoded(request, 'point cloud', context, signal, (bytes) => {
    try {
      return decodePointCloudFile(bytes)
    } catch (error) {
      if (error instanceof PointCloudFileError)
        throw new SetupLoadError(`The point cloud could not be read: ${error.message}`)
      throw error
    }
  })
  signal?.throwIfAborted()
  return stratifyPointCloud(cloud)
}

/**
 * The points reordered so that every prefix covers the cloud uniformly (domain/output/ordering.ts,
 * the order outputs are written in): while the camera moves, a big cloud draws a prefix.
 */
export function stratifyPointCloud(cloud: SetupPointCloudData): SetupPointCloudData {
  const { positions, count } = cloud
  const x = new Float32Array(count)
  const y = new Float32Array(count)
  const z = new Float32Array(count)
  for (let i = 0; i < count; i++) {
    x[i] = positions[i * 3]!
    y[i] = positions[i * 3 + 1]!
    z[i] = positions[i * 3 + 2]!
  }
  const order = computeStratifiedOrder(x, y, z)
  const ordered = new Float32Array(count * 3)
  for (let i = 0; i < count; i++) {
    const from = order[i]!
    ordered[i * 3] = x[from]!
    ordered[i * 3 + 1] = y[from]!
    ordered[i * 3 + 2] = z[from]!
  }
  return { positions: ordered, count }
}

/**
 * GET a part's keyframes (…/parts/{id}/movements/keyframes), validated with KeyframesResultSchema
 * ('Movements could not be interpreted.' otherwise), sampled every `stepS` up to `endTimeS`.
 */
export async function loadKeyframeTrack(
  request: SetupFetchRequest & { endTimeS: number; stepS: number },
  context: SetupLoaderContext,
  signal?: AbortSignal,
): Promise<KeyframeTrack> {
  const response = await fetchResource(request, 'movements', context, signal)
  let body: unknown
  try {
    body = await response.json()
  } catch (error) {
    if (isAbortError(error)) throw error
    throw new SetupLoadError(MOVEMENT_MESSAGES.notInterpretable)
  }
  const parsed = v.safeParse(KeyframesResultSchema, body)
  if (!parsed.success) throw new SetupLoadError(MOVEMENT_MESSAGES.notInterpretable)
  return sampleKeyframeTrack(parsed.output, request.endTimeS, request.stepS)
}

/** The buffers of a point cloud or a track to transfer with it. */
export function setupTransferables(data: SetupPointCloudData | KeyframeTrack): ArrayBuffer[] {
  if ('rotations' in data)
    return [data.positions.buffer as ArrayBuffer, data.rotations.buffer as ArrayBuffer]
  return [data.positions.buffer as ArrayBuffer]
}
