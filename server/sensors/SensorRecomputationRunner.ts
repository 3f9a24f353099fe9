import type { Kysely, Selectable } from 'kysely'
import type { JobMessage } from '../../domain/jobs.ts'
import { COLOUR_MAP_STATUS } from '../../domain/results.ts'
import { RUN_TEXTS } from '../../domain/rest/runRoutes.ts'
import type { SensorRecomputation } from '../../domain/rest/sensorRoutes.ts'
import { DEFAULT_SOLVER_OPTIONS } from '../../solver/sph/config.ts'
import { readSettings } from '../api/views.ts'
import type { Clock } from '../clock.ts'
import type { Database, JobsTable } from '../db/schema.ts'
import { computeTriangleCentroids } from '../meshes/triangles.ts'
import { listOutputManifests } from '../results/outputFiles.ts'
import { refreshSimulationSize } from '../storage/usage.ts'
import type { SensorJobInput } from './computeOutput.ts'
import {
  SENSOR_JOB_KIND,
  emptyRecomputation,
  readPayload,
  recomputationOf,
  type SensorJobPayload,
} from './recomputationRecord.ts'
import { claimJobRow } from '../jobs/claim.ts'
import {
  registerTaskHandler,
  serverTaskQueueFor,
  unregisterTaskHandler,
} from '../jobs/queue/tasks.ts'
import { createSensorTaskHandler, removeTemporarySensorFiles } from './sensorTask.ts'
import {
  SENSOR_SHUTDOWN_REASON,
  createThreadSensorExecutor,
  type SensorExecutor,
} from './sensorThread.ts'
import {
  clearSensorOutputStates,
  deleteRunSensorSamples,
  listSensors,
  setSensorOutputState,
} from './store.ts'

/*
 * The sensor recomputation (spec/results.md §4 "Sensor computation"): a durable row of `jobs`
 * (kind 'sensorRecomputation', scheduled → running → done; failed; canceled on DELETE) that
 * samples every output of a run at every sensor in a worker thread. Each output's sensor state is
 * a row of sensor_output_states, written as the thread finishes it; an output that cannot be
 * sampled is 'failed' and the job ends 'done' with the warning 'Computation failed for outputs:
 * {list}'. A server restart finds a running job failed (server/jobs/JobRunner marks every running
 * non-simulation job so; this runner does the same if it sees one first) and runs scheduled ones.
 */

type Db = Kysely<Database>
type JobRow = Selectable<JobsTable>

/** Why an attempt's thread is stopped when its row was canceled or a retry took it over. */
const ATTEMPT_ENDED_REASON = 'the job was canceled or taken over'

export { SENSOR_JOB_KIND, emptyRecomputation } from './recomputationRecord.ts'

/** Options of a runner. */
export interface SensorRunnerOptions {
  db: Db
  clock: Clock
  dataDir: string
  executor?: SensorExecutor
}

/** Runs sensor recomputations; one per simulation at a time. */
export class SensorRecomputationRunner {
  #db: Db
  #clock: Clock
  #dataDir: string
  #executor: SensorExecutor
  #active = new Map<
    number,
    { simulationId: number; controller: AbortController; done: Promise<void> }
  >()
  #closed = false

  constructor(options: SensorRunnerOptions) {
    this.#db = options.db
    this.#clock = options.clock
    this.#dataDir = options.dataDir
    this.#executor = options.executor ?? createThreadSensorExecutor()
  }

  /** Replaces the executor of later jobs (tests: an in-process executor that can be slowed). */
  useExecutor(executor: SensorExecutor): void {
    this.#executor = executor
  }

  /**
   * At server start: a running job left by the previous process fails, scheduled ones run. With
   * remote workers the rows are theirs (queued, or retried through a dead worker's lease).
   */
  async start(): Promise<void> {
    if (serverTaskQueueFor(this.#db)) return
    const stale = await this.#db
      .selectFrom('jobs')
      .selectAll()
      .where('kind', '=', SENSOR_JOB_KIND)
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
    for (const active of this.#active.values()) active.controller.abort(SENSOR_SHUTDOWN_REASON)
    await Promise.allSettled([...this.#active.values()].map((active) => active.done))
  }

  /** The latest recomputation of a simulation as the API returns it. */
  async describe(simulationId: number): Promise<SensorRecomputation> {
    const job = await this.#latestJob(simulationId)
    return job ? recomputationOf(this.#db, job) : emptyRecomputation(simulationId)
  }

  /** Whether a recomputation of the simulation is scheduled or running. */
  async isActive(simulationId: number): Promise<boolean> {
    const job = await this.#latestJob(simulationId)
    return job !== undefined && (job.state === 'scheduled' || job.state === 'running')
  }

  /**
   * Schedules a recomputation of every sensor at every complete output of `runId`, from the
   * beginning: the run's old samples and output states are cleared first.
   */
  async schedule(simulationId: number, runId: number, sensorIds: number[]): Promise<number> {
    const manifests = await listOutputManifests(this.#dataDir, simulationId, runId)
    const outputs = manifests.map((manifest) => manifest.outputNo)
    await deleteRunSensorSamples(this.#dataDir, simulationId, runId)
    await clearSensorOutputStates(this.#db, simulationId)
    await this.#measure(simulationId)
    const nowIso = this.#clock.nowIso()
    const payload: SensorJobPayload = { runId, sensorIds, outputs }
    const { id } = await this.#db
      .insertInto('jobs')
      .values({
        simulation_id: simulationId,
        kind: SENSOR_JOB_KIND,
        state: 'scheduled',
        payload: JSON.stringify(payload),
        created_at: nowIso,
        updated_at: nowIso,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    const job = await this.#readJob(id)
    if (job) this.#launch(job)
    return id
  }

  /**
   * Stops the simulation's active recomputation: the row is 'canceled' at once, the thread ends
   * at its next output and any temporary file it left is removed. false when none was active.
   */
  async cancel(simulationId: number): Promise<boolean> {
    const job = await this.#latestJob(simulationId)
    if (!job || (job.state !== 'scheduled' && job.state !== 'running')) return false
    await this.#finish(job.id, 'canceled', [])
    const active = this.#active.get(job.id)
    if (active) {
      active.controller.abort('user')
      await active.done
    } else await serverTaskQueueFor(this.#db)?.stop(SENSOR_JOB_KIND, String(job.id))
    await removeTemporarySensorFiles(this.#dataDir, simulationId, readPayload(job).runId)
    await this.#measure(simulationId)
    return true
  }

  /**
   * Stores the simulation's size as the bytes on disk once its sensor results changed (issue 13:
   * a recomputation wrote them without the size or the organization's consumption following).
   * A failed measurement leaves the last size; the next write or start measures again.
   */
  async #measure(simulationId: number): Promise<void> {
    await refreshSimulationSize(this.#db, this.#dataDir, simulationId).catch((error: unknown) =>
      console.error(`Measuring simulation ${simulationId} after its sensors failed`, error),
    )
  }

  async #latestJob(simulationId: number): Promise<JobRow | undefined> {
    return this.#db
      .selectFrom('jobs')
      .selectAll()
      .where('simulation_id', '=', simulationId)
      .where('kind', '=', SENSOR_JOB_KIND)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst()
  }

  async #readJob(id: number): Promise<JobRow | undefined> {
    return this.#db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst()
  }

  /** A worker's run of a claimed job (sensorTask.ts). */
  async runClaimed(job: JobRow, signal: AbortSignal): Promise<void> {
    await this.#run(job, signal, true)
  }

  #launch(job: JobRow): void {
    const queue = serverTaskQueueFor(this.#db)
    if (queue) {
      void queue
        .dispatch(SENSOR_JOB_KIND, String(job.id), null)
        .catch((error: unknown) => console.error(`Queueing job ${job.id} failed`, error))
      return
    }
    if (this.#closed || this.#active.has(job.id)) return
    const controller = new AbortController()
    const entry = { simulationId: job.simulation_id, controller, done: Promise.resolve() }
    this.#active.set(job.id, entry)
    entry.done = this.#run(job, controller.signal).finally(() => this.#active.delete(job.id))
  }

  /** Sample points of each sensor of the job, by its current definition. */
  async #sensorPoints(job: JobRow, payload: SensorJobPayload): Promise<SensorJobInput['sensors']> {
    const sensors = await listSensors(this.#db, this.#dataDir, job.simulation_id, null)
    const wanted = new Set(payload.sensorIds)
    return sensors
      .filter((sensor) => wanted.has(sensor.id))
      .map((sensor) => {
        if (sensor.kind === 'surface')
          return { id: sensor.id, points: [...computeTriangleCentroids(sensor.mesh)] }
        const [x, y, z] = sensor.position
        if (x === null || y === null || z === null)
          throw new Error(`Sensor "${sensor.name}" has no complete position.`)
        return { id: sensor.id, points: [x, y, z] }
      })
  }

  /**
   * Claims the job (unless a worker did) and runs it as one attempt. A reaper that finds the
   * attempt's worker past its lease schedules the row again, and the retry's claim counts a new
   * attempt: from then on this one writes nothing to the row and stops at its next output.
   */
  async #run(job: JobRow, signal: AbortSignal, claimedByWorker = false): Promise<void> {
    let attempt: number | undefined
    try {
      if (!claimedByWorker && !(await claimJobRow(this.#db, job.id, this.#clock.nowIso()))) return
      const claimed = await this.#readJob(job.id)
      if (claimed?.state !== 'running') return
      attempt = claimed.attempts
      await this.#attempt(claimed, attempt, signal)
    } catch (error) {
      if (this.#closed || signal.aborted) return
      await this.#measure(job.simulation_id)
      const description = error instanceof Error ? error.message : String(error)
      await this.#finish(job.id, 'failed', [{ description }], [], attempt).catch(() => undefined)
    }
  }

  async #attempt(job: JobRow, attempt: number, signal: AbortSignal): Promise<void> {
    const payload = readPayload(job)
    const simulation = await this.#db
      .selectFrom('simulations')
      .select(['settings'])
      .where('id', '=', job.simulation_id)
      .executeTakeFirst()
    if (!simulation) return
    const particleDiameter = readSettings(simulation.settings).particleDiameter
    if (particleDiameter === null || !(particleDiameter > 0))
      throw new Error('The particle diameter of the run is not known.')
    const input: SensorJobInput = {
      dataDir: this.#dataDir,
      simulationId: job.simulation_id,
      runId: payload.runId,
      // the solver's smoothing length: h = smoothingLengthFactor · particle diameter (1.5 dp)
      h: DEFAULT_SOLVER_OPTIONS.smoothingLengthFactor * particleDiameter,
      sensors: await this.#sensorPoints(job, payload),
      outputs: payload.outputs,
    }
    const total = Math.max(1, payload.outputs.length)
    let done = 0
    const key = { simulationId: job.simulation_id, runId: payload.runId }
    // stopped by the caller, or by its own row once canceled or superseded
    const own = new AbortController()
    const forward = () => own.abort(signal.reason)
    if (signal.aborted) forward()
    signal.addEventListener('abort', forward, { once: true })
    const outcome = await this.#executor(
      input,
      async (outputNo, ok) => {
        const counted = await this.#db.transaction().execute(async (trx) => {
          const nowIso = this.#clock.nowIso()
          const row = await trx
            .updateTable('jobs')
            .set({ progress: (done + 1) / total, updated_at: nowIso })
            .where('id', '=', job.id)
            .where('state', '=', 'running')
            .where('attempts', '=', attempt)
            .executeTakeFirst()
          if (Number(row.numUpdatedRows) !== 1) return false
          await setSensorOutputState(trx, { ...key, outputNo }, ok ? 'ready' : 'failed', nowIso)
          return true
        })
        if (counted) done++
        else own.abort(ATTEMPT_ENDED_REASON)
      },
      own.signal,
    ).finally(() => signal.removeEventListener('abort', forward))
    if (this.#closed || outcome === 'aborted') return
    // Measured before the end is recorded: a client that sees 'done' sees the new size.
    await this.#measure(job.simulation_id)
    const record = await recomputationOf(this.#db, (await this.#readJob(job.id)) ?? job)
    await this.#finish(
      job.id,
      'done',
      [],
      record.failedOutputs.length > 0
        ? [{ description: COLOUR_MAP_STATUS.sensorsFailed(record.failedOutputs) }]
        : [],
      attempt,
    )
  }

  /** Ends a job that is still scheduled or running (or, from an attempt, its own running row). */
  async #finish(
    jobId: number,
    state: 'done' | 'failed' | 'canceled',
    errors: JobMessage[],
    warnings: JobMessage[] = [],
    attempt?: number,
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
      // an attempt's end needs its row still running as that attempt: a reaper's reschedule
      // (scheduled) or a retry's claim (attempts + 1) took the row from it
      .$if(attempt === undefined, (query) => query.where('state', 'in', ['scheduled', 'running']))
      .$if(attempt !== undefined, (query) =>
        query.where('state', '=', 'running').where('attempts', '=', attempt!),
      )
      .execute()
  }
}

// ── Registry: handlers find the runner by their database handle (as server/jobs/services.ts) ──

const runners = new WeakMap<object, SensorRecomputationRunner>()

/** The runner of the app serving this database. */
export function sensorRunnerFor(db: Db): SensorRecomputationRunner {
  const runner = runners.get(db)
  if (!runner) throw new Error('No sensor recomputation runner is registered for this database.')
  return runner
}

/**
 * Starts the sensor recomputation runner of an app (after the job runner, which fails running
 * jobs left by a previous process) and ends its threads when the app closes.
 */
export async function registerSensorJobs(
  app: { addHook(name: 'onClose', hook: () => Promise<void>): unknown },
  options: SensorRunnerOptions,
): Promise<SensorRecomputationRunner> {
  const runner = new SensorRecomputationRunner(options)
  runners.set(options.db, runner)
  // The reaper of dead workers' recomputations finds it here.
  registerTaskHandler(
    options.db,
    createSensorTaskHandler(options.db, options.clock, options.dataDir, runner),
  )
  app.addHook('onClose', async () => {
    await runner.close()
    runners.delete(options.db)
    unregisterTaskHandler(options.db, SENSOR_JOB_KIND)
  })
  await runner.start()
  return runner
}
