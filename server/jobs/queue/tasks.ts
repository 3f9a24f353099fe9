import type { Transaction } from 'kysely'
import type { Database } from '../../db/schema.ts'
import type { Db } from '../jobContext.ts'
import type { TaskKind } from './pgBoss.ts'

/*
 * Tasks: the job kinds other than simulations and discretizations (pgBoss.ts TASK_KINDS), each
 * run by its own runner with its own rows (user_exports, simulation_compressions, jobs of kind
 * sensorRecomputation / assembly / tessellation) or none (a statistics range answers a results
 * session). In the embedded default a runner runs its tasks in the server process as it always
 * did. With remote workers (DIVE_JOB_WORKERS=remote) the server's runner queues the task instead
 * (ServerTaskQueue), and a worker process's runner, registered as this kind's TaskHandler, claims it
 * (its row from scheduled to running and a lease, one transaction), runs it and gives the lease
 * back; progress and results land in the same rows the UI polls.
 */

/** Why a task's signal aborted: the user's cancel, or the worker stopping / losing the lease. */
export const TASK_CANCELED = 'user'
export const TASK_SHUTDOWN = 'server shutdown'

/** The error of a task that cannot be retried when its worker died (a tessellation). */
export const TASK_WORKER_LOST_MESSAGE =
  'The worker running the job stopped before it ended. Start it again.'

/** A worker process's side of a task kind (the runner of that kind). */
export interface TaskHandler {
  kind: TaskKind
  /**
   * Claims the task inside the transaction that takes its lease: one conditional update of its row
   * (scheduled → running), so of several workers exactly one gets it. Kinds without a row return
   * true (the lease alone claims them).
   */
  claim(trx: Transaction<Database>, id: string, data: unknown, nowIso: string): Promise<boolean>
  /**
   * Runs a claimed task to its end here, writing its rows and files as in the server. The signal
   * aborts with TASK_CANCELED (a user's cancel: the server ends the row) or TASK_SHUTDOWN (the
   * worker stops or lost the lease: rows stay for the reaper).
   */
  run(id: string, data: unknown, signal: AbortSignal): Promise<void>
  /**
   * The task's worker died (its lease expired). Returns true when the task was made scheduled again
   * and must be queued again as it was (its output is rewritten from scratch, written atomically);
   * false when it was ended (failed) or is over.
   */
  recover(id: string, data: unknown): Promise<boolean>
}

/** The server's side of the queue as a runner sees it (remote workers only). */
export interface ServerTaskQueue {
  /** Sends a scheduled task to its kind's queue and wakes idle workers. */
  dispatch(kind: TaskKind, id: string, data: unknown): Promise<void>
  /**
   * Asks the worker running the task to cancel it and waits (up to 10 s) until it has ended there.
   * False when no worker holds it.
   */
  stop(kind: TaskKind, id: string): Promise<boolean>
  /**
   * Cancels a task without a row of its own (a statistics range): one no worker has taken yet is
   * marked so that none ever runs it (a worker that takes its message drops it); one a worker
   * runs is stopped as `stop` does. True when a worker held it.
   */
  cancel(kind: TaskKind, id: string): Promise<boolean>
  /** Whether a worker holds the task's lease. */
  isLeased(kind: TaskKind, id: string): Promise<boolean>
}

const handlers = new WeakMap<object, Map<TaskKind, TaskHandler>>()
const queues = new WeakMap<object, ServerTaskQueue>()

/** A runner offers its kind to the worker process (and to the reaper) of this database handle. */
export function registerTaskHandler(db: Db, handler: TaskHandler): void {
  const map = handlers.get(db) ?? new Map<TaskKind, TaskHandler>()
  map.set(handler.kind, handler)
  handlers.set(db, map)
}

export function unregisterTaskHandler(db: Db, kind: TaskKind): void {
  handlers.get(db)?.delete(kind)
}

/** The runner of a task kind on this database handle, if one registered. */
export function taskHandlerFor(db: Db, kind: string): TaskHandler | undefined {
  return handlers.get(db)?.get(kind as TaskKind)
}

/** The task kinds with a runner on this handle. */
export function taskHandlerKinds(db: Db): TaskKind[] {
  return [...(handlers.get(db)?.keys() ?? [])]
}

/** The server's queue on this handle (remote workers); undefined: tasks run in this process. */
export function serverTaskQueueFor(db: Db): ServerTaskQueue | undefined {
  return queues.get(db)
}

export function setServerTaskQueue(db: Db, queue: ServerTaskQueue | null): void {
  if (queue) queues.set(db, queue)
  else queues.delete(db)
}

// ── Frames of streaming tasks (a statistics range): worker → CHANNELS.taskFrames → the server ──

/** One frame of a streaming task on the wire. */
export interface TaskFrameMessage {
  task: string
  frame: unknown
}

const frameSubscribers = new Map<string, (frame: unknown) => void>()

/** The server's session waiting for a task's frames; returns the unsubscribe. */
export function subscribeTaskFrames(task: string, onFrame: (frame: unknown) => void): () => void {
  frameSubscribers.set(task, onFrame)
  return () => {
    if (frameSubscribers.get(task) === onFrame) frameSubscribers.delete(task)
  }
}

/** A notified frame to its subscriber (none: the session is gone; dropped). */
export function deliverTaskFrame(message: unknown): void {
  if (typeof message !== 'object' || message === null) return
  const { task, frame } = message as Partial<TaskFrameMessage>
  if (typeof task === 'string') frameSubscribers.get(task)?.(frame)
}
