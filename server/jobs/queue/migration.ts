import type { Kysely, Migration } from 'kysely'

type AnyDb = Kysely<unknown>

/**
 * '0021_job_leases': leases of running jobs held by worker processes (tables.ts). Times are
 * milliseconds on the database's clock, so machines with skewed clocks agree on expiry.
 */
export function jobLeasesMigration(): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable('job_leases')
        .addColumn('job_id', 'integer', (c) =>
          c.primaryKey().references('jobs.id').onDelete('cascade'),
        )
        .addColumn('worker_id', 'text', (c) => c.notNull())
        .addColumn('heartbeat_ms', 'bigint', (c) => c.notNull())
        .addColumn('expires_ms', 'bigint', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema
        .createIndex('job_leases_worker_idx')
        .on('job_leases')
        .column('worker_id')
        .execute()
    },
    async down(db: AnyDb) {
      await db.schema.dropTable('job_leases').execute()
    },
  }
}

/**
 * '0022_task_leases': leases of the queued tasks that are not simulation or discretization jobs
 * (exports, compressions, sensor recomputations, CAD reads and tessellations, statistics ranges;
 * tables.ts TaskLeasesTable), keyed by `{kind}:{id}` since their rows live in their own tables.
 * The message that queued the task is kept, so a dead worker's task is queued again as it was.
 */
export function taskLeasesMigration(): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable('task_leases')
        .addColumn('task', 'text', (c) => c.primaryKey())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('worker_id', 'text', (c) => c.notNull())
        .addColumn('heartbeat_ms', 'bigint', (c) => c.notNull())
        .addColumn('expires_ms', 'bigint', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema
        .createIndex('task_leases_worker_idx')
        .on('task_leases')
        .column('worker_id')
        .execute()
    },
    async down(db: AnyDb) {
      await db.schema.dropTable('task_leases').execute()
    },
  }
}
