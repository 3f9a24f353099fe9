/**
 * The bench's data worker: workers/data.worker.ts with the IndexedDB output cache plugged in, so
 * warm-cache cases measure the product's cache (the shell is the same Comlink wiring).
 */
import * as Comlink from 'comlink'
import { IndexedDbOutputCache } from '../../../engine/cache/outputCache.ts'
import { createDataWorkerApi } from '../../../engine/data/dataWorker.ts'
import type { DataWorkerApi } from '../../../engine/protocol.ts'

const logic = createDataWorkerApi({
  fetch: (input, init) => fetch(input, init),
  cache: new IndexedDbOutputCache(),
})

const api: DataWorkerApi = {
  ...logic,
  connectRenderPort(port) {
    logic.connectRenderPort(port)
    Comlink.expose(api, port)
  },
}

Comlink.expose(api)
