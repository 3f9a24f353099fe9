import * as Comlink from 'comlink'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { encodeMeshFile } from '../../domain/meshFile.ts'
import { computePartKeyframes, type Movement } from '../../domain/movements.ts'
import { encodePointCloudFile } from '../../domain/pointCloudFile.ts'
import type { DataWorkerApi } from '../protocol.ts'
import { BufferPool } from './bufferPool.ts'
import { NO_OUTPUT_CACHE } from './cache.ts'
import { createDataWorkerApi } from './dataWorker.ts'
import { readBvh } from './bvh.ts'
import { poseAtTrack } from './keyframes.ts'
import { isAbortError } from './scheduler.ts'
import { unitCube } from './testing.ts'

/** A fetch answering from a table of URL → response makers, recording each call's token. */
function createFakeFetch(routes: Record<string, () => Response>) {
  const calls: { url: string; authorization: string | null }[] = []
  const fetch = ((input: string, init?: RequestInit) => {
    const headers = new Headers(init?.headers)
    calls.push({ url: input, authorization: headers.get('authorization') })
    const route = routes[input]
    if (init?.signal?.aborted) return Promise.reject(init.signal.reason as Error)
    return Promise.resolve(route === undefined ? new Response('nope', { status: 404 }) : route())
  }) as unknown as typeof globalThis.fetch
  return { fetch, calls }
}

function bytesResponse(bytes: Uint8Array): Response {
  return new Response(bytes.slice(), { headers: { 'content-length': String(bytes.byteLength) } })
}

const spinner: Movement = {
  id: 1,
  partId: 12,
  name: 'rotation 1',
  type: 'rotatory',
  start: 0,
  end: null,
  acc: 0,
  vel: Math.PI,
  virtualMovement: false,
  axis: [0, 0, 1],
  center: [0, 0, 0],
  parents: [],
  followers: [],
} as unknown as Movement

describe('setup data loaders', () => {
  it('fetches a DMSH mesh with the bearer token and builds it for drawing and picking', async () => {
    const { fetch, calls } = createFakeFetch({
      '/api/parts/12/mesh?v=abc': () => bytesResponse(encodeMeshFile(unitCube())),
    })
    const api = createDataWorkerApi({ fetch, cache: NO_OUTPUT_CACHE })
    const mesh = await api.loadSetupMesh({ url: '/api/parts/12/mesh?v=abc', accessToken: 'tok' })
    expect(calls).toEqual([{ url: '/api/parts/12/mesh?v=abc', authorization: 'Bearer tok' }])
    expect(mesh.triangleCount).toBe(12)
    expect(mesh.bounds).toEqual({ min: [0, 0, 0], max: [1, 1, 1] })
    expect(readBvh(mesh.bvh!).triangleCount).toBe(12)
    expect(mesh.defectSegments.length).toBe(0)
    // A token pushed to the worker wins over the request's (it is fresher).
    api.setAccessToken('fresh')
    await api.loadSetupMesh({ url: '/api/parts/12/mesh?v=abc', accessToken: 'stale' })
    expect(calls[1]!.authorization).toBe('Bearer fresh')
  })

  it('says why a mesh could not be loaded: missing, refused, unreadable', async () => {
    const { fetch } = createFakeFetch({
      '/forbidden': () => new Response(null, { status: 403 }),
      '/garbage': () => bytesResponse(new Uint8Array(32)),
      '/broken': () => new Response(null, { status: 500 }),
    })
    const api = createDataWorkerApi({ fetch, cache: NO_OUTPUT_CACHE })
    const load = (url: string) => api.loadSetupMesh({ url, accessToken: null })
    await expect(load('/missing')).rejects.toThrow('The mesh was not found on the server.')
    await expect(load('/forbidden')).rejects.toThrow('You do not have access to the mesh.')
    await expect(load('/garbage')).rejects.toThrow('The mesh could not be read: Not a mesh file.')
    await expect(load('/broken')).rejects.toThrow(
      'The mesh could not be loaded (the server answered 500).',
    )
  })

  it('decodes a DPCL point cloud and gives its body buffer back to the pool', async () => {
    const points = Array.from({ length: 3000 }, (_, i) => (i % 7) - 3)
    const { fetch } = createFakeFetch({
      '/api/parts/3/pointcloud': () => bytesResponse(encodePointCloudFile(points)),
    })
    const pool = new BufferPool()
    const api = createDataWorkerApi({ fetch, cache: NO_OUTPUT_CACHE, pool })
    const cloud = await api.loadSetupPointCloud({
      url: '/api/parts/3/pointcloud',
      accessToken: null,
    })
    expect(cloud.count).toBe(1000)
    // The same points, reordered (stratified).
    const triples = (values: ArrayLike<number>) =>
      Array.from({ length: values.length / 3 }, (_, i) =>
        [values[i * 3], values[i * 3 + 1], values[i * 3 + 2]].join(),
      ).sort()
    expect(triples(cloud.positions)).toEqual(triples(points))
    expect(pool.retainedBytes()).toBeGreaterThan(0)
  })

  it('orders a point cloud so that a prefix covers it evenly (the subset drawn while moving)', async () => {
    // A 100 × 100 × 10 lattice in lattice order: its first tenth would be one slab of it.
    const points: number[] = []
    for (let k = 0; k < 10; k++)
      for (let j = 0; j < 100; j++) for (let i = 0; i < 100; i++) points.push(i, j, k)
    const { fetch } = createFakeFetch({
      '/api/parts/4/pointcloud': () => bytesResponse(encodePointCloudFile(points)),
    })
    const api = createDataWorkerApi({ fetch, cache: NO_OUTPUT_CACHE })
    const cloud = await api.loadSetupPointCloud({
      url: '/api/parts/4/pointcloud',
      accessToken: null,
    })
    const prefix = cloud.positions.subarray(0, 10_000 * 3)
    const layers = new Set<number>()
    const quadrants = new Set<string>()
    for (let i = 0; i < prefix.length; i += 3) {
      layers.add(prefix[i + 2]!)
      quadrants.add(`${Math.floor(prefix[i]! / 50)},${Math.floor(prefix[i + 1]! / 50)}`)
    }
    expect(layers.size).toBe(10)
    expect(quadrants.size).toBe(4)
  })

  it('validates keyframes and samples them into a track the render worker only looks up', async () => {
    const result = computePartKeyframes({ id: 12, name: 'Rotor' }, [spinner], { endTime: 2 })
    const { fetch } = createFakeFetch({
      '/api/parts/12/movements/keyframes': () => Response.json(result),
      '/api/parts/13/movements/keyframes': () => Response.json([{ time: 0 }]),
    })
    const api = createDataWorkerApi({ fetch, cache: NO_OUTPUT_CACHE })
    const track = await api.loadKeyframeTrack({
      url: '/api/parts/12/movements/keyframes',
      accessToken: null,
      endTimeS: 2,
      stepS: 0.01,
    })
    expect(track.keyframeCount).toBe(result.keyframes.length)
    expect(track.sampleCount).toBe(201)
    // Half a turn after one second: (1, 0, 0) has gone to (−1, 0, 0).
    const pose = poseAtTrack(track, 1)
    const [x, y, z, w] = pose.rotation
    expect(Math.abs(z)).toBeCloseTo(1, 3)
    expect(Math.hypot(x, y, w)).toBeCloseTo(0, 3)
    await expect(
      api.loadKeyframeTrack({
        url: '/api/parts/13/movements/keyframes',
        accessToken: null,
        endTimeS: 2,
        stepS: 0.01,
      }),
    ).rejects.toThrow('Movements could not be interpreted.')
  })

  it('cancels a named setup fetch', async () => {
    let release: (() => void) | null = null
    const fetch = ((_url: string, init?: RequestInit) =>
      new Promise<Response>((resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal!.reason as Error))
        release = () => resolve(bytesResponse(encodeMeshFile(unitCube())))
      })) as unknown as typeof globalThis.fetch
    const api = createDataWorkerApi({ fetch, cache: NO_OUTPUT_CACHE })
    const pending = api.loadSetupMesh({ url: '/slow', accessToken: null, requestId: 'mesh-1' })
    api.cancel('mesh-1')
    const error = await pending.catch((e: unknown) => e)
    expect(isAbortError(error)).toBe(true)
    expect(release).not.toBeNull()
  })
})

describe('workers/data.worker.ts setup calls over a real MessagePort', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it('returns the mesh to the render side with its buffers transferred', async () => {
    const { api } = await import('../../workers/data.worker.ts')
    const { fetch } = createFakeFetch({
      '/api/meshes/4/mesh': () => bytesResponse(encodeMeshFile(unitCube())),
    })
    vi.stubGlobal('fetch', fetch)
    const channel = new MessageChannel()
    api.connectRenderPort(channel.port1)
    const remote = Comlink.wrap<DataWorkerApi>(channel.port2)
    try {
      const mesh = await remote.loadSetupMesh({ url: '/api/meshes/4/mesh', accessToken: null })
      expect(mesh.positions).toBeInstanceOf(Float32Array)
      expect(mesh.indices.length).toBe(36)
      expect(readBvh(mesh.bvh!).nodeCount).toBeGreaterThan(0)
    } finally {
      remote[Comlink.releaseProxy]()
      channel.port1.close()
      channel.port2.close()
    }
  })
})
