/**
 * The engine's contracts: what the main thread, the render worker and the data workers say to each
 * other. One Comlink interface per worker (DataWorkerApi, RenderWorkerApi); buffers travel only
 * between data workers and the render worker, over a direct MessagePort, as transferables.
 *
 * Wiring (engine/client.ts): the client creates the render worker and hands it the OffscreenCanvas.
 * When the render worker's scheduler wants another data worker (up to MAX_DATA_WORKERS, on demand),
 * it calls `requestDataWorker()` on the client; the client spawns workers/data.worker.ts, creates a
 * MessageChannel, gives one port to the data worker (`connectRenderPort`) and the other to the render
 * worker (`adoptDataWorker`). From then on the render worker calls the data worker over that port
 * (Comlink) and receives its buffers there: the main thread never holds a particle buffer.
 */
import type { ColourScheme } from '../domain/constants.ts'
import type { FormatObjectKind, ValueRange, WrittenDataset } from '../domain/outputFormat.ts'
import type {
  CameraMode,
  CameraState,
  ClippingPlane,
  ColourRange,
  MaterialDisplayMode,
  PartViewMode,
} from '../domain/results.ts'
import type {
  ClipMask,
  ClipMaskRequest,
  ClipMaskSpec,
  OverlayIntent,
  OverlaySnapshot,
} from './overlayProtocol.ts'
import type {
  SceneKind,
  SetupDataWorkerApi,
  SetupEvent,
  SetupIntent,
  SetupSnapshot,
} from './setupProtocol.ts'

/** At most this many data workers (spec/results.md §9: 12 concurrent loads). */
export const MAX_DATA_WORKERS = 12
/** At most this many bytes of loads in flight, whatever their count. */
export const MAX_BYTES_IN_FLIGHT = 1024 ** 3

// ── Loading ─────────────────────────────────────────────────────────────────────────────────────

/** Where a data worker gets an output's object payloads from. */
export interface OutputSource {
  /** Absolute or same-origin URL of the bundle endpoint for one output (objects and dataset as query). */
  bundleUrl: string
  /** Bearer token for the request; refreshed by the client and pushed with `setAccessToken`. */
  accessToken: string | null
}

/** Identifies one output of one run; the cache key adds object, dataset and format version. */
export interface OutputKey {
  simulationId: number
  /** The run that wrote it: a new run drops cached outputs of the old one. */
  runId: number
  outputNo: number
}

/** Loads are served in priority order: the shown output first, then playback prefetch, then idle prefetch. */
export const LOAD_PRIORITIES = ['shown', 'playback', 'prefetch'] as const
/** One load priority. */
export type LoadPriority = (typeof LOAD_PRIORITIES)[number]

/** One request to a data worker: load an output's objects and post them to the render port. */
export interface LoadRequest {
  requestId: string
  key: OutputKey
  source: OutputSource
  dataset: WrittenDataset
  /** Object ids to load; empty: every object of the output. */
  objectIds: string[]
  /** Estimated bytes (from the manifest), for the in-flight byte gate. */
  estimatedBytes: number
  priority: LoadPriority
  /**
   * Volume clips shown when the load was asked for: the data worker adds their masks over the
   * fluids they clip to the output (mask objects, see ClipMaskSpec), so playback needs no second
   * pass over the data.
   */
  clips?: ClipMaskSpec[]
}

/** What a finished load reports back (small; the buffers went to the render port). */
export interface LoadSummary {
  requestId: string
  key: OutputKey
  fromCache: boolean
  bytes: number
  decodeMs: number
  totalMs: number
  /** Why the output was not written to the cache (e.g. the cache is full); the load still succeeded. */
  cacheError?: string | null
}

/** A column inside a transferred buffer: `length` Float32 (or Uint32 for indices) values at `byteOffset`. */
export interface ColumnSlice {
  name: string
  byteOffset: number
  length: number
  /** Finite min/max from the field metadata (null: no finite value). */
  range: ValueRange | null
  unit: string
}

/** A wall's triangle mesh, GPU-ready. */
export interface RenderableMesh {
  buffer: ArrayBuffer
  /** x, y, z and per-vertex attribute columns (Float32). */
  columns: ColumnSlice[]
  /** Uint32 triangle indices. */
  indices: { byteOffset: number; length: number }
  triangleCount: number
}

/** GPU-ready data of one object of one output, as a data worker posts it to the render worker. */
export interface RenderableObject {
  objectId: string
  kind: FormatObjectKind
  name: string
  dataset: WrittenDataset
  /** Rows, in stratified order: every detail level is a prefix (a draw range). */
  particleCount: number
  /** The buffer that holds the columns (transferred; the render worker owns it afterwards). */
  buffer: ArrayBuffer
  /** x, y, z and the attribute columns (Float32). A mask object has one Uint8 column `inside`. */
  columns: ColumnSlice[]
  mesh: RenderableMesh | null
  /** A fluid's material id, or a mask's fluid's (absent or null for walls and open boundaries). */
  materialId?: number | null
  /** A mask object: the object whose rows it follows. */
  targetObjectId?: string | null
  /** A mask a data worker computed for a volume clip (ClipMaskSpec.key); absent for the bundle's own. */
  clipMaskKey?: string
}

/** One output, ready to draw. */
export interface RenderableOutput {
  key: OutputKey
  timeS: number
  dataset: WrittenDataset
  objects: RenderableObject[]
}

/** Messages a data worker posts on its render port (besides Comlink traffic). */
export type DataToRenderMessage =
  | { type: 'output'; requestId: string; output: RenderableOutput }
  | { type: 'load_failed'; requestId: string; key: OutputKey; message: string }

// ── Analysis requests (small results; run on the data worker holding or fetching the data) ──────

/** Statistics of one attribute column over the current output (spec/results.md §4). */
export interface ColumnStatistics {
  count: number
  mean: number
  min: number
  max: number
  percentile5: number
  median: number
  percentile95: number
}

/** A histogram over [min, max] with equal-width bins. */
export interface Histogram {
  min: number
  max: number
  counts: number[]
}

/**
 * The data worker's Comlink interface (workers/data.worker.ts is a thin shell over engine/data/).
 * The setup calls (SetupDataWorkerApi) return their buffers as transferables to the caller, the
 * render worker, over its port; `cancel(requestId)` also stops a setup fetch that named itself.
 */
export interface DataWorkerApi extends SetupDataWorkerApi {
  /** The port to the render worker: outputs are posted there as transferables. */
  connectRenderPort(port: MessagePort): void
  /** Loads (cache, else fetch), decodes without copying columns, posts a RenderableOutput to the render port. */
  load(request: LoadRequest): Promise<LoadSummary>
  /** Cancels a queued or running load; its promise rejects with an AbortError. */
  cancel(requestId: string): void
  setAccessToken(token: string | null): void
  /** Colour range of one column over the rows kept by a clip (and an optional mask), ignoring NaN/±Infinity. */
  computeColourRange(request: SubsetRequest): Promise<ColourRange | null>
  computeStatistics(request: SubsetRequest): Promise<ColumnStatistics | null>
  computeHistogram(request: SubsetRequest & { binCount: number }): Promise<Histogram | null>
  /**
   * The masks of volume clips over the fluids of an output they clip (one per clip × fluid), for
   * an output loaded before the clips were shown or changed. The masks are transferred.
   */
  computeClipMasks(request: ClipMaskRequest): Promise<ClipMask[]>
  /** Drops every cached output of a simulation that is not of `runId`. */
  dropStaleRuns(simulationId: number, runId: number): Promise<void>
  /**
   * Gives buffers of dropped outputs back (transfer them) so the worker reuses them instead of
   * allocating fresh ones (page faults). Optional for callers; buffers not sent back are simply freed.
   */
  recycleBuffers(buffers: ArrayBuffer[]): void
}

/** A column of an object of an output, optionally restricted to a clip plane and a mask. */
export interface SubsetRequest {
  key: OutputKey
  source: OutputSource
  dataset: WrittenDataset
  objectId: string
  /** Column name, or 'magnitude' of a vector attribute given as `vectorColumns`. */
  column: string
  vectorColumns?: [string, string, string]
  clip: ClippingPlane | null
  /** Object id of a volume clip mask aligned with the object. */
  maskObjectId: string | null
}

// ── Rendering ───────────────────────────────────────────────────────────────────────────────────

export type { MaterialDisplayMode, PartViewMode }

/** Detail levels as fractions of the full dataset (draw ranges over the stratified order). */
export type DetailLevel = 'Low' | 'Medium' | 'High' | 'All'

/** What the UI asks of the render worker. Each is applied at the next frame. */
export type RenderIntent =
  | { type: 'resize'; width: number; height: number; devicePixelRatio: number }
  | {
      type: 'set_outputs'
      simulationId: number
      runId: number
      /** Output numbers with their times and bundle URLs, in order. */
      outputs: { outputNo: number; timeS: number; bundleUrl: string; estimatedBytes: number }[]
    }
  | { type: 'show_output'; outputNo: number }
  | { type: 'set_access_token'; token: string | null }
  | { type: 'set_dataset'; dataset: WrittenDataset }
  | { type: 'set_detail'; level: DetailLevel }
  | {
      type: 'set_colour'
      attribute: string
      /** Column(s) to colour by: one scalar column, or three for a vector magnitude. */
      columns: string[]
      scheme: ColourScheme
      /** null: the data's range. */
      range: ColourRange | null
    }
  | { type: 'set_clip'; clip: ClippingPlane }
  | { type: 'set_camera'; camera: CameraState }
  | { type: 'set_camera_mode'; mode: CameraMode }
  | {
      type: 'view_orientation'
      /** The viewing direction, from the camera towards the target (e.g. [0, 0, -1]: from above). */
      direction: [number, number, number]
      /** Screen up; one parallel to the direction is replaced by a perpendicular axis. */
      up: [number, number, number]
    }
  | { type: 'fit_view' }
  /** Shows or hides the coordinate-system axes at the origin (x red, y green, z blue). */
  | { type: 'set_coordinate_system'; visible: boolean }
  /** Largest drawn particle size in CSS pixels (the fluid view's point size; default 15 px). */
  | { type: 'set_point_size'; sizePx: number }
  | { type: 'set_material_display'; objectId: string; mode: MaterialDisplayMode; visible: boolean }
  | { type: 'set_part_view'; objectId: string; mode: PartViewMode; visible: boolean }
  | { type: 'set_vectors'; enabled: boolean; columns: [string, string, string] | null }
  | {
      type: 'play'
      speed: number
      loop: boolean
      /** Dataset played (the reduction setting); default PLAYBACK.reduction ('fast'). */
      dataset?: WrittenDataset
    }
  | { type: 'pause' }
  | { type: 'set_speed'; speed: number }
  /**
   * What the page knows of the device's memory and its own (engine/render/memoryBudget.ts): the
   * outputs held in the render worker stay within a budget set from it.
   */
  | { type: 'set_memory_readings'; deviceMemoryGiB: number | null; pageBytes: number | null }
  | { type: 'pick'; x: number; y: number }
  /** Sensors and volume clips over the results (engine/overlayProtocol.ts). */
  | OverlayIntent
  /** The setup scene's intents (engine/setupProtocol.ts). */
  | SetupIntent

/** A pointer or wheel event forwarded from the canvas element (CSS pixels, relative to the canvas). */
export interface ForwardedPointerEvent {
  type: 'pointerdown' | 'pointermove' | 'pointerup' | 'pointercancel' | 'wheel' | 'pointerleave'
  pointerId: number
  button: number
  buttons: number
  x: number
  y: number
  deltaY: number
  shiftKey: boolean
  ctrlKey: boolean
  altKey: boolean
  metaKey: boolean
}

/** A key pressed while the 3D view has focus (engine/render/keyboardControls.ts: camera keys). */
export interface ForwardedKeyEvent {
  /** KeyboardEvent.key: 'ArrowLeft', '+', 'PageUp', 'Home', '0' … */
  key: string
  shiftKey: boolean
  ctrlKey: boolean
  altKey: boolean
  metaKey: boolean
}

/** A picked or hovered particle. */
export interface PickResult {
  objectId: string
  index: number
  position: [number, number, number]
  /** The colour attribute's value at that particle (null: no colour map). */
  value: number | null
}

/** What the render worker tells the UI, at most once per frame. Small: no buffers. */
export interface RenderSnapshot {
  camera: CameraState
  fps: number
  pointsDrawn: number
  trianglesDrawn: number
  shownOutput: number | null
  /** Output numbers ready in memory, and being loaded. */
  loadedOutputs: number[]
  loadingOutputs: number[]
  bytesInFlight: number
  /** Data range of the current colour attribute over the shown output (null: none yet). */
  dataRange: ColourRange | null
  /** Range in use (the user's or the data's). */
  colourRange: ColourRange | null
  playing: boolean
  speed: number
  /** Scale bar: a nice length (1, 2, 5 × 10^n m) and its width in CSS pixels. */
  scaleBar: { lengthM: number; widthPx: number } | null
  pick: PickResult | null
  hover: PickResult | null
  /** A clear, user-facing problem with the shown output (the last good frame stays on screen). */
  error: string | null
  /** Colour-map status message of spec/results.md (e.g. '{attribute} is not available for this output.'). */
  colourStatus: string | null
  /**
   * Bytes uploaded to the GPU since the render worker started (vertex attributes and indices): a
   * detail level, colour scheme or range change leaves it unchanged.
   */
  uploadedBytes?: number
  /**
   * Playback frames advanced since the render worker started, and how many of them came more than
   * half a frame interval late (their output was not loaded when due).
   */
  playbackFrames?: { shown: number; late: number }
  /**
   * Output bytes the render worker holds (column and mesh buffers of the outputs in memory) and the
   * memory budget they are kept within (engine/render/memoryBudget.ts).
   */
  memory?: { heldBytes: number; budgetBytes: number }
  /** The coordinate-system axes are drawn at the origin. */
  coordinateSystem?: boolean
  /** Largest drawn particle size in CSS pixels. */
  pointSizePx?: number
  /** Bounds of the shown output's objects, metres (null: nothing shown yet). */
  bounds?: { min: [number, number, number]; max: [number, number, number] } | null
  /** A view-orientation camera animation (spec/results.md §9: 0.7 s) is under way. */
  cameraAnimating?: boolean
  /** The scene drawn (absent: results). */
  scene?: SceneKind
  /** Sensors and volume clips of the results scene, once some were set. */
  overlays?: OverlaySnapshot
  /** The setup scene's state, once it has been used. */
  setup?: SetupSnapshot
}

/** The render worker's Comlink interface (workers/render.worker.ts over engine/render/). */
export interface RenderWorkerApi {
  init(
    canvas: OffscreenCanvas,
    size: { width: number; height: number; devicePixelRatio: number },
    callbacks: RenderCallbacks,
  ): Promise<void>
  /** A new data worker's port; the render worker wraps it with Comlink as a DataWorkerApi. */
  adoptDataWorker(port: MessagePort): void
  dispatch(intent: RenderIntent): void
  forwardPointer(event: ForwardedPointerEvent): void
  /** A camera key pressed on the focused canvas: orbit, pan, zoom or fit (keyboardControls.ts). */
  forwardKey(event: ForwardedKeyEvent): void
  /** The current frame as a PNG. */
  saveImage(): Promise<Blob>
  dispose(): void
}

/** Functions of the main thread the render worker calls (passed as Comlink proxies). */
export interface RenderCallbacks {
  onSnapshot(snapshot: RenderSnapshot): void
  /** Asks for one more data worker; the client answers with `adoptDataWorker`. */
  requestDataWorker(): void
  /** What a person did in the setup view (engine/setupProtocol.ts); absent: nobody listens. */
  onSetupEvent?(event: SetupEvent): void
}
