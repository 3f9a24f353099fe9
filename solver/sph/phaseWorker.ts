/** Worker thread entry for the interaction passes: wiring only (see phases.ts). */
import { parentPort, workerData } from 'node:worker_threads'
import type { PhaseWorkerData } from './phases.ts'
import { servePhases } from './phases.ts'

export function startPhaseWorker(): void {
  servePhases(workerData as PhaseWorkerData, () => parentPort?.postMessage('ready'))
}
