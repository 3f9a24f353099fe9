/**
 * Arrow bytes → GPU-ready buffers for a 5M-particle output. Without interleave the buffers are the
 * bundle itself (columns are views), so the target is a tenth of a memcpy of the bundle; a path that
 * writes bytes (joining cached chunks, interleaving positions) may take twice a memcpy of what it writes.
 */
import { readBundle, readObjectStream } from '../../domain/output/reader.ts'
import { MAX_CHUNK_BYTES } from '../../engine/cache/outputCache.ts'
import { allocateTouched, judgeRatio, measureMemcpyMs, timeRuns } from '../lib/measure.ts'
import { buildSyntheticBundle, formatCount } from '../lib/synthetic.ts'
import type { BenchCase, BenchContext } from '../lib/types.ts'

const FULL_PARTICLES = 5_000_000
const QUICK_PARTICLES = 200_000

function particlesFor(context: BenchContext): number {
  return context.quick ? QUICK_PARTICLES : FULL_PARTICLES
}

/** Every entry of a bundle read, every column viewed in place; returns the viewed bytes. */
function decodeBundle(bundle: Uint8Array): number {
  let viewedBytes = 0
  for (const entry of readBundle(bundle)) {
    const view = readObjectStream(entry.bytes)
    for (const column of Object.values(view.columns)) viewedBytes += column.byteLength
  }
  return viewedBytes
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
  const decode = await timeRuns(() => decodeBundle(bundle), { runs: 9, warmups: 2 })
  context.report({
    case: `node/decode.${label}.noInterleave`,
    value: decode.medianMs,
    unit: 'ms',
    ...judgeRatio(decode.medianMs, bundleMemcpyMs, 0.1, 'memcpy of the bundle'),
  })

  // A payload read back from IndexedDB in 64 MB chunks: joined into one (pooled, touched) buffer.
  const chunks: Uint8Array[] = []
  for (let start = 0; start < bundle.byteLength; start += MAX_CHUNK_BYTES) {
    chunks.push(bundle.slice(start, Math.min(bundle.byteLength, start + MAX_CHUNK_BYTES)))
  }
  const joined = allocateTouched(bundle.byteLength)
  const join = await timeRuns(
    () => {
      let offset = 0
      for (const chunk of chunks) {
        joined.set(chunk, offset)
        offset += chunk.byteLength
      }
      return decodeBundle(joined)
    },
    { runs: 5 },
  )
  context.report({
    case: `node/decode.${label}.joinChunks`,
    value: join.medianMs,
    unit: 'ms',
    ...judgeRatio(join.medianMs, bundleMemcpyMs, 2, 'memcpy of the written bytes'),
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
      'Arrow bundle of a 5M-particle output → GPU-ready buffers: zero-copy views (<= 0.1 x memcpy of the bundle), joined 64 MB cache chunks and interleaved positions (<= 2 x memcpy of the written bytes).',
    run: runDecode,
  },
]
