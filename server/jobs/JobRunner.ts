import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { checkpointFile } from '../../domain/output/layout.ts'
import { RUN_TEXTS } from '../../domain/rest/runRoutes.ts'
import { RUN_STOP_MESSAGES } from '../../solver/run/types.ts'
import type { Clock } from '../clock.ts'
import { finishDiscretizationJob, runDiscretizationJob } from './discretizationJob.ts'
import {
  USER_REASON,
  readJobPayload,
  readRun,
  type Db,
  type JobContext,
  type JobControl,
  type JobRow,
} from './jobContext.ts'
import { endedRun, finishSimulationJob, runSimulationJob } from './simulationJob.ts'
import {
  SHUTDOWN_REASON,
  type JobEvents,
  type JobExecutors,
  type SetupLoader,
  type SimulationJobPayload,
} from './types.ts'

export interface JobRunnerOptions {
  db: Db
  clock: Clock
  dataDir: string
  executors: JobExecutors
  loadSetup: SetupLoader
  events: JobEvents
}

interface ActiveJob {
  jobId: number
  simulationId: number
  kind: string
  controller: AbortController
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
  #dataDir: string
  #loadSetup: SetupLoader
  #events: JobEvents
  #active = new Map<number, ActiveJob>()
  #pending = new Set<Promise<void>>()
  #tasks = new Map<number, Promise<void>>()
  #closed = false
  #context: JobContext

  constructor(options: JobRunnerOptions) {
    this.#db = options.db
    this.#clock = options.clock
    this.#dataDir = options.dataDir
    this.#loadSetup = options.loadSetup
    this.#events = options.events
    this.#context = { ...options }
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
      if (job.kind === 'simulation') await this.#recoverSimulation(job)
      else if (job.state === 'scheduled') this.enqueue(job.id)
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

  async #recoverSimulation(job: JobRow): Promise<void> {
    const run = job.run_id === null ? undefined : await readRun(this.#db, job.run_id)
    const simulation = await this.#db
      .selectFrom('simulations')
      .select(['state'])
      .where('id', '=', job.simulation_id)
      .executeTakeFirst()
    if (!run || !simulation) {
      await finishSimulationJob(
        this.#context,
        job,
        endedRun('failed', 'error', RUN_TEXTS.serverRestartFailed, null),
      )
      return
    }
    if (simulation.state === 'stopping') {
      await finishSimulationJob(
        this.#context,
        job,
        endedRun('stopped', 'user', RUN_STOP_MESSAGES.user, run.last_output),
      )
      return
    }
    if (job.state === 'scheduled') {
      this.enqueue(job.id)
      return
    }
    const checkpoint =
      run.last_output === null
        ? null
        : join(this.#dataDir, checkpointFile(job.simulation_id, run.id, run.last_output))
    if (checkpoint === null || !existsSync(checkpoint)) {
      await finishSimulationJob(
        this.#context,
        job,
        endedRun('failed', 'error', RUN_TEXTS.serverRestartFailed, run.last_output),
      )
      return
    }
    const payload = readJobPayload(job)
    const nowIso = this.#clock.nowIso()
    await this.#db.transaction().execute(async (trx) => {
      await trx
        .updateTable('jobs')
        .set({
          state: 'scheduled',
          payload: JSON.stringify({
            ...payload,
            resumeFromOutput: run.last_output,
            resumeFromRunId: run.id,
          } satisfies SimulationJobPayload),
          updated_at: nowIso,
        })
        .where('id', '=', job.id)
        .execute()
      await trx
        .updateTable('runs')
        .set({ state: 'launching', resumed_from_output: run.last_output, updated_at: nowIso })
        .where('id', '=', run.id)
        .execute()
      await trx
        .updateTable('simulations')
        .set({ state: 'launching', updated_at: nowIso })
        .where('id', '=', job.simulation_id)
        .execute()
    })
    this.#events.simulationChanged(job.simulation_id)
    this.enqueue(job.id)
  }

  /** Starts a scheduled job in the background. */
  enqueue(jobId: number): void {
    if (this.#closed) return
    const task = this.#runJob(jobId).catch((error: unknown) => {
      console.error(`Job ${jobId} failed unexpectedly`, error)
    })
    this.#pending.add(task)
    this.#tasks.set(jobId, task)
    void task.finally(() => {
      this.#pending.delete(task)
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
      const canceled = await this.#db
        .updateTable('jobs')
        .set({ state: 'canceled', updated_at: this.#clock.nowIso() })
        .where('id', '=', job.id)
        .where('state', '=', 'scheduled')
        .executeTakeFirst()
      if (Number(canceled.numUpdatedRows) !== 1 && this.requestStop(simulationId)) return
    }
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
    } else {
      const job = await this.#db
        .selectFrom('jobs')
        .selectAll()
        .where('id', '=', jobId)
        .executeTakeFirstOrThrow()
      if (job.state === 'scheduled' || job.state === 'running')
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
  }

  /** Ends every job thread; rows stay as they are so the next start recovers them. */
  async close(): Promise<void> {
    this.#closed = true
    for (const active of this.#active.values()) active.controller.abort(SHUTDOWN_REASON)
    await Promise.allSettled([...this.#pending])
  }

  async #claim(job: JobRow): Promise<boolean> {
    const nowIso = this.#clock.nowIso()
    const result = await this.#db
      .updateTable('jobs')
      .set((eb) => ({
        state: 'running',
        attempts: eb('attempts', '+', 1),
        started_at: nowIso,
        updated_at: nowIso,
      }))
      .where('id', '=', job.id)
      .where('state', '=', 'scheduled')
      .executeTakeFirst()
    return Number(result.numUpdatedRows) === 1
  }

  async #runJob(jobId: number): Promise<void> {
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
    }
    this.#active.set(jobId, active)
    try {
      const control: JobControl = {
        isClosed: () => this.#closed,
        abort: (reason) => active.controller.abort(reason),
      }
      const { signal } = active.controller
      if (job.kind === 'simulation') {
        if (job.run_id !== null && (await this.#claim(job)))
          await runSimulationJob(this.#context, job, signal, control)
      } else if (job.kind === 'discretization') {
        if (await this.#claim(job)) await runDiscretizationJob(this.#context, job, signal, control)
      }
    } finally {
      this.#active.delete(jobId)
    }
  }
}
