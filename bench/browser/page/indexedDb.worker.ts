/**
 * IndexedDB put/get off the main thread, as the data workers do it: raw idb (the payload in 64 MB
 * ArrayBuffer chunks, one transaction) and the product's IndexedDbOutputCache.
 */
import { openDB } from 'idb'
import { IndexedDbOutputCache } from '../../../engine/cache/outputCache.ts'
import { MAX_CHUNK_BYTES } from '../../../engine/cache/outputCacheStore.ts'
import type { IndexedDbBenchRequest, IndexedDbBenchResult } from './api.ts'

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<IndexedDbBenchRequest>) => void) | null
  postMessage(message: unknown): void
}

/** Pseudo-random bytes (xorshift): storage must not get away with compressing zeros. */
function createPayload(sizeBytes: number): Uint8Array {
  const bytes = new Uint8Array(sizeBytes)
  const words = new Uint32Array(bytes.buffer, 0, sizeBytes >> 2)
  let state = 0x9e3779b9
  for (let index = 0; index < words.length; index++) {
    state ^= state << 13
    state ^= state >>> 17
    state ^= state << 5
    words[index] = state >>> 0
  }
  return bytes
}

async function measure(request: IndexedDbBenchRequest): Promise<IndexedDbBenchResult> {
  const payload = createPayload(request.sizeBytes)
  const result: IndexedDbBenchResult = {
    rawPutMs: [],
    rawGetMs: [],
    cachePutMs: [],
    cacheGetMs: [],
    memcpyMs: [],
  }
  const target = new Uint8Array(request.sizeBytes)
  target.set(payload)
  for (let run = 0; run < request.runs; run++) {
    const startMs = performance.now()
    target.set(payload)
    result.memcpyMs.push(performance.now() - startMs)
  }

  const database = await openDB('dive-bench-raw', 1, {
    upgrade(upgrading) {
      upgrading.createObjectStore('chunks')
    },
  })
  const chunks: ArrayBuffer[] = []
  for (let start = 0; start < payload.length; start += MAX_CHUNK_BYTES) {
    chunks.push(payload.slice(start, Math.min(payload.length, start + MAX_CHUNK_BYTES)).buffer)
  }
  const cache = new IndexedDbOutputCache({ databaseName: 'dive-bench-cache' })
  // Raw and cache runs alternate, so a busy machine slows both alike.
  for (let run = 0; run < request.runs; run++) {
    await database.clear('chunks')
    const putStartMs = performance.now()
    const writing = database.transaction('chunks', 'readwrite')
    await Promise.all([
      ...chunks.map((chunk, index) => writing.store.put(chunk, index)),
      writing.done,
    ])
    result.rawPutMs.push(performance.now() - putStartMs)
    const getStartMs = performance.now()
    const read = (await database.getAll('chunks')) as ArrayBuffer[]
    result.rawGetMs.push(performance.now() - getStartMs)
    if (read.reduce((sum, chunk) => sum + chunk.byteLength, 0) !== payload.length) {
      throw new Error('The raw IndexedDB read returned the wrong size.')
    }

    const key = {
      simulationId: 1,
      runId: 1,
      outputNo: run,
      objectId: 'fluid-0',
      dataset: 'full',
      formatVersion: '1.0',
    } as const
    await cache.dropStaleRuns(1, -1)
    const cachePutStartMs = performance.now()
    await cache.put(key, payload)
    result.cachePutMs.push(performance.now() - cachePutStartMs)
    const cacheGetStartMs = performance.now()
    const cached = await cache.get(key)
    result.cacheGetMs.push(performance.now() - cacheGetStartMs)
    if (cached?.reduce((sum, chunk) => sum + chunk.byteLength, 0) !== payload.length) {
      throw new Error('The output cache returned the wrong size.')
    }
  }
  await database.clear('chunks')
  database.close()
  await cache.dropStaleRuns(1, -1)
  await cache.close()
  return result
}

scope.onmessage = (event) => {
  measure(event.data).then(
    (result) => scope.postMessage({ result }),
    (error: unknown) =>
      scope.postMessage({ error: error instanceof Error ? error.message : String(error) }),
  )
}
