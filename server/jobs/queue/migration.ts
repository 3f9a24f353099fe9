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
