import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { availableParallelism } from 'node:os'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import type { VolumeClip } from '../../../domain/meshes.ts'
import type { StatsCalcRequest } from '../../../domain/resultsProtocol.ts'
import { streamStatistics, type OutputComputer } from './statisticsCalc.ts'
import type { OutputResult } from './statisticsOutput.ts'
import type { EmitFrame } from './statisticsRequest.ts'

/*
 * stats.calc off the event loop and over every core: a few long-lived worker threads per server
 * (one per core, at most MAX_THREADS) compute whole outputs; one request spreads its outputs over
 * all of them (statisticsCalc.ts streamStatistics) and this thread only sends the frames, in the
 * requested order. Measured on 1M-particle outputs (bench results/statsCalc): computing on the main
 * thread held the event loop for up to 375 ms at a time under load; with one thread a request ran
 * on one core; with one per core it runs on both of this machine's.
 */

/** Threads at most, whatever the core count (each holds a few output-sized buffers). */
const MAX_THREADS = 4

/** What a calculation needs, as plain data that crosses to the threads. */
export interface ThreadStatisticsContext {
  dataDir: string
  simulationId: number
  runId: number | null
  clips: VolumeClip[]
}

/** Parent → statistics thread. */
export type StatisticsThreadCommand =
  | { type: 'open'; id: number; request: StatsCalcRequest; context: ThreadStatisticsContext }
  | { type: 'output'; id: number; index: number; outputNo: number }
  | { type: 'close'; id: number }

/** Statistics thread → parent: the answer to one `output` command. */
export type StatisticsThreadMessage =
  | { type: 'output'; id: number; index: number; result: OutputResult }
  | { type: 'fail'; id: number; index: number; message: string }

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
  resolve: (result: OutputResult) => void
  reject: (error: Error) => void
}

/** One worker thread: started on first use, started again after it failed. */
class StatisticsWorker {
  #worker: Worker | null = null
  /** `${calculation id}:${index}` → the output asked. */
  readonly #pending = new Map<string, Pending>()
  /** Calculations opened in the current worker. */
  readonly #opened = new Set<number>()
  /** Outputs this thread answered since the server started (tests and bench: the spread). */
  answered = 0

  #start(): Worker {
    if (this.#worker) return this.#worker
    const boot = `import(${JSON.stringify(tsxEsmApiUrl())})
  .then((tsx) => { tsx.register(); return import(${JSON.stringify(workerUrl)}) })
  .then((entry) => entry.startStatisticsWorker())
  .catch((error) => { console.error(error); process.exit(1) })`
    const worker = new Worker(boot, { eval: true })
    worker.unref()
    worker.on('message', (message: StatisticsThreadMessage) => {
      const key = `${message.id}:${message.index}`
      const pending = this.#pending.get(key)
      if (!pending) return
      this.#pending.delete(key)
      this.answered++
      if (message.type === 'output') pending.resolve(message.result)
      else pending.reject(new Error(message.message))
    })
    const failAll = (error: Error) => {
      if (this.#worker !== worker) return
      this.#worker = null
      this.#opened.clear()
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

  /** A computer of calculation `id` in this thread. */
  computer(
    id: number,
    request: StatsCalcRequest,
    context: ThreadStatisticsContext,
  ): OutputComputer {
    let index = 0
    return {
      compute: (outputNo) => {
        const worker = this.#start()
        if (!this.#opened.has(id)) {
          this.#opened.add(id)
          worker.postMessage({
            type: 'open',
            id,
            request,
            context,
          } satisfies StatisticsThreadCommand)
        }
        const key = `${id}:${index}`
        const command: StatisticsThreadCommand = { type: 'output', id, index, outputNo }
        index++
        return new Promise<OutputResult>((resolve, reject) => {
          this.#pending.set(key, { resolve, reject })
          worker.postMessage(command)
        })
      },
    }
  }

  /** Ends calculation `id` here: its outputs still asked are dropped, unanswered. */
  closeCalculation(id: number): void {
    for (const key of [...this.#pending.keys()])
      if (key.startsWith(`${id}:`)) this.#pending.delete(key)
    if (!this.#opened.delete(id)) return
    this.#worker?.postMessage({ type: 'close', id } satisfies StatisticsThreadCommand)
  }

  async close(): Promise<void> {
    const worker = this.#worker
    this.#worker = null
    this.#opened.clear()
    if (worker) await worker.terminate()
  }
}

/** The statistics threads of a server; see the file comment. */
export class StatisticsThreads {
  readonly #workers: StatisticsWorker[]
  #nextId = 1

  /** `threads`: how many (default: one per core, at most {@link MAX_THREADS}). */
  constructor(threads = Math.min(MAX_THREADS, availableParallelism())) {
    this.#workers = Array.from({ length: Math.max(1, threads) }, () => new StatisticsWorker())
  }

  /** How many threads a calculation is spread over. */
  get size(): number {
    return this.#workers.length
  }

  /** Outputs each thread answered so far. */
  get answeredPerThread(): number[] {
    return this.#workers.map((worker) => worker.answered)
  }

  /** Runs one calculation over the threads; frames are emitted here in order. */
  run(
    request: StatsCalcRequest,
    context: ThreadStatisticsContext,
    emit: EmitFrame,
    signal: AbortSignal,
  ): Promise<'completed' | 'failed' | 'canceled'> {
    const id = this.#nextId++
    return streamStatistics(request, signal, emit, () => ({
      computers: this.#workers.map((worker) => worker.computer(id, request, context)),
      close: () => {
        for (const worker of this.#workers) worker.closeCalculation(id)
      },
    }))
  }

  /** Ends the threads (server shutdown). */
  async close(): Promise<void> {
    await Promise.all(this.#workers.map((worker) => worker.close()))
  }
}
