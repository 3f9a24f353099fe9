import 'fake-indexeddb/auto'
import { describe, expect, it } from 'vitest'
import { readObjectStream } from '../../domain/output/reader.ts'
import { IndexedDbOutputCache } from '../cache/outputCache.ts'
import { BufferPool } from './bufferPool.ts'
import { loadRenderableOutput } from './loader.ts'
import { createFakeServer, createLoadRequest, writeSyntheticOutputs } from './testing.ts'

const outputs = writeSyntheticOutputs(1)

describe('loading through the IndexedDB cache', () => {
  it('serves the second load from IndexedDB, in 64 MB-or-smaller chunks joined in a pooled buffer', async () => {
    const server = createFakeServer(outputs)
    const cache = new IndexedDbOutputCache({ databaseName: 'engine-data-test', chunkBytes: 8192 })
    const context = { fetch: server.fetch, cache, pool: new BufferPool() }
    try {
      const first = await loadRenderableOutput(createLoadRequest(0), context)
      expect(await first.cacheWrite).toBeNull()
      const second = await loadRenderableOutput(createLoadRequest(0), context)
      expect(second.fromCache).toBe(true)
      expect(server.calls).toHaveLength(1)
      const fluid = second.output.objects.find((o) => o.objectId === 'fluid-0')!
      const density = fluid.columns.find((c) => c.name === 'density')!
      expect(new Float32Array(fluid.buffer, density.byteOffset, density.length)).toEqual(
        readObjectStream(outputs.get(0)!.full.get('fluid-0')!.bytes).columns.density,
      )
      await cache.dropStaleRuns(5, 10)
      expect((await loadRenderableOutput(createLoadRequest(0), context)).fromCache).toBe(false)
    } finally {
      await cache.close()
    }
  })
})
