import type { Kysely, Migration } from 'kysely'
import type { DialectName } from '../db/connect.ts'
import { addTimestamps, createTableWithId } from '../db/migrationHelpers.ts'

type AnyDb = Kysely<unknown>

/**
 * '0007_assemblies': uploaded CAD (STEP) files and the parts the import wizard builds from their
 * tree. The reading of a file and its tessellation runs are rows of `jobs` (kinds 'assembly' and
 * 'tessellation'); JSON lives in text columns, timestamps are ISO text (see db/schema.ts).
 */
export function assembliesMigration(dialect: DialectName): Migration {
  return {
    async up(db: AnyDb) {
      await addTimestamps(
        createTableWithId(db, dialect, 'assemblies')
          .addColumn('simulation_id', 'integer', (c) =>
            c.notNull().references('simulations.id').onDelete('cascade'),
          )
          .addColumn('uploader_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
          .addColumn('filename', 'text', (c) => c.notNull())
          .addColumn('stored_path', 'text', (c) => c.notNull())
          .addColumn('size_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
          .addColumn('import_job_id', 'integer', (c) =>
            c.references('jobs.id').onDelete('set null'),
          )
          .addColumn('latest_tessellation_job_id', 'integer', (c) =>
            c.references('jobs.id').onDelete('set null'),
          )
          .addColumn('tree', 'text')
          .addColumn('node_facts', 'text', (c) => c.notNull().defaultTo('{}')),
      ).execute()
      await db.schema
        .createIndex('assemblies_simulation_idx')
        .on('assemblies')
        .column('simulation_id')
        .execute()

      await addTimestamps(
        createTableWithId(db, dialect, 'assembly_parts')
          .addColumn('assembly_id', 'integer', (c) =>
            c.notNull().references('assemblies.id').onDelete('cascade'),
          )
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('node_ids', 'text', (c) => c.notNull())
          .addColumn('component_type', 'text', (c) => c.notNull())
          .addColumn('meshing_parameters', 'text', (c) => c.notNull())
          .addColumn('setup_part_id', 'integer', (c) =>
            c.references('parts.id').onDelete('set null'),
          )
          .addColumn('tessellated_key', 'text')
          .addColumn('triangle_count', 'integer')
          .addColumn('warnings', 'text', (c) => c.notNull().defaultTo('[]')),
      ).execute()
      await db.schema
        .createIndex('assembly_parts_assembly_idx')
        .on('assembly_parts')
        .column('assembly_id')
        .execute()
    },
    async down(db: AnyDb) {
      for (const table of ['assembly_parts', 'assemblies'])
        await db.schema.dropTable(table).execute()
    },
  }
}
