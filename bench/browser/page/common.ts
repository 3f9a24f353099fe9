/** What every bench page has: a main-thread long-task observer, the heap readout, a worker runner. */
import type { IndexedDbBenchRequest, IndexedDbBenchResult, LongTaskRecord } from './api.ts'

const longTasks: LongTaskRecord[] = []
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    longTasks.push({ startMs: entry.startTime, durationMs: entry.duration })
  }
}).observe({ type: 'longtask', buffered: true })

/** Long tasks observed since the last call (the list is cleared). */
export function takeLongTasks(): LongTaskRecord[] {
  return longTasks.splice(0)
}

/** performance.memory.usedJSHeapSize of the main thread (Chromium), or null. */
export function readHeapBytes(): number | null {
  return (
    (performance as Performance & { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ??
    null
  )
}

/** Posts one request to a fresh worker, resolves with its one answer, terminates it. */
export function runInWorker<Request, Result>(worker: Worker, request: Request): Promise<Result> {
  return new Promise((resolve, reject) => {
    worker.onmessage = (event: MessageEvent<{ result?: Result; error?: string }>) => {
      worker.terminate()
      if (event.data.error !== undefined) reject(new Error(event.data.error))
      else resolve(event.data.result as Result)
    }
    worker.onerror = (event) => {
      worker.terminate()
      reject(new Error(event.message))
    }
    worker.postMessage(request)
  })
}

/** Publishes a page's API for Playwright. */
export function publishBenchApi(api: object): void {
  ;(globalThis as { diveBench?: object }).diveBench = api
}

/** Raw IndexedDB and output-cache put/get in a worker (bench/browser/page/indexedDb.worker.ts). */
export function runIndexedDb(request: IndexedDbBenchRequest): Promise<IndexedDbBenchResult> {
  return runInWorker<IndexedDbBenchRequest, IndexedDbBenchResult>(
    new Worker(new URL('./indexedDb.worker.ts', import.meta.url), { type: 'module' }),
    request,
  )
}
