import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely'
import { analyticsMigration } from '../analytics/migration.ts'
import { assembliesMigration } from '../assemblies/migration.ts'
import {
  accessGrantsMigration,
  accountMigration,
  activeAccessGrantMigration,
  ssoConnectionMigration,
} from '../account/migration.ts'
import { loginFailuresMigration, sessionFamiliesMigration } from '../auth/migration.ts'
import { compressionsMigration } from '../compression/migration.ts'
import { dashboardsMigration } from '../dashboards/migration.ts'
import { userExportsMigration } from '../exports/migration.ts'
import { jobsMigration } from '../jobs/migration.ts'
import { jobLeasesMigration, taskLeasesMigration } from '../jobs/queue/migration.ts'
import { sensorSampleRateMigration, sensorsClipsMigration } from '../sensors/migration.ts'
import { subscriptionMaxSimulationsMigration } from '../runLimits/migration.ts'
import { setupObjectsMigration } from '../setup/objectsMigration.ts'
import { viewportStateMigration } from '../viewport/migration.ts'
import { remoteVmsMigration, vmStorageMigration } from '../vms/migration.ts'
import type { DialectName, DatabaseHandle } from './connect.ts'
import { addTimestamps, createTableWithId } from './migrationHelpers.ts'

/*
 * Migrations are written once for both dialects. They branch only where SQL differs: the
 * auto-increment id. Later issues append migrations here (never edit a released one).
 */

type AnyDb = Kysely<unknown>

function foundation(dialect: DialectName): Migration {
  return {
    async up(db: AnyDb) {
      await createTableWithId(db, dialect, 'organizations')
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('credits', 'double precision', (c) => c.notNull().defaultTo(0))
        .addColumn('features', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('subscription_kind', 'text')
        .addColumn('subscription_start_date', 'text')
        .addColumn('subscription_end_date', 'text')
        .addColumn('subscription_core_hours', 'double precision', (c) => c.notNull().defaultTo(0))
        .addColumn('subscription_one_off_core_hours', 'double precision', (c) =>
          c.notNull().defaultTo(0),
        )
        .addColumn('subscription_vm_hours_per_month', 'double precision', (c) =>
          c.notNull().defaultTo(0),
        )
        .addColumn('subscription_max_cores', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('subscription_free_instance', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('storage_available_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute()

      await createTableWithId(db, dialect, 'users')
        .addColumn('organization_id', 'integer', (c) =>
          c.notNull().references('organizations.id').onDelete('cascade'),
        )
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('first_name', 'text', (c) => c.notNull())
        .addColumn('last_name', 'text', (c) => c.notNull())
        .addColumn('phone_number', 'text')
        .addColumn('department', 'text')
        .addColumn('location', 'text')
        .addColumn('avatar_id', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema
        .createIndex('users_organization_idx')
        .on('users')
        .column('organization_id')
        .execute()

      await createTableWithId(db, dialect, 'sessions')
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('access_token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('refresh_token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('access_expires_at', 'text', (c) => c.notNull())
        .addColumn('refresh_expires_at', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('revoked_at', 'text')
        .execute()
      await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute()

      await addTimestamps(
        createTableWithId(db, dialect, 'projects')
          .addColumn('organization_id', 'integer', (c) =>
            c.notNull().references('organizations.id').onDelete('cascade'),
          )
          .addColumn('creator_id', 'integer', (c) => c.notNull().references('users.id'))
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('description', 'text', (c) => c.notNull().defaultTo('')),
      )
        .addUniqueConstraint('projects_organization_name_unique', ['organization_id', 'name'])
        .execute()
      await db.schema
        .createIndex('projects_creator_idx')
        .on('projects')
        .column('creator_id')
        .execute()

      await addTimestamps(
        createTableWithId(db, dialect, 'simulations')
          .addColumn('project_id', 'integer', (c) =>
            c.notNull().references('projects.id').onDelete('cascade'),
          )
          .addColumn('organization_id', 'integer', (c) =>
            c.notNull().references('organizations.id').onDelete('cascade'),
          )
          .addColumn('creator_id', 'integer', (c) => c.notNull().references('users.id'))
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
          .addColumn('state', 'text', (c) => c.notNull().defaultTo('not started'))
          .addColumn('uploaded_setup', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('setup_locked', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('resumable', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('active_run_id', 'integer')
          .addColumn('credits_consumed', 'double precision', (c) => c.notNull().defaultTo(0))
          .addColumn('simulation_hours_consumed', 'double precision', (c) =>
            c.notNull().defaultTo(0),
          )
          .addColumn('cores', 'integer')
          .addColumn('gpu', 'integer', (c) => c.notNull().defaultTo(0))
          .addColumn('solver_name', 'text')
          .addColumn('started_at', 'text')
          .addColumn('size_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
          .addColumn('settings', 'text', (c) => c.notNull())
          .addColumn('post_image_id', 'integer')
          .addColumn('last_stop_condition', 'text'),
      )
        .addUniqueConstraint('simulations_project_name_unique', ['project_id', 'name'])
        .execute()
      await db.schema
        .createIndex('simulations_organization_idx')
        .on('simulations')
        .column('organization_id')
        .execute()

      await createTableWithId(db, dialect, 'credit_transactions')
        .addColumn('organization_id', 'integer', (c) =>
          c.notNull().references('organizations.id').onDelete('cascade'),
        )
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('credits', 'double precision', (c) => c.notNull().defaultTo(0))
        .addColumn('simulation_hours', 'double precision', (c) => c.notNull().defaultTo(0))
        .addColumn('simulation_id', 'integer', (c) =>
          c.references('simulations.id').onDelete('set null'),
        )
        .addColumn('simulation_name', 'text')
        .addColumn('note', 'text')
        .addColumn('issuer_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema
        .createIndex('credit_transactions_organization_idx')
        .on('credit_transactions')
        .columns(['organization_id', 'updated_at'])
        .execute()
    },
    async down(db: AnyDb) {
      for (const table of [
        'credit_transactions',
        'simulations',
        'projects',
        'sessions',
        'users',
        'organizations',
      ])
        await db.schema.dropTable(table).execute()
    },
  }
}

/** Setup of a simulation: materials, parts, movements (with leader links), uploads, datatables. */
function setup(dialect: DialectName): Migration {
  return {
    async up(db: AnyDb) {
      await createTableWithId(db, dialect, 'uploads')
        .addColumn('organization_id', 'integer', (c) =>
          c.notNull().references('organizations.id').onDelete('cascade'),
        )
        .addColumn('uploader_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('file_name', 'text', (c) => c.notNull())
        .addColumn('unit', 'text')
        .addColumn('size_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('stored_path', 'text', (c) => c.notNull())
        .addColumn('info', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema
        .createIndex('uploads_organization_idx')
        .on('uploads')
        .column('organization_id')
        .execute()

      await addTimestamps(
        createTableWithId(db, dialect, 'datatables')
          .addColumn('organization_id', 'integer', (c) =>
            c.notNull().references('organizations.id').onDelete('cascade'),
          )
          .addColumn('simulation_id', 'integer', (c) =>
            c.references('simulations.id').onDelete('cascade'),
          )
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('headers', 'text', (c) => c.notNull().defaultTo('[]'))
          .addColumn('columns', 'text', (c) => c.notNull().defaultTo('{}')),
      ).execute()

      await createTableWithId(db, dialect, 'materials')
        .addColumn('simulation_id', 'integer', (c) =>
          c.notNull().references('simulations.id').onDelete('cascade'),
        )
        .addColumn('material_id', 'integer', (c) => c.notNull())
        .addColumn('properties', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('materials_simulation_material_unique', [
          'simulation_id',
          'material_id',
        ])
        .execute()

      await addTimestamps(
        createTableWithId(db, dialect, 'parts')
          .addColumn('simulation_id', 'integer', (c) =>
            c.notNull().references('simulations.id').onDelete('cascade'),
          )
          .addColumn('organization_id', 'integer', (c) =>
            c.notNull().references('organizations.id').onDelete('cascade'),
          )
          .addColumn('created_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('kind', 'text', (c) => c.notNull())
          .addColumn('material_id', 'integer')
          .addColumn('seed_point', 'text')
          .addColumn('component', 'text', (c) => c.notNull())
          .addColumn('shape', 'text', (c) => c.notNull())
          .addColumn('appearance', 'text', (c) => c.notNull())
          .addColumn('warnings', 'text', (c) => c.notNull().defaultTo('[]')),
      ).execute()
      await db.schema
        .createIndex('parts_simulation_idx')
        .on('parts')
        .column('simulation_id')
        .execute()

      await addTimestamps(
        createTableWithId(db, dialect, 'movements')
          .addColumn('simulation_id', 'integer', (c) =>
            c.notNull().references('simulations.id').onDelete('cascade'),
          )
          .addColumn('part_id', 'integer', (c) =>
            c.notNull().references('parts.id').onDelete('cascade'),
          )
          .addColumn('type', 'text', (c) => c.notNull())
          .addColumn('name', 'text', (c) => c.notNull())
          .addColumn('motion', 'text', (c) => c.notNull()),
      ).execute()
      await db.schema
        .createIndex('movements_simulation_idx')
        .on('movements')
        .column('simulation_id')
        .execute()

      await db.schema
        .createTable('movement_links')
        .addColumn('leader_id', 'integer', (c) =>
          c.notNull().references('movements.id').onDelete('cascade'),
        )
        .addColumn('follower_id', 'integer', (c) =>
          c.notNull().references('movements.id').onDelete('cascade'),
        )
        .addPrimaryKeyConstraint('movement_links_pk', ['leader_id', 'follower_id'])
        .execute()
    },
    async down(db: AnyDb) {
      for (const table of [
        'movement_links',
        'movements',
        'parts',
        'materials',
        'datatables',
        'uploads',
      ])
        await db.schema.dropTable(table).execute()
    },
  }
}

/** Every migration by name; names sort in the order they run. */
export function listMigrations(dialect: DialectName): Record<string, Migration> {
  return {
    '0001_foundation': foundation(dialect),
    '0002_setup': setup(dialect),
    '0003_jobs': jobsMigration(dialect),
    '0004_viewport_state': viewportStateMigration(dialect),
    '0005_sensors_clips': sensorsClipsMigration(dialect),
    '0006_user_exports': userExportsMigration(dialect),
    '0007_assemblies': assembliesMigration(dialect),
    '0008_sensor_sample_rate': sensorSampleRateMigration(),
    '0009_session_families': sessionFamiliesMigration(),
    '0010_dashboards': dashboardsMigration(dialect),
    '0011_login_failures': loginFailuresMigration(),
    '0012_account': accountMigration(dialect),
    '0013_setup_objects': setupObjectsMigration(dialect),
    '0014_access_grants': accessGrantsMigration(dialect),
    '0015_active_access_grant': activeAccessGrantMigration(),
    '0016_compressions': compressionsMigration(dialect),
    '0017_subscription_max_simulations': subscriptionMaxSimulationsMigration(),
    '0018_analytics': analyticsMigration(dialect),
    '0019_sso_connection': ssoConnectionMigration(),
    '0020_remote_vms': remoteVmsMigration(dialect),
    '0021_job_leases': jobLeasesMigration(),
    '0022_task_leases': taskLeasesMigration(),
    '0023_vm_storage': vmStorageMigration(),
  }
}

class InCodeMigrationProvider implements MigrationProvider {
  #dialect: DialectName
  constructor(dialect: DialectName) {
    this.#dialect = dialect
  }
  getMigrations(): Promise<Record<string, Migration>> {
    return Promise.resolve(listMigrations(this.#dialect))
  }
}

/** Brings the schema up to date; throws (and changes nothing further) when a migration fails. */
export async function migrateToLatest(handle: DatabaseHandle): Promise<string[]> {
  const migrator = new Migrator({
    db: handle.db,
    provider: new InCodeMigrationProvider(handle.dialect),
  })
  const { error, results } = await migrator.migrateToLatest()
  if (error) throw error instanceof Error ? error : new Error('Migration failed', { cause: error })
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName)
}

/** For tests: the names of the tables that exist now. */
export async function listTables(handle: DatabaseHandle): Promise<string[]> {
  const tables = await handle.db.introspection.getTables()
  return tables.map((t) => t.name).sort()
}
