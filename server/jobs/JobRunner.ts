import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { Kysely, Selectable } from 'kysely'
import type { JobState } from '../../domain/jobs.ts'
import { checkpointFile } from '../../domain/output/layout.ts'
import { CREDITS_PER_CORE_HOUR, RUN_TEXTS } from '../../domain/rest/runRoutes.ts'
import {
  RUN_STOP_MESSAGES,
  type RunCondition,
  type RunLogLine,
  type RunResult,
} from '../../solver/run/types.ts'
import type { Clock } from '../clock.ts'
import type { Database, JobsTable } from '../db/schema.ts'
import { parseJson } from './records.ts'
import {
  SHUTDOWN_REASON,
  type JobEvents,
  type JobExecutors,
  type SetupLoader,
  type SimulationJobPayload,
} from './types.ts'

type Db = Kysely<Database>
type JobRow = Selectable<JobsTable>

/** Abort reason when the organization ran out of credits while the run was going. */
const CREDITS_REASON = 'credits'
/** Abort reason of DELETE /simulations/{id}/jobs and DELETE …/discretizations. */
const USER_REASON = 'user'

/** Simulation-state writes from log lines are pushed at most this often (the log itself always). */
const SIMULATION_PUSH_INTERVAL_MS = 1000

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

/** A result for a run that ended without the solver's say (stop during launch, crash, restart). */
function endedRun(
  state: RunResult['state'],
  reason: RunResult['reason'],
  message: string,
  lastOutputNo: number | null,
): RunResult {
  return {
    state,
    reason,
    message,
    condition: null,
    timeS: 0,
    runtimeMs: 0,
    lastOutputNo,
    particles: 0,
    creditsConsumed: 0,
    deletedParticles: 0,
  }
}

/** Runs callbacks one after another so database writes of one job never interleave. */
function createSerialQueue(onError: (error: unknown) => void) {
  let tail: Promise<void> = Promise.resolve()
  return {
    push(task: () => Promise<void>) {
      tail = tail.then(task).catch(onError)
    },
    drain: () => tail,
  }
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
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
  #executors: JobExecutors
  #loadSetup: SetupLoader
  #events: JobEvents
  #active = new Map<number, ActiveJob>()
  #pending = new Set<Promise<void>>()
  #tasks = new Map<number, Promise<void>>()
  #closed = false

  constructor(options: JobRunnerOptions) {
    this.#db = options.db
    this.#clock = options.clock
    this.#dataDir = options.dataDir
    this.#executors = options.executors
    this.#loadSetup = options.loadSetup
    this.#events = options.events
  }

  /** Loads a run's setup (for the start checks of the handlers). */
  loadSetup(simulationId: number) {
    return this.#loadSetup(simulationId)
  }

  /**
   * Recovery at server start: scheduled jobs are queued again; a running simulation resumes from
   * its last checkpoint (or fails when it has none); a running discretization fails; a
   * simulation left 'stopping' ends stopped. Nothing stays 'running' without a worker.
   */
  async start(): Promise<void> {
    const stale = await this.#db
      .selectFrom('jobs')
      .selectAll()
      .where('state', 'in', ['scheduled', 'running'])
      .orderBy('id')
      .execute()
    for (const job of stale) {
      if (job.kind === 'simulation') await this.#recoverSimulation(job)
      else if (job.state === 'scheduled') this.enqueue(job.id)
      else
        await this.#finishDiscretization(job, 'failed', [RUN_TEXTS.serverRestartFailed], [], null)
    }
  }

  async #recoverSimulation(job: JobRow): Promise<void> {
    const run = job.run_id === null ? undefined : await this.#readRun(job.run_id)
    const simulation = await this.#db
      .selectFrom('simulations')
      .select(['state'])
      .where('id', '=', job.simulation_id)
      .executeTakeFirst()
    if (!run || !simulation) {
      await this.#finishSimulation(
        job,
        endedRun('failed', 'error', RUN_TEXTS.serverRestartFailed, null),
      )
      return
    }
    if (simulation.state === 'stopping') {
      await this.#finishSimulation(
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
      await this.#finishSimulation(
        job,
        endedRun('failed', 'error', RUN_TEXTS.serverRestartFailed, run.last_output),
      )
      return
    }
    const payload = this.#readPayload(job)
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
    const run = job.run_id === null ? undefined : await this.#readRun(job.run_id)
    await this.#finishSimulation(
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
        await this.#finishDiscretization(job, 'canceled', [], [], null)
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

  /** Ends every job thread; rows stay as they are so the next start recovers them. */
  async close(): Promise<void> {
    this.#closed = true
    for (const active of this.#active.values()) active.controller.abort(SHUTDOWN_REASON)
    await Promise.allSettled([...this.#pending])
  }

  async #readRun(runId: number) {
    return this.#db.selectFrom('runs').selectAll().where('id', '=', runId).executeTakeFirst()
  }

  #readPayload(job: JobRow): SimulationJobPayload {
    const stored = parseJson(job.payload) as Partial<SimulationJobPayload> | null
    return {
      cores: stored?.cores ?? 1,
      solverId: stored?.solverId ?? 1,
      resumeFromOutput: stored?.resumeFromOutput ?? null,
      resumeFromRunId: stored?.resumeFromRunId ?? null,
    }
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
      if (job.kind === 'simulation') await this.#runSimulation(job, active.controller.signal)
      else if (job.kind === 'discretization')
        await this.#runDiscretization(job, active.controller.signal)
    } finally {
      this.#active.delete(jobId)
    }
  }

  async #runDiscretization(job: JobRow, signal: AbortSignal): Promise<void> {
    if (!(await this.#claim(job))) return
    this.#events.discretizationChanged(job.simulation_id)
    let lastProgressMs = 0
    try {
      const setup = await this.#loadSetup(job.simulation_id)
      const outcome = await this.#executors.discretization(setup, signal, (progress) => {
        const nowMs = this.#clock.nowMs()
        if (nowMs - lastProgressMs < 250) return
        lastProgressMs = nowMs
        void this.#db
          .updateTable('jobs')
          .set({ progress, updated_at: this.#clock.nowIso() })
          .where('id', '=', job.id)
          .where('state', '=', 'running')
          .execute()
          .then(() => this.#events.discretizationChanged(job.simulation_id))
      })
      if (this.#closed) return
      if (signal.aborted) {
        await this.#finishDiscretization(job, 'canceled', [], [], null)
        return
      }
      const state: JobState = outcome.errors.length > 0 ? 'failed' : 'done'
      await this.#finishDiscretization(
        job,
        state,
        outcome.errors,
        outcome.warnings,
        outcome.summary,
      )
    } catch (error) {
      if (this.#closed) return
      if (signal.aborted) await this.#finishDiscretization(job, 'canceled', [], [], null)
      else await this.#finishDiscretization(job, 'failed', [errorMessage(error)], [], null)
    }
  }

  async #finishDiscretization(
    job: JobRow,
    state: JobState,
    errors: readonly (string | { description: string })[],
    warnings: readonly (string | { description: string })[],
    summary: unknown,
  ): Promise<void> {
    const asMessages = (list: readonly (string | { description: string })[]) =>
      JSON.stringify(list.map((item) => (typeof item === 'string' ? { description: item } : item)))
    const nowIso = this.#clock.nowIso()
    await this.#db
      .updateTable('jobs')
      .set({
        state,
        progress: state === 'done' ? 1 : job.progress,
        errors: asMessages(errors),
        warnings: asMessages(warnings),
        result: summary === null ? null : JSON.stringify(summary),
        ended_at: nowIso,
        updated_at: nowIso,
      })
      .where('id', '=', job.id)
      .execute()
    this.#events.discretizationChanged(job.simulation_id)
  }

  async #runSimulation(job: JobRow, signal: AbortSignal): Promise<void> {
    const runId = job.run_id
    if (runId === null) return
    if (!(await this.#claim(job))) return
    const payload = this.#readPayload(job)
    if (signal.aborted) {
      const run = await this.#readRun(runId)
      await this.#finishSimulation(
        job,
        endedRun('stopped', 'user', RUN_STOP_MESSAGES.user, run?.last_output ?? null),
      )
      return
    }
    const simulationId = job.simulation_id
    this.#events.workloadStarted(simulationId, runId)
    const queue = createSerialQueue((error) => console.error(`Run ${runId}: a write failed`, error))
    let creditsStopped = false
    let started = false
    try {
      const setup = await this.#loadSetup(simulationId)
      if (signal.aborted) throw signal.reason
      const simulation = await this.#db
        .selectFrom('simulations')
        .innerJoin('organizations', 'organizations.id', 'simulations.organization_id')
        .select([
          'simulations.organization_id',
          'simulations.credits_consumed',
          'organizations.credits as organization_credits',
        ])
        .where('simulations.id', '=', simulationId)
        .executeTakeFirstOrThrow()
      const conditions: RunCondition[] = (
        await this.#db
          .selectFrom('conditions')
          .selectAll()
          .where('simulation_id', '=', simulationId)
          .where('run_id', '=', runId)
          .where('triggered', '=', 0)
          .execute()
      ).map((row) => ({
        id: row.id,
        action: row.action as RunCondition['action'],
        valueType: row.value_type as RunCondition['valueType'],
        operator: row.operator as RunCondition['operator'],
        threshold: row.threshold,
      }))
      let billedCredits = simulation.credits_consumed
      let lastPushMs = 0
      const bill = async (line: RunLogLine) => {
        const delta = line.creditsConsumed - billedCredits
        if (!(delta > 0)) return
        billedCredits = line.creditsConsumed
        const organizationCredits = await this.#billCredits(
          simulationId,
          simulation.organization_id,
          runId,
          delta,
        )
        if (organizationCredits <= 0 && !signal.aborted) {
          creditsStopped = true
          this.#active.get(job.id)?.controller.abort(CREDITS_REASON)
        }
      }
      const result = await this.#executors.simulation(
        {
          setup,
          dataDir: this.#dataDir,
          simulationId,
          runId,
          threads: payload.cores,
          resumeFromOutput: payload.resumeFromOutput,
          resumeFromRunId: payload.resumeFromRunId,
          conditions,
          credits: {
            consumedAtStart: simulation.credits_consumed,
            perCoreHour: CREDITS_PER_CORE_HOUR,
            available: simulation.organization_credits,
          },
        },
        {
          onStarted: () =>
            queue.push(async () => {
              started = true
              const nowIso = this.#clock.nowIso()
              await this.#db
                .updateTable('runs')
                .set({ state: 'running', updated_at: nowIso })
                .where('id', '=', runId)
                .where('state', '=', 'launching')
                .execute()
              await this.#db
                .updateTable('simulations')
                .set({ state: 'running', updated_at: nowIso })
                .where('id', '=', simulationId)
                .where('state', '=', 'launching')
                .execute()
              this.#events.workloadInitialized(simulationId, runId)
              this.#events.simulationChanged(simulationId)
            }),
          onLog: (line) =>
            queue.push(async () => {
              const logged = await this.#db
                .updateTable('runs')
                .set({ last_log: JSON.stringify(line), updated_at: this.#clock.nowIso() })
                .where('id', '=', runId)
                .executeTakeFirst()
              // The simulation (and its run) was deleted: stop computing for nobody.
              if (Number(logged.numUpdatedRows) === 0) {
                this.#active.get(job.id)?.controller.abort(USER_REASON)
                return
              }
              await this.#db
                .updateTable('jobs')
                .set({ progress: line.progress })
                .where('id', '=', job.id)
                .execute()
              await bill(line)
              this.#events.runLog(simulationId, runId, line)
              const nowMs = this.#clock.nowMs()
              if (nowMs - lastPushMs >= SIMULATION_PUSH_INTERVAL_MS) {
                lastPushMs = nowMs
                this.#events.simulationChanged(simulationId)
              }
            }),
          onOutput: (manifest) =>
            queue.push(async () => {
              await this.#db
                .updateTable('runs')
                .set({ last_output: manifest.outputNo, updated_at: this.#clock.nowIso() })
                .where('id', '=', runId)
                .execute()
              this.#events.outputWritten(simulationId, runId, manifest.outputNo)
            }),
          onCondition: (condition) =>
            queue.push(async () => {
              await this.#db
                .updateTable('conditions')
                .set({ triggered: 1, updated_at: this.#clock.nowIso() })
                .where('id', '=', condition.id)
                .execute()
              this.#events.simulationChanged(simulationId)
            }),
        },
        signal,
      )
      await queue.drain()
      if (this.#closed) return
      await this.#finishSimulation(
        job,
        creditsStopped
          ? { ...result, state: 'stopped', reason: 'credits', message: RUN_TEXTS.notEnoughCredits }
          : result,
      )
    } catch (error) {
      await queue.drain()
      if (this.#closed) return
      const run = await this.#readRun(runId)
      const lastOutput = run?.last_output ?? null
      if (signal.aborted && signal.reason === USER_REASON)
        await this.#finishSimulation(
          job,
          endedRun('stopped', 'user', RUN_STOP_MESSAGES.user, lastOutput),
        )
      else if (creditsStopped)
        await this.#finishSimulation(
          job,
          endedRun('stopped', 'credits', RUN_TEXTS.notEnoughCredits, lastOutput),
        )
      else
        await this.#finishSimulation(
          job,
          endedRun('failed', 'error', errorMessage(error), lastOutput),
          // A job thread that failed before the run started: the launch failed, not the run.
          started ? 'failed' : 'launch failed',
        )
    }
  }

  /** Takes `credits` from the organization for the run; returns what the organization has left. */
  async #billCredits(
    simulationId: number,
    organizationId: number,
    runId: number,
    credits: number,
  ): Promise<number> {
    const hours = credits / CREDITS_PER_CORE_HOUR
    const nowIso = this.#clock.nowIso()
    const { transactionId, organizationCredits } = await this.#db
      .transaction()
      .execute(async (trx) => {
        const organization = await trx
          .updateTable('organizations')
          .set((eb) => ({ credits: eb('credits', '-', credits) }))
          .where('id', '=', organizationId)
          .returning('credits')
          .executeTakeFirstOrThrow()
        await trx
          .updateTable('simulations')
          .set((eb) => ({
            credits_consumed: eb('credits_consumed', '+', credits),
            simulation_hours_consumed: eb('simulation_hours_consumed', '+', hours),
          }))
          .where('id', '=', simulationId)
          .execute()
        const run = await trx
          .updateTable('runs')
          .set((eb) => ({
            credits_consumed: eb('credits_consumed', '+', credits),
            simulation_hours: eb('simulation_hours', '+', hours),
          }))
          .where('id', '=', runId)
          .returning(['credit_transaction_id', 'credits_consumed', 'simulation_hours'])
          .executeTakeFirstOrThrow()
        let id = run.credit_transaction_id
        // One 'simulation' transaction per run, its amount negative: the ledger sums to the balance.
        if (id === null) {
          const name = await trx
            .selectFrom('simulations')
            .select('name')
            .where('id', '=', simulationId)
            .executeTakeFirstOrThrow()
          id = (
            await trx
              .insertInto('credit_transactions')
              .values({
                organization_id: organizationId,
                kind: 'simulation',
                credits: -run.credits_consumed,
                simulation_hours: run.simulation_hours,
                simulation_id: simulationId,
                simulation_name: name.name,
                note: `Run ${runId}`,
                updated_at: nowIso,
              })
              .returning('id')
              .executeTakeFirstOrThrow()
          ).id
          await trx
            .updateTable('runs')
            .set({ credit_transaction_id: id })
            .where('id', '=', runId)
            .execute()
        } else
          await trx
            .updateTable('credit_transactions')
            .set({
              credits: -run.credits_consumed,
              simulation_hours: run.simulation_hours,
              updated_at: nowIso,
            })
            .where('id', '=', id)
            .execute()
        return { transactionId: id, organizationCredits: organization.credits }
      })
    this.#events.creditsConsumed(organizationId, transactionId, credits, organizationCredits)
    return organizationCredits
  }

  /** Writes a run's end to the job, run and simulation rows (`endState`: the state they get). */
  async #finishSimulation(
    job: JobRow,
    result: RunResult,
    endState: RunResult['state'] | 'launch failed' = result.state,
  ): Promise<void> {
    const nowIso = this.#clock.nowIso()
    const runId = job.run_id
    const run = runId === null ? undefined : await this.#readRun(runId)
    const lastOutput = result.lastOutputNo ?? run?.last_output ?? null
    const jobState: JobState =
      result.state === 'completed'
        ? 'completed'
        : result.state === 'stopped'
          ? 'canceled'
          : 'failed'
    const lastStopCondition =
      result.reason === 'condition' && result.condition
        ? { valueType: result.condition.valueType, threshold: result.condition.threshold }
        : result.reason === 'credits'
          ? { valueType: 'credits', threshold: 0 }
          : null
    await this.#db.transaction().execute(async (trx) => {
      await trx
        .updateTable('jobs')
        .set({
          state: jobState,
          progress: result.state === 'completed' ? 1 : job.progress,
          result: JSON.stringify(result),
          errors:
            result.state === 'failed' ? JSON.stringify([{ description: result.message }]) : '[]',
          ended_at: nowIso,
          updated_at: nowIso,
        })
        .where('id', '=', job.id)
        .execute()
      if (runId === null) return
      await trx
        .updateTable('runs')
        .set({
          state: endState,
          last_output: lastOutput,
          message: result.state === 'completed' ? null : result.message,
          ended_at: nowIso,
          updated_at: nowIso,
        })
        .where('id', '=', runId)
        .execute()
      await trx
        .updateTable('simulations')
        .set({
          state: endState,
          resumable: result.state === 'stopped' && lastOutput !== null ? 1 : 0,
          last_stop_condition:
            lastStopCondition === null ? null : JSON.stringify(lastStopCondition),
          updated_at: nowIso,
        })
        .where('id', '=', job.simulation_id)
        .where('active_run_id', '=', runId)
        .execute()
    })
    this.#events.workloadEnded(job.simulation_id)
    this.#events.simulationChanged(job.simulation_id)
  }
}
