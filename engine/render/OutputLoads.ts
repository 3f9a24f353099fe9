/**
 * The results scene's loads: which outputs of the run are loaded, loading or failed, loads through
 * the data-worker pool (the shown output first, then the playback window), cancels loads no longer
 * wanted, receives outputs on the data workers' ports and frees what nobody draws (GPU buffers, and
 * column buffers back to a data worker's pool).
 */
import type { WrittenDataset } from '../../domain/outputFormat.ts'
import type { ColourRange } from '../../domain/results.ts'
import { isAbortError } from '../data/scheduler.ts'
import type {
  DataToRenderMessage,
  LoadPriority,
  LoadRequest,
  OutputSource,
  RenderIntent,
  RenderableOutput,
} from '../protocol.ts'
import type { ClipMaskSpec } from '../overlayProtocol.ts'
import { createOutputMasks, type OutputMasks } from './ClipMasks.ts'
import type { SceneHost } from './host.ts'
import type { OutputView } from './OutputView.ts'

/** How long after a load's reply its output may still arrive before the load counts as failed. */
const MISSING_OUTPUT_GRACE_MS = 2000

/**
 * How many bytes of loaded outputs outside the wanted window looping playback keeps in memory, so
 * that the next loop shows them at once instead of loading every output again (a load throughput
 * under 3 outputs a second would otherwise set the playback rate).
 */
export const PLAYBACK_RETAINED_BYTES = 512 * 1024 ** 2

interface OutputEntry {
  timeS: number
  bundleUrl: string
  estimatedBytes: number
}

/** An output in memory. */
export interface LoadedOutput {
  outputNo: number
  dataset: WrittenDataset
  runKey: string
  output: RenderableOutput
  view: OutputView | null
  /** Data ranges per colour binding (a vector magnitude costs a pass over the columns). */
  dataRanges: Map<string, ColourRange | null>
  /** Its buffers are on the GPU already (staged ahead of playback). */
  uploaded: boolean
  /** The shown volume clips' masks over its fluids. */
  masks: OutputMasks
}

interface PendingLoad {
  outputNo: number
  dataset: WrittenDataset
  runKey: string
  priority: LoadPriority
}

/** What the loads need to know of the display. */
export interface LoadWishes {
  /** Output numbers wanted, the shown one first. */
  wanted: readonly number[]
  /**
   * Outputs to keep once loaded, the most useful first (the playback loop ahead): kept, not loaded,
   * while they fit in {@link PLAYBACK_RETAINED_BYTES}. Absent: only the wanted ones are kept.
   */
  retained?: readonly number[]
  dataset: WrittenDataset
  playing: boolean
  /** The output on screen (kept while playback starts from it). */
  displayed: LoadedOutput | null
}

/** Loads of the outputs of one run. */
export class OutputLoads {
  #host: SceneHost
  #onArrived: (outputNo: number) => void
  #displayed: () => LoadedOutput | null
  #clips: () => ClipMaskSpec[]
  #run: { simulationId: number; runId: number } | null = null
  #outputInfo = new Map<number, OutputEntry>()
  readonly loaded = new Map<number, LoadedOutput>()
  #loading = new Map<string, PendingLoad>()
  readonly errors = new Map<number, string>()
  #requestCounter = 0
  #recycleCounter = 0

  /**
   * `onArrived(outputNo)`: an output was loaded (show it if it is the current one); `displayed()`:
   * the output on screen, which is never freed here; `clips()`: the shown volume clips, whose
   * masks a load brings along.
   */
  constructor(
    host: SceneHost,
    onArrived: (outputNo: number) => void,
    displayed: () => LoadedOutput | null,
    clips: () => ClipMaskSpec[] = () => [],
  ) {
    this.#host = host
    this.#onArrived = onArrived
    this.#displayed = displayed
    this.#clips = clips
  }

  /** Where an output of the run is fetched from (null: not an output of the run). */
  sourceOf(outputNo: number): OutputSource | null {
    const info = this.#outputInfo.get(outputNo)
    return info === undefined
      ? null
      : { bundleUrl: info.bundleUrl, accessToken: this.#host.accessToken() }
  }

  /** Takes the run's outputs; true when the run changed (everything of the old one is dropped). */
  setOutputs(intent: Extract<RenderIntent, { type: 'set_outputs' }>): boolean {
    const runChanged =
      this.#run === null ||
      this.#run.simulationId !== intent.simulationId ||
      this.#run.runId !== intent.runId
    this.#run = { simulationId: intent.simulationId, runId: intent.runId }
    this.#outputInfo = new Map(
      intent.outputs.map((output) => [
        output.outputNo,
        { timeS: output.timeS, bundleUrl: output.bundleUrl, estimatedBytes: output.estimatedBytes },
      ]),
    )
    if (runChanged) this.errors.clear()
    return runChanged
  }

  runKey(): string {
    return this.#run === null ? '' : `${this.#run.simulationId}:${this.#run.runId}`
  }

  isReady(outputNo: number, dataset: WrittenDataset): boolean {
    const loaded = this.loaded.get(outputNo)
    return loaded !== undefined && loaded.dataset === dataset
  }

  /** True while output `outputNo` of `dataset` is being loaded. */
  isLoading(outputNo: number, dataset: WrittenDataset): boolean {
    for (const load of this.#loading.values())
      if (load.outputNo === outputNo && load.dataset === dataset) return true
    return false
  }

  /** Output numbers being loaded, sorted. */
  loadingOutputs(): number[] {
    return [...new Set([...this.#loading.values()].map((load) => load.outputNo))].sort(
      (a, b) => a - b,
    )
  }

  /**
   * Loads what is wanted (the shown output first, then the playback window), cancels loads no
   * longer wanted, and drops loaded outputs outside the window (except the one on screen).
   */
  sync(wishes: LoadWishes): void {
    const run = this.#run
    if (run === null) return
    const runKey = this.runKey()
    const { dataset, displayed } = wishes
    const wantedSet = new Set(wishes.wanted)
    for (const [requestId, load] of this.#loading) {
      if (wantedSet.has(load.outputNo) && load.dataset === dataset && load.runKey === runKey)
        continue
      this.#loading.delete(requestId)
      this.#host.scheduler.cancel(requestId)
    }
    const keptSet = this.#kept(wishes, runKey)
    for (const [outputNo, loaded] of this.loaded) {
      if (keptSet.has(outputNo) && loaded.dataset === dataset && loaded.runKey === runKey) continue
      this.loaded.delete(outputNo)
      if (loaded !== displayed) this.drop(loaded)
    }
    wishes.wanted.forEach((outputNo, index) => {
      if (this.isReady(outputNo, dataset) || this.errors.has(outputNo)) return
      // Starting playback keeps the output on screen as it is; the outputs ahead come reduced.
      if (index === 0 && wishes.playing && displayed?.outputNo === outputNo) return
      const priority: LoadPriority =
        index === 0 ? 'shown' : wishes.playing ? 'playback' : 'prefetch'
      for (const [requestId, load] of this.#loading) {
        if (load.outputNo !== outputNo) continue
        if (load.priority !== priority) {
          load.priority = priority
          this.#host.scheduler.setPriority(requestId, priority)
        }
        return
      }
      const info = this.#outputInfo.get(outputNo)
      if (info === undefined) return
      const requestId = `render-${++this.#requestCounter}-${outputNo}-${dataset}`
      const request: LoadRequest = {
        requestId,
        key: { simulationId: run.simulationId, runId: run.runId, outputNo },
        source: { bundleUrl: info.bundleUrl, accessToken: this.#host.accessToken() },
        dataset,
        objectIds: [],
        estimatedBytes: info.estimatedBytes,
        priority,
      }
      const clips = this.#clips()
      if (clips.length > 0) request.clips = clips
      this.#loading.set(requestId, { outputNo, dataset, runKey, priority })
      this.#host.scheduler.schedule(request).then(
        () => {
          // The output message comes on the same port before the reply; a reply without one (a
          // worker that posted nothing) must not leave the output "loading" for ever.
          this.#host.scheduleTimeout(() => {
            if (this.#loading.delete(requestId)) this.fail(outputNo, 'No data arrived.')
          }, MISSING_OUTPUT_GRACE_MS)
        },
        (error: unknown) => {
          if (!this.#loading.delete(requestId)) return
          if (!isAbortError(error)) this.fail(outputNo, errorMessage(error))
          this.#host.requestFrame()
        },
      )
    })
  }

  /** The wanted outputs, and the retained ones already loaded while they fit in the budget. */
  #kept(wishes: LoadWishes, runKey: string): Set<number> {
    const kept = new Set(wishes.wanted)
    const current = (outputNo: number) => {
      const loaded = this.loaded.get(outputNo)
      return loaded !== undefined && loaded.dataset === wishes.dataset && loaded.runKey === runKey
        ? loaded
        : null
    }
    let bytes = 0
    for (const outputNo of kept) {
      const loaded = current(outputNo)
      if (loaded !== null) bytes += outputBytes(loaded)
    }
    for (const outputNo of wishes.retained ?? []) {
      if (kept.has(outputNo)) continue
      const loaded = current(outputNo)
      if (loaded === null) continue
      bytes += outputBytes(loaded)
      if (bytes > PLAYBACK_RETAINED_BYTES) break
      kept.add(outputNo)
    }
    return kept
  }

  /** A message on a data worker's port: an output, or a failed load. */
  handlePortMessage(data: unknown): void {
    if (typeof data !== 'object' || data === null || !('type' in data)) return
    const message = data as DataToRenderMessage
    if (message.type === 'output') this.#receive(message.requestId, message.output)
    else if (message.type === 'load_failed') {
      const load = this.#loading.get(message.requestId)
      if (load === undefined) return
      this.#loading.delete(message.requestId)
      this.fail(load.outputNo, message.message)
    }
  }

  #receive(requestId: string, output: RenderableOutput): void {
    const load = this.#loading.get(requestId)
    // A cancelled or stale load: its buffers are simply dropped.
    if (load === undefined) return
    this.#loading.delete(requestId)
    const previous = this.loaded.get(load.outputNo)
    if (previous !== undefined && previous !== this.#displayed()) this.drop(previous)
    this.errors.delete(load.outputNo)
    this.loaded.set(load.outputNo, {
      outputNo: load.outputNo,
      dataset: load.dataset,
      runKey: load.runKey,
      output,
      view: null,
      dataRanges: new Map(),
      uploaded: false,
      masks: createOutputMasks(output),
    })
    this.#onArrived(load.outputNo)
    this.#host.requestFrame()
  }

  /**
   * Frees an output nobody draws any more: its GPU buffers, and its column buffers go back to a
   * data worker's pool (transferred) so the next load does not fault in fresh memory.
   */
  drop(loaded: LoadedOutput): void {
    loaded.view?.dispose()
    loaded.view = null
    const buffers = new Set<ArrayBuffer>()
    for (const object of loaded.output.objects) {
      buffers.add(object.buffer)
      if (object.mesh !== null) buffers.add(object.mesh.buffer)
    }
    const workers = this.#host.workers()
    const worker = workers[this.#recycleCounter++ % Math.max(1, workers.length)]
    if (worker?.recycleBuffers === undefined || buffers.size === 0) return
    void Promise.resolve(worker.recycleBuffers([...buffers])).catch(() => undefined)
  }

  fail(outputNo: number, message: string): void {
    this.errors.set(outputNo, `Output ${outputNo} could not be loaded. ${message}`)
    this.#host.requestFrame()
  }
}

/** The bytes an output holds in memory (its column and mesh buffers). */
function outputBytes(loaded: LoadedOutput): number {
  const buffers = new Set<ArrayBuffer>()
  for (const object of loaded.output.objects) {
    buffers.add(object.buffer)
    if (object.mesh !== null) buffers.add(object.mesh.buffer)
  }
  let bytes = 0
  for (const buffer of buffers) bytes += buffer.byteLength
  return bytes
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
