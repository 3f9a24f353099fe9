import type { Kysely, Migration } from 'kysely'
import type { DialectName } from '../db/connect.ts'
import { addTimestamps, createTableWithId } from '../db/migrationHelpers.ts'

type AnyDb = Kysely<unknown>

/**
 * '0006_user_exports': the user export of each simulation (state, request, errors, warnings,
 * expiry) and its completely written files. JSON lives in text columns, timestamps are ISO text.
 */
export function userExportsMigration(dialect: DialectName): Migration {
  return {
    async up(db: AnyDb) {
      await addTimestamps(
        createTableWithId(db, dialect, 'user_exports')
          .addColumn('simulation_id', 'integer', (c) =>
            c.notNull().references('simulations.id').onDelete('cascade'),
          )
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('state', 'text', (c) => c.notNull())
          .addColumn('progress', 'double precision', (c) => c.notNull().defaultTo(0))
          .addColumn('request', 'text', (c) => c.notNull())
          .addColumn('errors', 'text', (c) => c.notNull().defaultTo('[]'))
          .addColumn('warnings', 'text', (c) => c.notNull().defaultTo('[]'))
          .addColumn('directory', 'text', (c) => c.notNull())
          .addColumn('expires_at', 'text')
          .addColumn('ended_at', 'text'),
      ).execute()
      await db.schema
        .createIndex('user_exports_simulation_idx')
        .on('user_exports')
        .column('simulation_id')
        .execute()
      await createTableWithId(db, dialect, 'user_export_files')
        .addColumn('export_id', 'integer', (c) =>
          c.notNull().references('user_exports.id').onDelete('cascade'),
        )
        .addColumn('simulation_id', 'integer', (c) => c.notNull())
        .addColumn('filename', 'text', (c) => c.notNull())
        .addColumn('path', 'text', (c) => c.notNull())
        .addColumn('size_bytes', 'double precision', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema
        .createIndex('user_export_files_export_idx')
        .on('user_export_files')
        .column('export_id')
        .execute()
    },
    async down(db: AnyDb) {
      await db.schema.dropTable('user_export_files').execute()
      await db.schema.dropTable('user_exports').execute()
    },
  }
}
