import * as Comlink from 'comlink'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { COLOUR_MAP_STATUS } from '../../domain/results.ts'
import type { DataToRenderMessage, DataWorkerApi, SubsetRequest } from '../protocol.ts'
import { BufferPool } from './bufferPool.ts'
import { MemoryOutputCache } from './cache.ts'
import { createDataWorkerApi, type RenderPort } from './dataWorker.ts'
import { computeHistogram } from './histogram.ts'
import { readObjectStream } from '../../domain/output/reader.ts'
import { computeSubsetRange } from './ranges.ts'
import { isAbortError } from './scheduler.ts'
import { computeStatistics } from './statistics.ts'
import { createFakeServer, createLoadRequest, writeSyntheticOutputs } from './testing.ts'

// At 1.5 s the dam break has reached the far half of the tank, inside the volume clip.
const outputs = writeSyntheticOutputs(2, { timeS: 1.5 })

/** A render port that records what is posted and transfers like postMessage does. */
function createRecordingPort(): RenderPort & { messages: DataToRenderMessage[] } {
  const messages: DataToRenderMessage[] = []
  return {
    messages,
    postMessage(message, transfer) {
      messages.push(structuredClone(message, { transfer: transfer as ArrayBuffer[] }))
    },
  }
}

function createWorker(pool = new BufferPool()) {
  const server = createFakeServer(outputs)
  const cache = new MemoryOutputCache()
  const api = createDataWorkerApi({ fetch: server.fetch, cache, pool })
  const port = createRecordingPort()
  api.connectRenderPort(port as unknown as MessagePort)
  return { api, server, port, cache, pool }
}

function subset(overrides: Partial<SubsetRequest> = {}): SubsetRequest {
  const load = createLoadRequest(1)
  return {
    key: load.key,
    source: load.source,
    dataset: 'full',
    objectId: 'fluid-0',
    column: 'pressure',
    clip: null,
    maskObjectId: null,
    ...overrides,
  }
}

describe('data worker', () => {
  it('posts the output on the render port with its buffer transferred, and returns a summary', async () => {
    const { api, port } = createWorker()
    const transferred: ArrayBuffer[] = []
    const realPost = port.postMessage.bind(port)
    port.postMessage = (message, transfer) => {
      transferred.push(...(transfer as ArrayBuffer[]))
      realPost(message, transfer)
    }
    const summary = await api.load(createLoadRequest(0))
    expect(summary).toMatchObject({ requestId: 'load-0', fromCache: false, cacheError: null })
    expect(summary.bytes).toBeGreaterThan(0)
    expect(port.messages).toHaveLength(1)
    const message = port.messages[0]!
    if (message.type !== 'output') throw new Error('expected an output')
    expect(message.output.key).toEqual({ simulationId: 5, runId: 9, outputNo: 0 })
    expect(transferred).toHaveLength(1)
    expect(transferred[0]!.byteLength).toBe(0) // detached here: it moved, it was not copied
    const fluid = message.output.objects.find((o) => o.objectId === 'fluid-0')!
    const x = fluid.columns.find((c) => c.name === 'x')!
    expect(new Float32Array(fluid.buffer, x.byteOffset, x.length)).toEqual(
      readObjectStream(outputs.get(0)!.full.get('fluid-0')!.bytes).columns.x,
    )
    const again = await api.load({ ...createLoadRequest(0), requestId: 'again' })
    expect(again.fromCache).toBe(true)
  })

  it('posts load_failed with a clear message and rejects with it', async () => {
    const { api, port } = createWorker()
    await expect(api.load(createLoadRequest(5))).rejects.toThrow(
      'Output 5 was not found on the server.',
    )
    expect(port.messages).toEqual([
      {
        type: 'load_failed',
        requestId: 'load-5',
        key: { simulationId: 5, runId: 9, outputNo: 5 },
        message: 'Output 5 was not found on the server.',
      },
    ])
  })

  it('cancels a running load: an AbortError, nothing posted', async () => {
    const { port, server } = createWorker()
    let release: () => void = () => {}
    const slowFetch = server.fetch
    server.fetch = (input, init) =>
      new Promise((resolve, reject) => {
        init?.signal?.addEventListener('abort', () => reject(init.signal!.reason as Error))
        release = () => resolve(slowFetch(input, init))
      })
    const worker = createDataWorkerApi({
      fetch: (i, n) => server.fetch(i, n),
      cache: new MemoryOutputCache(),
    })
    worker.connectRenderPort(port as unknown as MessagePort)
    const load = worker.load(createLoadRequest(1))
    await Promise.resolve()
    worker.cancel('load-1')
    release()
    expect(isAbortError(await load.catch((e: unknown) => e))).toBe(true)
    expect(port.messages).toEqual([])
  })

  it('uses the pushed access token over the one in the request', async () => {
    const { api, server } = createWorker()
    api.setAccessToken('pushed')
    await api.load(createLoadRequest(1))
    expect(server.calls[0]!.authorization).toBe('Bearer pushed')
  })

  it('refuses to load before it has a render port', async () => {
    const api = createDataWorkerApi({ fetch, cache: new MemoryOutputCache() })
    await expect(api.load(createLoadRequest(0))).rejects.toThrow('no render port')
  })

  it('computes colour range, statistics and histogram over a clipped, masked subset', async () => {
    const { api, server } = createWorker()
    const view = readObjectStream(outputs.get(1)!.full.get('fluid-0')!.bytes)
    const mask = readObjectStream(outputs.get(1)!.full.get('clip-1@fluid-0')!.bytes).mask!
    const clip = { enabled: true, axis: 'z' as const, flipped: false, offsetM: 0.3 }
    const expectedSubset = { clip, positions: view.columns as never, mask }
    const request = subset({ clip, maskObjectId: 'clip-1@fluid-0' })
    const [range, statistics, histogram] = await Promise.all([
      api.computeColourRange(request),
      api.computeStatistics(request),
      api.computeHistogram({ ...request, binCount: 16 }),
    ])
    expect(range).toEqual(computeSubsetRange(view.columns.pressure!, expectedSubset))
    expect(statistics).toEqual(computeStatistics(view.columns.pressure!, expectedSubset))
    expect(histogram).toEqual(computeHistogram(view.columns.pressure!, 16, expectedSubset))
    expect(statistics!.count).toBeGreaterThan(0)
    expect(statistics!.count).toBeLessThan(view.rowCount)
    // Three concurrent requests for the same objects share one fetch.
    expect(server.calls).toHaveLength(1)
    expect(server.calls[0]!.url).toContain('objects=fluid-0%2Cclip-1%40fluid-0')
  })

  it('ranges a vector magnitude', async () => {
    const { api } = createWorker()
    const view = readObjectStream(outputs.get(1)!.full.get('fluid-0')!.bytes)
    const range = await api.computeColourRange(
      subset({ column: 'magnitude', vectorColumns: ['vx', 'vy', 'vz'] }),
    )
    const { vx, vy, vz } = view.columns
    expect(range).toEqual(computeSubsetRange([vx!, vy!, vz!]))
  })

  it("says '{attribute} is not available for this output.' for a column the output lacks", async () => {
    const { api } = createWorker()
    await expect(api.computeColourRange(subset({ column: 'temperature' }))).rejects.toThrow(
      COLOUR_MAP_STATUS.notAvailable('temperature'),
    )
  })

  it('takes recycled buffers into its pool', () => {
    const pool = new BufferPool()
    const { api } = createWorker(pool)
    const buffer = new ArrayBuffer(1024 * 1024)
    api.recycleBuffers([buffer])
    expect(pool.acquire(1000 * 1024)).toBe(buffer)
  })

  it('drops the cached outputs of other runs when a new run of the simulation is loaded', async () => {
    const { api, cache, server } = createWorker()
    await api.load(createLoadRequest(0))
    expect(new Set(cache.keys().map((k) => k.runId))).toEqual(new Set([9]))
    const nextRun = createLoadRequest(0, {
      requestId: 'run-10',
      key: { simulationId: 5, runId: 10, outputNo: 0 },
    })
    await api.load(nextRun)
    expect(server.calls).toHaveLength(2)
    expect(new Set(cache.keys().map((k) => k.runId))).toEqual(new Set([10]))
  })

  it('drops stale runs from its cache', async () => {
    const { api, cache } = createWorker()
    await api.load(createLoadRequest(0))
    expect(cache.keys().length).toBeGreaterThan(0)
    await api.dropStaleRuns(5, 10)
    expect(cache.keys()).toEqual([])
  })
})

describe('workers/data.worker.ts', () => {
  it('exposes exactly the DataWorkerApi methods', async () => {
    const module = await import('../../workers/data.worker.ts')
    // Type-level: the export must be assignable to the contract.
    const api: DataWorkerApi = module.api
    const keys: (keyof DataWorkerApi)[] = [
      'connectRenderPort',
      'load',
      'cancel',
      'setAccessToken',
      'computeColourRange',
      'computeStatistics',
      'computeHistogram',
      'computeClipMasks',
      'dropStaleRuns',
      'recycleBuffers',
      'loadSetupMesh',
      'loadSetupPointCloud',
      'loadKeyframeTrack',
    ]
    expect(Object.keys(api).sort()).toEqual([...keys].sort())
    for (const key of keys) expect(typeof api[key]).toBe('function')
  })
})

describe('workers/data.worker.ts over a real MessagePort with Comlink', () => {
  afterEach(() => {
    vi.unstubAllGlobals()
  })

  it('answers load calls on the render port and posts outputs and failures beside the replies', async () => {
    const { api } = await import('../../workers/data.worker.ts')
    const server = createFakeServer(outputs)
    vi.stubGlobal('fetch', server.fetch)
    const channel = new MessageChannel()
    api.connectRenderPort(channel.port1)
    const remote = Comlink.wrap<DataWorkerApi>(channel.port2)
    const received: DataToRenderMessage[] = []
    channel.port2.addEventListener('message', (event: MessageEvent) => {
      const data = event.data as Partial<DataToRenderMessage> | null
      if (data?.type === 'output' || data?.type === 'load_failed') {
        received.push(data as DataToRenderMessage)
      }
    })
    try {
      const summary = await remote.load({ ...createLoadRequest(1), requestId: 'port-1' })
      expect(summary.requestId).toBe('port-1')
      // The output arrives before the reply that resolves the call.
      expect(received.map((m) => m.type)).toEqual(['output'])
      const output = received[0]!
      if (output.type !== 'output') throw new Error('expected an output')
      const fluid = output.output.objects.find((o) => o.objectId === 'fluid-0')!
      expect(fluid.buffer.byteLength).toBeGreaterThan(0)
      expect(fluid.particleCount).toBe(2000)

      await expect(remote.load({ ...createLoadRequest(9), requestId: 'port-9' })).rejects.toThrow(
        'Output 9 was not found on the server.',
      )
      await vi.waitFor(() => expect(received.map((m) => m.type)).toEqual(['output', 'load_failed']))
    } finally {
      remote[Comlink.releaseProxy]()
      channel.port1.close()
      channel.port2.close()
    }
  })
})
