import type { Kysely } from 'kysely'
import * as v from 'valibot'
import {
  AirDragDomainSchema,
  defaultAirDragDomain,
  type AirDragDomain,
} from '../../domain/airDrag.ts'
import type { Database } from '../db/schema.ts'
import { parseJsonColumn } from './views.ts'

/* Reading the air drag domain of a simulation (for the API, the Input Validation bar and runs). */

type Db = Kysely<Database>

/** The stored air drag domain of a simulation, or null before the first PUT. */
export async function readStoredAirDragDomain(
  db: Db,
  simulationId: number,
): Promise<AirDragDomain | null> {
  const row = await db
    .selectFrom('air_drag_domains')
    .selectAll()
    .where('simulation_id', '=', simulationId)
    .executeTakeFirst()
  if (!row) return null
  const stored = parseJsonColumn(row.definition)
  const parsed = v.safeParse(AirDragDomainSchema, {
    ...defaultAirDragDomain(row.id),
    ...(typeof stored === 'object' && stored !== null ? stored : {}),
    id: row.id,
  })
  return parsed.success ? parsed.output : defaultAirDragDomain(row.id)
}

/** The air drag domain as GET answers it: the stored one, or the default with id 0. */
export async function readAirDragDomain(db: Db, simulationId: number): Promise<AirDragDomain> {
  return (await readStoredAirDragDomain(db, simulationId)) ?? defaultAirDragDomain(0)
}
