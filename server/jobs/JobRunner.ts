import { RUN_TEXTS } from '../../domain/rest/runRoutes.ts'
import { RUN_STOP_MESSAGES } from '../../solver/run/types.ts'
import type { Clock } from '../clock.ts'
import { finishDiscretizationJob, runDiscretizationJob } from './discretizationJob.ts'
import {
  USER_REASON,
  readRun,
  type Db,
  type JobContext,
  type JobControl,
  type JobRow,
} from './jobContext.ts'
import { cancelScheduledJob, claimJob } from './claim.ts'
import { releaseLease } from './queue/leases.ts'
import { recoverSimulationJob } from './recovery.ts'
import { endedRun, finishSimulationJob, runSimulationJob } from './simulationJob.ts'
import {
  SHUTDOWN_REASON,
  type JobEvents,
  type JobExecutors,
  type LeaseOptions,
  type RemoteJobs,
  type SetupLoader,
} from './types.ts'

/** How long a stop or delete waits for a remote worker to end its job. */
const REMOTE_END_WAIT_MS = 10_000

export interface JobRunnerOptions {
  db: Db
  clock: Clock
  dataDir: string
  executors: JobExecutors
  loadSetup: SetupLoader
  events: JobEvents
  /** Server with remote workers: jobs are queued, not run here. */
  remote?: RemoteJobs
  /** Worker process: claims take leases. */
  leases?: LeaseOptions
}

interface ActiveJob {
  jobId: number
  simulationId: number
  kind: string
  controller: AbortController
  /** The lease was lost: the job is another process's now; this one writes nothing more. */
  detached: boolean
}

/**
 * The in-process job runner: picks up scheduled jobs, runs them through the executors (worker
 * threads), writes every state change to the jobs, runs and simulations rows, bills credits and
 * tells the live channel. Rows are the truth: after a restart `start()` resumes or fails what
 * was left running.
 */
export class JobRunner {
  #db: Db
  #clock: Clock
  #loadSetup: SetupLoader
  #events: JobEvents
  #active = new Map<number, ActiveJob>()
  #pending = new Set<Promise<void>>()
  #tasks = new Map<number, Promise<void>>()
  #closed = false
  #context: JobContext
  #remote: RemoteJobs | undefined
  #leases: LeaseOptions | undefined

  constructor(options: JobRunnerOptions) {
    this.#db = options.db
    this.#clock = options.clock
    this.#loadSetup = options.loadSetup
    this.#events = options.events
    this.#context = { ...options }
    this.#remote = options.remote
    this.#leases = options.leases
  }

  /** Loads a run's setup (for the start checks of the handlers). */
  loadSetup(simulationId: number) {
    return this.#loadSetup(simulationId)
  }

  /**
   * Recovery at server start: scheduled jobs are queued again; a running simulation resumes from
   * its last checkpoint (or fails when it has none); a running discretization fails; a
   * simulation left 'stopping' ends stopped. Nothing stays 'running' without a worker. Jobs of
   * other kinds (sensor recomputations, CAD reads and tessellations) are their runners' to recover.
   * With remote workers, a job whose worker still holds its lease is left to that worker.
   */
  async start(): Promise<void> {
    const stale = await this.#db
      .selectFrom('jobs')
      .selectAll()
      .where('kind', 'in', ['simulation', 'discretization'])
      .where('state', 'in', ['scheduled', 'running'])
      .orderBy('id')
      .execute()
    for (const job of stale) {
      if (job.state === 'running' && (await this.#remote?.isLeased(job.id))) continue
      if (job.kind === 'simulation') {
        const options = { restartWithoutCheckpoint: false }
        if (await recoverSimulationJob(this.#context, job, options)) this.enqueue(job.id)
      } else if (job.state === 'scheduled') this.enqueue(job.id)
      else
        await finishDiscretizationJob(
          this.#context,
          job,
          'failed',
          [RUN_TEXTS.serverRestartFailed],
          [],
          null,
        )
    }
  }

  /**
   * Starts a scheduled job in the background: in this process, or (remote workers) through the
   * queue to whichever worker takes it.
   */
  enqueue(jobId: number): void {
    if (this.#closed) return
    const remote = this.#remote
    const task = (remote ? this.#dispatch(remote, jobId) : this.#runJob(jobId)).catch(
      (error: unknown) => {
        console.error(`Job ${jobId} failed unexpectedly`, error)
      },
    )
    this.#track(jobId, task)
  }

  async #dispatch(remote: RemoteJobs, jobId: number): Promise<void> {
    const job = await this.#db
      .selectFrom('jobs')
      .select(['kind', 'state'])
      .where('id', '=', jobId)
      .executeTakeFirst()
    if (job?.state === 'scheduled') await remote.dispatch(jobId, job.kind)
  }

  /**
   * A worker process's entry: claims the job (with its lease) and runs it to its end here.
   * Resolves when it has ended; false when the job was not scheduled (another worker had it).
   */
  async run(jobId: number, onClaimed?: () => void): Promise<boolean> {
    if (this.#closed) return false
    let claimed = false
    const task = this.#runJob(jobId, () => {
      claimed = true
      onClaimed?.()
    })
    this.#track(jobId, task)
    await task
    return claimed
  }

  /**
   * A job whose worker died (its lease expired and was taken by takeExpiredLeases): a simulation
   * resumes from its last checkpoint (or starts over without one), a discretization starts over.
   * The job is queued again for any worker.
   */
  async recoverAbandoned(jobId: number): Promise<void> {
    const job = await this.#db
      .selectFrom('jobs')
      .selectAll()
      .where('id', '=', jobId)
      .executeTakeFirst()
    if (!job || job.state !== 'running') return
    if (job.kind === 'simulation') {
      const options = { restartWithoutCheckpoint: true }
      if (await recoverSimulationJob(this.#context, job, options)) this.enqueue(job.id)
      return
    }
    await this.#db
      .updateTable('jobs')
      .set({ state: 'scheduled', progress: 0, updated_at: this.#clock.nowIso() })
      .where('id', '=', job.id)
      .where('state', '=', 'running')
      .execute()
    this.#events.discretizationChanged(job.simulation_id)
    this.enqueue(job.id)
  }

  /** Ids of the jobs this process runs now. */
  activeJobIds(): number[] {
    return [...this.#active.keys()]
  }

  /** Asks a job running here to stop as a user's stop would (a remote stop request). */
  abortJob(jobId: number): void {
    this.#active.get(jobId)?.controller.abort(USER_REASON)
  }

  /**
   * The job's lease is lost (this worker missed its heartbeats and another took the job over):
   * its thread ends at once and nothing more of it is written from here.
   */
  detach(jobId: number): void {
    const active = this.#active.get(jobId)
    if (!active) return
    active.detached = true
    active.controller.abort(SHUTDOWN_REASON)
  }

  #track(jobId: number, task: Promise<unknown>): void {
    this.#pending.add(task as Promise<void>)
    this.#tasks.set(jobId, task as Promise<void>)
    void task.finally(() => {
      this.#pending.delete(task as Promise<void>)
      this.#tasks.delete(jobId)
    })
  }

  notifySimulationChanged(simulationId: number): void {
    this.#events.simulationChanged(simulationId)
  }

  notifyDiscretizationChanged(simulationId: number): void {
    this.#events.discretizationChanged(simulationId)
  }

  /**
   * Stops the simulation's run: a running thread finishes its step and ends 'stopped'; a job not
   * started yet (a stop during launch) is cancelled before any thread starts, so no run is left
   * half-started.
   */
  async stopSimulation(simulationId: number): Promise<void> {
    if (this.requestStop(simulationId)) return
    const job = await this.#db
      .selectFrom('jobs')
      .selectAll()
      .where('simulation_id', '=', simulationId)
      .where('kind', '=', 'simulation')
      .where('state', 'in', ['scheduled', 'running'])
      .orderBy('id', 'desc')
      .executeTakeFirst()
    if (!job) {
      await this.#db
        .updateTable('simulations')
        .set({ state: 'stopped', updated_at: this.#clock.nowIso() })
        .where('id', '=', simulationId)
        .where('state', '=', 'stopping')
        .execute()
      this.#events.simulationChanged(simulationId)
      return
    }
    if (job.state === 'scheduled') {
      // Cancelling the row first makes a concurrent claim fail, so the job can never start.
      const canceled = await cancelScheduledJob(this.#db, this.#clock, job.id)
      if (!canceled && this.requestStop(simulationId)) return
    }
    // A worker process runs it: it ends the rows itself after the current step.
    if (await this.#abortRemote(job.id)) return
    const run = job.run_id === null ? undefined : await readRun(this.#db, job.run_id)
    await finishSimulationJob(
      this.#context,
      job,
      endedRun('stopped', 'user', RUN_STOP_MESSAGES.user, run?.last_output ?? null),
    )
  }

  /** Cancels a discretization job: its thread ends at once; returns the updated row. */
  async cancelDiscretization(jobId: number): Promise<JobRow> {
    const active = this.#active.get(jobId)
    const task = this.#tasks.get(jobId)
    if (active) {
      active.controller.abort(USER_REASON)
      await task
    } else if (await this.#abortRemote(jobId)) {
      await this.#waitUntilEnded([jobId])
    } else {
      const job = await this.#db
        .selectFrom('jobs')
        .selectAll()
        .where('id', '=', jobId)
        .executeTakeFirstOrThrow()
      // A queued job: cancelling the row first makes a worker's concurrent claim fail; if a worker
      // claimed it just before, the stop goes to that worker.
      const canceled =
        job.state !== 'scheduled' || (await cancelScheduledJob(this.#db, this.#clock, jobId))
      const claimedHere = this.#active.get(jobId)
      if (!canceled && claimedHere) {
        claimedHere.controller.abort(USER_REASON)
        await this.#tasks.get(jobId)
      } else if (!canceled && (await this.#abortRemote(jobId))) await this.#waitUntilEnded([jobId])
      else if (job.state === 'scheduled' || job.state === 'running')
        await finishDiscretizationJob(this.#context, job, 'canceled', [], [], null)
    }
    return this.#db.selectFrom('jobs').selectAll().where('id', '=', jobId).executeTakeFirstOrThrow()
  }

  /** Whether a job of this kind is under way for the simulation in this process. */
  isActive(simulationId: number, kind: string): boolean {
    return [...this.#active.values()].some(
      (a) => a.simulationId === simulationId && a.kind === kind,
    )
  }

  /**
   * Asks the simulation's running job to stop after its current step. Returns false when this
   * process runs none for it (the caller then ends the rows itself).
   */
  requestStop(simulationId: number, kind = 'simulation'): boolean {
    const active = [...this.#active.values()].find(
      (a) => a.simulationId === simulationId && a.kind === kind,
    )
    if (!active) return false
    active.controller.abort(USER_REASON)
    return true
  }

  /**
   * Ends every job of a deleted simulation in this process and waits for their threads, so none
   * writes into its directories after they are removed.
   */
  async endSimulationJobs(simulationId: number): Promise<void> {
    const jobs = [...this.#active.values()].filter((a) => a.simulationId === simulationId)
    for (const active of jobs) active.controller.abort(USER_REASON)
    await Promise.allSettled(jobs.map((a) => this.#tasks.get(a.jobId) ?? Promise.resolve()))
    if (!this.#remote) return
    const running = await this.#db
      .selectFrom('jobs')
      .select('id')
      .where('simulation_id', '=', simulationId)
      .where('state', '=', 'running')
      .execute()
    const remote: number[] = []
    for (const { id } of running) if (await this.#abortRemote(id)) remote.push(id)
    await this.#waitUntilEnded(remote)
  }

  /** Asks the worker holding the job's lease to stop it; false when no worker holds it. */
  async #abortRemote(jobId: number): Promise<boolean> {
    const remote = this.#remote
    if (!remote || !(await remote.isLeased(jobId))) return false
    await remote.abort(jobId)
    return true
  }

  /** Waits (up to REMOTE_END_WAIT_MS) until remote workers have ended the jobs. */
  async #waitUntilEnded(jobIds: number[]): Promise<void> {
    const until = this.#clock.nowMs() + REMOTE_END_WAIT_MS
    for (const jobId of jobIds)
      while (this.#clock.nowMs() < until && (await this.#remote?.isLeased(jobId)))
        await new Promise((resolve) => setTimeout(resolve, 100))
  }

  /** Ends every job thread; rows stay as they are so the next start recovers them. */
  async close(): Promise<void> {
    this.#closed = true
    for (const active of this.#active.values()) active.controller.abort(SHUTDOWN_REASON)
    await Promise.allSettled([...this.#pending])
  }

  async #runJob(jobId: number, onClaimed?: () => void): Promise<void> {
    const job = await this.#db
      .selectFrom('jobs')
      .selectAll()
      .where('id', '=', jobId)
      .executeTakeFirst()
    if (!job || job.state !== 'scheduled') return
    const active: ActiveJob = {
      jobId,
      simulationId: job.simulation_id,
      kind: job.kind,
      controller: new AbortController(),
      detached: false,
    }
    this.#active.set(jobId, active)
    let claimed = false
    try {
      const control: JobControl = {
        isClosed: () => this.#closed || active.detached,
        abort: (reason) => active.controller.abort(reason),
      }
      const { signal } = active.controller
      if (job.kind === 'simulation' && job.run_id === null) return
      if (job.kind !== 'simulation' && job.kind !== 'discretization') return
      claimed = await claimJob(this.#db, this.#clock, job, this.#leases)
      if (!claimed) return
      onClaimed?.()
      if (job.kind === 'simulation') await runSimulationJob(this.#context, job, signal, control)
      else await runDiscretizationJob(this.#context, job, signal, control)
    } finally {
      this.#active.delete(jobId)
      // The job ended here (or this process closes): its lease goes, unless it was taken over.
      // On close the rows stay 'running' and the lease is left to expire (worker.ts expires it).
      if (claimed && this.#leases && !active.detached && !this.#closed)
        await releaseLease(this.#db, jobId, this.#leases.workerId)
    }
  }
}
