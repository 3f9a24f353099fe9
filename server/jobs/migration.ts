import type { Kysely, Migration } from 'kysely'
import type { DialectName } from '../db/connect.ts'
import { addTimestamps, createTableWithId } from '../db/migrationHelpers.ts'

type AnyDb = Kysely<unknown>

/**
 * '0003_jobs': durable jobs (discretization, simulation …), one row per run, and the stop and
 * warning conditions. JSON lives in text columns, timestamps are ISO text (see schema.ts).
 */
export function jobsMigration(dialect: DialectName): Migration {
  return {
    async up(db: AnyDb) {
      await addTimestamps(
        createTableWithId(db, dialect, 'runs')
          .addColumn('simulation_id', 'integer', (c) =>
            c.notNull().references('simulations.id').onDelete('cascade'),
          )
          .addColumn('state', 'text', (c) => c.notNull())
          .addColumn('cores', 'integer', (c) => c.notNull())
          .addColumn('solver_id', 'integer', (c) => c.notNull())
          .addColumn('resumed_from_output', 'integer')
          .addColumn('last_output', 'integer')
          .addColumn('last_log', 'text')
          .addColumn('credits_consumed', 'double precision', (c) => c.notNull().defaultTo(0))
          .addColumn('simulation_hours', 'double precision', (c) => c.notNull().defaultTo(0))
          .addColumn('credit_transaction_id', 'integer')
          .addColumn('message', 'text')
          .addColumn('started_at', 'text')
          .addColumn('ended_at', 'text'),
      ).execute()
      await db.schema
        .createIndex('runs_simulation_idx')
        .on('runs')
        .column('simulation_id')
        .execute()

      await addTimestamps(
        createTableWithId(db, dialect, 'jobs')
          .addColumn('simulation_id', 'integer', (c) =>
            c.notNull().references('simulations.id').onDelete('cascade'),
          )
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('state', 'text', (c) => c.notNull())
          .addColumn('progress', 'double precision', (c) => c.notNull().defaultTo(0))
          .addColumn('run_id', 'integer', (c) => c.references('runs.id').onDelete('cascade'))
          .addColumn('payload', 'text', (c) => c.notNull().defaultTo('{}'))
          .addColumn('result', 'text')
          .addColumn('errors', 'text', (c) => c.notNull().defaultTo('[]'))
          .addColumn('warnings', 'text', (c) => c.notNull().defaultTo('[]'))
          .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('started_at', 'text')
          .addColumn('ended_at', 'text'),
      ).execute()
      await db.schema
        .createIndex('jobs_simulation_kind_idx')
        .on('jobs')
        .columns(['simulation_id', 'kind'])
        .execute()
      await db.schema.createIndex('jobs_state_idx').on('jobs').column('state').execute()

      await addTimestamps(
        createTableWithId(db, dialect, 'conditions')
          .addColumn('simulation_id', 'integer', (c) =>
            c.notNull().references('simulations.id').onDelete('cascade'),
          )
          .addColumn('run_id', 'integer', (c) => c.notNull())
          .addColumn('action', 'text', (c) => c.notNull())
          .addColumn('value_type', 'text', (c) => c.notNull())
          .addColumn('operator', 'text', (c) => c.notNull())
          .addColumn('threshold', 'double precision', (c) => c.notNull())
          .addColumn('triggered', 'integer', (c) => c.notNull().defaultTo(0)),
      ).execute()
      await db.schema
        .createIndex('conditions_simulation_run_idx')
        .on('conditions')
        .columns(['simulation_id', 'run_id'])
        .execute()
    },
    async down(db: AnyDb) {
      for (const table of ['conditions', 'jobs', 'runs']) await db.schema.dropTable(table).execute()
    },
  }
}
