/**
 * A worker process's hold on a running job (migration 0021_job_leases): taken in the same
 * transaction as the claim, renewed by the worker's heartbeat, released at the job's end. A lease
 * past `expires_ms` (the database's clock) belongs to a dead worker: the job is rescheduled.
 */
export interface JobLeasesTable {
  job_id: number
  /** The worker process (host, pid and a random part). */
  worker_id: string
  /** Milliseconds since 1970 on the database's clock. */
  heartbeat_ms: number
  expires_ms: number
  created_at: string
}

/**
 * A worker process's hold on a running task (migration 0022_task_leases): an export, compression,
 * sensor recomputation, CAD job or statistics range, whose own row (if any) lives elsewhere.
 * Taken with the task's claim, renewed by the heartbeat, released at its end; an expired one is
 * taken by a reaper, which retries the task (or ends it) as its kind says.
 */
export interface TaskLeasesTable {
  /** `{kind}:{id}` (taskKey). */
  task: string
  kind: string
  worker_id: string
  heartbeat_ms: number
  expires_ms: number
  /** JSON of the queued message's data (what the task was queued with). */
  data: string
  created_at: string
}
