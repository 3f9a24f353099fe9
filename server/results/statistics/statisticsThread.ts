import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { VolumeClip } from '../../../domain/meshes.ts'
import type { ResultsServerFrame, StatsCalcRequest } from '../../../domain/resultsProtocol.ts'
import type { EmitFrame } from './statisticsCalc.ts'

/*
 * stats.calc off the event loop: one long-lived worker thread per server runs every calculation
 * (concurrently, interleaved at their awaits) and posts their frames back. Measured on 1M-particle
 * outputs (bench results/statsCalc), computing on the main thread held the event loop for up to
 * 375 ms at a time under load; in the thread, other sessions are served meanwhile and the next
 * output's read overlaps the computation on a second core.
 */

/** What a calculation needs, as plain data that crosses to the thread. */
export interface ThreadStatisticsContext {
  dataDir: string
  simulationId: number
  runId: number | null
  clips: VolumeClip[]
}

/** Parent → statistics thread. */
export type StatisticsThreadCommand =
  | { type: 'start'; id: number; request: StatsCalcRequest; context: ThreadStatisticsContext }
  | { type: 'abort'; id: number }

/** Statistics thread → parent. */
export type StatisticsThreadMessage =
  | { type: 'frame'; id: number; frame: ResultsServerFrame }
  | { type: 'end'; id: number; state: 'completed' | 'failed' | 'canceled' }
  | { type: 'fail'; id: number; message: string }

const workerUrl = new URL('./statistics.worker.ts', import.meta.url).href

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

interface Pending {
  emit: EmitFrame
  chain: Promise<void>
  resolve: (state: 'completed' | 'failed' | 'canceled') => void
  reject: (error: Error) => void
}

/** The statistics thread of a server: started on first use, ended by {@link close}. */
export class StatisticsThread {
  #worker: Worker | null = null
  #nextId = 1
  readonly #pending = new Map<number, Pending>()

  #start(): Worker {
    if (this.#worker) return this.#worker
    const boot = `import(${JSON.stringify(tsxEsmApiUrl())})
  .then((tsx) => { tsx.register(); return import(${JSON.stringify(workerUrl)}) })
  .then((entry) => entry.startStatisticsWorker())
  .catch((error) => { console.error(error); process.exit(1) })`
    const worker = new Worker(boot, { eval: true })
    worker.unref()
    worker.on('message', (message: StatisticsThreadMessage) => {
      const pending = this.#pending.get(message.id)
      if (!pending) return
      if (message.type === 'frame') {
        // Frames go out in order, each after the socket took the one before (backpressure).
        // A frame the socket refused (client gone) fails the run once, never as an unhandled rejection.
        pending.chain = pending.chain.then(() => pending.emit(message.frame))
        pending.chain.catch(() => undefined)
        return
      }
      this.#pending.delete(message.id)
      if (message.type === 'end')
        pending.chain.then(() => pending.resolve(message.state), pending.reject)
      else pending.chain.then(() => pending.reject(new Error(message.message)), pending.reject)
    })
    const failAll = (error: Error) => {
      this.#worker = null
      for (const pending of this.#pending.values()) pending.reject(error)
      this.#pending.clear()
    }
    worker.on('error', failAll)
    worker.on('exit', (code) =>
      failAll(new Error(`The statistics thread ended (exit code ${code}).`)),
    )
    this.#worker = worker
    return worker
  }

  /** Runs one calculation in the thread; frames are emitted here in order. */
  run(
    request: StatsCalcRequest,
    context: ThreadStatisticsContext,
    emit: EmitFrame,
    signal: AbortSignal,
  ): Promise<'completed' | 'failed' | 'canceled'> {
    const worker = this.#start()
    const id = this.#nextId++
    return new Promise((resolve, reject) => {
      const onAbort = () =>
        worker.postMessage({ type: 'abort', id } satisfies StatisticsThreadCommand)
      const done = () => signal.removeEventListener('abort', onAbort)
      this.#pending.set(id, {
        emit,
        chain: Promise.resolve(),
        resolve: (state) => {
          done()
          resolve(state)
        },
        reject: (error) => {
          // The client is gone or the thread failed: stop the calculation there too.
          onAbort()
          done()
          reject(error)
        },
      })
      signal.addEventListener('abort', onAbort)
      worker.postMessage({ type: 'start', id, request, context } satisfies StatisticsThreadCommand)
      if (signal.aborted) onAbort()
    })
  }

  /** Ends the thread (server shutdown). */
  async close(): Promise<void> {
    const worker = this.#worker
    this.#worker = null
    if (worker) await worker.terminate()
  }
}
