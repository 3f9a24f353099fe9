import type { Kysely, Migration } from 'kysely'
import type { DialectName } from '../db/connect.ts'
import { addTimestamps, createTableWithId } from '../db/migrationHelpers.ts'

type AnyDb = Kysely<unknown>

/**
 * '0004_viewport_state': one saved viewport state per simulation and mode (pre: setup, post:
 * results), as JSON text.
 */
export function viewportStateMigration(dialect: DialectName): Migration {
  return {
    async up(db: AnyDb) {
      await addTimestamps(
        createTableWithId(db, dialect, 'viewport_states')
          .addColumn('simulation_id', 'integer', (c) =>
            c.notNull().references('simulations.id').onDelete('cascade'),
          )
          .addColumn('mode', 'text', (c) => c.notNull())
          .addColumn('state', 'text', (c) => c.notNull()),
      )
        .addUniqueConstraint('viewport_states_simulation_mode_unique', ['simulation_id', 'mode'])
        .execute()
    },
    async down(db: AnyDb) {
      await db.schema.dropTable('viewport_states').execute()
    },
  }
}
