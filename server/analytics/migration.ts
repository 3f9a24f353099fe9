import type { Kysely, Migration } from 'kysely'
import type { DialectName } from '../db/connect.ts'
import { createTableWithId } from '../db/migrationHelpers.ts'

type AnyDb = Kysely<unknown>

/**
 * '0018_analytics': the analytics events the interface sends (issue 15 item 7) and each user's
 * opt-out. Events keep their organization even when the user is deleted (user_id set null).
 */
export function analyticsMigration(dialect: DialectName): Migration {
  return {
    async up(db: AnyDb) {
      await createTableWithId(db, dialect, 'analytics_events')
        .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('organization_id', 'integer', (c) =>
          c.notNull().references('organizations.id').onDelete('cascade'),
        )
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('properties', 'text', (c) => c.notNull())
        .addColumn('occurred_at', 'text', (c) => c.notNull())
        .addColumn('received_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema
        .createIndex('analytics_events_received_idx')
        .on('analytics_events')
        .columns(['received_at', 'name'])
        .execute()
      await db.schema
        .createTable('analytics_preferences')
        .addColumn('user_id', 'integer', (c) =>
          c.primaryKey().references('users.id').onDelete('cascade'),
        )
        .addColumn('opted_out', 'integer', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute()
    },
    async down(db: AnyDb) {
      await db.schema.dropTable('analytics_preferences').execute()
      await db.schema.dropTable('analytics_events').execute()
    },
  }
}
