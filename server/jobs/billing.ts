import { CREDITS_PER_CORE_HOUR } from '../../domain/rest/runRoutes.ts'
import type { JobContext } from './jobContext.ts'

/** Takes `credits` from the organization for the run; returns what the organization has left. */
export async function billCredits(
  context: JobContext,
  simulationId: number,
  organizationId: number,
  runId: number,
  credits: number,
): Promise<number> {
  const hours = credits / CREDITS_PER_CORE_HOUR
  const nowIso = context.clock.nowIso()
  const { transactionId, organizationCredits } = await context.db
    .transaction()
    .execute(async (trx) => {
      const organization = await trx
        .updateTable('organizations')
        .set((eb) => ({ credits: eb('credits', '-', credits) }))
        .where('id', '=', organizationId)
        .returning('credits')
        .executeTakeFirstOrThrow()
      await trx
        .updateTable('simulations')
        .set((eb) => ({
          credits_consumed: eb('credits_consumed', '+', credits),
          simulation_hours_consumed: eb('simulation_hours_consumed', '+', hours),
        }))
        .where('id', '=', simulationId)
        .execute()
      const run = await trx
        .updateTable('runs')
        .set((eb) => ({
          credits_consumed: eb('credits_consumed', '+', credits),
          simulation_hours: eb('simulation_hours', '+', hours),
        }))
        .where('id', '=', runId)
        .returning(['credit_transaction_id', 'credits_consumed', 'simulation_hours'])
        .executeTakeFirstOrThrow()
      let id = run.credit_transaction_id
      // One 'simulation' transaction per run, its amount negative: the ledger sums to the balance.
      if (id === null) {
        const name = await trx
          .selectFrom('simulations')
          .select('name')
          .where('id', '=', simulationId)
          .executeTakeFirstOrThrow()
        id = (
          await trx
            .insertInto('credit_transactions')
            .values({
              organization_id: organizationId,
              kind: 'simulation',
              credits: -run.credits_consumed,
              simulation_hours: run.simulation_hours,
              simulation_id: simulationId,
              simulation_name: name.name,
              note: `Run ${runId}`,
              updated_at: nowIso,
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id
        await trx
          .updateTable('runs')
          .set({ credit_transaction_id: id })
          .where('id', '=', runId)
          .execute()
      } else
        await trx
          .updateTable('credit_transactions')
          .set({
            credits: -run.credits_consumed,
            simulation_hours: run.simulation_hours,
            updated_at: nowIso,
          })
          .where('id', '=', id)
          .execute()
      return { transactionId: id, organizationCredits: organization.credits }
    })
  context.events.creditsConsumed(organizationId, transactionId, credits, organizationCredits)
  return organizationCredits
}
