import { parentPort, workerData } from 'node:worker_threads'
import { ApiError } from '../api/apiError.ts'
import type { StlThreadData, StlThreadMessage } from './stlThread.ts'
import { checkStlUpload } from './stlUpload.ts'

/* Entry of an STL check thread (stlThread.ts): wiring only, the check is stlUpload.ts. */

function post(message: StlThreadMessage, transfer: ArrayBuffer[] = []): void {
  parentPort?.postMessage(message, transfer)
}

/** Called by the boot script once tsx is registered in this thread. */
export function startStlWorker(): void {
  const data = workerData as StlThreadData
  try {
    const checked = checkStlUpload(data.bytes, data.unit)
    post({ type: 'checked', ...checked }, [checked.stored.buffer as ArrayBuffer])
  } catch (error) {
    if (error instanceof ApiError)
      post({ type: 'refused', code: error.code, description: error.message })
    else post({ type: 'failed', message: error instanceof Error ? error.message : String(error) })
  }
}
