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
