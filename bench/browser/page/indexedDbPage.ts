/** The IndexedDB bench page: put/get in a worker while the main thread is observed. */
import type {
  IndexedDbPageApi,
  StorageProbe,
  StorageReadsResult,
  StorageReadsWorkerRequest,
} from './api.ts'
import {
  publishBenchApi,
  readHeapBytes,
  runIndexedDb,
  runInWorker,
  takeLongTasks,
} from './common.ts'

const storageWorker = <Result>(request: StorageReadsWorkerRequest) =>
  runInWorker<StorageReadsWorkerRequest, Result>(
    new Worker(new URL('./storageReads.worker.ts', import.meta.url), { type: 'module' }),
    request,
  )

const api: IndexedDbPageApi = {
  takeLongTasks,
  readHeapBytes,
  runIndexedDb,
  probeStorage: () => storageWorker<StorageProbe>({ op: 'probe' }),
  checkCacheFiles: () => storageWorker<string[]>({ op: 'check' }),
  fillStorage: async (count, sizeBytes) => {
    await storageWorker<null>({ op: 'fill', count, sizeBytes })
  },
  async readStorage({ variant, workers, count }) {
    const parts = await Promise.all(
      Array.from({ length: workers }, (_, worker) =>
        storageWorker<StorageReadsResult>({
          op: 'read',
          variant,
          indices: Array.from({ length: count }, (_, index) => index).filter(
            (index) => index % workers === worker,
          ),
        }),
      ),
    )
    const firstStartMs = Math.min(...parts.map((part) => part.firstStartMs))
    const lastEndMs = Math.max(...parts.map((part) => part.lastEndMs))
    return {
      spanMs: lastEndMs - firstStartMs,
      readMs: parts.flatMap((part) => part.readMs),
      bytes: parts.reduce((sum, part) => sum + part.bytes, 0),
      firstStartMs,
      lastEndMs,
    }
  },
}
publishBenchApi(api)
