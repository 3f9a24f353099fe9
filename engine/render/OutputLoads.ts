/**
 * The results scene's loads: which outputs of the run are loaded, loading or failed, loads through
 * the data-worker pool (the shown output first, then the playback window: whole batches of
 * DATA_LOAD_BATCH outputs reaching PLAYBACK_LEAD_S ahead, as many as fit in the memory budget), cancels loads no longer
 * wanted, receives outputs on the data workers' ports and frees what nobody draws (GPU buffers, and
 * column buffers back to a data worker's pool) once it has been unused for UNUSED_OUTPUTS_CLEAR_MS
 * (spec/results.md §9), or sooner when the outputs held outgrow the budget (memoryBudget.ts).
 */
import { UNUSED_OUTPUTS_CLEAR_MS } from '../../domain/constants.ts'
import type { WrittenDataset } from '../../domain/outputFormat.ts'
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
import { createOutputMasks } from './ClipMasks.ts'
import type { SceneHost } from './host.ts'
import {
  NO_MEMORY_READINGS,
  outputBytes,
  outputMemoryBudget,
  type MemoryReadings,
} from './memoryBudget.ts'
import type { LoadedOutput, LoadWishes } from './outputLoadTypes.ts'
import { playbackWindow } from './playbackWindow.ts'

/** How long after a load's reply its output may still arrive before the load counts as failed. */
const MISSING_OUTPUT_GRACE_MS = 2000

interface OutputEntry {
  timeS: number
  bundleUrl: string
  estimatedBytes: number
}

interface PendingLoad {
  outputNo: number
  dataset: WrittenDataset
  runKey: string
  priority: LoadPriority
}

export type { LoadedOutput, LoadWishes } from './outputLoadTypes.ts'

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
  #budgetBytes = outputMemoryBudget(NO_MEMORY_READINGS)
  #sweepPending = false

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
    const nowMs = this.#host.nowMs()
    for (const [outputNo, loaded] of this.loaded) {
      if (loaded.runKey !== runKey) {
        // Another run's data is never shown again.
        this.loaded.delete(outputNo)
        if (loaded !== displayed) this.drop(loaded)
      } else if (keptSet.has(outputNo) && loaded.dataset === dataset) loaded.unusedSinceMs = null
      else loaded.unusedSinceMs ??= nowMs
    }
    this.#evict(nowMs)
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

  /**
   * The playback window (playbackWindow.ts): the shown output and the outputs after it in play
   * order (`upcoming`), reaching PLAYBACK_LEAD_S ahead at `outputsPerSecond` in whole batches of
   * DATA_LOAD_BATCH, no more than the memory budget holds (each output counted at the mean size
   * of the outputs of `dataset` held, else at its estimate).
   */
  playbackWindow(
    upcoming: readonly number[],
    dataset: WrittenDataset,
    outputsPerSecond: number,
  ): number[] {
    let heldBytes = 0
    let heldCount = 0
    for (const loaded of this.loaded.values())
      if (loaded.dataset === dataset && loaded.bytes > 0) {
        heldBytes += loaded.bytes
        heldCount++
      }
    return playbackWindow({
      upcoming,
      outputsPerSecond,
      meanBytes: heldCount > 0 ? heldBytes / heldCount : null,
      estimatedBytes: (outputNo) => this.#outputInfo.get(outputNo)?.estimatedBytes ?? 0,
      budgetBytes: this.#budgetBytes,
    })
  }

  /** The device's memory and the page's, as measured: the budget follows them. */
  setMemoryReadings(readings: MemoryReadings): void {
    this.#budgetBytes = outputMemoryBudget(readings, this.heldBytes())
    this.#evict(this.#host.nowMs())
  }

  /** Bytes of the outputs held in memory, the one on screen included. */
  heldBytes(): number {
    let bytes = 0
    for (const loaded of this.loaded.values()) bytes += loaded.bytes
    const displayed = this.#displayed()
    if (displayed !== null && this.loaded.get(displayed.outputNo) !== displayed)
      bytes += displayed.bytes
    return bytes
  }

  /** The memory budget the outputs held are kept within. */
  budgetBytes(): number {
    return this.#budgetBytes
  }

  /**
   * Frees outputs unused for UNUSED_OUTPUTS_CLEAR_MS, and while the outputs held outgrow the
   * budget, the unused ones soonest (longest unused first); then checks again when the next one
   * is due.
   */
  #evict(nowMs: number): void {
    const displayed = this.#displayed()
    const unused = [...this.loaded.values()]
      .filter((loaded) => loaded.unusedSinceMs !== null)
      .sort((a, b) => (a.unusedSinceMs as number) - (b.unusedSinceMs as number))
    let heldBytes = this.heldBytes()
    for (const loaded of unused) {
      const expired = nowMs - (loaded.unusedSinceMs as number) >= UNUSED_OUTPUTS_CLEAR_MS
      if (!expired && heldBytes <= this.#budgetBytes) continue
      this.loaded.delete(loaded.outputNo)
      if (loaded !== displayed) {
        this.drop(loaded)
        heldBytes -= loaded.bytes
      }
    }
    const next = [...this.loaded.values()].find((loaded) => loaded.unusedSinceMs !== null)
    if (next === undefined || this.#sweepPending) return
    this.#sweepPending = true
    const dueMs = Math.max(0, (next.unusedSinceMs as number) + UNUSED_OUTPUTS_CLEAR_MS - nowMs)
    this.#host.scheduleTimeout(() => {
      this.#sweepPending = false
      this.#evict(this.#host.nowMs())
      this.#host.requestFrame()
    }, dueMs)
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
      if (loaded !== null) bytes += loaded.bytes
    }
    for (const outputNo of wishes.retained ?? []) {
      if (kept.has(outputNo)) continue
      const loaded = current(outputNo)
      if (loaded === null) continue
      bytes += loaded.bytes
      if (bytes > this.#budgetBytes) break
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
      bytes: outputBytes(output),
      unusedSinceMs: null,
    })
    // A new output may take the budget over: the unused ones go first.
    this.#evict(this.#host.nowMs())
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

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
