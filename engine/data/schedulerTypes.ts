/**
 * The data-worker pool's contract (engine/data/scheduler.ts implements it): what it needs of a
 * worker, its options, what it reports, pooled tasks, and the cancellation error every load and
 * task rejects with.
 */
import type { LoadPriority, LoadRequest, LoadSummary, OutputKey } from '../protocol.ts'

/** What the scheduler needs of a data worker (a Comlink remote of DataWorkerApi satisfies it). */
export interface SchedulableWorker {
  load(request: LoadRequest): Promise<LoadSummary>
  cancel(requestId: string): unknown
}

/** Options of {@link LoadScheduler}. */
export interface LoadSchedulerOptions {
  /** Asks for one more worker; the answer is {@link LoadScheduler.addWorker}. */
  requestWorker(): void
  /** Default MAX_DATA_WORKERS (12). */
  maxWorkers?: number
  /** Default MAX_BYTES_IN_FLIGHT (1 GiB). */
  maxBytesInFlight?: number
  /**
   * Loads and tasks other than 'shown' running at once (default maxWorkers): playback's outputs
   * then arrive one after another in play order, not all together (backgroundLoadLimit).
   */
  maxBackgroundLoads?: number
  /** Called after every change of the queue, the running loads or the workers. */
  onChange?(): void
}

/** One load as the scheduler reports it. */
export interface ScheduledLoadInfo {
  requestId: string
  /** The output loaded; null for a task (setup geometry). */
  key: OutputKey | null
  priority: LoadPriority
  estimatedBytes: number
}

/**
 * Work other than an output load that runs on a pooled worker, in the same queue, priorities and
 * byte gate (the setup scene's meshes, point clouds and keyframe tracks). `run` calls the worker;
 * a cancelled task's worker is told `cancel(requestId)`.
 */
export interface PooledTask<W, T> {
  requestId: string
  priority: LoadPriority
  estimatedBytes: number
  run(worker: W): Promise<T>
}

/** The pool's state, for the render snapshot (bytes in flight, loading outputs). */
export interface SchedulerState {
  /** Sum of the estimated bytes of the running loads. */
  bytesInFlight: number
  workerCount: number
  idleWorkerCount: number
  /** Workers asked for and not yet added. */
  pendingWorkerCount: number
  /** Running loads, in start order. */
  running: ScheduledLoadInfo[]
  /** Queued loads, in the order they will start. */
  queued: ScheduledLoadInfo[]
}

/** The error a cancelled load's promise rejects with (a DOMException named 'AbortError'). */
export function createAbortError(message = 'The load was cancelled.'): Error {
  return new DOMException(message, 'AbortError')
}

/** True for a cancellation (an AbortError from the scheduler, a data worker or fetch). */
export function isAbortError(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && 'name' in error && error.name === 'AbortError'
  )
}
