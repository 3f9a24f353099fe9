import type { Migration } from 'kysely'
import type { AnyDb } from '../db/migrationHelpers.ts'

/**
 * '0017_subscription_max_simulations': how many simulations the organization's subscription lets
 * run at once (null: no limit), read by the start check and GET /organizations
 * (maximumSimulationsExceeded).
 */
export function subscriptionMaxSimulationsMigration(): Migration {
  return {
    async up(db: AnyDb) {
      await db.schema
        .alterTable('organizations')
        .addColumn('subscription_max_simulations', 'integer')
        .execute()
    },
    async down(db: AnyDb) {
      await db.schema
        .alterTable('organizations')
        .dropColumn('subscription_max_simulations')
        .execute()
    },
  }
}
