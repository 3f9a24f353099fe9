/** Worker thread entry for the interaction passes: wiring only (see threads.ts). */
import { parentPort, workerData } from 'node:worker_threads'
import type { PhaseWorkerData } from './threads.ts'
import { servePhases } from './threads.ts'

export function startPhaseWorker(): void {
  servePhases(workerData as PhaseWorkerData, () => parentPort?.postMessage('ready'))
}
