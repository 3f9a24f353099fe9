/**
 * The render worker's logic (workers/render.worker.ts is a thin Comlink shell over it): takes
 * intents and forwarded pointer events, owns the load scheduling over the data workers, keeps the
 * shown output and the playback window in memory, draws only when something changed (and never
 * while the previous frame is still on the GPU), and sends the UI at most one small snapshot per
 * frame, only when it changed. Everything with a clock or a GPU comes in through options, so the
 * engine runs in Node tests with a fake scene.
 */
import type { LineBasicMaterial, Matrix4 } from 'three'
import {
  CAMERA_KEYFRAME_ANIMATION_S,
  DEFAULT_POINT_SIZE_PX,
  DOUBLE_CLICK_WINDOW_MS,
  HOVER_THROTTLE_MS,
  PLAYBACK,
  TRIANGLE_LIMIT,
  VECTOR_FIELD_ARROWS,
  type ColourScheme,
  type DetailLevel,
} from '../../domain/constants.ts'
import type { WrittenDataset } from '../../domain/outputFormat.ts'
import {
  ATTRIBUTES,
  COLOUR_MAP_STATUS,
  defaultViewportState,
  initialColourRange,
  isAttributeName,
  type CameraState,
  type ClippingPlane,
  type ColourRange,
} from '../../domain/results.ts'
import { isAbortError, LoadScheduler, type SchedulableWorker } from '../data/scheduler.ts'
import type {
  DataToRenderMessage,
  ForwardedPointerEvent,
  LoadPriority,
  LoadRequest,
  PickResult,
  RenderCallbacks,
  RenderIntent,
  RenderSnapshot,
  RenderWorkerApi,
  RenderableOutput,
} from '../protocol.ts'
import {
  addVectors,
  cameraBasis,
  easeInOut,
  fitCamera,
  interpolateCamera,
  metresPerPixel,
  orientCamera,
  subtractVectors,
  switchCameraMode,
  vectorLength,
} from './camera.ts'
import { clipPlaneEquation, type PlaneEquation } from './clip.ts'
import { CameraControls } from './controls.ts'
import { computeDrawCounts } from './detail.ts'
import {
  colourDataRange,
  defaultObjectDisplay,
  OutputView,
  type ObjectDisplay,
  type SharedUniforms,
} from './OutputView.ts'
import { pickPoint, pointerToDevice, Throttle, type PickTarget } from './picking.ts'
import { PlaybackClock } from './playback.ts'
import type { ViewportSize } from './RenderScene.ts'
import { scaleBarForView } from './scaleBar.ts'
import { FrameRateMeter, SnapshotThrottle } from './snapshots.ts'
import { buildArrowSegments, sampleArrowRows } from './vectorField.ts'

/** Shown while the browser has taken the WebGL context away (it is usually given back). */
export const CONTEXT_LOST_MESSAGE =
  'The 3D view lost its graphics context. Waiting for it to come back…'

/**
 * Hover picks test at most this many points (≈10 ms on one core): hover runs every 30 ms and must
 * not starve the frames; a click tests every drawn point.
 */
export const HOVER_PICK_POINT_LIMIT = 1_000_000

/** Duration of a view-orientation camera animation (spec/results.md §9). */
export const CAMERA_ANIMATION_MS = CAMERA_KEYFRAME_ANIMATION_S * 1000

/** A second click this close (CSS pixels) to the first, within the window, is a double-click. */
export const DOUBLE_CLICK_DISTANCE_PX = 8

/** Point sizes the engine accepts, CSS pixels. */
export const POINT_SIZE_LIMITS_PX = { min: 1, max: 64 } as const

/** The coordinate-system axes are this fraction of the scene's radius long. */
const AXES_LENGTH_PER_RADIUS = 0.4

/** How long after a load's reply its output may still arrive before the load counts as failed. */
const MISSING_OUTPUT_GRACE_MS = 2000

/** What the engine needs of the GPU side (RenderScene, or a fake in tests). */
export interface EngineScene {
  readonly shared: SharedUniforms
  setSize(size: ViewportSize): void
  setColourMap(scheme: ColourScheme, range: ColourRange | null): void
  setClip(plane: PlaneEquation | null): void
  setCamera(camera: CameraState, sceneRadiusM: number): void
  viewProjection(): Matrix4
  showView(view: OutputView | null): void
  refreshView(): void
  /** Uploads a view's buffers to the GPU without drawing it (the next playback output). */
  uploadView(view: OutputView): void
  arrowMaterial(): LineBasicMaterial
  /** Shows or hides the axes at the origin, each `lengthM` long. */
  setCoordinateSystem(visible: boolean, lengthM: number): void
  /** Largest drawn particle size, CSS pixels. */
  setPointSize(sizePx: number): void
  isGpuBusy(): boolean
  /** Bytes uploaded to the GPU so far. */
  uploadedBytes(): number
  render(): void
  saveImage(): Promise<Blob>
  dispose(): void
}

/** A data worker as the engine uses it (a Comlink remote of DataWorkerApi satisfies it). */
export interface DataWorkerHandle extends SchedulableWorker {
  setAccessToken(token: string | null): unknown
  /** Takes back (transferred) the buffers of dropped outputs for the worker's pool. */
  recycleBuffers?(buffers: ArrayBuffer[]): unknown
}

/** The engine's environment. */
export interface RenderEngineOptions {
  /** Builds the GPU side; `onContextLost(lost)` reports a lost (true) or restored (false) context. */
  createScene(
    canvas: OffscreenCanvas,
    size: ViewportSize,
    onContextLost: (lost: boolean) => void,
  ): EngineScene
  /** Runs the callback at the next animation frame. */
  scheduleFrame(callback: () => void): void
  /** Runs the callback after a delay (fps decay, hover and wheel settling). */
  scheduleTimeout(callback: () => void, delayMs: number): void
  nowMs(): number
  /** Wraps a data worker's port (Comlink.wrap in the worker). */
  wrapDataWorker(port: MessagePort): DataWorkerHandle
}

interface OutputEntry {
  timeS: number
  bundleUrl: string
  estimatedBytes: number
}

interface LoadedOutput {
  outputNo: number
  dataset: WrittenDataset
  runKey: string
  output: RenderableOutput
  view: OutputView | null
  /** Data ranges per colour binding (a vector magnitude costs a pass over the columns). */
  dataRanges: Map<string, ColourRange | null>
  /** Its buffers are on the GPU already (staged ahead of playback). */
  uploaded: boolean
}

interface PendingLoad {
  outputNo: number
  dataset: WrittenDataset
  runKey: string
  priority: LoadPriority
}

interface ColourSetting {
  attribute: string
  columns: string[]
  scheme: ColourScheme
  range: ColourRange | null
}

/** The render worker's engine; implements RenderWorkerApi. */
export class RenderEngine implements RenderWorkerApi {
  #options: RenderEngineOptions
  #scene: EngineScene | null = null
  #callbacks: RenderCallbacks | null = null
  #size: ViewportSize = { width: 1, height: 1, devicePixelRatio: 1 }
  #camera: CameraState = defaultViewportState().camera
  #cameraFitted = false
  /** A view-orientation animation in progress (the camera moves there over CAMERA_ANIMATION_MS). */
  #cameraAnimation: { from: CameraState; to: CameraState; startMs: number } | null = null
  #coordinateSystem = false
  #pointSizePx: number = DEFAULT_POINT_SIZE_PX
  #controls = new CameraControls()
  #scheduler: LoadScheduler<DataWorkerHandle>
  #workers: DataWorkerHandle[] = []
  #run: { simulationId: number; runId: number } | null = null
  #outputInfo = new Map<number, OutputEntry>()
  #accessToken: string | null = null
  #dataset: WrittenDataset = 'full'
  /** The dataset played (PLAYBACK.reduction, 'fast', unless the play intent names one). */
  #playDataset: WrittenDataset = PLAYBACK.reduction
  #detail: DetailLevel = 'High'
  #colour: ColourSetting | null = null
  #clip: ClippingPlane | null = null
  #displays = new Map<string, ObjectDisplay>()
  #vectorColumns: [string, string, string] | null = null
  #clock = new PlaybackClock()
  #loaded = new Map<number, LoadedOutput>()
  #loading = new Map<string, PendingLoad>()
  #displayed: LoadedOutput | null = null
  /** The output of the last frame drawn: what the snapshot calls shown (it is on screen). */
  #drawnOutput: number | null = null
  #outputErrors = new Map<number, string>()
  #initError: string | null = null
  #contextLost = false
  #dataRange: ColourRange | null = null
  #colourStatus: string | null = null
  #pick: PickResult | null = null
  #hover: PickResult | null = null
  #pendingHover: { x: number; y: number } | null = null
  /** A click waiting out the double-click window before it picks. */
  #pendingClick: { x: number; y: number; atMs: number } | null = null
  #hoverThrottle = new Throttle(HOVER_THROTTLE_MS)
  #drawCounts = new Map<string, number>()
  #pointsDrawn = 0
  #trianglesDrawn = 0
  #needsDraw = true
  #arrowsStale = false
  #wasInteracting = false
  #framePending = false
  #frameNo = 0
  #fps = new FrameRateMeter()
  #snapshots = new SnapshotThrottle()
  #requestCounter = 0
  #recycleCounter = 0
  #disposed = false

  constructor(options: RenderEngineOptions) {
    this.#options = options
    this.#scheduler = new LoadScheduler<DataWorkerHandle>({
      requestWorker: () => this.#callbacks?.requestDataWorker(),
      onChange: () => this.#requestFrame(),
    })
  }

  // ── RenderWorkerApi ─────────────────────────────────────────────────────────────────────────

  init(
    canvas: OffscreenCanvas,
    size: { width: number; height: number; devicePixelRatio: number },
    callbacks: RenderCallbacks,
  ): Promise<void> {
    this.#callbacks = callbacks
    this.#size = sanitizeSize(size)
    try {
      this.#scene = this.#options.createScene(canvas, this.#size, (lost) => {
        this.#contextLost = lost
        this.#needsDraw = true
        this.#requestFrame()
      })
      // Intents that came before the canvas: their GPU state goes to the new scene now.
      this.#scene.setClip(clipPlaneEquation(this.#clip))
      this.#scene.setPointSize(this.#pointSizePx)
      this.#applyColour()
      this.#applyCamera()
    } catch (error) {
      // No WebGL2 (or a lost context): the UI shows the reason instead of a blank canvas.
      this.#initError = `The 3D view could not start: ${errorMessage(error)}`
    }
    this.#requestFrame()
    return Promise.resolve()
  }

  adoptDataWorker(port: MessagePort): void {
    const worker = this.#options.wrapDataWorker(port)
    port.addEventListener('message', (event: MessageEvent) => this.#handlePortMessage(event.data))
    port.start()
    this.#workers.push(worker)
    void Promise.resolve(worker.setAccessToken(this.#accessToken)).catch(() => undefined)
    this.#scheduler.addWorker(worker)
  }

  dispatch(intent: RenderIntent): void {
    if (this.#disposed) return
    this.#applyIntent(intent)
    this.#requestFrame()
  }

  forwardPointer(event: ForwardedPointerEvent): void {
    if (this.#disposed) return
    const now = this.#options.nowMs()
    const result = this.#controls.handleEvent(this.#camera, event, this.#size, now)
    if (result.camera !== this.#camera) this.#setCamera(result.camera)
    if (result.click !== null) this.#handleClick(result.click.x, result.click.y, now)
    if (result.hover !== null) this.#pendingHover = result.hover
    if (event.type === 'pointerleave') {
      this.#pendingHover = null
      this.#hover = null
    }
    const settlesAt = this.#controls.settlesAtMs(now)
    if (settlesAt !== null)
      this.#options.scheduleTimeout(() => this.#requestFrame(), settlesAt - now + 1)
    this.#requestFrame()
  }

  /**
   * Click and double-click are told apart by a 300 ms wait (spec/results.md §4): a click picks once
   * the window has passed without a second one; a double-click centres the view on the particle
   * under it (the camera moves there over the keyframe animation).
   */
  #handleClick(x: number, y: number, now: number): void {
    const pending = this.#pendingClick
    if (
      pending !== null &&
      now - pending.atMs <= DOUBLE_CLICK_WINDOW_MS &&
      Math.hypot(x - pending.x, y - pending.y) <= DOUBLE_CLICK_DISTANCE_PX
    ) {
      this.#pendingClick = null
      const hit = this.#pickAt(x, y)
      if (hit === null) return
      this.#pick = hit
      const shift = subtractVectors(hit.position, this.#camera.target)
      const to: CameraState = {
        ...this.#camera,
        target: [...hit.position],
        position: addVectors(this.#camera.position, shift),
      }
      this.#cameraAnimation = { from: this.#camera, to, startMs: now }
      return
    }
    this.#pendingClick = { x, y, atMs: now }
    this.#options.scheduleTimeout(() => this.#requestFrame(), DOUBLE_CLICK_WINDOW_MS + 1)
  }

  /** Picks for a click whose double-click window has passed; true while one is still waiting. */
  #resolveClick(now: number): boolean {
    const pending = this.#pendingClick
    if (pending === null) return false
    if (now - pending.atMs <= DOUBLE_CLICK_WINDOW_MS) return true
    this.#pendingClick = null
    this.#pick = this.#pickAt(pending.x, pending.y)
    return false
  }

  async saveImage(): Promise<Blob> {
    if (this.#scene === null) throw new Error(this.#initError ?? 'The 3D view is not available.')
    return this.#scene.saveImage()
  }

  dispose(): void {
    if (this.#disposed) return
    this.#disposed = true
    this.#scheduler.dispose()
    for (const loaded of this.#loaded.values()) loaded.view?.dispose()
    if (this.#displayed !== null && !this.#loaded.has(this.#displayed.outputNo))
      this.#displayed.view?.dispose()
    this.#loaded.clear()
    this.#displayed = null
    this.#scene?.dispose()
    this.#scene = null
  }

  // ── Intents ─────────────────────────────────────────────────────────────────────────────────

  #applyIntent(intent: RenderIntent): void {
    switch (intent.type) {
      case 'resize':
        this.#size = sanitizeSize(intent)
        this.#scene?.setSize(this.#size)
        this.#applyCamera()
        this.#arrowsStale = true
        return
      case 'set_outputs':
        this.#setOutputs(intent)
        return
      case 'show_output':
        // Asking for an output again retries it (a failure may have been passing).
        this.#outputErrors.delete(intent.outputNo)
        this.#clock.seek(intent.outputNo)
        this.#showCurrentOutput()
        this.#syncLoads()
        return
      case 'set_access_token':
        this.#accessToken = intent.token
        for (const worker of this.#workers)
          void Promise.resolve(worker.setAccessToken(intent.token)).catch(() => undefined)
        // Loads refused with the old token get another chance.
        this.#outputErrors.clear()
        this.#syncLoads()
        return
      case 'set_dataset':
        if (intent.dataset === this.#dataset) return
        this.#dataset = intent.dataset
        this.#outputErrors.clear()
        this.#syncLoads()
        return
      case 'set_detail':
        this.#detail = intent.level
        this.#needsDraw = true
        return
      case 'set_colour': {
        const columnsChanged = this.#colour?.columns.join() !== intent.columns.join()
        this.#colour = {
          attribute: intent.attribute,
          columns: [...intent.columns],
          scheme: intent.scheme,
          range: intent.range,
        }
        // A scheme or range change sets uniforms only: nothing is uploaded or rescanned.
        if (columnsChanged) this.#applyColour()
        else {
          this.#scene?.setColourMap(intent.scheme, this.#colourRange())
          this.#needsDraw = true
        }
        return
      }
      case 'set_clip':
        this.#clip = intent.clip
        this.#scene?.setClip(clipPlaneEquation(intent.clip))
        this.#needsDraw = true
        this.#arrowsStale = true
        return
      case 'set_camera':
        this.#cameraFitted = true
        this.#setCamera(intent.camera)
        return
      case 'set_camera_mode': {
        const animation = this.#cameraAnimation
        this.#setCamera(switchCameraMode(this.#camera, intent.mode))
        // A switch during an orientation animation keeps it going, in the new mode.
        if (animation !== null)
          this.#cameraAnimation = {
            ...animation,
            from: switchCameraMode(animation.from, intent.mode),
            to: switchCameraMode(animation.to, intent.mode),
          }
        return
      }
      case 'view_orientation': {
        // From where the camera is now (mid-animation too) to the orientation, over 0.7 s.
        const to = orientCamera(this.#camera, intent.direction, intent.up)
        this.#cameraAnimation = { from: this.#camera, to, startMs: this.#options.nowMs() }
        return
      }
      case 'set_coordinate_system':
        this.#coordinateSystem = intent.visible
        this.#applyCamera()
        return
      case 'set_point_size': {
        const sizePx = Number.isFinite(intent.sizePx) ? intent.sizePx : DEFAULT_POINT_SIZE_PX
        this.#pointSizePx = Math.min(
          POINT_SIZE_LIMITS_PX.max,
          Math.max(POINT_SIZE_LIMITS_PX.min, sizePx),
        )
        this.#scene?.setPointSize(this.#pointSizePx)
        this.#needsDraw = true
        return
      }
      case 'fit_view':
        this.#fitView()
        return
      case 'set_material_display': {
        const display = this.#displayOf(intent.objectId)
        this.#displays.set(intent.objectId, {
          ...display,
          materialMode: intent.mode,
          materialVisible: intent.visible,
        })
        this.#applyDisplay()
        return
      }
      case 'set_part_view': {
        const display = this.#displayOf(intent.objectId)
        this.#displays.set(intent.objectId, {
          ...display,
          partMode: intent.mode,
          partVisible: intent.visible,
        })
        this.#applyDisplay()
        return
      }
      case 'set_vectors':
        this.#vectorColumns = intent.enabled ? intent.columns : null
        this.#arrowsStale = true
        this.#needsDraw = true
        return
      case 'play':
        this.#playDataset = intent.dataset ?? PLAYBACK.reduction
        this.#clock.play(this.#options.nowMs(), intent.speed, intent.loop)
        this.#syncLoads()
        return
      case 'pause':
        this.#clock.pause()
        this.#syncLoads()
        return
      case 'set_speed':
        this.#clock.setSpeed(this.#options.nowMs(), intent.speed)
        return
      case 'pick':
        this.#pick = this.#pickAt(intent.x, intent.y)
        return
    }
  }

  #setOutputs(intent: Extract<RenderIntent, { type: 'set_outputs' }>): void {
    const runChanged =
      this.#run === null ||
      this.#run.simulationId !== intent.simulationId ||
      this.#run.runId !== intent.runId
    this.#run = { simulationId: intent.simulationId, runId: intent.runId }
    this.#outputInfo = new Map(
      intent.outputs.map((output) => [
        output.outputNo,
        {
          timeS: output.timeS,
          bundleUrl: output.bundleUrl,
          estimatedBytes: output.estimatedBytes,
        },
      ]),
    )
    if (runChanged) {
      // Another run's frame would be a lie: drop everything, including what is on screen.
      this.#outputErrors.clear()
      this.#scene?.showView(null)
      const dropped = new Set([...this.#loaded.values()])
      if (this.#displayed !== null) dropped.add(this.#displayed)
      this.#loaded.clear()
      this.#displayed = null
      for (const loaded of dropped) this.#dropOutput(loaded)
      this.#cameraFitted = false
      this.#pick = null
      this.#hover = null
    }
    this.#clock.setOutputs(intent.outputs.map((output) => output.outputNo))
    this.#showCurrentOutput()
    this.#syncLoads()
  }

  // ── Loading ─────────────────────────────────────────────────────────────────────────────────

  /** The dataset to show: the played one while playing, else the chosen one. */
  #effectiveDataset(): WrittenDataset {
    return this.#clock.isPlaying() ? this.#playDataset : this.#dataset
  }

  #runKey(): string {
    return this.#run === null ? '' : `${this.#run.simulationId}:${this.#run.runId}`
  }

  #isReady(outputNo: number): boolean {
    const loaded = this.#loaded.get(outputNo)
    return loaded !== undefined && loaded.dataset === this.#effectiveDataset()
  }

  /**
   * Loads what is wanted (the shown output first, then the playback window), cancels loads no
   * longer wanted, and drops loaded outputs outside the window (except the one on screen).
   */
  #syncLoads(): void {
    const run = this.#run
    if (run === null) return
    const runKey = this.#runKey()
    const dataset = this.#effectiveDataset()
    const wanted = this.#clock.wantedOutputs()
    const wantedSet = new Set(wanted)
    for (const [requestId, load] of this.#loading) {
      if (wantedSet.has(load.outputNo) && load.dataset === dataset && load.runKey === runKey)
        continue
      this.#loading.delete(requestId)
      this.#scheduler.cancel(requestId)
    }
    for (const [outputNo, loaded] of this.#loaded) {
      if (wantedSet.has(outputNo) && loaded.dataset === dataset && loaded.runKey === runKey)
        continue
      this.#loaded.delete(outputNo)
      if (loaded !== this.#displayed) this.#dropOutput(loaded)
    }
    wanted.forEach((outputNo, index) => {
      if (this.#isReady(outputNo) || this.#outputErrors.has(outputNo)) return
      // Starting playback keeps the output on screen as it is; the outputs ahead come reduced.
      if (index === 0 && this.#clock.isPlaying() && this.#displayed?.outputNo === outputNo) return
      const priority: LoadPriority =
        index === 0 ? 'shown' : this.#clock.isPlaying() ? 'playback' : 'prefetch'
      for (const [requestId, load] of this.#loading) {
        if (load.outputNo !== outputNo) continue
        if (load.priority !== priority) {
          load.priority = priority
          this.#scheduler.setPriority(requestId, priority)
        }
        return
      }
      const info = this.#outputInfo.get(outputNo)
      if (info === undefined) return
      const requestId = `render-${++this.#requestCounter}-${outputNo}-${dataset}`
      const request: LoadRequest = {
        requestId,
        key: { simulationId: run.simulationId, runId: run.runId, outputNo },
        source: { bundleUrl: info.bundleUrl, accessToken: this.#accessToken },
        dataset,
        objectIds: [],
        estimatedBytes: info.estimatedBytes,
        priority,
      }
      this.#loading.set(requestId, { outputNo, dataset, runKey, priority })
      this.#scheduler.schedule(request).then(
        () => {
          // The output message comes on the same port before the reply; a reply without one (a
          // worker that posted nothing) must not leave the output "loading" for ever.
          this.#options.scheduleTimeout(() => {
            if (this.#loading.delete(requestId)) this.#failLoad(outputNo, 'No data arrived.')
          }, MISSING_OUTPUT_GRACE_MS)
        },
        (error: unknown) => {
          if (!this.#loading.delete(requestId)) return
          if (!isAbortError(error)) this.#failLoad(outputNo, errorMessage(error))
          this.#requestFrame()
        },
      )
    })
  }

  #handlePortMessage(data: unknown): void {
    if (typeof data !== 'object' || data === null || !('type' in data)) return
    const message = data as DataToRenderMessage
    if (message.type === 'output') this.#receiveOutput(message.requestId, message.output)
    else if (message.type === 'load_failed') {
      const load = this.#loading.get(message.requestId)
      if (load === undefined) return
      this.#loading.delete(message.requestId)
      this.#failLoad(load.outputNo, message.message)
    }
  }

  #receiveOutput(requestId: string, output: RenderableOutput): void {
    const load = this.#loading.get(requestId)
    // A cancelled or stale load: its buffers are simply dropped.
    if (load === undefined || this.#disposed) return
    this.#loading.delete(requestId)
    const previous = this.#loaded.get(load.outputNo)
    if (previous !== undefined && previous !== this.#displayed) this.#dropOutput(previous)
    this.#outputErrors.delete(load.outputNo)
    this.#loaded.set(load.outputNo, {
      outputNo: load.outputNo,
      dataset: load.dataset,
      runKey: load.runKey,
      output,
      view: null,
      dataRanges: new Map(),
      uploaded: false,
    })
    if (load.outputNo === this.#clock.currentOutput()) this.#showCurrentOutput()
    this.#syncLoads()
    this.#requestFrame()
  }

  /**
   * Frees an output nobody draws any more: its GPU buffers, and its column buffers go back to a
   * data worker's pool (transferred) so the next load does not fault in fresh memory.
   */
  #dropOutput(loaded: LoadedOutput): void {
    loaded.view?.dispose()
    loaded.view = null
    const buffers = new Set<ArrayBuffer>()
    for (const object of loaded.output.objects) {
      buffers.add(object.buffer)
      if (object.mesh !== null) buffers.add(object.mesh.buffer)
    }
    const worker = this.#workers[this.#recycleCounter++ % Math.max(1, this.#workers.length)]
    if (worker?.recycleBuffers === undefined || buffers.size === 0) return
    void Promise.resolve(worker.recycleBuffers([...buffers])).catch(() => undefined)
  }

  #failLoad(outputNo: number, message: string): void {
    this.#outputErrors.set(outputNo, `Output ${outputNo} could not be loaded. ${message}`)
    this.#requestFrame()
  }

  // ── Display ─────────────────────────────────────────────────────────────────────────────────

  /** Puts the clock's current output on screen when it is loaded; otherwise the last frame stays. */
  #showCurrentOutput(): void {
    const outputNo = this.#clock.currentOutput()
    if (outputNo === null) return
    const loaded = this.#loaded.get(outputNo)
    if (
      loaded === undefined ||
      loaded.dataset !== this.#effectiveDataset() ||
      loaded === this.#displayed
    )
      return
    const scene = this.#scene
    if (scene === null) return
    let view: OutputView
    try {
      view = loaded.view ?? new OutputView(loaded.output, scene.shared)
    } catch (error) {
      this.#failLoad(outputNo, errorMessage(error))
      return
    }
    loaded.view = view
    const previous = this.#displayed
    this.#displayed = loaded
    if (previous !== null && this.#loaded.get(previous.outputNo) !== previous)
      this.#dropOutput(previous)
    this.#applyColour()
    view.applyDisplay((id) => this.#displayOf(id))
    this.#arrowsStale = true
    scene.showView(view)
    if (!this.#cameraFitted && view.bounds !== null) {
      this.#cameraFitted = true
      // An orientation asked for before the first output lands at once, framing it.
      this.#camera = fitCamera(
        this.#cameraAnimation?.to ?? this.#camera,
        view.bounds,
        this.#aspect(),
      )
      this.#cameraAnimation = null
    }
    this.#applyCamera()
    this.#needsDraw = true
  }

  #displayOf(objectId: string): ObjectDisplay {
    return this.#displays.get(objectId) ?? defaultObjectDisplay()
  }

  #applyDisplay(): void {
    const added = this.#displayed?.view?.applyDisplay((id) => this.#displayOf(id)) ?? false
    if (added) this.#scene?.refreshView()
    this.#needsDraw = true
    this.#arrowsStale = true
  }

  /** Binds the colour columns of the shown output and sets scheme and range (uniforms only). */
  #applyColour(): void {
    const displayed = this.#displayed
    const view = displayed?.view ?? null
    const colour = this.#colour
    this.#colourStatus = null
    this.#dataRange = null
    if (displayed !== null && view !== null) {
      const bound = view.bindColour(colour === null ? null : colour.columns)
      if (colour !== null) {
        const key = colour.columns.join()
        if (!displayed.dataRanges.has(key))
          displayed.dataRanges.set(key, colourDataRange(view, colour.columns))
        this.#dataRange = displayed.dataRanges.get(key) ?? null
        if (!bound)
          this.#colourStatus = COLOUR_MAP_STATUS.notAvailable(attributeLabel(colour.attribute))
      }
    }
    if (colour !== null) this.#scene?.setColourMap(colour.scheme, this.#colourRange())
    this.#needsDraw = true
  }

  #colourRange(): ColourRange | null {
    const colour = this.#colour
    if (colour === null) return null
    if (colour.range !== null) return colour.range
    return isAttributeName(colour.attribute)
      ? initialColourRange(colour.attribute, this.#dataRange)
      : this.#dataRange
  }

  // ── Camera ──────────────────────────────────────────────────────────────────────────────────

  #aspect(): number {
    return this.#size.width / this.#size.height
  }

  #sceneRadius(): number {
    const bounds = this.#displayed?.view?.bounds ?? null
    return bounds === null ? 1 : vectorLength(subtractVectors(bounds.max, bounds.min)) / 2
  }

  /** Moves the camera; an orientation animation under way stops where it is. */
  #setCamera(camera: CameraState): void {
    this.#cameraAnimation = null
    this.#camera = camera
    this.#applyCamera()
  }

  /** Advances the orientation animation to `now`; true while it goes on. */
  #animateCamera(now: number): boolean {
    const animation = this.#cameraAnimation
    if (animation === null) return false
    const t = (now - animation.startMs) / CAMERA_ANIMATION_MS
    this.#camera = interpolateCamera(animation.from, animation.to, easeInOut(t))
    if (t >= 1) {
      this.#camera = animation.to
      this.#cameraAnimation = null
    }
    this.#applyCamera()
    return this.#cameraAnimation !== null
  }

  #applyCamera(): void {
    const radius = this.#sceneRadius()
    this.#scene?.setCamera(this.#camera, radius)
    this.#scene?.setCoordinateSystem(this.#coordinateSystem, radius * AXES_LENGTH_PER_RADIUS)
    this.#needsDraw = true
    this.#arrowsStale = true
  }

  #fitView(): void {
    const bounds = this.#displayed?.view?.bounds ?? null
    if (bounds === null) return
    this.#cameraFitted = true
    // Fitting during an orientation animation frames the orientation it was heading to.
    this.#setCamera(fitCamera(this.#cameraAnimation?.to ?? this.#camera, bounds, this.#aspect()))
  }

  // ── Frames ──────────────────────────────────────────────────────────────────────────────────

  #requestFrame(): void {
    if (this.#framePending || this.#disposed) return
    this.#framePending = true
    this.#options.scheduleFrame(() => this.#frame())
  }

  #frame(): void {
    this.#framePending = false
    if (this.#disposed) return
    const now = this.#options.nowMs()
    this.#frameNo++
    const wasPlaying = this.#clock.isPlaying()
    const next = this.#clock.tick(
      now,
      (outputNo) => this.#isReady(outputNo) || this.#outputErrors.has(outputNo),
    )
    // A new output, or playback ran out (its end shows in the chosen dataset again).
    if (next !== null || (wasPlaying && !this.#clock.isPlaying())) {
      this.#showCurrentOutput()
      this.#syncLoads()
    }
    const animating = this.#animateCamera(now)
    // An animating camera draws like a dragged one: the light subset, no arrows until it stops.
    const interacting = this.#controls.isInteracting(now) || animating
    if (interacting !== this.#wasInteracting) {
      this.#wasInteracting = interacting
      this.#needsDraw = true
    }
    let again = this.#clock.isPlaying() || interacting
    const scene = this.#contextLost ? null : this.#scene
    if (scene !== null && this.#needsDraw) {
      if (scene.isGpuBusy()) {
        again = true
      } else {
        this.#updateDrawCounts(interacting)
        if (!interacting && this.#arrowsStale) this.#updateArrows()
        scene.render()
        this.#drawnOutput = this.#displayed?.outputNo ?? null
        this.#needsDraw = false
        this.#fps.recordFrame(now)
        // Let the fps readout fall back once frames stop.
        this.#options.scheduleTimeout(() => this.#requestFrame(), 1100)
      }
    }
    if (this.#resolveClick(now)) again = true
    if (this.#pendingHover !== null && !interacting) {
      if (this.#hoverThrottle.tryAcquire(now)) {
        this.#hover = this.#pickAt(
          this.#pendingHover.x,
          this.#pendingHover.y,
          HOVER_PICK_POINT_LIMIT,
        )
        this.#pendingHover = null
      } else again = true
    }
    if (scene !== null && this.#clock.isPlaying() && !scene.isGpuBusy()) this.#uploadNext(scene)
    this.#sendSnapshot(now)
    if (again) this.#requestFrame()
  }

  /**
   * Uploads the next playback output while the GPU is idle, so that showing it is a swap of draw
   * calls, not a 28-bytes-per-particle upload in the frame that must be on time.
   */
  #uploadNext(scene: EngineScene): void {
    const next = this.#clock.nextOutput()
    const loaded = next === null ? undefined : this.#loaded.get(next)
    if (loaded === undefined || loaded.uploaded || loaded === this.#displayed) return
    if (loaded.dataset !== this.#effectiveDataset()) return
    try {
      loaded.view ??= new OutputView(loaded.output, scene.shared)
    } catch {
      // A broken output fails when it is shown, with its message.
      return
    }
    const colour = this.#colour
    loaded.view.bindColour(colour === null ? null : colour.columns)
    // A vector magnitude's range is a pass over three columns: better now than in its frame.
    if (colour !== null && !loaded.dataRanges.has(colour.columns.join()))
      loaded.dataRanges.set(colour.columns.join(), colourDataRange(loaded.view, colour.columns))
    loaded.view.applyDisplay((id) => this.#displayOf(id))
    scene.uploadView(loaded.view)
    loaded.uploaded = true
  }

  #updateDrawCounts(interacting: boolean): void {
    const view = this.#displayed?.view ?? null
    this.#drawCounts = new Map()
    this.#pointsDrawn = 0
    this.#trianglesDrawn = 0
    if (view === null) return
    const visible = view.objects.filter((object) => object.points?.visible === true)
    const counts = computeDrawCounts(
      visible.map((object) => object.object.particleCount),
      this.#detail,
      interacting,
    )
    visible.forEach((object, index) => {
      const count = counts[index] as number
      this.#drawCounts.set(object.object.objectId, count)
      this.#pointsDrawn += count
    })
    for (const object of view.objects)
      if (object.points !== null && object.points.visible !== true)
        this.#drawCounts.set(object.object.objectId, 0)
    const triangleLimit = this.#detail === 'All' ? null : TRIANGLE_LIMIT
    view.setDrawCounts(this.#drawCounts, triangleLimit)
    for (const object of view.objects) {
      if (object.mesh?.visible !== true) continue
      const triangles = object.object.mesh?.triangleCount ?? 0
      this.#trianglesDrawn +=
        triangleLimit === null ? triangles : Math.min(triangles, triangleLimit)
    }
  }

  /** Samples arrows over the drawn points (at most 5000, 25 px apart) along the vector columns. */
  #updateArrows(): void {
    this.#arrowsStale = false
    const view = this.#displayed?.view ?? null
    const scene = this.#scene
    if (view === null || scene === null) return
    const columns = this.#vectorColumns
    const sources = columns === null ? [] : this.#pickTargets(view)
    const vectors = sources.map((source) => {
      const object = view.objects.find((o) => o.object.objectId === source.objectId)
      const arrays = columns?.map((name) => object?.columns.get(name))
      return arrays?.every((array) => array !== undefined) === true
        ? (arrays as [Float32Array, Float32Array, Float32Array])
        : null
    })
    const usable = sources.filter((_, index) => vectors[index] !== null)
    const usableVectors = vectors.filter((v) => v !== null)
    if (usable.length === 0) {
      view.setArrows(null, scene.arrowMaterial())
      scene.refreshView()
      return
    }
    const samples = sampleArrowRows(
      usable,
      scene.viewProjection().elements,
      this.#size.width,
      this.#size.height,
      clipPlaneEquation(this.#clip),
    )
    let maxMagnitude = 0
    samples.forEach((rows, s) => {
      const [a, b, c] = usableVectors[s] as [Float32Array, Float32Array, Float32Array]
      for (const row of rows) {
        const magnitude = Math.hypot(a[row] as number, b[row] as number, c[row] as number)
        if (Number.isFinite(magnitude)) maxMagnitude = Math.max(maxMagnitude, magnitude)
      }
    })
    const lengthM = VECTOR_FIELD_ARROWS.spacingPx * metresPerPixel(this.#camera, this.#size.height)
    const parts = samples.map((rows, s) =>
      buildArrowSegments(
        usable[s] as PickTarget,
        usableVectors[s] as [Float32Array, Float32Array, Float32Array],
        rows,
        maxMagnitude,
        lengthM,
        cameraBasis(this.#camera).forward,
      ),
    )
    const segments = new Float32Array(parts.reduce((sum, part) => sum + part.length, 0))
    let offset = 0
    for (const part of parts) {
      segments.set(part, offset)
      offset += part.length
    }
    view.setArrows(segments, scene.arrowMaterial())
    scene.refreshView()
  }

  // ── Picking ─────────────────────────────────────────────────────────────────────────────────

  /** The drawn points of each visible object (the prefix the last frame drew). */
  #pickTargets(view: OutputView): PickTarget[] {
    const targets: PickTarget[] = []
    for (const object of view.objects) {
      if (object.points?.visible !== true) continue
      const x = object.columns.get('x')
      const y = object.columns.get('y')
      const z = object.columns.get('z')
      if (x === undefined || y === undefined || z === undefined) continue
      const count = this.#drawCounts.get(object.object.objectId) ?? object.object.particleCount
      targets.push({ objectId: object.object.objectId, x, y, z, count })
    }
    return targets
  }

  /** Picks over the drawn points; `maxPoints` bounds the work (a prefix is a uniform subset). */
  #pickAt(xPx: number, yPx: number, maxPoints = Infinity): PickResult | null {
    const view = this.#displayed?.view ?? null
    const scene = this.#scene
    if (view === null || scene === null) return null
    const [ndcX, ndcY] = pointerToDevice(xPx, yPx, this.#size.width, this.#size.height)
    let targets = this.#pickTargets(view)
    const total = targets.reduce((sum, target) => sum + target.count, 0)
    if (total > maxPoints)
      targets = targets.map((target) => ({
        ...target,
        count: Math.ceil((target.count * maxPoints) / total),
      }))
    const hit = pickPoint(
      targets,
      scene.viewProjection().elements,
      ndcX,
      ndcY,
      this.#aspect(),
      clipPlaneEquation(this.#clip),
    )
    if (hit === null) return null
    const object = view.objects.find((o) => o.object.objectId === hit.objectId)
    const arrays = this.#colour?.columns.map((name) => object?.columns.get(name)) ?? []
    const values: number[] = []
    for (const array of arrays) if (array !== undefined) values.push(array[hit.index] ?? NaN)
    let value: number | null = null
    if (values.length > 0 && values.length === arrays.length)
      value = values.length === 1 ? (values[0] ?? null) : Math.hypot(...values)
    return { objectId: hit.objectId, index: hit.index, position: hit.position, value }
  }

  // ── Snapshot ────────────────────────────────────────────────────────────────────────────────

  #snapshot(now: number): RenderSnapshot {
    const shown = this.#clock.currentOutput()
    const loaded = [...this.#loaded.values()]
      .filter((output) => output.dataset === this.#effectiveDataset())
      .map((output) => output.outputNo)
      .sort((a, b) => a - b)
    const loading = [...new Set([...this.#loading.values()].map((load) => load.outputNo))].sort(
      (a, b) => a - b,
    )
    const error =
      this.#initError ??
      (this.#contextLost ? CONTEXT_LOST_MESSAGE : null) ??
      (shown === null ? null : (this.#outputErrors.get(shown) ?? null))
    return {
      camera: this.#camera,
      fps: this.#fps.framesPerSecond(now),
      pointsDrawn: this.#displayed === null ? 0 : this.#pointsDrawn,
      trianglesDrawn: this.#displayed === null ? 0 : this.#trianglesDrawn,
      shownOutput: this.#drawnOutput,
      loadedOutputs: loaded,
      loadingOutputs: loading,
      bytesInFlight: this.#scheduler.state().bytesInFlight,
      dataRange: this.#dataRange,
      colourRange: this.#colourRange(),
      playing: this.#clock.isPlaying(),
      speed: this.#clock.speed(),
      scaleBar: scaleBarForView(this.#camera, this.#size.width, this.#size.height),
      pick: this.#pick,
      hover: this.#hover,
      error,
      colourStatus: this.#colourStatus,
      uploadedBytes: this.#scene?.uploadedBytes() ?? 0,
      playbackFrames: this.#clock.punctuality(),
      coordinateSystem: this.#coordinateSystem,
      pointSizePx: this.#pointSizePx,
      bounds: this.#displayed?.view?.bounds ?? null,
      cameraAnimating: this.#cameraAnimation !== null,
    }
  }

  #sendSnapshot(now: number): void {
    const callbacks = this.#callbacks
    if (callbacks === null) return
    const snapshot = this.#snapshots.offer(this.#frameNo, this.#snapshot(now))
    if (snapshot === null) return
    // A Comlink proxy returns a promise; a closed main thread must not break the loop.
    void Promise.resolve(callbacks.onSnapshot(snapshot)).catch(() => undefined)
  }
}

function sanitizeSize(size: {
  width: number
  height: number
  devicePixelRatio: number
}): ViewportSize {
  const positive = (value: number, fallback: number) =>
    Number.isFinite(value) && value > 0 ? value : fallback
  return {
    width: positive(size.width, 1),
    height: positive(size.height, 1),
    devicePixelRatio: positive(size.devicePixelRatio, 1),
  }
}

function attributeLabel(attribute: string): string {
  return isAttributeName(attribute) ? ATTRIBUTES[attribute].label : attribute
}

function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message
  return String(error)
}
