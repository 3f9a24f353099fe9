import type { Kysely } from 'kysely'
import type { Database } from '../db/schema.ts'

/** Names of a simulation's sensors and volume clips (part names are unique against them too). */
export async function listSensorAndClipNames(
  db: Kysely<Database>,
  simulationId: number,
): Promise<string[]> {
  const [sensors, clips] = await Promise.all([
    db.selectFrom('sensors').select(['name']).where('simulation_id', '=', simulationId).execute(),
    db
      .selectFrom('volume_clips')
      .select(['name'])
      .where('simulation_id', '=', simulationId)
      .execute(),
  ])
  return [...sensors, ...clips].map((row) => row.name)
}
