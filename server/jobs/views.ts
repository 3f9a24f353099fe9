import type { Kysely } from 'kysely'
import type { Simulation } from '../../domain/projects.ts'
import { loadSimulation } from '../api/views.ts'
import type { Database } from '../db/schema.ts'

/** A simulation as GET /simulations/{id} shows it (with its active run's latest log values). */
export async function loadSimulationView(
  db: Kysely<Database>,
  simulationId: number,
): Promise<Simulation | null> {
  const row = await db
    .selectFrom('simulations')
    .selectAll()
    .where('id', '=', simulationId)
    .executeTakeFirst()
  return row ? loadSimulation(db, row) : null
}
