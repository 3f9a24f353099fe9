import { isJobActive, type JobState } from '../../../../../domain/jobs.ts'
import type { Assembly, TessellationRun } from '../../../../../domain/tessellation.ts'

/*
 * What the 'Importing File' widget shows (spec/setup.md §2, spec/results.md "Jobs"): the CAD files
 * being read and the tessellation runs scheduled or running, and which of them ended since the
 * last poll.
 */

/** One job of the widget: reading a file's tree (import) or tessellating its parts. */
export interface AssemblyJob {
  /** 'import:3' or 'tessellation:9'. */
  key: string
  kind: 'import' | 'tessellation'
  /** The assembly's id for an import, the run's for a tessellation. */
  id: number
  assemblyId: number
  filename: string
  state: JobState
  /** 0 … 1 (a tessellation's; an import reports none). */
  progress: number
}

/** Every import and tessellation run as a job, newest first. */
export function assemblyJobs(
  assemblies: readonly Assembly[] | undefined,
  runs: readonly TessellationRun[] | undefined,
): AssemblyJob[] {
  const names = new Map((assemblies ?? []).map((a) => [a.id, a.filename]))
  return [
    ...(runs ?? []).map((run): AssemblyJob => ({
      key: `tessellation:${run.id}`,
      kind: 'tessellation',
      id: run.id,
      assemblyId: run.assemblyId,
      filename: names.get(run.assemblyId) ?? `File ${run.assemblyId}`,
      state: run.state,
      progress: run.progress,
    })),
    ...(assemblies ?? []).map((assembly): AssemblyJob => ({
      key: `import:${assembly.id}`,
      kind: 'import',
      id: assembly.id,
      assemblyId: assembly.id,
      filename: assembly.filename,
      state: assembly.state,
      progress: 0,
    })),
  ]
}

/** The jobs scheduled or running. */
export function activeJobs(jobs: readonly AssemblyJob[]): AssemblyJob[] {
  return jobs.filter((job) => isJobActive(job.state))
}

/** The jobs that were active before and are not now (each seen active once by this page). */
export function endedJobs(
  before: ReadonlyMap<string, boolean>,
  now: readonly AssemblyJob[],
): AssemblyJob[] {
  return now.filter((job) => before.get(job.key) === true && !isJobActive(job.state))
}

/** The widget's line for a job. */
export function assemblyJobText(job: AssemblyJob): string {
  if (job.state === 'scheduled')
    return job.kind === 'import' ? 'Waiting to read the file' : 'Tessellation scheduled'
  return job.kind === 'import' ? 'Reading the file' : 'Tessellating'
}

/** Title of the toast of a failed tessellation (its errors are the text). */
export const TESSELLATION_FAILED = 'Tessellation failed'
/** Title of the toast of a refused cancel. */
export const CANCEL_TESSELLATION_FAILED = 'Canceling tessellation failed'
/** The warning of the cancel dialog. */
export const CANCEL_TESSELLATION_WARNING =
  'There is no resume option. Parts not tessellated yet will need a new tessellation.'

/** 'Reading as1.stp failed': an import that failed. */
export function importFailedMessage(filename: string): string {
  return `Reading ${filename} failed`
}
