import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { checkpointFile } from '../../domain/output/layout.ts'
import { RUN_TEXTS } from '../../domain/rest/runRoutes.ts'
import { RUN_STOP_MESSAGES } from '../../solver/run/types.ts'
import { readJobPayload, readRun, type JobContext, type JobRow } from './jobContext.ts'
import { endedRun, finishSimulationJob } from './simulationJob.ts'
import type { SimulationJobPayload } from './types.ts'

/*
 * A simulation job found running with nobody running it: after a server restart (the rows say
 * 'running', no thread does), or when its worker process died (its lease expired).
 */

export interface RecoverOptions {
  /**
   * Without a checkpoint, start the run over (a dead worker's job: nothing of it is lost but
   * time) instead of failing it (a server restart, as before issue 18).
   */
  restartWithoutCheckpoint: boolean
}

/**
 * Resumes a left simulation job from its last checkpoint: the job becomes 'scheduled' again with
 * the resume in its payload, and the run and simulation 'launching'. A simulation left 'stopping'
 * ends stopped; without a checkpoint the run fails (or starts over, see RecoverOptions). Returns
 * true when the job is scheduled and must be handed to a runner.
 */
export async function recoverSimulationJob(
  context: JobContext,
  job: JobRow,
  options: RecoverOptions,
): Promise<boolean> {
  const { db, clock } = context
  const run = job.run_id === null ? undefined : await readRun(db, job.run_id)
  const simulation = await db
    .selectFrom('simulations')
    .select(['state'])
    .where('id', '=', job.simulation_id)
    .executeTakeFirst()
  if (!run || !simulation) {
    await finishSimulationJob(
      context,
      job,
      endedRun('failed', 'error', RUN_TEXTS.serverRestartFailed, null),
    )
    return false
  }
  if (simulation.state === 'stopping') {
    await finishSimulationJob(
      context,
      job,
      endedRun('stopped', 'user', RUN_STOP_MESSAGES.user, run.last_output),
    )
    return false
  }
  if (job.state === 'scheduled') return true
  const checkpoint =
    run.last_output === null
      ? null
      : join(context.dataDir, checkpointFile(job.simulation_id, run.id, run.last_output))
  const resumable = checkpoint !== null && existsSync(checkpoint)
  if (!resumable && !options.restartWithoutCheckpoint) {
    await finishSimulationJob(
      context,
      job,
      endedRun('failed', 'error', RUN_TEXTS.serverRestartFailed, run.last_output),
    )
    return false
  }
  const payload = readJobPayload(job)
  const nowIso = clock.nowIso()
  const next: SimulationJobPayload = resumable
    ? { ...payload, resumeFromOutput: run.last_output, resumeFromRunId: run.id }
    : payload
  await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('jobs')
      .set({ state: 'scheduled', payload: JSON.stringify(next), updated_at: nowIso })
      .where('id', '=', job.id)
      .execute()
    await trx
      .updateTable('runs')
      .set({
        state: 'launching',
        ...(resumable ? { resumed_from_output: run.last_output } : {}),
        updated_at: nowIso,
      })
      .where('id', '=', run.id)
      .execute()
    await trx
      .updateTable('simulations')
      .set({ state: 'launching', updated_at: nowIso })
      .where('id', '=', job.simulation_id)
      .execute()
  })
  context.events.simulationChanged(job.simulation_id)
  return true
}
