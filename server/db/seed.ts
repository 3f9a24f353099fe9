import type { Kysely } from 'kysely'
import { defaultSettings } from '../../domain/settings.ts'
import { hashPassword } from '../auth/passwords.ts'
import type { Clock } from '../clock.ts'
import {
  CONTRIBUTOR_PROJECT_NAME,
  CONTRIBUTOR_SIMULATION_NAME,
  DEMO_ORGANIZATION_NAME,
  DEMO_PASSWORD,
  DEMO_PROJECT_NAME,
  DEMO_SIMULATION_NAME,
  DEMO_USERS,
  OTHER_ORGANIZATION_NAME,
  OTHER_ORGANIZATION_USER,
} from './demoAccounts.ts'
import type { Database } from './schema.ts'
import { damBreakSettings, seedDamBreakSetup } from '../setup/demoSetup.ts'

const TERABYTE_BYTES = 1e12
const YEAR_MS = 365 * 24 * 3600 * 1000

type UserSeed = { email: string; role: string; firstName: string; lastName: string }

/**
 * Fills an empty database with the demo: two organizations (the second only to show isolation),
 * three demo users and two projects. Does nothing when any organization exists, so it runs once.
 * Returns whether it seeded.
 */
export async function seedDatabase(db: Kysely<Database>, clock: Clock): Promise<boolean> {
  // Hash outside the transaction: scrypt takes ~50 ms per user.
  const passwordHashes = await Promise.all(
    [...Object.values(DEMO_USERS), OTHER_ORGANIZATION_USER].map(() => hashPassword(DEMO_PASSWORD)),
  )
  return db.transaction().execute(async (trx) => {
    const existing = await trx.selectFrom('organizations').select('id').limit(1).executeTakeFirst()
    if (existing) return false
    const nowMs = clock.nowMs()
    const nowIso = new Date(nowMs).toISOString()

    const insertOrganization = async (name: string, credits: number) =>
      (
        await trx
          .insertInto('organizations')
          .values({
            name,
            credits,
            features: JSON.stringify(['cpu']),
            subscription_kind: 'engineering',
            subscription_start_date: nowIso,
            subscription_end_date: new Date(nowMs + YEAR_MS).toISOString(),
            subscription_core_hours: 1000,
            subscription_one_off_core_hours: 0,
            subscription_vm_hours_per_month: 20,
            subscription_max_cores: 2,
            subscription_free_instance: 0,
            storage_available_bytes: TERABYTE_BYTES,
            created_at: nowIso,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id
    const demoOrganization = await insertOrganization(DEMO_ORGANIZATION_NAME, 2500)
    const otherOrganization = await insertOrganization(OTHER_ORGANIZATION_NAME, 100)

    let hashIndex = 0
    const insertUser = async (organizationId: number, user: UserSeed, avatarId: number) =>
      (
        await trx
          .insertInto('users')
          .values({
            organization_id: organizationId,
            email: user.email,
            password_hash: passwordHashes[hashIndex++] ?? '',
            first_name: user.firstName,
            last_name: user.lastName,
            avatar_id: avatarId,
            role: user.role,
            active: 1,
            created_at: nowIso,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id
    await insertUser(demoOrganization, DEMO_USERS.admin, 9)
    const manager = await insertUser(demoOrganization, DEMO_USERS.manager, 0)
    const contributor = await insertUser(demoOrganization, DEMO_USERS.contributor, 5)
    await insertUser(otherOrganization, OTHER_ORGANIZATION_USER, 7)

    const insertProjectWithSimulation = async (
      creatorId: number,
      project: { name: string; description: string },
      simulation: { name: string; description: string; settings: object },
    ) => {
      const { id } = await trx
        .insertInto('projects')
        .values({
          organization_id: demoOrganization,
          creator_id: creatorId,
          name: project.name,
          description: project.description,
          created_at: nowIso,
          updated_at: nowIso,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      const simulationRow = await trx
        .insertInto('simulations')
        .values({
          project_id: id,
          organization_id: demoOrganization,
          creator_id: creatorId,
          name: simulation.name,
          description: simulation.description,
          settings: JSON.stringify({ ...defaultSettings(), ...simulation.settings }),
          created_at: nowIso,
          updated_at: nowIso,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
      return simulationRow.id
    }
    const damBreakId = await insertProjectWithSimulation(
      manager,
      {
        name: DEMO_PROJECT_NAME,
        description:
          'Dam break study: a water column collapses under gravity, floods a tank and hits an obstacle, the classic benchmark for free-surface flow.',
      },
      {
        name: DEMO_SIMULATION_NAME,
        description:
          'A water column collapses in a closed tank and its surge hits a box on the floor, in the manner of SPHERIC Test 2.',
        settings: damBreakSettings(),
      },
    )
    await seedDamBreakSetup(
      trx,
      { id: damBreakId, organizationId: demoOrganization, creatorId: manager },
      nowIso,
    )
    await insertProjectWithSimulation(
      contributor,
      { name: CONTRIBUTOR_PROJECT_NAME, description: 'A place to try things out.' },
      { name: CONTRIBUTOR_SIMULATION_NAME, description: '', settings: {} },
    )
    return true
  })
}
