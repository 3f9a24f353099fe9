import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import { computeOutputSamples, type SensorJobInput } from './computeOutput.ts'

/** Parent → sensor thread. */
export type SensorWorkerCommand = { type: 'abort' }

/** Sensor thread → parent. */
export type SensorWorkerMessage =
  | { type: 'output'; outputNo: number; ok: boolean; message: string | null }
  | { type: 'aborted' }
  | { type: 'done' }
  | { type: 'error'; message: string }

/** Called after each output, in order; the executor waits for it before reporting the next. */
export type SensorOutputCallback = (
  outputNo: number,
  ok: boolean,
  message: string | null,
) => Promise<void>

/**
 * Computes a recomputation's outputs in order, reporting each. Resolves 'done' after the last,
 * 'aborted' when `signal` aborted first (between outputs: no file is left half-written).
 */
export type SensorExecutor = (
  input: SensorJobInput,
  onOutput: SensorOutputCallback,
  signal: AbortSignal,
) => Promise<'done' | 'aborted'>

/** Abort reason of a server shutdown: the thread ends at once. */
export const SENSOR_SHUTDOWN_REASON = 'server shutdown'

/** How long a stopping thread may take to reach its next output before it is ended. */
const ABORT_GRACE_MS = 10_000

const workerUrl = new URL('./sensor.worker.ts', import.meta.url).href

/** URL of tsx's ESM API (as server/jobs/workerExecutors.ts: --import does not reach a worker on Node 20). */
function tsxEsmApiUrl(): string {
  const manifestPath = createRequire(import.meta.url).resolve('tsx/package.json')
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
    exports: Record<string, { import: { default: string } }>
  }
  const entry = manifest.exports['./esm/api']?.import.default
  if (!entry) throw new Error('tsx/esm/api is not exported by the installed tsx.')
  return pathToFileURL(join(dirname(manifestPath), entry)).href
}

/** The default executor: one worker thread per recomputation, so the server keeps serving. */
export function createThreadSensorExecutor(): SensorExecutor {
  return (input, onOutput, signal) =>
    new Promise((resolve, reject) => {
      const boot = `import(${JSON.stringify(tsxEsmApiUrl())})
  .then((tsx) => { tsx.register(); return import(${JSON.stringify(workerUrl)}) })
  .then((entry) => entry.startSensorWorker())
  .catch((error) => { console.error(error); process.exit(1) })`
      const worker = new Worker(boot, { eval: true, workerData: input })
      let chain = Promise.resolve()
      let settled = false
      let graceTimer: ReturnType<typeof setTimeout> | undefined
      const settle = (action: () => void) => {
        if (settled) return
        settled = true
        signal.removeEventListener('abort', onAbort)
        clearTimeout(graceTimer)
        void worker.terminate()
        chain.then(action, reject)
      }
      const onAbort = () => {
        if (signal.reason === SENSOR_SHUTDOWN_REASON) {
          settle(() => resolve('aborted'))
          return
        }
        worker.postMessage({ type: 'abort' } satisfies SensorWorkerCommand)
        graceTimer = setTimeout(() => settle(() => resolve('aborted')), ABORT_GRACE_MS)
      }
      if (signal.aborted) onAbort()
      else signal.addEventListener('abort', onAbort)
      worker.on('message', (message: SensorWorkerMessage) => {
        if (settled) return
        switch (message.type) {
          case 'output':
            chain = chain.then(() => onOutput(message.outputNo, message.ok, message.message))
            break
          case 'aborted':
            settle(() => resolve('aborted'))
            break
          case 'done':
            settle(() => resolve(signal.aborted ? 'aborted' : 'done'))
            break
          case 'error':
            settle(() => reject(new Error(message.message)))
            break
        }
      })
      worker.on('error', (error) => settle(() => reject(error)))
      worker.on('exit', (code) =>
        settle(() => reject(new Error(`The sensor thread ended early (exit code ${code}).`))),
      )
    })
}

/**
 * An executor on the calling thread (tests, or where threads are unavailable): yields between
 * outputs and waits `delayMs` before each, so a test can stop it midway.
 */
export function createInProcessSensorExecutor(options: { delayMs?: number } = {}): SensorExecutor {
  return async (input, onOutput, signal) => {
    for (const outputNo of input.outputs) {
      await new Promise((resolve) => setTimeout(resolve, options.delayMs ?? 0))
      if (signal.aborted) return 'aborted'
      try {
        await computeOutputSamples(input, outputNo)
        await onOutput(outputNo, true, null)
      } catch (error) {
        await onOutput(outputNo, false, error instanceof Error ? error.message : String(error))
      }
    }
    return signal.aborted ? 'aborted' : 'done'
  }
}
