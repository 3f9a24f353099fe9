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

export interface DiveBenchApi {
  /** Long tasks observed since the last call (the list is cleared). */
  takeLongTasks(): LongTaskRecord[]
  /** performance.memory.usedJSHeapSize of the main thread, or null where not available. */
  readHeapBytes(): number | null
  runIndexedDb(request: IndexedDbBenchRequest): Promise<IndexedDbBenchResult>
}
