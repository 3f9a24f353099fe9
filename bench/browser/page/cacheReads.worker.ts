/**
 * Reads outputs from the product's IndexedDB output cache one after another, as one data worker
 * does (bench/browser/cacheReads.ts): `load` is engine/data/loader.ts's loadRenderableOutput (the
 * object list, the payloads, decode), `payloads` only the read of the payloads (one getMany).
 */
import { IndexedDbOutputCache } from '../../../engine/cache/outputCache.ts'
import { BufferPool } from '../../../engine/data/bufferPool.ts'
import { OBJECT_LIST_ID } from '../../../engine/data/cache.ts'
import { CACHE_FORMAT_VERSION, loadRenderableOutput } from '../../../engine/data/loader.ts'
import type { CacheReadsWorkerRequest, CacheReadsWorkerResult } from './api.ts'

const cache = new IndexedDbOutputCache()
const pool = new BufferPool()

async function readOne(
  request: CacheReadsWorkerRequest,
  output: CacheReadsWorkerRequest['outputs'][number],
): Promise<{ fromCache: boolean; bytes: number }> {
  const key = {
    simulationId: request.simulationId,
    runId: request.runId,
    outputNo: output.outputNo,
  }
  if (request.variant === 'payloads') {
    const keyOf = (objectId: string) => ({
      ...key,
      objectId,
      dataset: 'fast' as const,
      formatVersion: CACHE_FORMAT_VERSION,
    })
    const list = await cache.get(keyOf(OBJECT_LIST_ID))
    if (list === null) return { fromCache: false, bytes: 0 }
    const ids = JSON.parse(new TextDecoder().decode(list[0])) as string[]
    const payloads = await cache.getMany(ids.map(keyOf))
    let bytes = 0
    for (const chunks of payloads) for (const chunk of chunks ?? []) bytes += chunk.length
    return { fromCache: payloads.every((chunks) => chunks !== null), bytes }
  }
  const loaded = await loadRenderableOutput(
    {
      requestId: `cache-read-${output.outputNo}`,
      key,
      source: { bundleUrl: output.bundleUrl, accessToken: null },
      dataset: 'fast',
      objectIds: [],
      estimatedBytes: 0,
      priority: 'playback',
    },
    { fetch: (input, init) => fetch(input, init), cache, pool },
  )
  const cacheError = await loaded.cacheWrite
  if (cacheError !== null) throw new Error(cacheError)
  return { fromCache: loaded.fromCache, bytes: loaded.bytes }
}

self.onmessage = async (event: MessageEvent<CacheReadsWorkerRequest>) => {
  const request = event.data
  try {
    const loadMs: number[] = []
    let fromCache = 0
    let bytes = 0
    for (const output of request.outputs) {
      const startMs = performance.now()
      const read = await readOne(request, output)
      loadMs.push(performance.now() - startMs)
      if (read.fromCache) fromCache++
      bytes += read.bytes
    }
    await cache.close()
    const result: CacheReadsWorkerResult = { loadMs, fromCache, bytes }
    self.postMessage({ result })
  } catch (error) {
    self.postMessage({ error: error instanceof Error ? error.message : String(error) })
  }
}
