import type { JobState } from '../../domain/jobs.ts'
import { CREDITS_PER_CORE_HOUR, RUN_TEXTS } from '../../domain/rest/runRoutes.ts'
import {
  RUN_STOP_MESSAGES,
  type RunCondition,
  type RunLogLine,
  type RunResult,
} from '../../solver/run/types.ts'
import { refreshSimulationSize } from '../storage/usage.ts'
import { billCredits } from './billing.ts'
import { backendOfSolver } from './solvers.ts'
import {
  CREDITS_REASON,
  USER_REASON,
  errorMessage,
  readJobPayload,
  readRun,
  type JobContext,
  type JobControl,
  type JobRow,
} from './jobContext.ts'

/*
 * A simulation job: the run of a claimed job through the simulation executor, its log lines,
 * outputs, conditions and credits written to the rows as they come, and its end.
 */

/** Simulation-state writes from log lines are pushed at most this often (the log itself always). */
const SIMULATION_PUSH_INTERVAL_MS = 1000

/**
 * The simulation's size is measured again at most this often while a run writes outputs (a walk
 * of its directories); the run's end measures it once more, so the stored size ends exact.
 */
const SIZE_REFRESH_INTERVAL_MS = 5000

/** A result for a run that ended without the solver's say (stop during launch, crash, restart). */
export function endedRun(
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

/** Runs a claimed simulation job to its end and writes that end to the rows. */
export async function runSimulationJob(
  context: JobContext,
  job: JobRow,
  signal: AbortSignal,
  control: JobControl,
): Promise<void> {
  const runId = job.run_id
  if (runId === null) return
  const payload = readJobPayload(job)
  if (signal.aborted) {
    const run = await readRun(context.db, runId)
    await finishSimulationJob(
      context,
      job,
      endedRun('stopped', 'user', RUN_STOP_MESSAGES.user, run?.last_output ?? null),
    )
    return
  }
  const simulationId = job.simulation_id
  context.events.workloadStarted(simulationId, runId)
  const queue = createSerialQueue((error) => console.error(`Run ${runId}: a write failed`, error))
  let creditsStopped = false
  let started = false
  try {
    const setup = await context.loadSetup(simulationId)
    if (signal.aborted) throw signal.reason
    const simulation = await context.db
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
      await context.db
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
    let lastSizeMs = Number.NEGATIVE_INFINITY
    const bill = async (line: RunLogLine) => {
      const delta = line.creditsConsumed - billedCredits
      if (!(delta > 0)) return
      billedCredits = line.creditsConsumed
      const organizationCredits = await billCredits(
        context,
        simulationId,
        simulation.organization_id,
        runId,
        delta,
      )
      if (organizationCredits <= 0 && !signal.aborted) {
        creditsStopped = true
        control.abort(CREDITS_REASON)
      }
    }
    const result = await context.executors.simulation(
      {
        setup,
        dataDir: context.dataDir,
        simulationId,
        runId,
        threads: payload.cores,
        backend: backendOfSolver(payload.solverId) ?? 'cpu',
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
            const nowIso = context.clock.nowIso()
            await context.db
              .updateTable('runs')
              .set({ state: 'running', updated_at: nowIso })
              .where('id', '=', runId)
              .where('state', '=', 'launching')
              .execute()
            await context.db
              .updateTable('simulations')
              .set({ state: 'running', updated_at: nowIso })
              .where('id', '=', simulationId)
              .where('state', '=', 'launching')
              .execute()
            context.events.workloadInitialized(simulationId, runId)
            context.events.simulationChanged(simulationId)
          }),
        onLog: (line) =>
          queue.push(async () => {
            const logged = await context.db
              .updateTable('runs')
              .set({ last_log: JSON.stringify(line), updated_at: context.clock.nowIso() })
              .where('id', '=', runId)
              .executeTakeFirst()
            // The simulation (and its run) was deleted: stop computing for nobody.
            if (Number(logged.numUpdatedRows) === 0) {
              control.abort(USER_REASON)
              return
            }
            await context.db
              .updateTable('jobs')
              .set({ progress: line.progress })
              .where('id', '=', job.id)
              .execute()
            await bill(line)
            context.events.runLog(simulationId, runId, line)
            const nowMs = context.clock.nowMs()
            if (nowMs - lastPushMs >= SIMULATION_PUSH_INTERVAL_MS) {
              lastPushMs = nowMs
              context.events.simulationChanged(simulationId)
            }
          }),
        onOutput: (manifest) =>
          queue.push(async () => {
            await context.db
              .updateTable('runs')
              .set({ last_output: manifest.outputNo, updated_at: context.clock.nowIso() })
              .where('id', '=', runId)
              .execute()
            context.events.outputWritten(simulationId, runId, manifest.outputNo)
            const nowMs = context.clock.nowMs()
            if (nowMs - lastSizeMs >= SIZE_REFRESH_INTERVAL_MS) {
              lastSizeMs = nowMs
              // Not awaited: the walk must not hold back the run's next rows.
              refreshSimulationSize(context.db, context.dataDir, simulationId).catch((error) =>
                console.error(`Simulation ${simulationId}: measuring its files failed`, error),
              )
            }
          }),
        onCondition: (condition) =>
          queue.push(async () => {
            await context.db
              .updateTable('conditions')
              .set({ triggered: 1, updated_at: context.clock.nowIso() })
              .where('id', '=', condition.id)
              .execute()
            context.events.simulationChanged(simulationId)
          }),
      },
      signal,
    )
    await queue.drain()
    if (control.isClosed()) return
    await finishSimulationJob(
      context,
      job,
      creditsStopped
        ? { ...result, state: 'stopped', reason: 'credits', message: RUN_TEXTS.notEnoughCredits }
        : result,
    )
  } catch (error) {
    await queue.drain()
    if (control.isClosed()) return
    const run = await readRun(context.db, runId)
    const lastOutput = run?.last_output ?? null
    if (signal.aborted && signal.reason === USER_REASON)
      await finishSimulationJob(
        context,
        job,
        endedRun('stopped', 'user', RUN_STOP_MESSAGES.user, lastOutput),
      )
    else if (creditsStopped)
      await finishSimulationJob(
        context,
        job,
        endedRun('stopped', 'credits', RUN_TEXTS.notEnoughCredits, lastOutput),
      )
    else
      await finishSimulationJob(
        context,
        job,
        endedRun('failed', 'error', errorMessage(error), lastOutput),
        // A job thread that failed before the run started: the launch failed, not the run.
        started ? 'failed' : 'launch failed',
      )
  }
}

/** Writes a run's end to the job, run and simulation rows (`endState`: the state they get). */
export async function finishSimulationJob(
  context: JobContext,
  job: JobRow,
  result: RunResult,
  endState: RunResult['state'] | 'launch failed' = result.state,
): Promise<void> {
  const nowIso = context.clock.nowIso()
  const runId = job.run_id
  const run = runId === null ? undefined : await readRun(context.db, runId)
  const lastOutput = result.lastOutputNo ?? run?.last_output ?? null
  const jobState: JobState =
    result.state === 'completed' ? 'completed' : result.state === 'stopped' ? 'canceled' : 'failed'
  const lastStopCondition =
    result.reason === 'condition' && result.condition
      ? { valueType: result.condition.valueType, threshold: result.condition.threshold }
      : result.reason === 'credits'
        ? { valueType: 'credits', threshold: 0 }
        : null
  // Outputs, checkpoints, logs and sensor series as the run left them, stored before the run
  // reads as ended (issue 13 item 6).
  await refreshSimulationSize(context.db, context.dataDir, job.simulation_id)
  await context.db.transaction().execute(async (trx) => {
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
        last_stop_condition: lastStopCondition === null ? null : JSON.stringify(lastStopCondition),
        updated_at: nowIso,
      })
      .where('id', '=', job.simulation_id)
      .where('active_run_id', '=', runId)
      .execute()
  })
  context.events.workloadEnded(job.simulation_id)
  context.events.simulationChanged(job.simulation_id)
}
