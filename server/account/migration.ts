import type { Kysely, Migration } from 'kysely'
import type { DialectName } from '../db/connect.ts'
import { createTableWithId } from '../db/migrationHelpers.ts'

type AnyDb = Kysely<unknown>

/**
 * '0012_account': one-time e-mail tokens (invitation, password reset; stored as SHA-256 only) and
 * the TOTP authenticators of two-factor sign-in (confirmed once a code was verified).
 */
export function accountMigration(dialect: DialectName): Migration {
  return {
    async up(db: AnyDb) {
      await createTableWithId(db, dialect, 'account_tokens')
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('purpose', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .execute()
      await createTableWithId(db, dialect, 'mfa_authenticators')
        .addColumn('user_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('confirmed', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('last_step', 'integer')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema
        .createIndex('mfa_authenticators_user_idx')
        .on('mfa_authenticators')
        .column('user_id')
        .execute()
    },
    async down(db: AnyDb) {
      await db.schema.dropTable('mfa_authenticators').execute()
      await db.schema.dropTable('account_tokens').execute()
    },
  }
}

/**
 * '0014_access_grants': a provider member's (admin or support) access to an organization for 24 h;
 * the organization's managers see and revoke it (state 'revoked'; 'expired' is computed from expiry).
 */
export function accessGrantsMigration(dialect: DialectName): Migration {
  return {
    async up(db: AnyDb) {
      await createTableWithId(db, dialect, 'access_grants')
        .addColumn('requester_id', 'integer', (c) =>
          c.notNull().references('users.id').onDelete('cascade'),
        )
        .addColumn('organization_id', 'integer', (c) =>
          c.notNull().references('organizations.id').onDelete('cascade'),
        )
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('expiry', 'text', (c) => c.notNull())
        .addColumn('revoked_by', 'integer', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute()
      await db.schema
        .createIndex('access_grants_organization_idx')
        .on('access_grants')
        .columns(['organization_id', 'created_at'])
        .execute()
    },
    async down(db: AnyDb) {
      await db.schema.dropTable('access_grants').execute()
    },
  }
}

/**
 * '0015_active_access_grant': the access grant a provider member acts through (spec/account.md §3
 * User.activeAccessGrantId); null is the own organization. Honoured only while the grant is active.
 */
export function activeAccessGrantMigration(): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema.alterTable('users').addColumn('active_access_grant_id', 'integer').execute()
    },
    async down(db: AnyDb) {
      await db.schema.alterTable('users').dropColumn('active_access_grant_id').execute()
    },
  }
}

/**
 * '0019_sso_connection': the identity provider connection an organization signs in through
 * (Budget.ssoConnection, spec/account.md §3); null: passwords. Set by the provider, no route.
 */
export function ssoConnectionMigration(): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema.alterTable('organizations').addColumn('sso_connection', 'text').execute()
    },
    async down(db: AnyDb) {
      await db.schema.alterTable('organizations').dropColumn('sso_connection').execute()
    },
  }
}
