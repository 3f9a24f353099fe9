import type { Migration } from 'kysely'
import type { DialectName } from '../db/connect.ts'
import { addTimestamps, createTableWithId, type AnyDb } from '../db/migrationHelpers.ts'

/**
 * '0016_compressions': the latest compressed archive of each simulation (state, progress, file,
 * sizes, error). Timestamps are ISO text like every table's.
 */
export function compressionsMigration(dialect: DialectName): Migration {
  return {
    async up(db: AnyDb) {
      await addTimestamps(
        createTableWithId(db, dialect, 'simulation_compressions')
          .addColumn('simulation_id', 'integer', (c) =>
            c.notNull().unique().references('simulations.id').onDelete('cascade'),
          )
          .addColumn('creator_id', 'integer', (c) => c.notNull())
          .addColumn('state', 'text', (c) => c.notNull())
          .addColumn('progress', 'double precision', (c) => c.notNull().defaultTo(0))
          .addColumn('filename', 'text', (c) => c.notNull())
          .addColumn('path', 'text', (c) => c.notNull())
          .addColumn('input_bytes', 'double precision', (c) => c.notNull().defaultTo(0))
          .addColumn('size_bytes', 'double precision', (c) => c.notNull().defaultTo(0))
          .addColumn('file_count', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('error', 'text')
          .addColumn('ended_at', 'text'),
      ).execute()
    },
    async down(db: AnyDb) {
      await db.schema.dropTable('simulation_compressions').execute()
    },
  }
}
