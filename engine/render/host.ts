/**
 * What the render engine is built from and what its two scene controllers (results, setup) get
 * from it: the GPU side (EngineScene: RenderScene, or a fake in Node tests), the data workers, the
 * clock, and the shared view (camera, viewport size, clip plane). Everything with a clock or a GPU
 * comes in through here, so the controllers run in Node tests.
 */
import type { LineBasicMaterial, Matrix4, Object3D } from 'three'
import type { ColourScheme } from '../../domain/constants.ts'
import type { CameraState, ClippingPlane, ColourRange } from '../../domain/results.ts'
import type { Bounds } from './camera.ts'
import type { LoadScheduler, SchedulableWorker } from '../data/scheduler.ts'
import type { ClipMask, ClipMaskRequest } from '../overlayProtocol.ts'
import type { SetupDataWorkerApi } from '../setupProtocol.ts'
import type { PlaneEquation } from './clip.ts'
import type { OutputView, SharedUniforms } from './OutputView.ts'
import type { ViewportSize } from './RenderScene.ts'

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
  /**
   * Draws the setup scene's objects instead of the shown output (null: the output again). The
   * output view stays attached and comes back unchanged.
   */
  showSetup(root: Object3D | null): void
  /** The results scene's sensors and volume clips, drawn with the shown output (null: none). */
  showOverlays(root: Object3D | null): void
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
export interface DataWorkerHandle extends SchedulableWorker, SetupDataWorkerApi {
  setAccessToken(token: string | null): unknown
  /** Takes back (transferred) the buffers of dropped outputs for the worker's pool. */
  recycleBuffers?(buffers: ArrayBuffer[]): unknown
  /** Volume clip masks of an output loaded before its clips were shown (DataWorkerApi). */
  computeClipMasks?(request: ClipMaskRequest): Promise<ClipMask[]>
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
  /**
   * The device's logical cores (navigator.hardwareConcurrency): how many loads besides the shown
   * one run at once, and how many data workers start with the engine (backgroundLoadLimit; all
   * MAX_DATA_WORKERS when absent).
   */
  hardwareConcurrency?: number
}

/** What a scene controller gets from the engine. */
export interface SceneHost {
  scene(): EngineScene | null
  camera(): CameraState
  /** Moves the camera there over the keyframe animation (0.7 s), from where it is now. */
  animateCamera(to: CameraState): void
  /** Puts the camera there at once (stops an animation). */
  setCamera(camera: CameraState): void
  /** Where an animation under way is heading (null: none). */
  cameraDestination(): CameraState | null
  size(): ViewportSize
  clip(): ClippingPlane | null
  accessToken(): string | null
  nowMs(): number
  scheduleTimeout(callback: () => void, delayMs: number): void
  /** Asks for a frame (nothing is drawn unless something is invalidated). */
  requestFrame(): void
  /** The next frame draws. */
  invalidate(): void
  /** The camera's depth range and the axes follow the scene's size (bounds changed). */
  refreshCamera(): void
  scheduler: LoadScheduler<DataWorkerHandle>
  workers(): readonly DataWorkerHandle[]
}

/** What the engine asks of whichever scene is shown (results or setup). */
export interface ViewScene {
  /** A click after the double-click window; additive with Shift, Ctrl or Meta. */
  click(x: number, y: number, additive: boolean): void
  doubleClick(x: number, y: number): void
  /** The pointer rests here (throttled to 30 ms). */
  hoverAt(x: number, y: number): void
  clearHover(): void
  /** Frames what the scene shows. */
  fitView(): void
  /** World bounds of what the scene shows (null: nothing). */
  bounds(): Bounds | null
}
