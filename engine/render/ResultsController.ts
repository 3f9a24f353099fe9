/**
 * The results scene of the render worker: the outputs of a run (loaded through OutputLoads), the
 * shown output and its playback, detail levels, colour mapping, per-object display, velocity
 * arrows and particle picking. The engine owns the camera, the frames and the snapshot; it calls
 * in here for the results' share of each.
 */
import { PLAYBACK } from '../../domain/constants.ts'
import type { WrittenDataset } from '../../domain/outputFormat.ts'
import type { PickResult, RenderSnapshot } from '../protocol.ts'
import { addVectors, fitCamera, subtractVectors, type Bounds } from './camera.ts'
import type { EngineScene, SceneHost, ViewScene } from './host.ts'
import { LoadStatusThrottle } from './loadStatus.ts'
import { OutputDisplay } from './OutputDisplay.ts'
import { OutputLoads } from './OutputLoads.ts'
import { OutputView } from './OutputView.ts'
import { PlaybackClock } from './playback.ts'
import { ResultsClips } from './ResultsClips.ts'
import { HOVER_PICK_POINT_LIMIT, type ResultsIntent } from './resultsIntents.ts'

export { HOVER_PICK_POINT_LIMIT, type ResultsIntent } from './resultsIntents.ts'

/** The results scene's state and logic. */
export class ResultsController implements ViewScene {
  #host: SceneHost
  #loads: OutputLoads
  #display: OutputDisplay
  #dataset: WrittenDataset = 'full'
  /** The dataset played (PLAYBACK.reduction, 'fast', unless the play intent names one). */
  #playDataset: WrittenDataset = PLAYBACK.reduction
  #clock = new PlaybackClock()
  /** The output of the last frame drawn: what the snapshot calls shown (it is on screen). */
  #drawnOutput: number | null = null
  #pick: PickResult | null = null
  #hover: PickResult | null = null
  #cameraFitted = false
  #clips: ResultsClips
  #loadStatus: LoadStatusThrottle

  constructor(host: SceneHost) {
    this.#host = host
    this.#loadStatus = new LoadStatusThrottle((delayMs, wake) =>
      host.scheduleTimeout(() => {
        wake()
        host.requestFrame()
      }, delayMs),
    )
    this.#display = new OutputDisplay(host)
    this.#clips = new ResultsClips(host, {
      loads: () => this.#loads,
      shown: () => this.#display.shown(),
      currentOutput: () => this.#clock.currentOutput(),
      showCurrentOutput: () => this.#showCurrentOutput(),
      remasked: () => this.#display.markArrowsStale(),
    })
    this.#loads = new OutputLoads(
      host,
      (outputNo) => {
        if (outputNo === this.#clock.currentOutput()) this.#showCurrentOutput()
        this.#syncLoads()
      },
      () => this.#display.shown(),
      () => this.#clips.specs(),
    )
  }

  /** The sensors and volume clips drawn with the shown output. */
  overlayRoot() {
    return this.#clips.root()
  }

  /** Applies a results intent. */
  applyIntent(intent: ResultsIntent): void {
    switch (intent.type) {
      case 'set_outputs':
        if (this.#loads.setOutputs(intent)) this.#dropRun()
        this.#clock.setOutputs(intent.outputs.map((output) => output.outputNo))
        this.#showCurrentOutput()
        this.#syncLoads()
        return
      case 'show_output':
        // Asking for an output again retries it (a failure may have been passing).
        this.#loads.errors.delete(intent.outputNo)
        this.#clock.seek(intent.outputNo)
        this.#showCurrentOutput()
        this.#syncLoads()
        return
      case 'set_dataset':
        if (intent.dataset === this.#dataset) return
        this.#dataset = intent.dataset
        this.#loads.errors.clear()
        this.#syncLoads()
        return
      case 'set_detail':
        this.#display.setDetail(intent.level)
        return
      case 'set_colour':
        this.#display.setColour(intent)
        return
      case 'set_material_display':
        this.#display.setObjectDisplay(intent.objectId, {
          materialMode: intent.mode,
          materialVisible: intent.visible,
        })
        return
      case 'set_part_view':
        this.#display.setObjectDisplay(intent.objectId, {
          partMode: intent.mode,
          partVisible: intent.visible,
        })
        return
      case 'set_vectors':
        this.#display.setVectors(intent.enabled ? intent.columns : null)
        return
      case 'play':
        this.#playDataset = intent.dataset ?? PLAYBACK.reduction
        this.#clock.play(this.#host.nowMs(), intent.speed, intent.loop)
        this.#syncLoads()
        return
      case 'pause':
        this.#clock.pause()
        this.#syncLoads()
        return
      case 'set_speed':
        this.#clock.setSpeed(this.#host.nowMs(), intent.speed)
        // The window's lead is a time: a faster speed reaches more outputs ahead.
        this.#syncLoads()
        return
      case 'set_memory_readings':
        this.#loads.setMemoryReadings({
          deviceMemoryGiB: intent.deviceMemoryGiB,
          pageBytes: intent.pageBytes,
        })
        this.#syncLoads()
        return
      case 'pick':
        this.#pick = this.#display.pickAt(intent.x, intent.y)
        return
      case 'set_overlays':
        this.#clips.set(intent)
        return
    }
  }

  /** A new token: loads refused with the old one get another chance. */
  retryLoads(): void {
    this.#loads.errors.clear()
    this.#clips.retryFailed()
    this.#syncLoads()
  }

  /** The camera, viewport or clip changed: arrows are resampled once it settles. */
  viewChanged(): void {
    this.#display.markArrowsStale()
    this.#clips.viewChanged()
  }

  /** The camera was placed on purpose (a restored view): the first output does not refit it. */
  markCameraFitted(): void {
    this.#cameraFitted = true
  }

  handlePortMessage(data: unknown): void {
    this.#loads.handlePortMessage(data)
  }

  /** Bounds of the shown output's objects (null: nothing shown yet). */
  bounds(): Bounds | null {
    return this.#display.shown()?.view?.bounds ?? null
  }

  /** Frames the shown output (fitting during an orientation animation frames its destination). */
  fitView(): void {
    const bounds = this.bounds()
    if (bounds === null) return
    this.#cameraFitted = true
    const size = this.#host.size()
    const from = this.#host.cameraDestination() ?? this.#host.camera()
    this.#host.setCamera(fitCamera(from, bounds, size.width / size.height))
  }

  /** A click (after the double-click window) picks; an additive one does nothing here. */
  click(x: number, y: number, additive: boolean): void {
    if (!additive) this.#pick = this.#display.pickAt(x, y)
  }

  /** A double click centres the view on the particle under it, keeping the view direction. */
  doubleClick(x: number, y: number): void {
    const hit = this.#display.pickAt(x, y)
    if (hit === null) return
    this.#pick = hit
    const camera = this.#host.camera()
    const shift = subtractVectors(hit.position, camera.target)
    this.#host.animateCamera({
      ...camera,
      target: [...hit.position],
      position: addVectors(camera.position, shift),
    })
  }

  hoverAt(x: number, y: number): void {
    this.#hover = this.#display.pickAt(x, y, HOVER_PICK_POINT_LIMIT)
  }

  clearHover(): void {
    this.#hover = null
  }

  isPlaying(): boolean {
    return this.#clock.isPlaying()
  }

  /** Advances playback to `nowMs` (a new output shows, or playback ran out and the chosen dataset returns). */
  tick(nowMs: number): void {
    const wasPlaying = this.#clock.isPlaying()
    const dataset = this.#effectiveDataset()
    // An output still loading (or loaded, its clip masks still coming) does not hold the clock
    // back: the latest loaded output stays on screen until it is in.
    const next = this.#clock.tick(
      nowMs,
      (outputNo) =>
        (this.#loads.isReady(outputNo, dataset) && this.#clips.isReady(outputNo)) ||
        this.#loads.errors.has(outputNo) ||
        this.#display.shown()?.outputNo === outputNo,
      (outputNo) =>
        this.#loads.isLoading(outputNo, dataset) || this.#loads.isReady(outputNo, dataset),
    )
    if (next !== null || (wasPlaying && !this.#clock.isPlaying())) {
      this.#showCurrentOutput()
      this.#syncLoads()
    }
  }

  /** Before a frame is drawn: draw counts for the detail level, arrows once the camera rests. */
  beforeDraw(interacting: boolean): void {
    this.#display.beforeDraw(interacting)
  }

  /** A frame was drawn. */
  afterDraw(): void {
    this.#drawnOutput = this.#display.shown()?.outputNo ?? null
  }

  /**
   * Uploads the next playback output while the GPU is idle, so that showing it is a swap of draw
   * calls, not a 28-bytes-per-particle upload in the frame that must be on time.
   */
  uploadAhead(scene: EngineScene): void {
    if (!this.#clock.isPlaying()) return
    const next = this.#clock.nextOutput()
    const loaded = next === null ? undefined : this.#loads.loaded.get(next)
    if (loaded === undefined || loaded.uploaded || loaded === this.#display.shown()) return
    if (loaded.dataset !== this.#effectiveDataset()) return
    if (!this.#clips.prepare(loaded)) return
    try {
      loaded.view ??= new OutputView(loaded.output, scene.shared)
    } catch {
      // A broken output fails when it is shown, with its message.
      return
    }
    this.#clips.apply(loaded)
    this.#display.stage(loaded, scene)
    loaded.uploaded = true
  }

  /** The results' share of the snapshot. */
  snapshot(): Omit<
    RenderSnapshot,
    'camera' | 'fps' | 'bytesInFlight' | 'scaleBar' | 'error' | 'uploadedBytes'
  > & { outputError: string | null } {
    const shown = this.#clock.currentOutput()
    const dataset = this.#effectiveDataset()
    const loaded = [...this.#loads.loaded.values()]
      .filter((output) => output.dataset === dataset)
      .map((output) => output.outputNo)
      .sort((a, b) => a - b)
    const drawn = this.#display.drawn()
    const overlays = this.#clips.snapshot()
    const status = this.#loadStatus.offer(this.#host.nowMs(), {
      loadedOutputs: loaded,
      loadingOutputs: this.#loads.loadingOutputs(),
    })
    return {
      pointsDrawn: drawn.points,
      trianglesDrawn: drawn.triangles,
      shownOutput: this.#drawnOutput,
      loadedOutputs: status.loadedOutputs,
      loadingOutputs: status.loadingOutputs,
      memory: { heldBytes: this.#loads.heldBytes(), budgetBytes: this.#loads.budgetBytes() },
      dataRange: this.#display.dataRange(),
      colourRange: this.#display.colourRange(),
      playing: this.#clock.isPlaying(),
      speed: this.#clock.speed(),
      pick: this.#pick,
      hover: this.#hover,
      colourStatus: this.#display.colourStatus(),
      playbackFrames: this.#clock.punctuality(),
      bounds: this.bounds(),
      ...(overlays === null ? {} : { overlays }),
      outputError: shown === null ? null : (this.#loads.errors.get(shown) ?? null),
    }
  }

  /** Binds the colour of the shown output again (the scene is new). */
  applyColour(): void {
    this.#display.applyColour()
  }

  dispose(): void {
    this.#clips.dispose()
    for (const loaded of this.#loads.loaded.values()) loaded.view?.dispose()
    const shown = this.#display.shown()
    if (shown !== null && !this.#loads.loaded.has(shown.outputNo)) shown.view?.dispose()
    this.#loads.loaded.clear()
    this.#display.show(null)
  }

  /** Another run's frame would be a lie: drop everything, including what is on screen. */
  #dropRun(): void {
    this.#host.scene()?.showView(null)
    const dropped = new Set([...this.#loads.loaded.values()])
    const shown = this.#display.shown()
    if (shown !== null) dropped.add(shown)
    this.#loads.loaded.clear()
    this.#display.show(null)
    for (const loaded of dropped) this.#loads.drop(loaded)
    this.#cameraFitted = false
    this.#pick = null
    this.#hover = null
  }

  /** The dataset to show: the played one while playing, else the chosen one. */
  #effectiveDataset(): WrittenDataset {
    return this.#clock.isPlaying() ? this.#playDataset : this.#dataset
  }

  #syncLoads(): void {
    const playing = this.#clock.isPlaying()
    this.#loads.sync({
      wanted: playing
        ? this.#loads.playbackWindow(
            this.#clock.upcomingOutputs(),
            this.#effectiveDataset(),
            1000 / this.#clock.frameIntervalMs(),
          )
        : this.#clock.wantedOutputs(),
      retained: this.#clock.retainedOutputs(),
      dataset: this.#effectiveDataset(),
      playing: this.#clock.isPlaying(),
      displayed: this.#display.shown(),
    })
  }

  /** Puts the clock's current output on screen when it is loaded; otherwise the last frame stays. */
  #showCurrentOutput(): void {
    const outputNo = this.#clock.currentOutput()
    if (outputNo === null) return
    const loaded = this.#loads.loaded.get(outputNo)
    if (
      loaded === undefined ||
      loaded.dataset !== this.#effectiveDataset() ||
      loaded === this.#display.shown()
    )
      return
    const scene = this.#host.scene()
    if (scene === null) return
    // The shown clips' masks first: until they are in, the last frame stays.
    if (!this.#clips.prepare(loaded)) return
    let view: OutputView
    try {
      view = loaded.view ?? new OutputView(loaded.output, scene.shared)
    } catch (error) {
      this.#loads.fail(outputNo, error instanceof Error ? error.message : String(error))
      return
    }
    loaded.view = view
    this.#clips.apply(loaded)
    const previous = this.#display.shown()
    this.#display.show(loaded)
    if (previous !== null && this.#loads.loaded.get(previous.outputNo) !== previous)
      this.#loads.drop(previous)
    scene.showView(view)
    if (!this.#cameraFitted && view.bounds !== null) {
      this.#cameraFitted = true
      // An orientation asked for before the first output lands at once, framing it.
      const size = this.#host.size()
      const from = this.#host.cameraDestination() ?? this.#host.camera()
      this.#host.setCamera(fitCamera(from, view.bounds, size.width / size.height))
    }
    this.#host.refreshCamera()
    this.#host.invalidate()
  }
}
