import type { Kysely } from 'kysely'
import { canEditSensors } from '../../domain/results.ts'
import {
  SENSORS_COMPUTING_MESSAGE,
  SENSORS_LOCKED_MESSAGE,
} from '../../domain/rest/sensorRoutes.ts'
import type { SimulationState } from '../../domain/simulationState.ts'
import { findAccessibleSimulation } from '../api/access.ts'
import { ApiError, notFound } from '../api/apiError.ts'
import type { SessionUser } from '../api/context.ts'
import type { Database, SimulationRow } from '../db/schema.ts'
import { SENSOR_JOB_KIND } from './SensorRecomputationRunner.ts'

/*
 * Who may read and change sensors, volume clips and meshes: whoever sees the simulation (a
 * contributor sees only their own projects, so seeing is owning). Sensors are results objects: a
 * locked setup does not stop them, a running or scheduled simulation (and a recomputation under
 * way) does.
 */

type Db = Kysely<Database>

/** Names in use in a simulation: parts, refinement zones, sensors and volume clips. */
export async function listObjectNames(
  db: Db,
  simulationId: number,
  except: { table: 'sensors' | 'volume_clips' | 'refinements'; id: number } | null = null,
): Promise<string[]> {
  const named = (table: 'sensors' | 'volume_clips' | 'refinements') =>
    db.selectFrom(table).select(['id', 'name']).where('simulation_id', '=', simulationId).execute()
  const [parts, ...others] = await Promise.all([
    db.selectFrom('parts').select(['name']).where('simulation_id', '=', simulationId).execute(),
    named('sensors').then((rows) => ({ table: 'sensors', rows })),
    named('volume_clips').then((rows) => ({ table: 'volume_clips', rows })),
    named('refinements').then((rows) => ({ table: 'refinements', rows })),
  ])
  return [
    ...parts.map((p) => p.name),
    ...others.flatMap(({ table, rows }) =>
      rows.filter((r) => except?.table !== table || r.id !== except.id).map((r) => r.name),
    ),
  ]
}

/**
 * Refuses sensor changes (409) while the simulation is running or scheduled, or while its
 * sensors are being computed.
 */
export async function assertSensorsEditable(db: Db, simulation: SimulationRow): Promise<void> {
  if (!canEditSensors(simulation.state as SimulationState))
    throw new ApiError('conflict', SENSORS_LOCKED_MESSAGE)
  const active = await db
    .selectFrom('jobs')
    .select(['id'])
    .where('simulation_id', '=', simulation.id)
    .where('kind', '=', SENSOR_JOB_KIND)
    .where('state', 'in', ['scheduled', 'running'])
    .executeTakeFirst()
  if (active) throw new ApiError('conflict', SENSORS_COMPUTING_MESSAGE)
}

/** The simulation of an object the user may see; 404 "{what} not found" otherwise. */
export async function findObjectSimulation(
  db: Db,
  user: SessionUser,
  simulationId: number | undefined,
  what: string,
): Promise<SimulationRow> {
  if (simulationId === undefined) throw notFound(what)
  try {
    return await findAccessibleSimulation(db, user, simulationId)
  } catch {
    throw notFound(what)
  }
}
