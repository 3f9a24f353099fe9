/**
 * What the bench page exposes as `window.diveBench` for Playwright (page.evaluate). Plain data
 * only: this file is imported by the Node side too.
 */

/** A main-thread long task (PerformanceObserver 'longtask', ≥ 50 ms). */
export interface LongTaskRecord {
  startMs: number
  durationMs: number
}

/** IndexedDB put/get in a worker: raw idb (64 MB chunks) and the product's IndexedDbOutputCache. */
export interface IndexedDbBenchRequest {
  sizeBytes: number
  runs: number
}

/** Milliseconds per run of each operation. */
export interface IndexedDbBenchResult {
  rawPutMs: number[]
  rawGetMs: number[]
  cachePutMs: number[]
  cacheGetMs: number[]
  /** memcpy of the same bytes in the worker (TypedArray.set into a touched buffer). */
  memcpyMs: number[]
}

/** What every bench page exposes. */
export interface BenchPageApi {
  /** Long tasks observed since the last call (the list is cleared). */
  takeLongTasks(): LongTaskRecord[]
  /** performance.memory.usedJSHeapSize of the main thread, or null where not available. */
  readHeapBytes(): number | null
  runIndexedDb(request: IndexedDbBenchRequest): Promise<IndexedDbBenchResult>
}

/**
 * Where a storage read takes a payload from (bench/browser/storageReads.ts): the product's output
 * cache with its bytes in IndexedDB chunks or in OPFS files, or an OPFS file read directly.
 */
export type StorageReadVariant = 'indexedDb' | 'cacheFiles' | 'opfsSync' | 'opfsFile'

/** One worker's share of a storage-read run, the fill before it, the probe of OPFS, or the cache check. */
export type StorageReadsWorkerRequest =
  | { op: 'probe' }
  | { op: 'check' }
  | { op: 'fill'; count: number; sizeBytes: number }
  | { op: 'read'; variant: StorageReadVariant; indices: number[] }

export interface StorageReadsResult {
  /** Milliseconds per payload, in read order. */
  readMs: number[]
  bytes: number
  /** performance.timeOrigin + now() at the first read's start and the last read's end. */
  firstStartMs: number
  lastEndMs: number
}

/** Payloads 0 … count − 1 read by `workers` workers at once, each one payload at a time. */
export interface StorageReadsRequest {
  variant: StorageReadVariant
  workers: number
  count: number
}

export interface StorageReadsRunResult extends StorageReadsResult {
  /** From the first worker's first read to the last worker's last (worker start-up excluded). */
  spanMs: number
}

/** What this browser's OPFS allows in a worker: each pair is null when it opened, else its error. */
export interface StorageProbe {
  syncAccessHandle: boolean
  twoDefaultHandles: string | null
  twoReadOnlyHandles: string | null
  readOnlyBesideWriter: string | null
  getFileBesideWriter: string | null
  move: boolean
}

/** bench/browser/page/indexedDb.html */
export interface IndexedDbPageApi extends BenchPageApi {
  probeStorage(): Promise<StorageProbe>
  /** The product's output cache on OPFS, checked in a worker: what failed (empty: all held). */
  checkCacheFiles(): Promise<string[]>
  fillStorage(count: number, sizeBytes: number): Promise<void>
  readStorage(request: StorageReadsRequest): Promise<StorageReadsRunResult>
}

/** One output as the render worker's set_outputs intent lists it. */
export interface BenchOutput {
  outputNo: number
  timeS: number
  bundleUrl: string
  estimatedBytes: number
}

/** Show one output of a list and wait for the frame that draws it. */
export interface ShowOutputRequest {
  simulationId: number
  runId: number
  outputs: BenchOutput[]
  outputNo: number
  timeoutMs: number
  /** The dataset shown (the output settings' dataset chip); the engine's default ('full') when absent. */
  dataset?: 'full' | 'fast'
}

/** Detail levels (engine/protocol.ts DetailLevel). */
export type BenchDetailLevel = 'Low' | 'Medium' | 'High' | 'All'

/** When the awaited snapshot came, and what it said. */
export interface FrameResult {
  elapsedMs: number
  timedOut: boolean
  shownOutput: number | null
  pointsDrawn: number
  error: string | null
  /** Largest `bytesInFlight` any snapshot reported meanwhile. */
  maxBytesInFlight: number
}

/** A bare three.js draw of a bundle's particles in a worker: upload, draw, and wait for the GPU. */
export interface BareDrawRequest {
  bundleUrl: string
  width: number
  height: number
}

export interface BareDrawResult {
  points: number
  /** Geometry upload, shader compile, one draw and a 1-pixel readback (the GPU finished). */
  drawMs: number
}

/** Playback at a speed for a while: which outputs were shown when. */
export interface PlaybackRequest {
  speed: number
  durationMs: number
}

export interface PlaybackResult {
  /** Output numbers in the order the snapshots showed them, with the time each first appeared. */
  shown: { outputNo: number; atMs: number }[]
  durationMs: number
  maxBytesInFlight: number
}

/** Playback of a list of outputs for a while, from wherever the engine finds them. */
export interface PlaybackRunRequest {
  speed: number
  durationMs: number
  dataset: 'full' | 'fast'
  /** Detail level set before playing (the draw's share of each output; SwiftShader draws ~1 µs a point). */
  detail: BenchDetailLevel
}

export interface PlaybackRunResult extends PlaybackResult {
  /** The engine's own count over the run (snapshot.playbackFrames): steps, and steps whose output was not in when due. */
  engineSteps: { shown: number; late: number } | null
  /** Bytes of outputs the render worker held at the end (snapshot.memory), and its budget. */
  heldBytes: number | null
  budgetBytes: number | null
  loadedOutputs: number
}

/** performance.measureUserAgentSpecificMemory, the render worker's share (null where unavailable). */
export interface RenderWorkerMemory {
  renderWorkerBytes: number | null
  totalBytes: number | null
  loadedOutputs: number
  /** Why it is null. */
  note: string | null
}

/** bench/browser/page/frames.html: the real engine (engine/client.ts) on a canvas. */
/** One data worker's share of a cache-read run (bench/browser/cacheReads.ts). */
export interface CacheReadsWorkerRequest {
  variant: 'load' | 'payloads'
  simulationId: number
  runId: number
  outputs: { outputNo: number; bundleUrl: string }[]
}

export interface CacheReadsWorkerResult {
  /** Milliseconds per output, in read order. */
  loadMs: number[]
  /** Outputs read whole from the cache. */
  fromCache: number
  /** Payload bytes read. */
  bytes: number
}

/** Outputs read from the output cache by `workers` workers at once, each one output at a time. */
export interface CacheReadsRequest extends Omit<CacheReadsWorkerRequest, 'outputs'> {
  workers: number
  outputs: { outputNo: number; bundleUrl: string }[]
}

export interface CacheReadsResult {
  elapsedMs: number
  loadMs: number[]
  fromCache: number
  bytes: number
}

export interface FramesPageApi extends BenchPageApi {
  /** Reads outputs from the output cache in workers as the data workers do (cacheReads.ts). */
  readCachedOutputs(request: CacheReadsRequest): Promise<CacheReadsResult>
  startEngine(size: { width: number; height: number }): Promise<void>
  showOutput(request: ShowOutputRequest): Promise<FrameResult>
  setDetail(level: BenchDetailLevel, timeoutMs: number): Promise<FrameResult>
  /** Colours by pressure in a fixed range and waits for the snapshot that uses it. */
  setColourRange(range: { min: number; max: number }, timeoutMs: number): Promise<FrameResult>
  play(request: PlaybackRequest): Promise<PlaybackResult>
  /** Sets the outputs without showing one (playback then loads from the first). */
  setOutputs(request: Omit<ShowOutputRequest, 'outputNo' | 'timeoutMs'>): void
  /** Plays from the current output for `durationMs`, then pauses. */
  playFor(request: PlaybackRunRequest): Promise<PlaybackRunResult>
  /** Waits until the render worker reports at least `count` outputs loaded; returns the count. */
  waitForLoaded(count: number, timeoutMs: number): Promise<number>
  measureRenderWorkerMemory(timeoutMs: number): Promise<RenderWorkerMemory>
  disposeEngine(): void
  /** Deletes the output cache's database (a cold start). */
  deleteOutputCache(): Promise<void>
  /** Waits until the output cache holds at least `minBytes` (its writes run after the frame); returns the bytes. */
  waitForCachedBytes(minBytes: number, timeoutMs: number): Promise<number>
  /** The output cache's records, and its payload files in OPFS (0 where the bytes are in IndexedDB). */
  countCacheFiles(): Promise<{ records: number; files: number }>
  drawBare(request: BareDrawRequest): Promise<BareDrawResult>
}
