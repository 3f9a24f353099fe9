import { hostname } from 'node:os'
import { randomBytes } from 'node:crypto'
import type PgBoss from 'pg-boss'
import type { Clock } from '../../clock.ts'
import { JobRunner } from '../JobRunner.ts'
import { readJobPayload, type Db } from '../jobContext.ts'
import { createSetupLoader } from '../services.ts'
import type { JobExecutors, SetupLoader } from '../types.ts'
import { createWorkerExecutors } from '../workerExecutors.ts'
import { expireLeases, renewLeases } from './leases.ts'
import { createNotifyingEvents } from './liveEvents.ts'
import { CHANNELS, Listener, Notifier } from './notify.ts'
import {
  isTaskKind,
  queueName,
  startBoss,
  type QueuedJob,
  type QueuedKind,
  type QueuedTask,
  type TaskKind,
} from './pgBoss.ts'
import { startReaper } from './reaper.ts'
import { createRemoteJobs, dispatchTask } from './remoteJobs.ts'
import {
  expireTaskLeases,
  releaseTaskLease,
  renewTaskLeases,
  takeCancelMark,
  takeTaskLease,
  taskKey,
} from './taskLeases.ts'
import { TASK_CANCELED, TASK_SHUTDOWN, taskHandlerFor } from './tasks.ts'

/** What a worker process is given (server/worker.ts reads it from its command line). */
export interface JobWorkerOptions {
  db: Db
  databaseUrl: string
  /** The storage root every machine mounts (DIVE_DATA_DIR). */
  dataDir: string
  clock: Clock
  /** Cores this worker may use: a simulation takes as many as it asks for. */
  cores: number
  kinds: readonly QueuedKind[]
  /** Jobs at once. */
  concurrency: number
  /** Lease renewal period; a lease lives LEASE_BEATS of them. */
  heartbeatMs: number
  /** Idle poll of the queue (a queued job also wakes idle workers at once). */
  pollMs: number
  /** Tests and benches: executors and setup loader other than the worker threads and the rows. */
  executors?: JobExecutors
  loadSetup?: SetupLoader
  workerId?: string
}

/** A lease outlives this many missed heartbeats. */
export const LEASE_BEATS = 4

/** Thrown inside a task's claim transaction when another live lease holds it: rolls the claim back. */
class LeaseHeld extends Error {}

/** A task running here. */
interface RunningTask {
  controller: AbortController
  /** Local time of the claim (Infinity until claimed). */
  claimedMs: number
}

/** A wait that ends early when woken. */
class Wake {
  #resolve: (() => void) | null = null
  wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer)
        if (this.#resolve === done) this.#resolve = null
        resolve()
      }
      const timer = setTimeout(done, ms)
      this.#resolve = done
    })
  }
  wake(): void {
    this.#resolve?.()
  }
}

/**
 * A worker process's job loop: takes queued jobs of its kinds while it has a free slot and
 * cores, runs each through the JobRunner (claim + lease, worker threads), renews its leases every
 * heartbeat and drops (detaches) a job whose lease it lost, so a job never runs twice at once.
 */
export class JobWorker {
  readonly workerId: string
  #options: JobWorkerOptions
  #ttlMs: number
  #runner: JobRunner | null = null
  #boss: PgBoss | null = null
  #notifier: Notifier
  #listener: Listener
  #wake = new Wake()
  /** Cores of what runs here: `job:{id}` or a task's key. */
  #coresInUse = new Map<string, number>()
  #tasks = new Map<string, RunningTask>()
  #taskRuns = new Set<Promise<void>>()
  /** Jobs claimed here (their leases are ours), with the local time of the claim. */
  #claimedAt = new Map<number, number>()
  #closed = false
  #loop: Promise<void> = Promise.resolve()
  #heartbeat: NodeJS.Timeout | undefined
  #lastRenewalMs = Date.now()
  /** A renewal is under way (a beat that finds one waits for it, or drops all when it hangs). */
  #renewing = false
  #stopReaper: (() => Promise<void>) | null = null
  /** Set when a job was handed back for want of cores: wait for one of ours to end. */
  #waitingForCores = false

  constructor(options: JobWorkerOptions) {
    this.#options = options
    this.#ttlMs = options.heartbeatMs * LEASE_BEATS
    this.workerId =
      options.workerId ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`
    this.#notifier = new Notifier(options.databaseUrl)
    this.#listener = new Listener(
      options.databaseUrl,
      [CHANNELS.control, CHANNELS.ready],
      (channel, message) => {
        if (channel === CHANNELS.ready) this.#wake.wake()
        else this.#control(message)
      },
    )
  }

  async start(): Promise<void> {
    const { db, dataDir, clock, databaseUrl } = this.#options
    this.#boss = await startBoss(databaseUrl)
    this.#runner = new JobRunner({
      db,
      clock,
      dataDir,
      executors: this.#options.executors ?? createWorkerExecutors(),
      loadSetup: this.#options.loadSetup ?? createSetupLoader(db, dataDir),
      events: createNotifyingEvents(this.#notifier),
      remote: createRemoteJobs(db, this.#boss, this.#notifier),
      leases: { workerId: this.workerId, ttlMs: this.#ttlMs },
    })
    await this.#listener.start()
    this.#heartbeat = setInterval(() => void this.#beat(), this.#options.heartbeatMs)
    const boss = this.#boss
    this.#stopReaper = startReaper(db, this.#runner, this.#options.heartbeatMs, (kind, id, data) =>
      dispatchTask(boss, this.#notifier, kind, id, data),
    )
    this.#loop = this.#run()
  }

  /** Jobs running here now. */
  activeJobIds(): number[] {
    return this.#runner?.activeJobIds() ?? []
  }

  /** Keys of the tasks running here now. */
  activeTaskKeys(): string[] {
    return [...this.#tasks.keys()]
  }

  #control(message: unknown): void {
    const { jobId, task } = (message ?? {}) as { jobId?: unknown; task?: unknown }
    if (typeof jobId === 'number') this.#runner?.abortJob(jobId)
    const running = typeof task === 'string' ? this.#tasks.get(task) : undefined
    if (running) {
      console.warn(`Task ${String(task)}: canceled by the server`)
      running.controller.abort(TASK_CANCELED)
    }
  }

  /**
   * Renews the leases of what runs here; a job or task whose lease is gone is dropped here. A beat
   * that comes late (this process starved of CPU, its event loop busy) renews all the same: a
   * renewal only succeeds on a lease that has not expired, which no other process can have taken.
   * Only while a renewal hangs or fails for most of a lease is everything dropped first, since
   * another process may take it any moment. A dropped job's or task's lease is no longer renewed:
   * it expires and a reaper queues the work again.
   */
  async #beat(): Promise<void> {
    const runner = this.#runner
    if (!runner || this.#closed) return
    const beganMs = Date.now()
    if (this.#renewing) {
      if (beganMs - this.#lastRenewalMs > this.#ttlMs - this.#options.heartbeatMs) this.#dropAll()
      return
    }
    this.#renewing = true
    try {
      const jobIds = [...this.#claimedAt.keys()]
      const taskKeys = [...this.#tasks]
        .filter(([, task]) => task.claimedMs !== Infinity && !this.#isDropped(task))
        .map(([key]) => key)
      const held = new Set(await renewLeases(this.#options.db, this.workerId, this.#ttlMs, jobIds))
      const heldTasks = new Set(
        await renewTaskLeases(this.#options.db, this.workerId, this.#ttlMs, taskKeys),
      )
      this.#lastRenewalMs = beganMs
      for (const [key, task] of this.#tasks)
        if (task.claimedMs < beganMs && !heldTasks.has(key) && !task.controller.signal.aborted) {
          console.warn(`Task ${key}: lease lost to another process; dropped here`)
          task.controller.abort(TASK_SHUTDOWN)
        }
      // A job that just ended gave its lease back: only jobs still running here count.
      const running = new Set(runner.activeJobIds())
      for (const [jobId, claimedMs] of this.#claimedAt)
        if (claimedMs < beganMs && !held.has(jobId) && running.has(jobId)) {
          console.warn(`Job ${jobId}: lease lost to another process; dropped here`)
          this.#dropJob(jobId)
        }
    } catch (error) {
      console.warn(`Heartbeat failed: ${(error as Error).message}`)
      if (Date.now() - this.#lastRenewalMs > this.#ttlMs - this.#options.heartbeatMs)
        this.#dropAll()
    } finally {
      this.#renewing = false
    }
  }

  /** Renewals have not answered for most of a lease: everything running here stops first. */
  #dropAll(): void {
    if (this.#claimedAt.size > 0 || this.#tasks.size > 0)
      console.warn('Leases not renewed for most of their life; the jobs running here are dropped')
    for (const jobId of [...this.#claimedAt.keys()]) this.#dropJob(jobId)
    for (const task of this.#tasks.values())
      if (!task.controller.signal.aborted) task.controller.abort(TASK_SHUTDOWN)
  }

  /** A job stops here and its lease is no longer renewed (runner.detach: nothing more written). */
  #dropJob(jobId: number): void {
    this.#runner?.detach(jobId)
    this.#claimedAt.delete(jobId)
  }

  /** A task stopped by this worker (not by a user's cancel, which ends it and gives the lease back). */
  #isDropped(task: RunningTask): boolean {
    return task.controller.signal.aborted && task.controller.signal.reason === TASK_SHUTDOWN
  }

  #freeCores(): number {
    let used = 0
    for (const cores of this.#coresInUse.values()) used += cores
    return this.#options.cores - used
  }

  async #run(): Promise<void> {
    const { kinds, concurrency, pollMs } = this.#options
    while (!this.#closed) {
      let took = false
      if (this.#coresInUse.size < concurrency && this.#freeCores() > 0 && !this.#waitingForCores)
        for (const kind of kinds) {
          try {
            const [message] = await this.#boss!.fetch<QueuedJob>(queueName(kind), {
              batchSize: 1,
            })
            if (!message) continue
            took = true
            if (isTaskKind(kind))
              await this.#takeTask(kind, message as unknown as PgBoss.Job<QueuedTask>)
            else await this.#take(kind, message)
            break
          } catch (error) {
            console.warn(`Taking a ${kind} job failed: ${(error as Error).message}`)
          }
        }
      if (!took && !this.#closed) await this.#wake.wait(pollMs)
    }
  }

  async #take(kind: QueuedKind, message: PgBoss.Job<QueuedJob>): Promise<void> {
    const boss = this.#boss!
    const runner = this.#runner!
    const name = queueName(kind)
    const { jobId } = message.data
    const row = await this.#options.db
      .selectFrom('jobs')
      .selectAll()
      .where('id', '=', jobId)
      .executeTakeFirst()
    const cores = kind === 'simulation' && row ? readJobPayload(row).cores : 1
    // Busy and short of cores: back to the queue for another worker (an idle one takes anything).
    if (cores > this.#freeCores() && this.#coresInUse.size > 0) {
      await boss.send(name, message.data)
      await boss.complete(name, message.id)
      this.#waitingForCores = true
      return
    }
    this.#coresInUse.set(`job:${jobId}`, cores)
    const done = runner
      .run(jobId, () => {
        this.#claimedAt.set(jobId, Date.now())
        void boss.complete(name, message.id).catch(() => undefined)
      })
      .then(async (claimed) => {
        if (!claimed) await boss.complete(name, message.id).catch(() => undefined)
      })
      .catch((error: unknown) => console.error(`Job ${jobId} failed unexpectedly`, error))
      .finally(() => {
        this.#coresInUse.delete(`job:${jobId}`)
        this.#claimedAt.delete(jobId)
        this.#waitingForCores = false
        this.#wake.wake()
      })
    void done
  }

  /**
   * Takes a task: its runner claims it and its lease is taken in one transaction (so it runs on one
   * worker at a time), then it runs here on one core and gives the lease back at its end. A task
   * stopped by this worker's shutdown or a lost lease keeps its lease for the reaper.
   */
  async #takeTask(kind: TaskKind, message: PgBoss.Job<QueuedTask>): Promise<void> {
    const boss = this.#boss!
    const name = queueName(kind)
    const { db, clock } = this.#options
    const { taskId, data } = message.data
    const handler = taskHandlerFor(db, kind)
    if (!handler) {
      console.error(`No runner for ${kind} tasks in this worker: ${taskId} dropped`)
      await boss.complete(name, message.id)
      return
    }
    const key = taskKey(kind, taskId)
    // Not checked by the heartbeat until its lease is committed.
    const task: RunningTask = { controller: new AbortController(), claimedMs: Infinity }
    this.#coresInUse.set(key, 1)
    // Known before the claim commits, so a cancel that follows the lease at once reaches it.
    this.#tasks.set(key, task)
    const done = (async () => {
      const nowIso = clock.nowIso()
      const lease = { kind, id: taskId, data, workerId: this.workerId, ttlMs: this.#ttlMs }
      const claimed = await db
        .transaction()
        .execute(async (trx) => {
          if (!(await handler.claim(trx, taskId, data, nowIso))) return false
          if (!(await takeTaskLease(trx, lease, nowIso))) throw new LeaseHeld()
          return true
        })
        .catch((error: unknown) => {
          if (error instanceof LeaseHeld) return false
          throw error
        })
      await boss.complete(name, message.id).catch(() => undefined)
      if (!claimed) {
        if (await takeCancelMark(db, key)) console.warn(`Task ${key}: canceled before it started`)
        return
      }
      task.claimedMs = Date.now()
      if (this.#closed) task.controller.abort(TASK_SHUTDOWN)
      try {
        await handler.run(taskId, data, task.controller.signal)
      } finally {
        this.#tasks.delete(key)
        const reason: unknown = task.controller.signal.reason
        if (!task.controller.signal.aborted || reason === TASK_CANCELED)
          await releaseTaskLease(db, key, this.workerId)
      }
    })()
      .catch((error: unknown) => console.error(`Task ${key} failed unexpectedly`, error))
      .finally(() => {
        this.#tasks.delete(key)
        this.#coresInUse.delete(key)
        this.#waitingForCores = false
        this.#wake.wake()
      })
    this.#taskRuns.add(done)
    void done.finally(() => this.#taskRuns.delete(done))
  }

  /**
   * Ends the worker: job threads stop at once and their rows stay 'running'; the leases expire
   * now, so the server or another worker resumes those jobs from their checkpoints right away.
   */
  async close(): Promise<void> {
    this.#closed = true
    this.#wake.wake()
    clearInterval(this.#heartbeat)
    await this.#stopReaper?.()
    for (const task of this.#tasks.values()) task.controller.abort(TASK_SHUTDOWN)
    await this.#runner?.close()
    await this.#loop
    await Promise.allSettled([...this.#taskRuns])
    await expireLeases(this.#options.db, this.workerId).catch(() => undefined)
    await expireTaskLeases(this.#options.db, this.workerId).catch(() => undefined)
    await this.#listener.close()
    await this.#notifier.close()
    await this.#boss?.stop({ graceful: false, close: true, wait: true }).catch(() => undefined)
  }
}
