import type { Kysely, Migration } from 'kysely'

type AnyDb = Kysely<unknown>

/**
 * '0009_session_families': `family_id` links every session a refresh produced to the first session
 * of its login (null: the row is its own family's first), so reusing a rotated refresh token can
 * revoke the whole login (token-family reuse detection).
 */
export function sessionFamiliesMigration(): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema.alterTable('sessions').addColumn('family_id', 'integer').execute()
      await db.schema
        .createIndex('sessions_family_idx')
        .on('sessions')
        .column('family_id')
        .execute()
    },
    async down(db: AnyDb) {
      await db.schema.dropIndex('sessions_family_idx').execute()
      await db.schema.alterTable('sessions').dropColumn('family_id').execute()
    },
  }
}

/**
 * '0011_login_failures': login throttling slots (server/auth/tables.ts), one row per (scope, key,
 * slot), indexed by time for the sweep of rows that left the window.
 */
export function loginFailuresMigration(): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema
        .createTable('login_failures')
        .addColumn('scope', 'text', (column) => column.notNull())
        .addColumn('key', 'text', (column) => column.notNull())
        .addColumn('slot', 'integer', (column) => column.notNull())
        .addColumn('failed_at', 'text', (column) => column.notNull())
        .addPrimaryKeyConstraint('login_failures_pk', ['scope', 'key', 'slot'])
        .execute()
      await db.schema
        .createIndex('login_failures_time_idx')
        .on('login_failures')
        .column('failed_at')
        .execute()
    },
    async down(db: AnyDb) {
      await db.schema.dropTable('login_failures').execute()
    },
  }
}
