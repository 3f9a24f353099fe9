import type { Kysely, Selectable } from 'kysely'
import type { Clock } from '../clock.ts'
import type { Database, JobsTable } from '../db/schema.ts'
import { parseJson } from './records.ts'
import type { JobEvents, JobExecutors, SetupLoader, SimulationJobPayload } from './types.ts'

/*
 * What a job's code shares with the JobRunner that runs it: the database, clock, data directory,
 * executors, setup loader and live events (JobContext), and the runner's say over the job
 * (JobControl). The simulation and discretization jobs are functions of these.
 */

export type Db = Kysely<Database>
export type JobRow = Selectable<JobsTable>

/** The runner's dependencies, as its jobs see them. */
export interface JobContext {
  db: Db
  clock: Clock
  dataDir: string
  executors: JobExecutors
  loadSetup: SetupLoader
  events: JobEvents
}

/** The runner's hold on one running job. */
export interface JobControl {
  /** True once the runner is closing: rows are left for the next start. */
  isClosed(): boolean
  /** Aborts the job's signal with a reason (USER_REASON, CREDITS_REASON). */
  abort(reason: string): void
}

/** Abort reason when the organization ran out of credits while the run was going. */
export const CREDITS_REASON = 'credits'
/** Abort reason of DELETE /simulations/{id}/jobs and DELETE …/discretizations. */
export const USER_REASON = 'user'

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

export async function readRun(db: Db, runId: number) {
  return db.selectFrom('runs').selectAll().where('id', '=', runId).executeTakeFirst()
}

/** A simulation job's payload with its defaults. */
export function readJobPayload(job: JobRow): SimulationJobPayload {
  const stored = parseJson(job.payload) as Partial<SimulationJobPayload> | null
  return {
    cores: stored?.cores ?? 1,
    solverId: stored?.solverId ?? 1,
    resumeFromOutput: stored?.resumeFromOutput ?? null,
    resumeFromRunId: stored?.resumeFromRunId ?? null,
  }
}
