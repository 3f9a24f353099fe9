import { parentPort, workerData } from 'node:worker_threads'
import { computeOutputSamples, type SensorJobInput } from './computeOutput.ts'
import type { SensorWorkerCommand, SensorWorkerMessage } from './sensorThread.ts'

/*
 * Entry of a sensor recomputation thread: samples the outputs in order and reports each. An abort
 * is heard between outputs (the loop yields to the event loop there).
 */

function post(message: SensorWorkerMessage): void {
  parentPort?.postMessage(message)
}

/** Called by the boot script once tsx is registered in this thread. */
export function startSensorWorker(): void {
  let aborted = false
  parentPort?.on('message', (command: SensorWorkerCommand) => {
    if (command.type === 'abort') aborted = true
  })
  const input = workerData as SensorJobInput
  const run = async () => {
    for (const outputNo of input.outputs) {
      await new Promise((resolve) => setImmediate(resolve))
      if (aborted) {
        post({ type: 'aborted' })
        return
      }
      try {
        await computeOutputSamples(input, outputNo)
        post({ type: 'output', outputNo, ok: true, message: null })
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error)
        post({ type: 'output', outputNo, ok: false, message })
      }
    }
    post({ type: 'done' })
  }
  run().then(
    () => parentPort?.close(),
    (error: unknown) => {
      post({ type: 'error', message: error instanceof Error ? error.message : String(error) })
      parentPort?.close()
    },
  )
}
