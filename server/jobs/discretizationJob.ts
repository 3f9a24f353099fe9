import { refreshSimulationSize } from '../storage/usage.ts'
import type { JobState } from '../../domain/jobs.ts'
import {
  removeJobPointClouds,
  removeOtherPointClouds,
  removeSimulationPointClouds,
  writePointClouds,
} from '../storage/pointClouds.ts'
import { errorMessage, type JobContext, type JobControl, type JobRow } from './jobContext.ts'
import type { DiscretizationOutcome } from './types.ts'

/*
 * A discretization job: the setup through the discretization executor (progress written at most
 * every 250 ms), then its errors, warnings and summary on the job row, and the particles of each
 * part as a DPCL file (server/storage/pointClouds.ts) that GET /parts/{id}/pointcloud serves.
 */

/** Runs a claimed discretization job to its end and writes that end to the job row. */
export async function runDiscretizationJob(
  context: JobContext,
  job: JobRow,
  signal: AbortSignal,
  control: Pick<JobControl, 'isClosed'>,
): Promise<void> {
  context.events.discretizationChanged(job.simulation_id)
  let lastProgressMs = 0
  try {
    const setup = await context.loadSetup(job.simulation_id)
    const outcome = await context.executors.discretization(setup, signal, (progress) => {
      const nowMs = context.clock.nowMs()
      if (nowMs - lastProgressMs < 250) return
      lastProgressMs = nowMs
      void context.db
        .updateTable('jobs')
        .set({ progress, updated_at: context.clock.nowIso() })
        .where('id', '=', job.id)
        .where('state', '=', 'running')
        .execute()
        .then(() => context.events.discretizationChanged(job.simulation_id))
    })
    if (control.isClosed()) return
    if (signal.aborted) {
      await finishDiscretizationJob(context, job, 'canceled', [], [], null)
      return
    }
    if (outcome.errors.length > 0) {
      await finishDiscretizationJob(context, job, 'failed', outcome.errors, outcome.warnings, null)
      return
    }
    await storePointClouds(context, job, outcome)
  } catch (error) {
    if (control.isClosed()) return
    if (signal.aborted) await finishDiscretizationJob(context, job, 'canceled', [], [], null)
    else await finishDiscretizationJob(context, job, 'failed', [errorMessage(error)], [], null)
  }
}

/**
 * Writes the parts' point clouds, then marks the job done; only then do the files of older
 * discretizations go, so the parts always have the files of the latest done one. A simulation
 * deleted meanwhile takes the new files with it.
 */
async function storePointClouds(
  context: JobContext,
  job: JobRow,
  outcome: DiscretizationOutcome,
): Promise<void> {
  const { dataDir } = context
  const simulationId = job.simulation_id
  try {
    await writePointClouds(dataDir, simulationId, job.id, outcome.pointClouds)
  } catch (error) {
    await removeJobPointClouds(dataDir, simulationId, job.id)
    throw new Error(`The particles could not be stored: ${errorMessage(error)}`, { cause: error })
  }
  const stored = await finishDiscretizationJob(
    context,
    job,
    'done',
    [],
    outcome.warnings,
    outcome.summary,
  )
  if (stored) await removeOtherPointClouds(dataDir, simulationId, job.id)
  else await removeSimulationPointClouds(dataDir, simulationId)
  await refreshSimulationSize(context.db, dataDir, simulationId)
}

/** Ends a discretization job: its state, messages and summary; false when its row is gone. */
export async function finishDiscretizationJob(
  context: JobContext,
  job: JobRow,
  state: JobState,
  errors: readonly (string | { description: string })[],
  warnings: readonly (string | { description: string })[],
  summary: unknown,
): Promise<boolean> {
  const asMessages = (list: readonly (string | { description: string })[]) =>
    JSON.stringify(list.map((item) => (typeof item === 'string' ? { description: item } : item)))
  const nowIso = context.clock.nowIso()
  const updated = await context.db
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
    .executeTakeFirst()
  if (state !== 'done') {
    await removeJobPointClouds(context.dataDir, job.simulation_id, job.id)
    await refreshSimulationSize(context.db, context.dataDir, job.simulation_id)
  }
  context.events.discretizationChanged(job.simulation_id)
  return Number(updated.numUpdatedRows) === 1
}
