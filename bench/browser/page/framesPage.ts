/**
 * The frames bench page: the real engine (engine/client.ts, the render worker of workers/) on a
 * canvas, with data workers that cache in IndexedDB (cachedData.worker.ts), plus a bare three.js
 * draw to compare against.
 */
import { deleteDB } from 'idb'
import { createEngine, type Engine, type EngineState } from '../../../engine/client.ts'
import { IndexedDbOutputCache } from '../../../engine/cache/outputCache.ts'
import { CACHE_DATABASE_NAME } from '../../../engine/cache/outputCacheStore.ts'
import { PAYLOAD_DIRECTORY } from '../../../engine/cache/payloadFiles.ts'
import type { RenderSnapshot } from '../../../engine/protocol.ts'
import type {
  BareDrawRequest,
  BareDrawResult,
  CacheReadsResult,
  CacheReadsWorkerResult,
  FrameResult,
  FramesPageApi,
  PlaybackResult,
  PlaybackRunResult,
  RenderWorkerMemory,
} from './api.ts'
import {
  publishBenchApi,
  readHeapBytes,
  runIndexedDb,
  runInWorker,
  takeLongTasks,
} from './common.ts'

let engine: Engine | null = null
let outputsKey = ''

function requireEngine(): Engine {
  if (engine === null) throw new Error('Start the engine first.')
  return engine
}

/** Resolves with the first snapshot (after now) that `accept` takes, or the last one on timeout. */
function waitForSnapshot(
  accept: (snapshot: RenderSnapshot) => boolean,
  timeoutMs: number,
  act: () => void,
): Promise<FrameResult> {
  const running = requireEngine()
  return new Promise((resolve) => {
    const startMs = performance.now()
    let last: RenderSnapshot | null = null
    let maxBytesInFlight = 0
    const finish = (timedOut: boolean): void => {
      unsubscribe()
      clearTimeout(timer)
      resolve({
        elapsedMs: performance.now() - startMs,
        timedOut,
        shownOutput: last?.shownOutput ?? null,
        pointsDrawn: last?.pointsDrawn ?? 0,
        error: last?.error ?? running.getState().failure,
        maxBytesInFlight,
      })
    }
    const unsubscribe = running.subscribe((state: EngineState) => {
      if (state.snapshot === null || state.snapshot === last) return
      last = state.snapshot
      maxBytesInFlight = Math.max(maxBytesInFlight, state.snapshot.bytesInFlight)
      if (accept(state.snapshot)) finish(false)
    })
    const timer = setTimeout(() => finish(true), timeoutMs)
    act()
  })
}

const api: FramesPageApi = {
  takeLongTasks,
  readHeapBytes,
  runIndexedDb,

  async startEngine(size) {
    const canvas = document.createElement('canvas')
    canvas.style.width = `${size.width}px`
    canvas.style.height = `${size.height}px`
    canvas.style.display = 'block'
    document.body.replaceChildren(canvas)
    outputsKey = ''
    engine = createEngine(canvas, {
      devicePixelRatio: 1,
      createDataWorker: () =>
        new Worker(new URL('./cachedData.worker.ts', import.meta.url), {
          type: 'module',
          name: 'dive-data-bench',
        }),
    })
    await engine.ready
    engine.dispatch({ type: 'resize', width: size.width, height: size.height, devicePixelRatio: 1 })
  },

  showOutput(request) {
    const running = requireEngine()
    return waitForSnapshot(
      (snapshot) =>
        (snapshot.shownOutput === request.outputNo && snapshot.pointsDrawn > 0) ||
        snapshot.error !== null,
      request.timeoutMs,
      () => {
        // The dataset first: the outputs' first loads are then of the dataset shown.
        if (request.dataset !== undefined)
          running.dispatch({ type: 'set_dataset', dataset: request.dataset })
        const key = JSON.stringify([request.simulationId, request.runId, request.outputs])
        if (key !== outputsKey) {
          outputsKey = key
          running.dispatch({
            type: 'set_outputs',
            simulationId: request.simulationId,
            runId: request.runId,
            outputs: request.outputs,
          })
        }
        running.dispatch({ type: 'show_output', outputNo: request.outputNo })
      },
    )
  },

  setDetail(level, timeoutMs) {
    const running = requireEngine()
    const before = running.getState().snapshot?.pointsDrawn ?? 0
    return waitForSnapshot(
      (snapshot) => snapshot.pointsDrawn !== before && snapshot.pointsDrawn > 0,
      timeoutMs,
      () => running.dispatch({ type: 'set_detail', level }),
    )
  },

  setColourRange(range, timeoutMs) {
    const running = requireEngine()
    return waitForSnapshot(
      (snapshot) =>
        snapshot.colourRange?.min === range.min && snapshot.colourRange.max === range.max,
      timeoutMs,
      () =>
        running.dispatch({
          type: 'set_colour',
          attribute: 'pressure',
          columns: ['pressure'],
          scheme: 'rainbow',
          range,
        }),
    )
  },

  play(request) {
    const running = requireEngine()
    return new Promise<PlaybackResult>((resolve) => {
      const shown: PlaybackResult['shown'] = []
      const startMs = performance.now()
      let maxBytesInFlight = 0
      const unsubscribe = running.subscribe((state) => {
        maxBytesInFlight = Math.max(maxBytesInFlight, state.snapshot?.bytesInFlight ?? 0)
        const outputNo = state.snapshot?.shownOutput ?? null
        if (outputNo === null || shown.at(-1)?.outputNo === outputNo) return
        shown.push({ outputNo, atMs: performance.now() - startMs })
      })
      running.dispatch({ type: 'play', speed: request.speed, loop: true })
      setTimeout(() => {
        running.dispatch({ type: 'pause' })
        unsubscribe()
        resolve({ shown, durationMs: performance.now() - startMs, maxBytesInFlight })
      }, request.durationMs)
    })
  },

  setOutputs(request) {
    const running = requireEngine()
    outputsKey = JSON.stringify([request.simulationId, request.runId, request.outputs])
    running.dispatch({
      type: 'set_outputs',
      simulationId: request.simulationId,
      runId: request.runId,
      outputs: request.outputs,
    })
  },

  playFor(request) {
    const running = requireEngine()
    running.dispatch({ type: 'set_detail', level: request.detail })
    const before = running.getState().snapshot?.playbackFrames ?? null
    return new Promise<PlaybackRunResult>((resolve) => {
      const shown: PlaybackResult['shown'] = []
      const startMs = performance.now()
      let maxBytesInFlight = 0
      const unsubscribe = running.subscribe((state) => {
        maxBytesInFlight = Math.max(maxBytesInFlight, state.snapshot?.bytesInFlight ?? 0)
        const outputNo = state.snapshot?.shownOutput ?? null
        if (outputNo === null || shown.at(-1)?.outputNo === outputNo) return
        shown.push({ outputNo, atMs: performance.now() - startMs })
      })
      running.dispatch({
        type: 'play',
        speed: request.speed,
        loop: true,
        dataset: request.dataset,
      })
      setTimeout(() => {
        running.dispatch({ type: 'pause' })
        unsubscribe()
        const snapshot = running.getState().snapshot
        const after = snapshot?.playbackFrames ?? null
        resolve({
          shown,
          durationMs: performance.now() - startMs,
          maxBytesInFlight,
          engineSteps:
            after === null
              ? null
              : {
                  shown: after.shown - (before?.shown ?? 0),
                  late: after.late - (before?.late ?? 0),
                },
          heldBytes: snapshot?.memory?.heldBytes ?? null,
          budgetBytes: snapshot?.memory?.budgetBytes ?? null,
          loadedOutputs: snapshot?.loadedOutputs.length ?? 0,
        })
      }, request.durationMs)
    })
  },

  waitForLoaded(count, timeoutMs) {
    const running = requireEngine()
    return new Promise<number>((resolve) => {
      const loadedNow = () => running.getState().snapshot?.loadedOutputs.length ?? 0
      if (loadedNow() >= count) {
        resolve(loadedNow())
        return
      }
      const timer = setTimeout(() => {
        unsubscribe()
        resolve(loadedNow())
      }, timeoutMs)
      const unsubscribe = running.subscribe(() => {
        if (loadedNow() < count) return
        clearTimeout(timer)
        unsubscribe()
        resolve(loadedNow())
      })
    })
  },

  async measureRenderWorkerMemory(timeoutMs) {
    const loadedOutputs = engine?.getState().snapshot?.loadedOutputs.length ?? 0
    const measure = (
      performance as Performance & {
        measureUserAgentSpecificMemory?: () => Promise<{
          bytes: number
          breakdown: {
            bytes: number
            attribution: { url: string; scope: string }[]
          }[]
        }>
      }
    ).measureUserAgentSpecificMemory
    const empty = (note: string): RenderWorkerMemory => ({
      renderWorkerBytes: null,
      totalBytes: null,
      loadedOutputs,
      note,
    })
    if (measure === undefined || !crossOriginIsolated)
      return empty('measureUserAgentSpecificMemory is not available (needs cross-origin isolation)')
    const result = await Promise.race([
      measure.call(performance),
      new Promise<null>((resolve) => setTimeout(() => resolve(null), timeoutMs)),
    ])
    if (result === null) return empty(`no measurement within ${timeoutMs} ms`)
    // The render worker is the one dedicated worker whose script is the render worker's chunk.
    let renderWorkerBytes = 0
    for (const entry of result.breakdown)
      if (
        entry.attribution.some(
          (a) => a.scope === 'DedicatedWorkerGlobalScope' && /render/i.test(a.url),
        )
      )
        renderWorkerBytes += entry.bytes
    return { renderWorkerBytes, totalBytes: result.bytes, loadedOutputs, note: null }
  },

  disposeEngine() {
    engine?.dispose()
    engine = null
  },

  async deleteOutputCache() {
    await deleteDB(CACHE_DATABASE_NAME)
    // The payload files (OPFS), where the data workers keep the bytes.
    const root = await navigator.storage.getDirectory()
    await root.removeEntry(PAYLOAD_DIRECTORY, { recursive: true }).catch((error: unknown) => {
      if ((error as { name?: string }).name !== 'NotFoundError') throw error
    })
  },

  async countCacheFiles() {
    const cache = new IndexedDbOutputCache()
    const records = (await cache.keys()).length
    await cache.close()
    const root = await navigator.storage.getDirectory()
    const directory = await root.getDirectoryHandle(PAYLOAD_DIRECTORY).catch(() => null)
    let files = 0
    if (directory !== null)
      for await (const _name of (directory as unknown as { keys(): AsyncIterable<string> }).keys())
        files++
    return { records, files }
  },

  async waitForCachedBytes(minBytes, timeoutMs) {
    const cache = new IndexedDbOutputCache()
    const deadlineMs = performance.now() + timeoutMs
    try {
      for (;;) {
        const storedBytes = await cache.storedBytes()
        if (storedBytes >= minBytes || performance.now() > deadlineMs) return storedBytes
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    } finally {
      await cache.close()
    }
  },

  async readCachedOutputs(request) {
    const { workers, outputs, ...shared } = request
    const startMs = performance.now()
    const results = await Promise.all(
      Array.from({ length: workers }, (_, index) =>
        runInWorker<unknown, CacheReadsWorkerResult>(
          new Worker(new URL('./cacheReads.worker.ts', import.meta.url), { type: 'module' }),
          { ...shared, outputs: outputs.filter((_, n) => n % workers === index) },
        ),
      ),
    )
    const result: CacheReadsResult = {
      elapsedMs: performance.now() - startMs,
      loadMs: results.flatMap((part) => part.loadMs),
      fromCache: results.reduce((sum, part) => sum + part.fromCache, 0),
      bytes: results.reduce((sum, part) => sum + part.bytes, 0),
    }
    return result
  },

  drawBare: (request) =>
    runInWorker<BareDrawRequest, BareDrawResult>(
      new Worker(new URL('./bareDraw.worker.ts', import.meta.url), { type: 'module' }),
      request,
    ),
}

publishBenchApi(api)
