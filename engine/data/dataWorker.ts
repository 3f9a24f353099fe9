/**
 * The data worker's logic behind DataWorkerApi (workers/data.worker.ts only wires it to Comlink):
 * loads outputs and posts them to the render port as transferables, keeps one AbortController per
 * running load, and answers colour range, statistics and histogram requests from the cache or a
 * fresh fetch (the render worker owns the shown output's buffers, so nothing is kept here). The
 * first load of a simulation's run drops the cached outputs of its other runs (a new run makes them stale).
 */
import { COLOUR_MAP_STATUS, type ColourRange } from '../../domain/results.ts'
import type { ObjectView } from '../../domain/output/reader.ts'
import type { ClipMask, ClipMaskRequest } from '../overlayProtocol.ts'
import type { SetupFetchRequest } from '../setupProtocol.ts'
import type {
  ColumnStatistics,
  DataToRenderMessage,
  DataWorkerApi,
  Histogram,
  LoadRequest,
  LoadSummary,
  SubsetRequest,
} from '../protocol.ts'
import { BufferPool } from './bufferPool.ts'
import { addClipMasks, computeFluidMasks } from './clipMasks.ts'
import type { OutputCache } from './cache.ts'
import { computeHistogram } from './histogram.ts'
import { loadObjectViews, loadRenderableOutput, type LoaderContext } from './loader.ts'
import { computeSubsetRange, SubsetError, type RowSubset, type ValueSource } from './ranges.ts'
import { createAbortError, isAbortError } from './scheduler.ts'
import { loadKeyframeTrack, loadSetupMesh, loadSetupPointCloud } from './setupLoader.ts'
import { computeStatistics } from './statistics.ts'

/** The part of a MessagePort the worker posts on. */
export interface RenderPort {
  postMessage(message: DataToRenderMessage, transfer: Transferable[]): void
}

/** What a data worker is built from (the worker shell passes the browser's; tests pass fakes). */
export interface DataWorkerOptions {
  fetch: typeof fetch
  cache: OutputCache
  pool?: BufferPool
  now?: () => number
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

/** The values a subset request asks for, and the subset of rows. */
function selectSource(
  request: SubsetRequest,
  view: ObjectView,
  maskView: ObjectView | null,
): { source: ValueSource; subset: RowSubset } {
  const columnOf = (name: string): Float32Array => {
    const values = view.columns[name]
    if (values === undefined) throw new SubsetError(COLOUR_MAP_STATUS.notAvailable(name))
    return values
  }
  let source: ValueSource
  if (request.column === 'magnitude') {
    if (request.vectorColumns === undefined) {
      throw new SubsetError('A magnitude needs the three columns of its vector.')
    }
    const [a, b, c] = request.vectorColumns
    source = [columnOf(a), columnOf(b), columnOf(c)]
  } else source = columnOf(request.column)
  let mask: Uint8Array | null = null
  if (maskView !== null) {
    if (maskView.mask === null || maskView.meta.targetObjectId !== request.objectId) {
      throw new SubsetError(
        `${maskView.meta.objectId} is not a volume clip of ${request.objectId}.`,
      )
    }
    if (maskView.mask.length !== view.rowCount) {
      throw new SubsetError(
        `The volume clip ${maskView.meta.objectId} does not match the particles.`,
      )
    }
    mask = maskView.mask
  }
  const { x, y, z } = view.columns
  return { source, subset: { clip: request.clip, positions: { x: x!, y: y!, z: z! }, mask } }
}

/** A DataWorkerApi over plain functions (no Comlink), usable in tests, benches and Node. */
export function createDataWorkerApi(options: DataWorkerOptions): DataWorkerApi {
  const pool = options.pool ?? new BufferPool()
  const now = options.now ?? (() => performance.now())
  const context: LoaderContext = { fetch: options.fetch, cache: options.cache, pool, now }
  const controllers = new Map<string, AbortController>()
  const subsetLoads = new Map<string, Promise<ObjectView[]>>()
  let renderPort: RenderPort | null = null
  let subsetSequence = 0
  const runBySimulation = new Map<number, number>()

  /** Drops other runs' cached outputs once per simulation and run (in the background). */
  const noteRun = (key: LoadRequest['key']): void => {
    if (runBySimulation.get(key.simulationId) === key.runId) return
    runBySimulation.set(key.simulationId, key.runId)
    options.cache.dropStaleRuns(key.simulationId, key.runId).catch(() => undefined)
  }

  /** The object (and mask) views of a subset request; concurrent requests for the same share one load. */
  const loadSubsetViews = (request: SubsetRequest): Promise<ObjectView[]> => {
    const objectIds = [request.objectId, ...(request.maskObjectId ? [request.maskObjectId] : [])]
    const id = JSON.stringify([request.key, request.dataset, objectIds, request.source.bundleUrl])
    const existing = subsetLoads.get(id)
    if (existing !== undefined) return existing
    noteRun(request.key)
    const loadRequest: LoadRequest = {
      requestId: `subset-${++subsetSequence}`,
      key: request.key,
      source: request.source,
      dataset: request.dataset,
      objectIds,
      estimatedBytes: 0,
      priority: 'shown',
    }
    const promise = loadObjectViews(loadRequest, context).then(async (loaded) => {
      await loaded.cacheWrite
      return loaded.views
    })
    subsetLoads.set(id, promise)
    const forget = () => subsetLoads.delete(id)
    promise.then(forget, forget)
    return promise
  }

  /** Runs a setup fetch under an AbortController that `cancel(request.requestId)` reaches. */
  const cancellable = async <T>(
    request: SetupFetchRequest,
    run: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> => {
    const controller = new AbortController()
    const id = request.requestId
    if (id !== undefined) {
      if (controllers.has(id)) throw new Error(`Load ${id} is already running.`)
      controllers.set(id, controller)
    }
    try {
      return await run(controller.signal)
    } catch (error) {
      if (isAbortError(error) || controller.signal.aborted) throw createAbortError()
      throw error instanceof Error ? error : new Error(errorMessage(error))
    } finally {
      if (id !== undefined) controllers.delete(id)
    }
  }

  const withSubset = async <T>(
    request: SubsetRequest,
    compute: (source: ValueSource, subset: RowSubset) => T,
  ): Promise<T> => {
    const [view, maskView] = await loadSubsetViews(request)
    const { source, subset } = selectSource(request, view!, maskView ?? null)
    return compute(source, subset)
  }

  return {
    connectRenderPort(port: MessagePort): void {
      renderPort = port
    },

    async load(request: LoadRequest): Promise<LoadSummary> {
      const start = now()
      const port = renderPort
      if (port === null) throw new Error('The data worker has no render port yet.')
      if (controllers.has(request.requestId)) {
        throw new Error(`Load ${request.requestId} is already running.`)
      }
      const controller = new AbortController()
      controllers.set(request.requestId, controller)
      noteRun(request.key)
      try {
        const loaded = await loadRenderableOutput(request, context, controller.signal)
        // The shown clips' masks come with the output (playback needs no second pass).
        if (!controller.signal.aborted && request.clips !== undefined)
          loaded.transfer.push(...addClipMasks(loaded.output, request.clips))
        if (controller.signal.aborted) {
          for (const buffer of loaded.transfer) pool.release(buffer)
          throw createAbortError()
        }
        port.postMessage(
          { type: 'output', requestId: request.requestId, output: loaded.output },
          loaded.transfer,
        )
        const cacheError = await loaded.cacheWrite
        return {
          requestId: request.requestId,
          key: { ...request.key },
          fromCache: loaded.fromCache,
          bytes: loaded.bytes,
          decodeMs: loaded.decodeMs,
          totalMs: now() - start,
          cacheError,
        }
      } catch (error) {
        if (isAbortError(error) || controller.signal.aborted) throw createAbortError()
        const message = errorMessage(error)
        port.postMessage(
          { type: 'load_failed', requestId: request.requestId, key: { ...request.key }, message },
          [],
        )
        throw new Error(message)
      } finally {
        controllers.delete(request.requestId)
      }
    },

    cancel(requestId: string): void {
      controllers.get(requestId)?.abort(createAbortError())
    },

    setAccessToken(token: string | null): void {
      context.accessToken = token
    },

    computeColourRange(request: SubsetRequest): Promise<ColourRange | null> {
      return withSubset(request, (source, subset) => computeSubsetRange(source, subset))
    },

    computeStatistics(request: SubsetRequest): Promise<ColumnStatistics | null> {
      return withSubset(request, (source, subset) => {
        const rows = source instanceof Float32Array ? source.length : source[0].length
        const scratchBuffer = pool.acquire(rows * 4)
        try {
          return computeStatistics(source, subset, new Float32Array(scratchBuffer, 0, rows))
        } finally {
          pool.release(scratchBuffer)
        }
      })
    },

    computeHistogram(request: SubsetRequest & { binCount: number }): Promise<Histogram | null> {
      return withSubset(request, (source, subset) =>
        computeHistogram(source, request.binCount, subset),
      )
    },

    async computeClipMasks(request: ClipMaskRequest): Promise<ClipMask[]> {
      const objectIds = request.fluids.map((fluid) => fluid.objectId)
      if (objectIds.length === 0 || request.clips.length === 0) return []
      noteRun(request.key)
      const loaded = await loadObjectViews(
        {
          requestId: `masks-${++subsetSequence}`,
          key: request.key,
          source: request.source,
          dataset: request.dataset,
          objectIds,
          estimatedBytes: 0,
          priority: 'shown',
        },
        context,
      )
      await loaded.cacheWrite
      const fluids = loaded.views.map((view) => {
        const { x, y, z } = view.columns
        if (x === undefined || y === undefined || z === undefined)
          throw new Error(`${view.meta.objectId} has no positions.`)
        return { objectId: view.meta.objectId, materialId: view.meta.materialId, x, y, z }
      })
      return computeFluidMasks(fluids, request.clips)
    },

    dropStaleRuns(simulationId: number, runId: number): Promise<void> {
      return options.cache.dropStaleRuns(simulationId, runId)
    },

    recycleBuffers(buffers: ArrayBuffer[]): void {
      for (const buffer of buffers) pool.release(buffer)
    },

    loadSetupMesh(request) {
      return cancellable(request, (signal) => loadSetupMesh(request, context, signal))
    },

    loadSetupPointCloud(request) {
      return cancellable(request, (signal) => loadSetupPointCloud(request, context, signal))
    },

    loadKeyframeTrack(request) {
      return cancellable(request, (signal) => loadKeyframeTrack(request, context, signal))
    },
  }
}
