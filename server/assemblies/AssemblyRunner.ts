import type { Kysely, Transaction } from 'kysely'
import type { JobMessage, JobState } from '../../domain/jobs.ts'
import { RUN_TEXTS } from '../../domain/rest/runRoutes.ts'
import type { Clock } from '../clock.ts'
import type { Database } from '../db/schema.ts'
import { claimJobRow, rescheduleJobRow } from '../jobs/claim.ts'
import {
  TASK_SHUTDOWN,
  TASK_WORKER_LOST_MESSAGE,
  registerTaskHandler,
  serverTaskQueueFor,
  unregisterTaskHandler,
  type TaskHandler,
} from '../jobs/queue/tasks.ts'
import { resolveStoredPath } from '../storage/files.ts'
import { ASSEMBLY_JOB_KIND, TESSELLATION_JOB_KIND, type JobRow } from './access.ts'
import { createThreadCadExecutor, type CadExecutor } from './cadThread.ts'
import type { TessellationPayload } from './records.ts'
import { runTessellationJob } from './tessellationJob.ts'

/*
 * The CAD jobs (spec/setup.md §4: scheduled → running → done; failed; canceled): rows of `jobs`
 * of kind 'assembly' (read a STEP file's tree) and 'tessellation' (tessellationJob.ts), each run
 * in its own CAD thread. Like the discretization (server/jobs/JobRunner.ts): a job is claimed by
 * moving its row from scheduled to running; a cancel writes 'canceled' first, so nothing the
 * thread still reports is stored, then ends the thread; at server start a job left running by
 * the previous process fails ('The server restarted while the job was running.') and scheduled
 * ones run. Closing the app ends the threads and leaves the rows for the next start.
 */

type Db = Kysely<Database>

/** Abort reason of a server shutdown: rows stay as they are. */
const SHUTDOWN_REASON = 'server shutdown'

const CAD_JOB_KINDS = [ASSEMBLY_JOB_KIND, TESSELLATION_JOB_KIND] as const

export interface AssemblyRunnerOptions {
  db: Db
  clock: Clock
  dataDir: string
  executor?: CadExecutor
}

/** Inserts the job that reads an assembly's tree (caller's transaction; launch it after). */
export async function insertImportJob(
  db: Db,
  simulationId: number,
  nowIso: string,
): Promise<number> {
  const { id } = await db
    .insertInto('jobs')
    .values({
      simulation_id: simulationId,
      kind: ASSEMBLY_JOB_KIND,
      state: 'scheduled',
      created_at: nowIso,
      updated_at: nowIso,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return id
}

/** Inserts a tessellation run (caller's transaction; launch it after). */
export async function insertTessellationJob(
  db: Db,
  simulationId: number,
  payload: TessellationPayload,
  nowIso: string,
): Promise<JobRow> {
  const job = await db
    .insertInto('jobs')
    .values({
      simulation_id: simulationId,
      kind: TESSELLATION_JOB_KIND,
      state: 'scheduled',
      payload: JSON.stringify(payload),
      created_at: nowIso,
      updated_at: nowIso,
    })
    .returningAll()
    .executeTakeFirstOrThrow()
  await db
    .updateTable('assemblies')
    .set({ latest_tessellation_job_id: job.id, updated_at: nowIso })
    .where('id', '=', payload.assemblyId)
    .execute()
  return job
}

/** Runs the CAD jobs of one app. */
export class AssemblyRunner {
  #db: Db
  #clock: Clock
  #dataDir: string
  #executor: CadExecutor
  #active = new Map<
    number,
    { simulationId: number; controller: AbortController; done: Promise<void> }
  >()
  #closed = false

  constructor(options: AssemblyRunnerOptions) {
    this.#db = options.db
    this.#clock = options.clock
    this.#dataDir = options.dataDir
    this.#executor = options.executor ?? createThreadCadExecutor()
  }

  /**
   * At server start: a job left running by the previous process fails, scheduled ones run. With
   * remote workers the rows are theirs (queued, or recovered through a dead worker's lease).
   */
  async start(): Promise<void> {
    if (serverTaskQueueFor(this.#db)) return
    const stale = await this.#db
      .selectFrom('jobs')
      .selectAll()
      .where('kind', 'in', CAD_JOB_KINDS)
      .where('state', 'in', ['scheduled', 'running'])
      .orderBy('id')
      .execute()
    for (const job of stale) {
      if (job.state === 'running')
        await this.#finish(job.id, 'failed', [{ description: RUN_TEXTS.serverRestartFailed }])
      else this.#launch(job)
    }
  }

  /** Ends every thread at once; rows stay as they are for the next start. */
  async close(): Promise<void> {
    this.#closed = true
    for (const active of this.#active.values()) active.controller.abort(SHUTDOWN_REASON)
    await Promise.allSettled([...this.#active.values()].map((active) => active.done))
  }

  /** Starts a scheduled job (after the transaction that inserted it committed). */
  async launch(jobId: number): Promise<void> {
    const job = await this.#readJob(jobId)
    if (job) this.#launch(job)
  }

  /** Jobs running in this process. */
  countActive(): number {
    return this.#active.size
  }

  /**
   * Cancels a scheduled or running job: its row reads 'canceled' at once (later results of the
   * thread are dropped), then the thread is ended. Returns the row.
   */
  async cancel(jobId: number): Promise<JobRow | undefined> {
    await this.#finish(jobId, 'canceled', [])
    const active = this.#active.get(jobId)
    if (active) {
      active.controller.abort('user')
      await active.done
    } else {
      const job = await this.#readJob(jobId)
      const kind = job?.kind === ASSEMBLY_JOB_KIND ? ASSEMBLY_JOB_KIND : TESSELLATION_JOB_KIND
      await serverTaskQueueFor(this.#db)?.stop(kind, String(jobId))
    }
    return this.#readJob(jobId)
  }

  /** Ends the threads of a deleted simulation (its rows are gone with it). */
  async stopSimulation(simulationId: number): Promise<void> {
    const entries = [...this.#active.values()].filter((a) => a.simulationId === simulationId)
    for (const active of entries) active.controller.abort('simulation deleted')
    await Promise.allSettled(entries.map((active) => active.done))
  }

  async #readJob(id: number): Promise<JobRow | undefined> {
    return this.#db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst()
  }

  #launch(job: JobRow): void {
    const queue = serverTaskQueueFor(this.#db)
    if (queue && (job.kind === ASSEMBLY_JOB_KIND || job.kind === TESSELLATION_JOB_KIND)) {
      void queue
        .dispatch(job.kind, String(job.id), null)
        .catch((error: unknown) => console.error(`Queueing job ${job.id} failed`, error))
      return
    }
    if (this.#closed || this.#active.has(job.id)) return
    const controller = new AbortController()
    const entry = { simulationId: job.simulation_id, controller, done: Promise.resolve() }
    this.#active.set(job.id, entry)
    entry.done = this.#settle(job, controller.signal, this.#run(job, controller.signal)).finally(
      () => this.#active.delete(job.id),
    )
  }

  /** A worker's run of a claimed job (the CAD task handlers below). */
  runClaimed(job: JobRow, signal: AbortSignal): Promise<void> {
    return this.#settle(job, signal, this.#run(job, signal, true))
  }

  /** Ends the job's row as its run ended: failed with its error, or canceled. */
  async #settle(job: JobRow, signal: AbortSignal, run: Promise<void>): Promise<void> {
    await run
      .catch(async (error: unknown) => {
        if (this.#closed || signal.reason === TASK_SHUTDOWN) return
        if (signal.aborted) await this.#finish(job.id, 'canceled', [])
        else {
          const description = error instanceof Error ? error.message : String(error)
          await this.#finish(job.id, 'failed', [{ description }])
        }
      })
      .catch(() => undefined)
  }

  async #run(job: JobRow, signal: AbortSignal, claimedByWorker = false): Promise<void> {
    if (!claimedByWorker && !(await claimJobRow(this.#db, job.id, this.#clock.nowIso()))) return
    if (job.kind === ASSEMBLY_JOB_KIND) await this.#readTree(job, signal)
    else if (job.kind === TESSELLATION_JOB_KIND) {
      const warnings = await runTessellationJob(
        {
          db: this.#db,
          clock: this.#clock,
          dataDir: this.#dataDir,
          executor: this.#executor,
          isCurrent: async () =>
            !this.#closed && !signal.aborted && (await this.#readJob(job.id))?.state === 'running',
        },
        job,
        signal,
      )
      if (!this.#closed && !signal.aborted) await this.#finish(job.id, 'done', [], warnings)
    }
  }

  async #readTree(job: JobRow, signal: AbortSignal): Promise<void> {
    const assembly = await this.#db
      .selectFrom('assemblies')
      .selectAll()
      .where('import_job_id', '=', job.id)
      .executeTakeFirst()
    if (!assembly) throw new Error('The assembly of this job no longer exists.')
    const { tree, facts } = await this.#executor.read(
      resolveStoredPath(this.#dataDir, assembly.stored_path),
      signal,
    )
    if (this.#closed || signal.aborted) return
    const nowIso = this.#clock.nowIso()
    await this.#db
      .updateTable('assemblies')
      .set({ tree: JSON.stringify(tree), node_facts: JSON.stringify(facts), updated_at: nowIso })
      .where('id', '=', assembly.id)
      .execute()
    await this.#finish(job.id, 'done', [])
  }

  /** Ends a job that is still scheduled or running. */
  async #finish(
    jobId: number,
    state: Extract<JobState, 'done' | 'failed' | 'canceled'>,
    errors: JobMessage[],
    warnings: JobMessage[] = [],
  ): Promise<void> {
    const nowIso = this.#clock.nowIso()
    await this.#db
      .updateTable('jobs')
      .set({
        state,
        ...(state === 'done' ? { progress: 1 } : {}),
        errors: JSON.stringify(errors),
        warnings: JSON.stringify(warnings),
        ended_at: nowIso,
        updated_at: nowIso,
      })
      .where('id', '=', jobId)
      .where('state', 'in', ['scheduled', 'running'])
      .execute()
  }
}

// ── Registry: handlers find the runner by their database handle (as server/jobs/services.ts) ──

const runners = new WeakMap<object, AssemblyRunner>()

/** The runner of the app serving this database. */
export function assemblyRunnerFor(db: Db): AssemblyRunner {
  const runner = runners.get(db)
  if (!runner) throw new Error('No assembly runner is registered for this database.')
  return runner
}

/** Starts the CAD job runner of an app and ends its threads when the app closes. */
export async function registerAssemblyJobs(
  app: { addHook(name: 'onClose', hook: () => Promise<void>): unknown },
  options: AssemblyRunnerOptions,
): Promise<AssemblyRunner> {
  const runner = new AssemblyRunner(options)
  runners.set(options.db, runner)
  // The reaper of dead workers' CAD jobs finds them here.
  for (const handler of createCadTaskHandlers(options, runner))
    registerTaskHandler(options.db, handler)
  app.addHook('onClose', async () => {
    await runner.close()
    runners.delete(options.db)
    for (const kind of CAD_JOB_KINDS) unregisterTaskHandler(options.db, kind)
  })
  await runner.start()
  return runner
}

/**
 * The CAD jobs on a worker process (issue 18; server/jobs/queue/tasks.ts): the server queues the
 * job row; a worker claims it and runs it in its own CAD thread. A dead worker's tree read is run
 * again (it only rewrites the assembly's tree); a tessellation fails with TASK_WORKER_LOST_MESSAGE
 * instead, since it creates setup parts and uploads as it goes (a second run could double them).
 */
export function createCadTaskHandlers(
  options: Pick<AssemblyRunnerOptions, 'db' | 'clock'>,
  runner: AssemblyRunner,
): TaskHandler[] {
  const { db, clock } = options
  const readJob = (id: string) =>
    db.selectFrom('jobs').selectAll().where('id', '=', Number(id)).executeTakeFirst()
  return CAD_JOB_KINDS.map((kind) => ({
    kind,
    claim: (trx: Transaction<Database>, id: string, _data: unknown, nowIso: string) =>
      claimJobRow(trx, Number(id), nowIso),
    async run(id: string, _data: unknown, signal: AbortSignal) {
      const job = await readJob(id)
      if (job?.kind === kind) await runner.runClaimed(job, signal)
    },
    async recover(id: string) {
      const job = await readJob(id)
      if (job?.kind !== kind || job.state !== 'running') return false
      if (kind === ASSEMBLY_JOB_KIND) return rescheduleJobRow(db, job.id, clock.nowIso())
      const nowIso = clock.nowIso()
      await db
        .updateTable('jobs')
        .set({
          state: 'failed',
          errors: JSON.stringify([{ description: TASK_WORKER_LOST_MESSAGE }]),
          ended_at: nowIso,
          updated_at: nowIso,
        })
        .where('id', '=', job.id)
        .where('state', '=', 'running')
        .execute()
      return false
    },
  }))
}
