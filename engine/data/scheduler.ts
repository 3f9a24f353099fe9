/**
 * The data worker pool as a plain queue (pure; the render worker owns one). Loads run in priority
 * order (shown > playback > prefetch, then first come first served), at most one per worker, on at
 * most `maxWorkers` workers asked for on demand (or started ahead with `prestartWorkers`), never
 * with more than `maxBytesInFlight` estimated bytes running at once, whatever their count (a single
 * load bigger than the gate runs alone), and with at most `maxBackgroundLoads` loads other than the
 * shown one running. Loads are cancellable while queued and while running.
 *
 * Usage in the render worker:
 * ```ts
 * const scheduler = new LoadScheduler<Remote<DataWorkerApi>>({
 *   requestWorker: () => callbacks.requestDataWorker(),
 *   onChange: () => markSnapshotDirty(),
 * })
 * adoptDataWorker(port) { scheduler.addWorker(Comlink.wrap<DataWorkerApi>(port)) }
 * scheduler.schedule(request).then(onLoaded, onFailedOrCancelled) // isAbortError tells them apart
 * ```
 */
import {
  LOAD_PRIORITIES,
  MAX_BYTES_IN_FLIGHT,
  MAX_DATA_WORKERS,
  type LoadPriority,
  type LoadRequest,
  type LoadSummary,
} from '../protocol.ts'
import {
  createAbortError,
  type LoadSchedulerOptions,
  type PooledTask,
  type SchedulableWorker,
  type ScheduledLoadInfo,
  type SchedulerState,
} from './schedulerTypes.ts'

export {
  createAbortError,
  isAbortError,
  type LoadSchedulerOptions,
  type PooledTask,
  type SchedulableWorker,
  type ScheduledLoadInfo,
  type SchedulerState,
} from './schedulerTypes.ts'

/**
 * Loads other than the shown one to run at once on a device with `cores` logical cores: 2 to
 * MAX_DATA_WORKERS (the pool's maximum where the count is unknown, as in Node). Reads from the
 * output cache are CPU-bound: on 2 cores, 1, 4 and 12 workers read at about the same total rate,
 * but an output took 40-122 ms in 1 worker and 0.7-1.8 s in 12 (bench/README.md), so 12 at once
 * deliver playback's first outputs all together, late.
 */
export function backgroundLoadLimit(cores: number | undefined): number {
  if (cores === undefined || !Number.isFinite(cores) || cores <= 0) return MAX_DATA_WORKERS
  return Math.min(MAX_DATA_WORKERS, Math.max(2, Math.round(cores)))
}

const PRIORITY_RANK: Record<LoadPriority, number> = Object.fromEntries(
  LOAD_PRIORITIES.map((priority, index) => [priority, index]),
) as Record<LoadPriority, number>

interface Job<W> {
  /** What the queue orders and reports by (a task's too). */
  request: { requestId: string; priority: LoadPriority; estimatedBytes: number }
  /** The output load; null for a task. */
  load: LoadRequest | null
  run(worker: W): Promise<unknown>
  sequence: number
  resolve(value: unknown): void
  reject(error: unknown): void
  worker: W | null
  /** The caller's promise has settled (cancelled, or finished). */
  settled: boolean
}

function describe<W>(job: Job<W>): ScheduledLoadInfo {
  return {
    requestId: job.request.requestId,
    key: job.load === null ? null : { ...job.load.key },
    priority: job.request.priority,
    estimatedBytes: job.request.estimatedBytes,
  }
}

function isBackground<W>(job: Job<W>): boolean {
  return job.request.priority !== 'shown'
}

function byteEstimate(request: { estimatedBytes: number }): number {
  const bytes = request.estimatedBytes
  return Number.isFinite(bytes) && bytes > 0 ? bytes : 0
}

/** A priority queue of loads over an on-demand pool of data workers, gated by bytes in flight. */
export class LoadScheduler<W extends SchedulableWorker> {
  #requestWorker: () => void
  #onChange: () => void
  #maxWorkers: number
  #maxBytesInFlight: number
  #maxBackgroundLoads: number
  #queue: Job<W>[] = []
  #running = new Map<string, Job<W>>()
  #workers = new Set<W>()
  #idle: W[] = []
  #pendingWorkers = 0
  #bytesInFlight = 0
  #sequence = 0
  #pumping = false
  #pumpAgain = false
  #disposed = false

  constructor(options: LoadSchedulerOptions) {
    this.#requestWorker = () => options.requestWorker()
    this.#onChange = () => options.onChange?.()
    this.#maxWorkers = Math.max(1, options.maxWorkers ?? MAX_DATA_WORKERS)
    this.#maxBytesInFlight = options.maxBytesInFlight ?? MAX_BYTES_IN_FLIGHT
    this.#maxBackgroundLoads = Math.max(1, options.maxBackgroundLoads ?? this.#maxWorkers)
  }

  /**
   * Asks for workers until `count` (at most the maximum) are there or on their way, so that their
   * start-up (module loading, a cache handle) is over before loads need them.
   */
  prestartWorkers(count: number): void {
    const target = Math.min(this.#maxWorkers, Math.max(0, Math.floor(count)))
    while (!this.#disposed && this.#workers.size + this.#pendingWorkers < target) {
      this.#pendingWorkers++
      this.#requestWorker()
    }
  }

  /** Adds a worker (the answer to `requestWorker`) and starts what it can. */
  addWorker(worker: W): void {
    if (this.#workers.has(worker)) return
    this.#pendingWorkers = Math.max(0, this.#pendingWorkers - 1)
    this.#workers.add(worker)
    this.#idle.push(worker)
    this.#pump()
  }

  /** Forgets a worker (it died); its running load rejects and the queue goes on without it. */
  removeWorker(worker: W): void {
    if (!this.#workers.delete(worker)) return
    this.#idle = this.#idle.filter((idle) => idle !== worker)
    for (const job of this.#running.values()) {
      if (job.worker !== worker) continue
      this.#finish(job)
      this.#settle(job, () => job.reject(new Error('The data worker stopped.')))
    }
    this.#pump()
  }

  /**
   * Queues a load. Resolves with its summary; rejects with the worker's error, or with an
   * AbortError ({@link isAbortError}) when cancelled. A request id already queued or running is refused.
   */
  schedule(request: LoadRequest): Promise<LoadSummary> {
    const load = { ...request }
    return this.#enqueue<LoadSummary>(load, load, (worker) => worker.load({ ...load }))
  }

  /**
   * Queues a task on the pool (same priorities, gate and cancellation as loads). Resolves with
   * what `run` resolves with; rejects like {@link schedule}.
   */
  scheduleTask<T>(task: PooledTask<W, T>): Promise<T> {
    return this.#enqueue<T>(
      { requestId: task.requestId, priority: task.priority, estimatedBytes: task.estimatedBytes },
      null,
      (worker) => task.run(worker),
    )
  }

  #enqueue<T>(
    request: Job<W>['request'],
    load: LoadRequest | null,
    run: (worker: W) => Promise<T>,
  ): Promise<T> {
    if (this.#disposed) return Promise.reject(createAbortError('The scheduler was disposed.'))
    if (this.#findQueued(request.requestId) !== -1 || this.#running.has(request.requestId)) {
      return Promise.reject(new Error(`Load ${request.requestId} is already scheduled.`))
    }
    return new Promise<T>((resolve, reject) => {
      const job: Job<W> = {
        request,
        load,
        run,
        sequence: this.#sequence++,
        resolve: resolve,
        reject,
        worker: null,
        settled: false,
      }
      this.#queue.splice(this.#insertionIndex(job), 0, job)
      this.#pump()
    })
  }

  /**
   * Cancels a queued or running load: its promise rejects with an AbortError at once; a running
   * load's worker is told to stop, and its bytes count until the worker lets go. False when unknown.
   */
  cancel(requestId: string): boolean {
    const index = this.#findQueued(requestId)
    if (index !== -1) {
      const [job] = this.#queue.splice(index, 1)
      this.#settle(job!, () => job!.reject(createAbortError()))
      this.#pump()
      return true
    }
    const job = this.#running.get(requestId)
    if (job === undefined || job.settled) return false
    this.#settle(job, () => job.reject(createAbortError()))
    if (job.worker !== null) {
      Promise.resolve(job.worker.cancel(requestId)).catch(() => undefined)
    }
    this.#changed()
    return true
  }

  /** Cancels every queued or running load the predicate selects (e.g. prefetch outside the window). */
  cancelWhere(predicate: (request: LoadRequest) => boolean): number {
    const ids = [...this.#queue, ...this.#runningJobs()]
      .map((job) => job.load)
      .filter((load) => load !== null && predicate(load))
      .map((load) => load!.requestId)
    return ids.filter((id) => this.cancel(id)).length
  }

  /** Moves a queued load to another priority (e.g. a prefetched output becomes the shown one). */
  setPriority(requestId: string, priority: LoadPriority): boolean {
    const index = this.#findQueued(requestId)
    if (index === -1) {
      const job = this.#running.get(requestId)
      if (job === undefined) return false
      job.request.priority = priority
      this.#changed()
      return true
    }
    const [job] = this.#queue.splice(index, 1)
    job!.request.priority = priority
    this.#queue.splice(this.#insertionIndex(job!), 0, job!)
    this.#pump()
    return true
  }

  /** The pool's state: bytes in flight, workers, running and queued loads. */
  state(): SchedulerState {
    return {
      bytesInFlight: this.#bytesInFlight,
      workerCount: this.#workers.size,
      idleWorkerCount: this.#idle.length,
      pendingWorkerCount: this.#pendingWorkers,
      running: this.#runningJobs().map(describe),
      queued: this.#queue.map(describe),
    }
  }

  /** Output numbers being loaded (queued or running, not cancelled), sorted, without repeats. */
  loadingOutputNos(): number[] {
    const numbers = new Set(
      [...this.#queue, ...this.#runningJobs()]
        .filter((job) => job.load !== null)
        .map((job) => job.load!.key.outputNo),
    )
    return [...numbers].sort((a, b) => a - b)
  }

  /** Cancels everything and refuses new loads. */
  dispose(): void {
    this.#disposed = true
    for (const job of this.#queue.splice(0)) this.#settle(job, () => job.reject(createAbortError()))
    for (const id of [...this.#running.keys()]) this.cancel(id)
    this.#changed()
  }

  #runningJobs(): Job<W>[] {
    return [...this.#running.values()].filter((job) => !job.settled)
  }

  #findQueued(requestId: string): number {
    return this.#queue.findIndex((job) => job.request.requestId === requestId)
  }

  /** Index keeping the queue sorted by priority, then by arrival. */
  #insertionIndex(job: Job<W>): number {
    const rank = PRIORITY_RANK[job.request.priority]
    const index = this.#queue.findIndex((queued) => {
      const queuedRank = PRIORITY_RANK[queued.request.priority]
      return queuedRank > rank || (queuedRank === rank && queued.sequence > job.sequence)
    })
    return index === -1 ? this.#queue.length : index
  }

  #settle(job: Job<W>, settle: () => void): void {
    if (job.settled) return
    job.settled = true
    settle()
  }

  #changed(): void {
    this.#onChange()
  }

  /** Frees a finished (or abandoned) load's worker and bytes. */
  #finish(job: Job<W>): void {
    if (this.#running.get(job.request.requestId) !== job) return
    this.#running.delete(job.request.requestId)
    this.#bytesInFlight -= byteEstimate(job.request)
    if (job.worker !== null && this.#workers.has(job.worker)) this.#idle.push(job.worker)
  }

  #start(job: Job<W>, worker: W): void {
    job.worker = worker
    this.#running.set(job.request.requestId, job)
    this.#bytesInFlight += byteEstimate(job.request)
    let result: Promise<unknown>
    try {
      result = job.run(worker)
    } catch (error) {
      result = Promise.reject(error instanceof Error ? error : new Error(String(error)))
    }
    result.then(
      (summary) => {
        this.#finish(job)
        this.#settle(job, () => job.resolve(summary))
        this.#pump()
      },
      (error: unknown) => {
        this.#finish(job)
        this.#settle(job, () => job.reject(error))
        this.#pump()
      },
    )
  }

  /**
   * Starts queued loads in order while the byte gate allows (strictly in order: a big shown load
   * is never overtaken by smaller prefetches), and asks for the workers it lacks.
   */
  #pump(): void {
    if (this.#pumping) {
      this.#pumpAgain = true
      return
    }
    this.#pumping = true
    try {
      do {
        this.#pumpAgain = false
        this.#pumpOnce()
      } while (this.#pumpAgain)
    } finally {
      this.#pumping = false
    }
    this.#changed()
  }

  #pumpOnce(): void {
    if (this.#disposed) return
    let projectedBytes = this.#bytesInFlight
    let projectedRunning = this.#running.size
    let projectedBackground = [...this.#running.values()].filter(isBackground).length
    let wanted = 0
    let index = 0
    while (index < this.#queue.length) {
      const job = this.#queue[index]!
      const bytes = byteEstimate(job.request)
      const fits = projectedRunning === 0 || projectedBytes + bytes <= this.#maxBytesInFlight
      // The queue is in priority order: once background loads are at their limit, so is the rest.
      if (!fits || (isBackground(job) && projectedBackground >= this.#maxBackgroundLoads)) break
      projectedBytes += bytes
      projectedRunning++
      if (isBackground(job)) projectedBackground++
      const worker = this.#idle.shift()
      if (worker === undefined) {
        wanted++
        index++
        continue
      }
      this.#queue.splice(index, 1)
      this.#start(job, worker)
    }
    const room = this.#maxWorkers - this.#workers.size - this.#pendingWorkers
    const toRequest = Math.min(wanted - this.#pendingWorkers, room)
    for (let i = 0; i < toRequest; i++) {
      this.#pendingWorkers++
      this.#requestWorker()
    }
  }
}
