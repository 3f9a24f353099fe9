import type { JobState } from '../../domain/jobs.ts'
import { errorMessage, type JobContext, type JobControl, type JobRow } from './jobContext.ts'

/*
 * A discretization job: the setup through the discretization executor (progress written at most
 * every 250 ms), then its errors, warnings and summary on the job row.
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
    const state: JobState = outcome.errors.length > 0 ? 'failed' : 'done'
    await finishDiscretizationJob(
      context,
      job,
      state,
      outcome.errors,
      outcome.warnings,
      outcome.summary,
    )
  } catch (error) {
    if (control.isClosed()) return
    if (signal.aborted) await finishDiscretizationJob(context, job, 'canceled', [], [], null)
    else await finishDiscretizationJob(context, job, 'failed', [errorMessage(error)], [], null)
  }
}

/** Ends a discretization job: its state, messages and summary. */
export async function finishDiscretizationJob(
  context: JobContext,
  job: JobRow,
  state: JobState,
  errors: readonly (string | { description: string })[],
  warnings: readonly (string | { description: string })[],
  summary: unknown,
): Promise<void> {
  const asMessages = (list: readonly (string | { description: string })[]) =>
    JSON.stringify(list.map((item) => (typeof item === 'string' ? { description: item } : item)))
  const nowIso = context.clock.nowIso()
  await context.db
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
  context.events.discretizationChanged(job.simulation_id)
}
