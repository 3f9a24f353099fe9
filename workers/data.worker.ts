/**
 * A data worker: a Comlink shell over engine/data/dataWorker.ts (all logic lives there). It
 * supplies the browser pieces: fetch, the output cache, and Comlink on the render port (the render
 * worker calls this API over that port and receives the outputs there as transferables).
 */
import * as Comlink from 'comlink'
import { IndexedDbOutputCache } from '../engine/cache/outputCache.ts'
import { BufferPool, workerPoolBytes } from '../engine/data/bufferPool.ts'
import { NO_OUTPUT_CACHE } from '../engine/data/cache.ts'
import { createDataWorkerApi } from '../engine/data/dataWorker.ts'
import { setupMeshTransferables } from '../engine/data/setupGeometry.ts'
import { setupTransferables } from '../engine/data/setupLoader.ts'
import { MAX_DATA_WORKERS, type DataWorkerApi } from '../engine/protocol.ts'

const deviceMemory = (globalThis.navigator as { deviceMemory?: number } | undefined)?.deviceMemory

const logic = createDataWorkerApi({
  fetch: (input, init) => fetch(input, init),
  // Idle buffers sit outside the render worker's output budget: each worker keeps its share only.
  pool: new BufferPool({
    maxRetainedBytes: workerPoolBytes(deviceMemory ?? null, MAX_DATA_WORKERS),
  }),
  // Without IndexedDB (Node, some private modes) every load goes to the network. With it, the
  // cache keeps its bytes in OPFS files where this worker has sync access handles.
  cache: typeof indexedDB === 'undefined' ? NO_OUTPUT_CACHE : new IndexedDbOutputCache(),
})

/** The exposed API: exactly DataWorkerApi, on the worker scope (client) and on the render port. */
export const api: DataWorkerApi = {
  ...logic,
  connectRenderPort(port) {
    logic.connectRenderPort(port)
    Comlink.expose(api, port)
  },
  // Setup geometry goes back to the caller (the render worker) transferred, never copied.
  loadSetupMesh: async (request) => {
    const mesh = await logic.loadSetupMesh(request)
    return Comlink.transfer(mesh, setupMeshTransferables(mesh))
  },
  loadSetupPointCloud: async (request) => {
    const cloud = await logic.loadSetupPointCloud(request)
    return Comlink.transfer(cloud, setupTransferables(cloud))
  },
  computeClipMasks: async (request) => {
    const masks = await logic.computeClipMasks(request)
    const buffers = masks.flatMap((mask) =>
      mask.inside === null ? [] : [mask.inside.buffer as ArrayBuffer],
    )
    return Comlink.transfer(masks, buffers)
  },
  loadKeyframeTrack: async (request) => {
    const track = await logic.loadKeyframeTrack(request)
    return Comlink.transfer(track, setupTransferables(track))
  },
}

// Only inside a worker: importing this module in Node (the contract test) exposes nothing.
const scope = globalThis as { WorkerGlobalScope?: abstract new () => unknown }
if (scope.WorkerGlobalScope !== undefined && globalThis instanceof scope.WorkerGlobalScope) {
  Comlink.expose(api)
}
