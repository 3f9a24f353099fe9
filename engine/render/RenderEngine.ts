/**
 * The render worker's logic (workers/render.worker.ts is a thin Comlink shell over it): one engine,
 * two scenes. The results scene (ResultsController: outputs, playback, colour, particles) and the
 * setup scene (setup/SetupController: parts, meshes, gizmos, timeline) share the camera, pointer
 * controls, clip plane, axes, scale bar, fit view and Save Image; `set_scene` picks the one drawn,
 * the other keeps its state. Frames are drawn only when something changed (and never while the
 * previous one is still on the GPU), and the UI gets at most one small snapshot per frame, only
 * when it changed. Everything with a clock or a GPU comes in through options, so the engine runs
 * in Node tests with a fake scene.
 */
import { DEFAULT_POINT_SIZE_PX } from '../../domain/constants.ts'
import type { ClippingPlane } from '../../domain/results.ts'
import { DataWorkers } from './DataWorkers.ts'
import type {
  ForwardedKeyEvent,
  ForwardedPointerEvent,
  RenderCallbacks,
  RenderIntent,
  RenderSnapshot,
  RenderWorkerApi,
} from '../protocol.ts'
import type { SceneKind } from '../setupProtocol.ts'
import { orientCamera, subtractVectors, vectorLength } from './camera.ts'
import { clipPlaneEquation } from './clip.ts'
import { applyCameraKey, cameraKeyAction } from './keyboardControls.ts'
import type { EngineScene, RenderEngineOptions, SceneHost, ViewScene } from './host.ts'
import { clampPointSize, sanitizeViewportSize, type ViewportSize } from './RenderScene.ts'
import { PointerInput } from './PointerInput.ts'
import { ResultsController, type ResultsIntent } from './ResultsController.ts'
import { scaleBarForView } from './scaleBar.ts'
import { SetupController, type SetupControllerIntent } from './setup/SetupController.ts'
import { FrameRateMeter, SnapshotThrottle, withSetupScene } from './snapshots.ts'
import { ViewCamera } from './ViewCamera.ts'

export type { DataWorkerHandle, EngineScene, RenderEngineOptions } from './host.ts'

/** Shown while the browser has taken the WebGL context away (it is usually given back). */
export const CONTEXT_LOST_MESSAGE =
  'The 3D view lost its graphics context. Waiting for it to come back…'

/** The coordinate-system axes are this fraction of the scene's radius long. */
const AXES_LENGTH_PER_RADIUS = 0.4

/** The render worker's engine; implements RenderWorkerApi. */
export class RenderEngine implements RenderWorkerApi {
  #options: RenderEngineOptions
  #scene: EngineScene | null = null
  #callbacks: RenderCallbacks | null = null
  #size: ViewportSize = { width: 1, height: 1, devicePixelRatio: 1 }
  #camera = new ViewCamera()
  #coordinateSystem = false
  #pointSizePx: number = DEFAULT_POINT_SIZE_PX
  #dataWorkers: DataWorkers
  #clip: ClippingPlane | null = null
  #sceneKind: SceneKind = 'results'
  #results: ResultsController
  #setup: SetupController
  #initError: string | null = null
  #contextLost = false
  #pointer: PointerInput
  #needsDraw = true
  #wasInteracting = false
  #framePending = false
  #frameNo = 0
  #fps = new FrameRateMeter()
  #snapshots = new SnapshotThrottle()
  #disposed = false

  constructor(options: RenderEngineOptions) {
    this.#options = options
    this.#dataWorkers = new DataWorkers({
      requestWorker: () => void this.#callbacks?.requestDataWorker(),
      onChange: () => this.#requestFrame(),
      hardwareConcurrency: options.hardwareConcurrency,
      wrap: (port) => this.#options.wrapDataWorker(port),
      onPortMessage: (data) => this.#results.handlePortMessage(data),
    })
    const host: SceneHost = {
      scene: () => this.#scene,
      camera: () => this.#camera.current(),
      animateCamera: (to) => this.#camera.animateTo(to, this.#options.nowMs()),
      setCamera: (camera) => this.#setCamera(camera),
      cameraDestination: () => this.#camera.destination(),
      size: () => this.#size,
      clip: () => this.#clip,
      accessToken: () => this.#dataWorkers.accessToken(),
      nowMs: () => this.#options.nowMs(),
      scheduleTimeout: (callback, delayMs) => this.#options.scheduleTimeout(callback, delayMs),
      requestFrame: () => this.#requestFrame(),
      invalidate: () => void (this.#needsDraw = true),
      refreshCamera: () => this.#applyCamera(),
      scheduler: this.#dataWorkers.scheduler,
      workers: () => this.#dataWorkers.list(),
    }
    this.#results = new ResultsController(host)
    this.#pointer = new PointerInput({
      camera: () => this.#camera.current(),
      setCamera: (camera) => this.#setCamera(camera),
      cameraAnimating: () => this.#camera.isAnimating(),
      size: () => this.#size,
      shown: () => this.#shown(),
      clearHovers: () => {
        this.#results.clearHover()
        this.#setup.clearHover()
      },
      nowMs: () => this.#options.nowMs(),
      scheduleTimeout: (callback, delayMs) => this.#options.scheduleTimeout(callback, delayMs),
      requestFrame: () => this.#requestFrame(),
      answered: () => this.#sendSnapshot(this.#options.nowMs(), true),
      isDisposed: () => this.#disposed,
    })
    this.#setup = new SetupController(host, (event) => {
      if (this.#callbacks?.onSetupEvent === undefined) return
      // A Comlink proxy returns a promise; a closed main thread must not break the worker.
      void Promise.resolve(this.#callbacks.onSetupEvent(event)).catch(() => undefined)
    })
  }

  // ── RenderWorkerApi ─────────────────────────────────────────────────────────────────────────

  init(
    canvas: OffscreenCanvas,
    size: { width: number; height: number; devicePixelRatio: number },
    callbacks: RenderCallbacks,
  ): Promise<void> {
    this.#callbacks = callbacks
    this.#size = sanitizeViewportSize(size)
    this.#dataWorkers.prestart()
    try {
      this.#scene = this.#options.createScene(canvas, this.#size, (lost) => {
        this.#contextLost = lost
        this.#needsDraw = true
        this.#requestFrame()
      })
      // Intents that came before the canvas: their GPU state goes to the new scene now.
      this.#scene.setClip(clipPlaneEquation(this.#clip))
      this.#scene.setPointSize(this.#pointSizePx)
      this.#scene.showSetup(this.#sceneKind === 'setup' ? this.#setup.root() : null)
      this.#scene.showOverlays(this.#results.overlayRoot())
      this.#results.applyColour()
      this.#applyCamera()
    } catch (error) {
      // No WebGL2 (or a lost context): the UI shows the reason instead of a blank canvas.
      const reason = error instanceof Error ? error.message : String(error)
      this.#initError = `The 3D view could not start: ${reason}`
    }
    this.#requestFrame()
    return Promise.resolve()
  }

  adoptDataWorker(port: MessagePort): void {
    this.#dataWorkers.adopt(port)
  }

  dispatch(intent: RenderIntent): void {
    if (this.#disposed) return
    this.#applyIntent(intent)
    this.#requestFrame()
  }

  forwardPointer(event: ForwardedPointerEvent): void {
    if (this.#disposed) return
    // A press on a setup handle drags it: the camera stays where it is until the release.
    if (this.#sceneKind === 'setup' && this.#setup.handlePointer(event)) {
      this.#requestFrame()
      return
    }
    this.#pointer.handle(event)
  }

  forwardKey(event: ForwardedKeyEvent): void {
    if (this.#disposed) return
    const action = cameraKeyAction(event)
    if (action === null) return
    if (action.kind === 'reset') this.#shown().fitView()
    else {
      // A person moved the camera: neither scene refits it as objects come in.
      this.#results.markCameraFitted()
      this.#setup.markCameraFitted()
      this.#setCamera(applyCameraKey(this.#camera.current(), action, this.#size.height))
    }
    this.#requestFrame()
  }

  async saveImage(): Promise<Blob> {
    if (this.#scene === null) throw new Error(this.#initError ?? 'The 3D view is not available.')
    return this.#scene.saveImage()
  }

  dispose(): void {
    if (this.#disposed) return
    this.#disposed = true
    this.#dataWorkers.dispose()
    this.#results.dispose()
    this.#setup.dispose()
    this.#scene?.dispose()
    this.#scene = null
  }

  // ── Intents ─────────────────────────────────────────────────────────────────────────────────

  #applyIntent(intent: RenderIntent): void {
    switch (intent.type) {
      case 'resize':
        this.#size = sanitizeViewportSize(intent)
        this.#scene?.setSize(this.#size)
        this.#applyCamera()
        return
      case 'set_access_token':
        this.#dataWorkers.setAccessToken(intent.token)
        // Loads refused with the old token get another chance.
        this.#results.retryLoads()
        this.#setup.retryFailed()
        return
      case 'set_clip':
        this.#clip = intent.clip
        this.#scene?.setClip(clipPlaneEquation(intent.clip))
        this.#viewChanged()
        return
      case 'set_camera':
        this.#results.markCameraFitted()
        this.#setup.markCameraFitted()
        this.#setCamera(intent.camera)
        return
      case 'set_camera_mode':
        this.#camera.switchMode(intent.mode)
        this.#applyCamera()
        return
      case 'view_orientation': {
        // From where the camera is now (mid-animation too) to the orientation, over 0.7 s.
        const to = orientCamera(this.#camera.current(), intent.direction, intent.up)
        this.#camera.animateTo(to, this.#options.nowMs())
        return
      }
      case 'set_coordinate_system':
        this.#coordinateSystem = intent.visible
        this.#applyCamera()
        return
      case 'set_point_size':
        this.#pointSizePx = clampPointSize(intent.sizePx)
        this.#scene?.setPointSize(this.#pointSizePx)
        this.#needsDraw = true
        return
      case 'fit_view':
        this.#shown().fitView()
        return
      case 'set_scene':
        this.#setScene(intent.scene)
        return
      default:
        if (intent.type.startsWith('setup_'))
          this.#setup.applyIntent(intent as SetupControllerIntent)
        else this.#results.applyIntent(intent as ResultsIntent)
    }
  }

  #setScene(kind: SceneKind): void {
    if (kind === this.#sceneKind) {
      this.#setup.setActive(kind === 'setup')
      return
    }
    this.#sceneKind = kind
    // A click or hover waiting on the other scene does not carry over.
    this.#pointer.clear()
    this.#results.clearHover()
    this.#setup.clearHover()
    this.#scene?.showSetup(kind === 'setup' ? this.#setup.root() : null)
    this.#setup.setActive(kind === 'setup')
    this.#applyCamera()
  }

  // ── Camera ──────────────────────────────────────────────────────────────────────────────────

  #sceneRadius(): number {
    const bounds = this.#shown().bounds()
    return bounds === null ? 1 : vectorLength(subtractVectors(bounds.max, bounds.min)) / 2
  }

  /** Moves the camera; an orientation animation under way stops where it is. */
  #setCamera(camera: RenderSnapshot['camera']): void {
    this.#camera.set(camera)
    this.#applyCamera()
  }

  #applyCamera(): void {
    const radius = this.#sceneRadius()
    this.#scene?.setCamera(this.#camera.current(), radius)
    this.#scene?.setCoordinateSystem(this.#coordinateSystem, radius * AXES_LENGTH_PER_RADIUS)
    this.#viewChanged()
  }

  /** The camera, viewport or clip changed: both scenes follow, and the next frame draws. */
  #viewChanged(): void {
    this.#needsDraw = true
    this.#results.viewChanged()
    this.#setup.viewChanged()
  }

  // ── Frames ──────────────────────────────────────────────────────────────────────────────────

  #requestFrame(): void {
    if (this.#framePending || this.#disposed) return
    this.#framePending = true
    this.#options.scheduleFrame(() => this.#frame())
  }

  /** The scene shown. */
  #shown(): ViewScene {
    return this.#sceneKind === 'setup' ? this.#setup : this.#results
  }

  #frame(): void {
    this.#framePending = false
    if (this.#disposed) return
    const now = this.#options.nowMs()
    this.#frameNo++
    const setupShown = this.#sceneKind === 'setup'
    // Only the scene shown plays (the other's clock waits where it is).
    if (!setupShown) this.#results.tick(now)
    const playing = setupShown ? this.#setup.tick(now) : this.#results.isPlaying()
    if (this.#camera.tick(now)) this.#applyCamera()
    // An animating camera draws like a dragged one: the light subset, no arrows until it stops.
    const interacting = this.#pointer.isInteracting(now)
    if (interacting !== this.#wasInteracting) {
      this.#wasInteracting = interacting
      this.#needsDraw = true
    }
    let again = playing || interacting
    const scene = this.#contextLost ? null : this.#scene
    if (scene !== null && this.#needsDraw) {
      if (scene.isGpuBusy()) {
        again = true
      } else {
        // The results keep their draw counts current in both scenes (they are in the snapshot).
        this.#results.beforeDraw(interacting)
        if (setupShown) this.#setup.beforeDraw(interacting)
        scene.render()
        this.#results.afterDraw()
        this.#needsDraw = false
        this.#fps.recordFrame(now)
        // Let the fps readout fall back once frames stop.
        this.#options.scheduleTimeout(() => this.#requestFrame(), 1100)
      }
    }
    if (this.#pointer.atFrame(now, interacting)) again = true
    // A click or hover handled at this frame may have changed what is drawn.
    again ||= this.#needsDraw && scene !== null
    if (scene !== null && !setupShown && !scene.isGpuBusy()) this.#results.uploadAhead(scene)
    this.#sendSnapshot(now)
    if (again) this.#requestFrame()
  }

  // ── Snapshot ────────────────────────────────────────────────────────────────────────────────

  #snapshot(now: number): RenderSnapshot {
    const { outputError, ...results } = this.#results.snapshot()
    const setupShown = this.#sceneKind === 'setup'
    const error =
      this.#initError ??
      (this.#contextLost ? CONTEXT_LOST_MESSAGE : null) ??
      (setupShown ? null : outputError)
    const snapshot: RenderSnapshot = {
      camera: this.#camera.current(),
      fps: this.#fps.framesPerSecond(now),
      ...results,
      bytesInFlight: this.#dataWorkers.scheduler.state().bytesInFlight,
      scaleBar: scaleBarForView(this.#camera.current(), this.#size.width, this.#size.height),
      error,
      uploadedBytes: this.#scene?.uploadedBytes() ?? 0,
      coordinateSystem: this.#coordinateSystem,
      pointSizePx: this.#pointSizePx,
      cameraAnimating: this.#camera.isAnimating(),
    }
    return withSetupScene(snapshot, this.#sceneKind, this.#setup)
  }

  /** Sends the snapshot if it changed: once per frame, or at once for an input's answer. */
  #sendSnapshot(now: number, input = false): void {
    const callbacks = this.#callbacks
    if (callbacks === null) return
    const snapshot = input
      ? this.#snapshots.offerNow(this.#snapshot(now))
      : this.#snapshots.offer(this.#frameNo, this.#snapshot(now))
    if (snapshot === null) return
    // A Comlink proxy returns a promise; a closed main thread must not break the loop.
    void Promise.resolve(callbacks.onSnapshot(snapshot)).catch(() => undefined)
  }
}
