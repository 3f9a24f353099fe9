/** The IndexedDB bench page: put/get in a worker while the main thread is observed. */
import type { IndexedDbPageApi } from './api.ts'
import { publishBenchApi, readHeapBytes, runIndexedDb, takeLongTasks } from './common.ts'

const api: IndexedDbPageApi = { takeLongTasks, readHeapBytes, runIndexedDb }
publishBenchApi(api)
