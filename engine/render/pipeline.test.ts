/**
 * Across the boundary with the data side: a synthetic output written in the output format, fetched
 * and decoded by the data worker's loader, then drawn by an OutputView — the contract as it runs.
 */
import { BufferAttribute } from 'three'
import { describe, expect, it } from 'vitest'
import { writeBundle } from '../../domain/output/writer.ts'
import { SYNTHETIC_OBJECT_IDS, writeSyntheticOutput } from '../../domain/output/synthetic.ts'
import { BufferPool } from '../data/bufferPool.ts'
import { MemoryOutputCache } from '../data/cache.ts'
import { loadRenderableOutput } from '../data/loader.ts'
import type { LoadRequest } from '../protocol.ts'
import { computeDrawCounts } from './detail.ts'
import { colourDataRange } from './outputColumns.ts'
import { OutputView, type SharedUniforms } from './OutputView.ts'

const shared = {
  uLut: { value: null },
  uSchemeRow: { value: 0 },
  uSchemeCount: { value: 7 },
  uRange: { value: null },
  uClipPlane: { value: null },
  uClipEnabled: { value: false },
  uPointSizeMaxPx: { value: 15 },
  uPixelsPerMetre: { value: 1 },
  uOrthographic: { value: false },
} satisfies SharedUniforms

async function loadSynthetic(particles: number) {
  const written = writeSyntheticOutput({ particles, timeS: 0.5, simulationId: 4, runId: 2 })
  const bundle = writeBundle(
    [...written.full.values()].map((object) => ({
      objectId: object.objectId,
      kind: object.kind,
      dataset: object.dataset,
      outputNo: object.outputNo,
      bytes: object.bytes,
    })),
  )
  const request: LoadRequest = {
    requestId: 'r1',
    key: { simulationId: 4, runId: 2, outputNo: 0 },
    source: { bundleUrl: 'http://test/bundle', accessToken: null },
    dataset: 'full',
    objectIds: [],
    estimatedBytes: bundle.byteLength,
    priority: 'shown',
  }
  const fetchBundle = (() =>
    Promise.resolve(
      new Response(bundle.slice(), {
        headers: { 'content-length': String(bundle.byteLength) },
      }),
    )) as unknown as typeof fetch
  return loadRenderableOutput(request, {
    fetch: fetchBundle,
    cache: new MemoryOutputCache(),
    pool: new BufferPool(),
  })
}

describe('synthetic output through the loader into the renderer', () => {
  it('draws the fluid from the bundle buffer itself and the wall as a mesh', async () => {
    const loaded = await loadSynthetic(20_000)
    const view = new OutputView(loaded.output, shared)
    const fluid = view.objects.find((o) => o.object.objectId === SYNTHETIC_OBJECT_IDS.fluid)!
    expect(fluid.object.particleCount).toBe(20_000)
    const px = fluid.points!.geometry.getAttribute('px') as BufferAttribute
    // Zero copy: the attribute views the buffer the loader transfers.
    expect(loaded.transfer).toContain(px.array.buffer)
    const wall = view.objects.find((o) => o.object.objectId === SYNTHETIC_OBJECT_IDS.wall)!
    expect(wall.mesh).not.toBeNull()
    expect(wall.object.mesh!.triangleCount).toBeGreaterThan(0)
    // The volume clip mask is data, not something to draw.
    expect(view.objects.some((o) => o.object.kind === 'volume_clip')).toBe(false)
    expect(view.bounds).not.toBeNull()
  })

  it('colours by pressure with the metadata range and by velocity magnitude computed over the columns', async () => {
    const loaded = await loadSynthetic(20_000)
    const view = new OutputView(loaded.output, shared)
    expect(view.bindColour(['pressure'])).toBe(true)
    const pressure = colourDataRange(view, ['pressure'])
    expect(pressure).not.toBeNull()
    expect(pressure!.max).toBeGreaterThan(pressure!.min)
    const speed = colourDataRange(view, ['vx', 'vy', 'vz'])
    expect(speed!.min).toBeGreaterThanOrEqual(0)
    expect(speed!.max).toBeGreaterThan(0)
  })

  it('draws the Low detail level as the first 10 % of the stored rows', async () => {
    const loaded = await loadSynthetic(20_000)
    const view = new OutputView(loaded.output, shared)
    const counts = computeDrawCounts(
      view.objects.map((o) => o.object.particleCount),
      'Low',
      false,
    )
    const fluidIndex = view.objects.findIndex(
      (o) => o.object.objectId === SYNTHETIC_OBJECT_IDS.fluid,
    )
    expect(counts[fluidIndex]).toBe(2000)
  })
})
