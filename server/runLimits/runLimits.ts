import type { Kysely, Selectable } from 'kysely'
import { START_LIMIT_TEXTS } from '../../domain/rest/runRoutes.ts'
import type { Database, OrganizationsTable } from '../db/schema.ts'
import { ACTIVE_SIMULATION_STATES } from '../jobs/records.ts'

/*
 * The organization's limits on starting a run (spec/results.md §3 Organization: freeInstanceOccupied,
 * maximumSimulationsExceeded; spec/account.md §3 Subscription freeInstance). A subscription with a
 * free instance runs one simulation at a time on it; a subscription may cap how many simulations
 * run at once (subscription_max_simulations, null: no cap). A simulation counts while its run is
 * under way: creating, launching, running or stopping.
 */

type Db = Kysely<Database>

/** What GET /organizations reports and the start check refuses on. */
export interface RunLimits {
  freeInstanceOccupied: boolean
  maximumSimulationsExceeded: boolean
}

type LimitColumns = Pick<
  Selectable<OrganizationsTable>,
  'subscription_kind' | 'subscription_free_instance' | 'subscription_max_simulations'
>

/** The limits of an organization that has this many simulations under way. */
export function runLimitsOf(organization: LimitColumns, activeSimulations: number): RunLimits {
  if (organization.subscription_kind === null)
    return { freeInstanceOccupied: false, maximumSimulationsExceeded: false }
  const max = organization.subscription_max_simulations
  return {
    freeInstanceOccupied: organization.subscription_free_instance === 1 && activeSimulations >= 1,
    maximumSimulationsExceeded: max !== null && activeSimulations >= max,
  }
}

/** Simulations of the organization whose run is under way. */
export async function countActiveSimulations(db: Db, organizationId: number): Promise<number> {
  const row = await db
    .selectFrom('simulations')
    .select((eb) => eb.fn.countAll<number | string | bigint>().as('count'))
    .where('organization_id', '=', organizationId)
    .where('state', 'in', ACTIVE_SIMULATION_STATES)
    .executeTakeFirst()
  return Number(row?.count ?? 0)
}

/** The organization's limits now. */
export async function loadRunLimits(
  db: Db,
  organization: LimitColumns & { id: number },
): Promise<RunLimits> {
  return runLimitsOf(organization, await countActiveSimulations(db, organization.id))
}

/** Why a run may not start now (the start form's words), or null. */
export function startLimitMessage(limits: RunLimits): string | null {
  if (limits.maximumSimulationsExceeded) return START_LIMIT_TEXTS.maximumSimulations
  if (limits.freeInstanceOccupied) return START_LIMIT_TEXTS.freeInstanceOccupied
  return null
}
