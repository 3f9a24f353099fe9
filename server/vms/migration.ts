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
