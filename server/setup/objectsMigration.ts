import type { Kysely, Migration } from 'kysely'
import type { DialectName } from '../db/connect.ts'
import { addTimestamps, createTableWithId } from '../db/migrationHelpers.ts'

type AnyDb = Kysely<unknown>

/**
 * '0013_setup_objects': refinement zones (around a mesh), the air drag domain (one per simulation)
 * and periodic boundaries. JSON lives in text columns.
 */
export function setupObjectsMigration(dialect: DialectName): Migration {
  return {
    async up(db: AnyDb) {
      await addTimestamps(
        createTableWithId(db, dialect, 'refinements')
          .addColumn('simulation_id', 'integer', (c) =>
            c.notNull().references('simulations.id').onDelete('cascade'),
          )
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('level', 'double precision')
          .addColumn('mesh_id', 'integer', (c) => c.references('meshes.id').onDelete('set null'))
          .addColumn('appearance', 'text', (c) => c.notNull()),
      ).execute()
      await db.schema
        .createIndex('refinements_simulation_idx')
        .on('refinements')
        .column('simulation_id')
        .execute()
      for (const table of ['air_drag_domains', 'periodics']) {
        await addTimestamps(
          createTableWithId(db, dialect, table)
            .addColumn('simulation_id', 'integer', (c) =>
              c.notNull().references('simulations.id').onDelete('cascade'),
            )
            .addColumn('definition', 'text', (c) => c.notNull()),
        ).execute()
        // One air drag domain per simulation.
        const index = db.schema.createIndex(`${table}_simulation_idx`).on(table)
        await (table === 'air_drag_domains' ? index.unique() : index)
          .column('simulation_id')
          .execute()
      }
    },
    async down(db: AnyDb) {
      for (const table of ['periodics', 'air_drag_domains', 'refinements'])
        await db.schema.dropTable(table).execute()
    },
  }
}
