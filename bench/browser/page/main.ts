/** The bench page's main thread: long-task observer, heap readout, workers that do the measured work. */
import type {
  DiveBenchApi,
  IndexedDbBenchRequest,
  IndexedDbBenchResult,
  LongTaskRecord,
} from './api.ts'

const longTasks: LongTaskRecord[] = []
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    longTasks.push({ startMs: entry.startTime, durationMs: entry.duration })
  }
}).observe({ type: 'longtask', buffered: true })

function runInWorker<Request, Result>(worker: Worker, request: Request): Promise<Result> {
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

const api: DiveBenchApi = {
  takeLongTasks: () => longTasks.splice(0),
  readHeapBytes: () =>
    (performance as Performance & { memory?: { usedJSHeapSize: number } }).memory?.usedJSHeapSize ??
    null,
  runIndexedDb: (request) =>
    runInWorker<IndexedDbBenchRequest, IndexedDbBenchResult>(
      new Worker(new URL('./indexedDb.worker.ts', import.meta.url), { type: 'module' }),
      request,
    ),
}

;(window as Window & { diveBench?: DiveBenchApi }).diveBench = api
