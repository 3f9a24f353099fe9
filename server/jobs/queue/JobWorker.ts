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
import { queueName, startBoss, type QueuedJob, type QueuedKind } from './pgBoss.ts'
import { startReaper } from './reaper.ts'
import { createRemoteJobs, type ControlMessage } from './remoteJobs.ts'

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
  #coresInUse = new Map<number, number>()
  /** Jobs claimed here (their leases are ours), with the local time of the claim. */
  #claimedAt = new Map<number, number>()
  #closed = false
  #loop: Promise<void> = Promise.resolve()
  #heartbeat: NodeJS.Timeout | undefined
  #lastRenewalMs = Date.now()
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
    this.#stopReaper = startReaper(db, this.#runner, this.#options.heartbeatMs)
    this.#loop = this.#run()
  }

  /** Jobs running here now. */
  activeJobIds(): number[] {
    return this.#runner?.activeJobIds() ?? []
  }

  #control(message: unknown): void {
    const jobId = (message as Partial<ControlMessage> | null)?.jobId
    if (typeof jobId === 'number') this.#runner?.abortJob(jobId)
  }

  /** Renews the leases; a job whose lease is gone (or not renewed in time) is dropped here. */
  async #beat(): Promise<void> {
    const runner = this.#runner
    if (!runner || this.#closed) return
    const beganMs = Date.now()
    // Not renewed for most of a lease (renewals failing or hanging): another process may take
    // our jobs any moment, so they stop here first.
    if (beganMs - this.#lastRenewalMs > this.#ttlMs - this.#options.heartbeatMs)
      for (const jobId of this.#claimedAt.keys()) runner.detach(jobId)
    try {
      const held = new Set(await renewLeases(this.#options.db, this.workerId, this.#ttlMs))
      this.#lastRenewalMs = beganMs
      // A job that just ended gave its lease back: only jobs still running here count.
      const running = new Set(runner.activeJobIds())
      for (const [jobId, claimedMs] of this.#claimedAt)
        if (claimedMs < beganMs && !held.has(jobId) && running.has(jobId)) {
          console.warn(`Job ${jobId}: lease lost to another process; dropped here`)
          runner.detach(jobId)
        }
    } catch (error) {
      console.warn(`Heartbeat failed: ${(error as Error).message}`)
    }
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
            await this.#take(kind, message)
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
    this.#coresInUse.set(jobId, cores)
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
        this.#coresInUse.delete(jobId)
        this.#claimedAt.delete(jobId)
        this.#waitingForCores = false
        this.#wake.wake()
      })
    void done
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
    await this.#runner?.close()
    await this.#loop
    await expireLeases(this.#options.db, this.workerId).catch(() => undefined)
    await this.#listener.close()
    await this.#notifier.close()
    await this.#boss?.stop({ graceful: false, close: true, wait: true }).catch(() => undefined)
  }
}
