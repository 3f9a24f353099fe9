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
