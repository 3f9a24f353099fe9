import type { Kysely, Migration } from 'kysely'
import type { DialectName } from '../db/connect.ts'
import { addTimestamps, createTableWithId } from '../db/migrationHelpers.ts'

type AnyDb = Kysely<unknown>

/**
 * '0010_dashboards': the Monitor dashboard. Views of a simulation (one default) with their tiles,
 * templates of an organization, variables and uploaded graphs of a simulation. Names are unique
 * by name_key (trimmed, lower case) within their simulation or organization. A tile keeps the
 * settings of its type (graph settings, note text, image id) as JSON text.
 */
export function dashboardsMigration(dialect: DialectName): Migration {
  return {
    async up(db: AnyDb) {
      await addTimestamps(
        createTableWithId(db, dialect, 'dashboard_views')
          .addColumn('simulation_id', 'integer', (c) =>
            c.notNull().references('simulations.id').onDelete('cascade'),
          )
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('name_key', 'text', (c) => c.notNull())
          .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0)),
      )
        .addUniqueConstraint('dashboard_views_name_unique', ['simulation_id', 'name_key'])
        .execute()

      await addTimestamps(
        createTableWithId(db, dialect, 'dashboard_tiles')
          .addColumn('view_id', 'integer', (c) =>
            c.notNull().references('dashboard_views.id').onDelete('cascade'),
          )
          .addColumn('type', 'text', (c) => c.notNull())
          .addColumn('x', 'integer', (c) => c.notNull())
          .addColumn('y', 'integer', (c) => c.notNull())
          .addColumn('w', 'integer', (c) => c.notNull())
          .addColumn('h', 'integer', (c) => c.notNull())
          .addColumn('settings', 'text', (c) => c.notNull().defaultTo('{}')),
      ).execute()
      await db.schema
        .createIndex('dashboard_tiles_view_idx')
        .on('dashboard_tiles')
        .column('view_id')
        .execute()

      await addTimestamps(
        createTableWithId(db, dialect, 'dashboard_templates')
          .addColumn('organization_id', 'integer', (c) =>
            c.notNull().references('organizations.id').onDelete('cascade'),
          )
          .addColumn('creator_id', 'integer', (c) =>
            c.notNull().references('users.id').onDelete('cascade'),
          )
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('name_key', 'text', (c) => c.notNull())
          .addColumn('tiles', 'text', (c) => c.notNull()),
      )
        .addUniqueConstraint('dashboard_templates_name_unique', ['organization_id', 'name_key'])
        .execute()

      await addTimestamps(
        createTableWithId(db, dialect, 'dashboard_variables')
          .addColumn('simulation_id', 'integer', (c) =>
            c.notNull().references('simulations.id').onDelete('cascade'),
          )
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('name_key', 'text', (c) => c.notNull())
          .addColumn('value', 'text', (c) => c.notNull())
          .addColumn('unit', 'text', (c) => c.notNull().defaultTo('')),
      )
        .addUniqueConstraint('dashboard_variables_name_unique', ['simulation_id', 'name_key'])
        .execute()

      await addTimestamps(
        createTableWithId(db, dialect, 'dashboard_graphs')
          .addColumn('simulation_id', 'integer', (c) =>
            c.notNull().references('simulations.id').onDelete('cascade'),
          )
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('x_label', 'text', (c) => c.notNull())
          .addColumn('y_label', 'text', (c) => c.notNull())
          .addColumn('points', 'text', (c) => c.notNull()),
      ).execute()
      await db.schema
        .createIndex('dashboard_graphs_simulation_idx')
        .on('dashboard_graphs')
        .column('simulation_id')
        .execute()
    },
    async down(db: AnyDb) {
      await db.schema.dropTable('dashboard_graphs').execute()
      await db.schema.dropTable('dashboard_variables').execute()
      await db.schema.dropTable('dashboard_templates').execute()
      await db.schema.dropTable('dashboard_tiles').execute()
      await db.schema.dropTable('dashboard_views').execute()
    },
  }
}
