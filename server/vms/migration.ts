import type { Kysely, Migration } from 'kysely'
import type { DialectName } from '../db/connect.ts'
import { createTableWithId } from '../db/migrationHelpers.ts'

type AnyDb = Kysely<unknown>

/**
 * '0020_remote_vms': the remote VMs of simulations (spec/account.md §3). A deleted VM keeps its row
 * (deleted_at) so the hours it consumed still count against the organization's month.
 */
export function remoteVmsMigration(dialect: DialectName): Migration {
  return {
    async up(db: AnyDb) {
      await createTableWithId(db, dialect, 'remote_vms')
        .addColumn('organization_id', 'integer', (c) =>
          c.notNull().references('organizations.id').onDelete('cascade'),
        )
        .addColumn('simulation_id', 'integer', (c) =>
          c.notNull().references('simulations.id').onDelete('cascade'),
        )
        .addColumn('creator_id', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('hours_consumed', 'double precision', (c) => c.notNull().defaultTo(0))
        .addColumn('running_since', 'text')
        .addColumn('shutdown_time', 'text')
        .addColumn('accounted_at', 'text')
        .addColumn('password', 'text', (c) => c.notNull())
        .addColumn('handle', 'text')
        .addColumn('failure', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addColumn('deleted_at', 'text')
        .execute()
      await db.schema
        .createIndex('remote_vms_organization_idx')
        .on('remote_vms')
        .columns(['organization_id', 'state'])
        .execute()
      await db.schema
        .createIndex('remote_vms_simulation_idx')
        .on('remote_vms')
        .column('simulation_id')
        .execute()
    },
    async down(db: AnyDb) {
      await db.schema.dropTable('remote_vms').execute()
    },
  }
}

/**
 * '0023_vm_storage': what the VMs' storage folders and the organization storage (the file area
 * every VM of the organization sees) hold, in bytes, as last measured: they count toward the
 * organization's storage beside its simulations and uploads.
 */
export function vmStorageMigration(): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema
        .alterTable('remote_vms')
        .addColumn('storage_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
        .execute()
      await db.schema
        .createTable('organization_storage')
        .addColumn('organization_id', 'integer', (c) =>
          c.primaryKey().references('organizations.id').onDelete('cascade'),
        )
        .addColumn('size_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute()
    },
    async down(db: AnyDb) {
      await db.schema.dropTable('organization_storage').execute()
      await db.schema.alterTable('remote_vms').dropColumn('storage_bytes').execute()
    },
  }
}
