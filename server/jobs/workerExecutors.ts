import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import { RUN_STOP_MESSAGES, type RunResult } from '../../solver/run/types.ts'
import {
  SHUTDOWN_REASON,
  type DiscretizationOutcome,
  type JobExecutors,
  type SimulationJobCallbacks,
} from './types.ts'
import type { JobWorkerData, JobWorkerMessage } from './workerProtocol.ts'

const workerUrl = new URL('./job.worker.ts', import.meta.url).href

/** URL of tsx's ESM API (its package exports map, condition "import"). */
function tsxEsmApiUrl(): string {
  const manifestPath = createRequire(import.meta.url).resolve('tsx/package.json')
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
    exports: Record<string, { import: { default: string } }>
  }
  const entry = manifest.exports['./esm/api']?.import.default
  if (!entry) throw new Error('tsx/esm/api is not exported by the installed tsx.')
  return pathToFileURL(join(dirname(manifestPath), entry)).href
}

/**
 * A job thread. TypeScript loads through tsx registered inside the thread before the entry is
 * imported (on Node 20, --import in execArgv does not reach a worker's entry; see solver/sph).
 */
function startJobThread(data: JobWorkerData): Worker {
  const boot = `import(${JSON.stringify(tsxEsmApiUrl())})
  .then((tsx) => { tsx.register(); return import(${JSON.stringify(workerUrl)}) })
  .then((entry) => entry.startJobWorker())
  .catch((error) => { console.error(error); process.exit(1) })`
  return new Worker(boot, { eval: true, workerData: data })
}

/**
 * Runs one job thread to its end: `onMessage` sees every message; resolves with the thread's
 * final message ('done', 'discretized'), rejects on 'error' or an early exit. Aborting with the
 * shutdown reason terminates the thread; any other abort asks it to stop after the current step.
 */
function runJobThread<T>(
  data: JobWorkerData,
  signal: AbortSignal,
  onMessage: (message: JobWorkerMessage) => T | undefined,
): Promise<T> {
  // A discretization is one synchronous call: it cannot hear an abort message, so it is ended.
  const terminateOnAbort = data.kind === 'discretization'
  return new Promise<T>((resolve, reject) => {
    const worker = startJobThread(data)
    let settled = false
    const settle = (action: () => void) => {
      if (settled) return
      settled = true
      signal.removeEventListener('abort', onAbort)
      action()
      void worker.terminate()
    }
    const onAbort = () => {
      if (signal.reason === SHUTDOWN_REASON || terminateOnAbort)
        settle(() => reject(new Error(String(signal.reason))))
      else worker.postMessage({ type: 'abort' })
    }
    if (signal.aborted) onAbort()
    else signal.addEventListener('abort', onAbort)
    worker.on('message', (message: JobWorkerMessage) => {
      if (message.type === 'error') {
        settle(() => reject(new Error(message.message)))
        return
      }
      const final = onMessage(message)
      if (final !== undefined) settle(() => resolve(final))
    })
    worker.on('error', (error) => settle(() => reject(error)))
    worker.on('exit', (code) =>
      settle(() => reject(new Error(`The job thread ended early (exit code ${code}).`))),
    )
  })
}

/** The default executors: every job in its own worker thread. */
export function createWorkerExecutors(): JobExecutors {
  return {
    simulation: (input, callbacks: SimulationJobCallbacks, signal) =>
      runJobThread<RunResult>({ kind: 'simulation', input }, signal, (message) => {
        switch (message.type) {
          case 'started':
            callbacks.onStarted()
            return undefined
          case 'log':
            callbacks.onLog(message.line)
            return undefined
          case 'output':
            callbacks.onOutput(message.manifest)
            return undefined
          case 'condition':
            callbacks.onCondition(message.condition, message.value)
            return undefined
          case 'done':
            return message.result
          default:
            return undefined
        }
      }).catch((error: unknown) => {
        // A stop while the thread was still starting: the run ends cleanly, nothing half-started.
        if (signal.aborted && signal.reason !== SHUTDOWN_REASON)
          return {
            state: 'stopped',
            reason: 'user',
            message: RUN_STOP_MESSAGES.user,
            condition: null,
            timeS: 0,
            runtimeMs: 0,
            lastOutputNo: null,
            particles: 0,
            creditsConsumed: input.credits.consumedAtStart,
            deletedParticles: 0,
          } satisfies RunResult
        throw error
      }),
    discretization: (setup, signal, onProgress) =>
      runJobThread<DiscretizationOutcome>({ kind: 'discretization', setup }, signal, (message) => {
        if (message.type === 'progress') onProgress(message.progress)
        if (message.type === 'discretized') return message.outcome
        return undefined
      }),
  }
}
