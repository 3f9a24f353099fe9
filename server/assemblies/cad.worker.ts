import { parentPort, workerData } from 'node:worker_threads'
import type { CadWorkerData, CadWorkerMessage } from './cadProtocol.ts'
import { readAssembly, tessellateParts } from './cadWork.ts'

/*
 * Entry of a CAD thread (cadThread.ts): reads a STEP file's tree or tessellates parts of it and
 * reports to the parent. No database here: all input came in workerData. A stop ends the thread
 * (a read is one synchronous WASM call that hears nothing until it returns).
 */

function post(message: CadWorkerMessage, transfer: ArrayBuffer[] = []): void {
  parentPort?.postMessage(message, transfer)
}

async function run(data: CadWorkerData): Promise<void> {
  if (data.kind === 'read') {
    post({ type: 'read', ...(await readAssembly(data.path)) })
    return
  }
  await tessellateParts(data.path, data.parts, (part) =>
    post({ type: 'part', ...part }, [
      part.positions.buffer as ArrayBuffer,
      part.indices.buffer as ArrayBuffer,
    ]),
  )
  post({ type: 'done' })
}

/** Called by the boot script once tsx is registered in this thread. */
export function startCadWorker(): void {
  run(workerData as CadWorkerData).then(
    () => parentPort?.close(),
    (error: unknown) => {
      post({ type: 'error', message: error instanceof Error ? error.message : String(error) })
      parentPort?.close()
    },
  )
}
