/**
 * Arrow bytes → GPU-ready buffers for a 5M-particle output. Without interleave the buffers are the
 * bundle itself (columns are views), so the target is a tenth of a memcpy of the bundle; a path that
 * writes bytes (joining cached chunks, interleaving positions) may take twice a memcpy of what it writes.
 */
import { readBundle, readObjectStream } from '../../domain/output/reader.ts'
import { MAX_CHUNK_BYTES } from '../../engine/cache/outputCacheStore.ts'
import { BufferPool } from '../../engine/data/bufferPool.ts'
import { NO_OUTPUT_CACHE, formatCacheKey, type OutputCache } from '../../engine/data/cache.ts'
import {
  buildRenderableObject,
  CACHE_FORMAT_VERSION,
  loadRenderableOutput,
} from '../../engine/data/loader.ts'
import type { LoadRequest } from '../../engine/protocol.ts'
import { allocateTouched, judgeRatio, measureMemcpyMs, timeRuns } from '../lib/measure.ts'
import { buildSyntheticBundle, formatCount } from '../lib/synthetic.ts'
import type { BenchCase, BenchContext } from '../lib/types.ts'

const FULL_PARTICLES = 5_000_000
const QUICK_PARTICLES = 200_000

function particlesFor(context: BenchContext): number {
  return context.quick ? QUICK_PARTICLES : FULL_PARTICLES
}

/** The data worker's decode: every entry of a bundle read and made a RenderableObject in place. */
function decodeBundle(bundle: Uint8Array): number {
  let particleCount = 0
  for (const entry of readBundle(bundle)) {
    particleCount += buildRenderableObject(readObjectStream(entry.bytes)).particleCount
  }
  return particleCount
}

/** A cache that hands out fixed chunks without copying (the copy IndexedDB makes is its own case). */
function createChunkCache(chunksById: Map<string, Uint8Array[]>): OutputCache {
  return {
    ...NO_OUTPUT_CACHE,
    get: (key) => Promise.resolve(chunksById.get(formatCacheKey(key)) ?? null),
  }
}

async function runDecode(context: BenchContext): Promise<void> {
  const particles = particlesFor(context)
  const label = formatCount(particles)
  const { bundle, buildMs } = buildSyntheticBundle(particles)
  context.log(
    `synthetic ${label} bundle: ${(bundle.byteLength / 1e6).toFixed(1)} MB, built in ${buildMs.toFixed(0)} ms`,
  )
  // Shape check before timing: the fluid has every particle, x is a view into the bundle.
  const fluid = readBundle(bundle).find((entry) => entry.objectId === 'fluid-0')
  const fluidView = fluid ? readObjectStream(fluid.bytes) : null
  if (fluidView?.rowCount !== particles || fluidView.columns.x?.buffer !== bundle.buffer) {
    throw new Error('The synthetic bundle does not have the expected fluid, viewed in place.')
  }
  const bundleMemcpyMs = measureMemcpyMs(bundle.byteLength)
  if (decodeBundle(bundle) < particles) throw new Error('The decode lost particles.')
  const decode = await timeRuns(() => decodeBundle(bundle), { runs: 9, warmups: 2 })
  context.report({
    case: `node/decode.${label}.noInterleave`,
    value: decode.medianMs,
    unit: 'ms',
    ...judgeRatio(decode.medianMs, bundleMemcpyMs, 0.1, 'memcpy of the bundle'),
  })

  // Every payload read back from IndexedDB in 64 MB chunks: the loader joins them into pooled
  // buffers (one copy) and decodes (engine/data/loader.ts, the product path).
  const { written } = buildSyntheticBundle(particles)
  const chunksById = new Map<string, Uint8Array[]>()
  const key = { simulationId: 1, runId: 1, outputNo: 0 }
  let payloadBytes = 0
  for (const object of written.full.values()) {
    const chunks: Uint8Array[] = []
    for (let start = 0; start < object.bytes.byteLength; start += MAX_CHUNK_BYTES) {
      chunks.push(
        object.bytes.slice(start, Math.min(object.bytes.byteLength, start + MAX_CHUNK_BYTES)),
      )
    }
    payloadBytes += object.bytes.byteLength
    const cacheKey = {
      ...key,
      objectId: object.objectId,
      dataset: 'full',
      formatVersion: CACHE_FORMAT_VERSION,
    } as const
    chunksById.set(formatCacheKey(cacheKey), chunks)
  }
  const request: LoadRequest = {
    requestId: 'bench',
    key,
    source: { bundleUrl: 'http://bench.invalid/bundle', accessToken: null },
    dataset: 'full',
    objectIds: [...written.full.keys()],
    estimatedBytes: payloadBytes,
    priority: 'shown',
  }
  const pool = new BufferPool({ maxRetainedBytes: 2 * payloadBytes })
  const loaderContext = {
    fetch: () => Promise.reject(new Error('The bench serves every payload from the cache.')),
    cache: createChunkCache(chunksById),
    pool,
  }
  const fromCache = await timeRuns(
    async () => {
      const loaded = await loadRenderableOutput(request, loaderContext)
      if (!loaded.fromCache) throw new Error('The load did not come from the cache.')
      // Recycled as the render worker hands buffers back, so the next load reuses touched memory.
      for (const buffer of loaded.transfer) pool.release(buffer)
    },
    { runs: 5, warmups: 2 },
  )
  context.report({
    case: `node/decode.${label}.fromCacheChunks`,
    value: fromCache.medianMs,
    unit: 'ms',
    ...judgeRatio(
      fromCache.medianMs,
      measureMemcpyMs(payloadBytes),
      2,
      'memcpy of the written bytes',
    ),
  })

  // Positions interleaved (x y z x y z …) for a renderer that wants one vec3 attribute.
  const { x, y, z } = fluidView.columns
  if (!x || !y || !z) throw new Error('The fluid has no positions.')
  const interleaved = new Float32Array(allocateTouched(particles * 12).buffer)
  const interleave = await timeRuns(
    () => {
      for (let row = 0, out = 0; row < particles; row++, out += 3) {
        interleaved[out] = x[row] as number
        interleaved[out + 1] = y[row] as number
        interleaved[out + 2] = z[row] as number
      }
    },
    { runs: 5 },
  )
  context.report({
    case: `node/decode.${label}.interleaveXyz`,
    value: interleave.medianMs,
    unit: 'ms',
    ...judgeRatio(
      interleave.medianMs,
      measureMemcpyMs(particles * 12),
      2,
      'memcpy of the written bytes',
    ),
  })
}

export const cases: BenchCase[] = [
  {
    name: 'node/decode',
    description:
      'Arrow bundle of a 5M-particle output → RenderableObjects: zero-copy decode (<= 0.1 x memcpy of the bundle); the loader joining 64 MB cache chunks into pooled buffers, and positions interleaved (<= 2 x memcpy of the written bytes).',
    run: runDecode,
  },
]
