import type { Kysely, Migration } from 'kysely'
import type { DialectName } from '../db/connect.ts'
import { addTimestamps, createTableWithId } from '../db/migrationHelpers.ts'

type AnyDb = Kysely<unknown>

/**
 * '0005_sensors_clips': meshes (of sensors, volume clips, refinements), point and surface sensors,
 * volume clips, and the sensor state of each output of a run. JSON lives in text columns.
 */
export function sensorsClipsMigration(dialect: DialectName): Migration {
  return {
    async up(db: AnyDb) {
      await addTimestamps(
        createTableWithId(db, dialect, 'meshes')
          .addColumn('simulation_id', 'integer', (c) =>
            c.notNull().references('simulations.id').onDelete('cascade'),
          )
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('definition', 'text', (c) => c.notNull())
          .addColumn('nbr_of_triangles', 'integer'),
      ).execute()
      await db.schema
        .createIndex('meshes_simulation_idx')
        .on('meshes')
        .column('simulation_id')
        .execute()

      await addTimestamps(
        createTableWithId(db, dialect, 'sensors')
          .addColumn('simulation_id', 'integer', (c) =>
            c.notNull().references('simulations.id').onDelete('cascade'),
          )
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('position', 'text')
          .addColumn('mesh_id', 'integer', (c) => c.references('meshes.id').onDelete('set null'))
          .addColumn('appearance', 'text', (c) => c.notNull()),
      ).execute()
      await db.schema
        .createIndex('sensors_simulation_idx')
        .on('sensors')
        .column('simulation_id')
        .execute()

      await addTimestamps(
        createTableWithId(db, dialect, 'volume_clips')
          .addColumn('simulation_id', 'integer', (c) =>
            c.notNull().references('simulations.id').onDelete('cascade'),
          )
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('mesh_id', 'integer', (c) => c.references('meshes.id').onDelete('set null'))
          .addColumn('material_id', 'integer')
          .addColumn('inverted', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('appearance', 'text', (c) => c.notNull()),
      ).execute()
      await db.schema
        .createIndex('volume_clips_simulation_idx')
        .on('volume_clips')
        .column('simulation_id')
        .execute()

      await db.schema
        .createTable('sensor_output_states')
        .addColumn('simulation_id', 'integer', (c) =>
          c.notNull().references('simulations.id').onDelete('cascade'),
        )
        .addColumn('run_id', 'integer', (c) => c.notNull())
        .addColumn('output_no', 'integer', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('sensor_output_states_pk', [
          'simulation_id',
          'run_id',
          'output_no',
        ])
        .execute()
    },
    async down(db: AnyDb) {
      for (const table of ['sensor_output_states', 'volume_clips', 'sensors', 'meshes'])
        await db.schema.dropTable(table).execute()
    },
  }
}

/**
 * '0008_sensor_sample_rate': how often the running solver samples a sensor (domain/sensorSampling.ts):
 * null (from outputs only), 'every_step', or a rate per second of simulated time as text.
 */
export function sensorSampleRateMigration(): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema.alterTable('sensors').addColumn('sample_rate', 'text').execute()
    },
    async down(db: AnyDb) {
      await db.schema.alterTable('sensors').dropColumn('sample_rate').execute()
    },
  }
}
