import type { Kysely } from 'kysely'
import { defaultMesh, type Mesh, type Sensor, type SensorUpdate } from '../../../domain/meshes.ts'
import { makeUniqueName } from '../../../domain/parts.ts'
import {
  MESH_IN_USE_MESSAGE,
  NO_OUTPUTS_MESSAGE,
  NO_SENSORS_MESSAGE,
  SENSOR_ROUTES,
  SENSORS_ALREADY_COMPUTING_MESSAGE,
  SURFACE_SENSOR_MESH_MESSAGE,
  VOLUME_CLIP_MESH_MESSAGE,
} from '../../../domain/rest/sensorRoutes.ts'
import type { Database, SimulationRow } from '../../db/schema.ts'
import {
  buildMesh,
  findMeshRow,
  insertMesh,
  readSimulationMesh,
  toMesh,
  updateMesh,
} from '../../meshes/store.ts'
import { SURFACE_MESH_KINDS } from '../../meshes/triangles.ts'
import { listOutputManifests, resolveRunId } from '../../results/outputFiles.ts'
import { refuseField } from '../../setup/issues.ts'
import { sensorRunnerFor } from '../../sensors/SensorRecomputationRunner.ts'
import {
  assertSensorsEditable,
  findObjectSimulation,
  listObjectNames,
} from '../../sensors/access.ts'
import {
  clearSensorOutputStates,
  deleteSensorSamples,
  encodeSampleRate,
  listSensorOutputs,
  listSensors,
  toSensor,
} from '../../sensors/store.ts'
import { readSensorSeries } from '../../sensors/series.ts'
import { findAccessibleSimulation } from '../access.ts'
import { ApiError, notFound } from '../apiError.ts'
import type { AreaHandlers, AuthedContext } from '../context.ts'
import { deleteOrphanMesh, isClipKind, volumeClipHandlers } from './volumeClipHandlers.ts'

/*
 * Meshes, sensors, volume clips and the sensor recomputation (domain/rest/sensorRoutes.ts).
 * Names are made unique against parts, sensors and volume clips; a sensor whose position or mesh
 * changes loses its samples (it is back in pre mode until sensors are computed again).
 */

type Db = Kysely<Database>

function isSurfaceKind(kind: Mesh['kind']): boolean {
  return (SURFACE_MESH_KINDS as readonly string[]).includes(kind)
}

async function readSensorRow(db: Db, id: number) {
  return db.selectFrom('sensors').selectAll().where('id', '=', id).executeTakeFirst()
}

/** The sensor as the API returns it, with its outputs of the simulation's results run. */
async function describeSensor(
  context: AuthedContext,
  simulation: SimulationRow,
  id: number,
  runId?: number,
): Promise<Sensor> {
  const row = await readSensorRow(context.db, id)
  if (!row) throw notFound('Sensor')
  const run = runId ?? (await resolveRunId(context.dataDir, simulation))
  const mesh = row.mesh_id === null ? null : await findMeshRow(context.db, row.mesh_id)
  return toSensor(
    row,
    mesh ? toMesh(mesh) : defaultMesh('plane'),
    run === null ? [] : await listSensorOutputs(context.dataDir, simulation.id, run, row.id),
  )
}

/** A mesh of the simulation a surface sensor can sample on (400 otherwise). */
async function readSurfaceMesh(db: Db, simulationId: number, meshId: number): Promise<Mesh> {
  const mesh = await readSimulationMesh(db, simulationId, meshId)
  if (!isSurfaceKind(mesh.kind)) throw refuseField('meshId', SURFACE_SENSOR_MESH_MESSAGE)
  return mesh
}

/**
 * Applies one sensor update inside a transaction; returns whether its definition (position or
 * mesh) changed, so its samples must go.
 */
async function applySensorUpdate(
  db: Db,
  simulation: SimulationRow,
  id: number,
  update: SensorUpdate,
  nowIso: string,
): Promise<boolean> {
  const row = await readSensorRow(db, id)
  if (!row || row.simulation_id !== simulation.id) throw notFound('Sensor')
  const onlyAppearance = Object.entries(update).every(
    ([key, value]) => value === undefined || key === 'appearance' || key === 'outputs',
  )
  if (!onlyAppearance) await assertSensorsEditable(db, simulation)
  if (row.kind === 'point' && update.meshId !== undefined)
    throw refuseField('meshId', 'A point sensor has a position, not a mesh.')
  if (row.kind === 'surface' && update.position !== undefined)
    throw refuseField('position', 'A surface sensor has a mesh, not a position.')
  if (update.meshId !== undefined) await readSurfaceMesh(db, simulation.id, update.meshId)
  const name =
    update.name !== undefined
      ? makeUniqueName(
          update.name,
          await listObjectNames(db, simulation.id, { table: 'sensors', id }),
        )
      : row.name
  const position = update.position !== undefined ? JSON.stringify(update.position) : row.position
  const meshId = update.meshId ?? row.mesh_id
  await db
    .updateTable('sensors')
    .set({
      name,
      position,
      mesh_id: meshId,
      // a new rate leaves the samples of earlier runs: they were taken at the rate of their run
      sample_rate:
        update.sampleRate !== undefined ? encodeSampleRate(update.sampleRate) : row.sample_rate,
      appearance: update.appearance ? JSON.stringify(update.appearance) : row.appearance,
      updated_at: nowIso,
    })
    .where('id', '=', id)
    .execute()
  return position !== row.position || meshId !== row.mesh_id
}

export const sensorHandlers: AreaHandlers<typeof SENSOR_ROUTES> = {
  ...volumeClipHandlers,
  // ── Meshes ────────────────────────────────────────────────────────────────────────────────────
  createMesh: async ({ params, body }, { db, user, clock }) => {
    const simulation = await findAccessibleSimulation(db, user, params.id)
    return insertMesh(db, simulation.id, body, clock.nowIso())
  },
  getMesh: async ({ params }, { db, user }) => {
    const row = await findMeshRow(db, params.id)
    await findObjectSimulation(db, user, row?.simulation_id, 'Mesh')
    return toMesh(row!)
  },
  updateMesh: async ({ params, body }, { db, user, clock, dataDir }) => {
    const row = await findMeshRow(db, params.id)
    const simulation = await findObjectSimulation(db, user, row?.simulation_id, 'Mesh')
    const mesh = buildMesh(toMesh(row!), body, params.id)
    const sensors = await db
      .selectFrom('sensors')
      .select(['id'])
      .where('mesh_id', '=', params.id)
      .execute()
    const clips = await db
      .selectFrom('volume_clips')
      .select(['id'])
      .where('mesh_id', '=', params.id)
      .execute()
    if (sensors.length > 0) {
      await assertSensorsEditable(db, simulation)
      if (!isSurfaceKind(mesh.kind)) throw refuseField('kind', SURFACE_SENSOR_MESH_MESSAGE)
    }
    if (clips.length > 0 && !isClipKind(mesh.kind))
      throw refuseField('kind', VOLUME_CLIP_MESH_MESSAGE)
    await updateMesh(db, mesh, clock.nowIso())
    if (sensors.length > 0) {
      await clearSensorOutputStates(db, simulation.id)
      await Promise.all(sensors.map((s) => deleteSensorSamples(dataDir, simulation.id, s.id)))
    }
    return mesh
  },
  deleteMesh: async ({ params }, { db, user }) => {
    const row = await findMeshRow(db, params.id)
    await findObjectSimulation(db, user, row?.simulation_id, 'Mesh')
    const user_ =
      (await db
        .selectFrom('sensors')
        .select(['name'])
        .where('mesh_id', '=', params.id)
        .executeTakeFirst()) ??
      (await db
        .selectFrom('volume_clips')
        .select(['name'])
        .where('mesh_id', '=', params.id)
        .executeTakeFirst())
    if (user_) throw new ApiError('conflict', MESH_IN_USE_MESSAGE(user_.name))
    await db.deleteFrom('meshes').where('id', '=', params.id).execute()
    return { id: params.id }
  },

  // ── Sensors ───────────────────────────────────────────────────────────────────────────────────
  listSensors: async ({ params, query }, { db, user, dataDir }) => {
    const simulation = await findAccessibleSimulation(db, user, params.id)
    const runId = query.runId ?? (await resolveRunId(dataDir, simulation))
    return listSensors(db, dataDir, simulation.id, runId)
  },
  createSensor: async ({ params, query, body }, context) => {
    const { db, user, clock } = context
    const simulation = await findAccessibleSimulation(db, user, params.id)
    await assertSensorsEditable(db, simulation)
    const meshId =
      body.kind === 'surface' ? (await readSurfaceMesh(db, simulation.id, body.meshId)).id : null
    const name = makeUniqueName(body.name, await listObjectNames(db, simulation.id))
    const nowIso = clock.nowIso()
    const { id } = await db
      .insertInto('sensors')
      .values({
        simulation_id: simulation.id,
        name,
        kind: body.kind,
        position: body.kind === 'point' ? JSON.stringify(body.position) : null,
        mesh_id: meshId,
        appearance: JSON.stringify({ visibility: true }),
        sample_rate: encodeSampleRate(body.sampleRate),
        created_at: nowIso,
        updated_at: nowIso,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    // A new sensor has no samples: no output has every sensor's data any more.
    await clearSensorOutputStates(db, simulation.id)
    return describeSensor(context, simulation, id, query.runId)
  },
  updateSensors: async ({ params, query, body }, context) => {
    const { db, user, clock, dataDir } = context
    const simulation = await findAccessibleSimulation(db, user, params.id)
    const nowIso = clock.nowIso()
    const changed = await db.transaction().execute(async (trx) => {
      const ids: number[] = []
      for (const update of body) {
        const { id, ...fields } = update
        if (await applySensorUpdate(trx, simulation, id, fields, nowIso)) ids.push(id)
      }
      return ids
    })
    if (changed.length > 0) {
      await clearSensorOutputStates(db, simulation.id)
      await Promise.all(changed.map((id) => deleteSensorSamples(dataDir, simulation.id, id)))
    }
    const runId = query.runId ?? (await resolveRunId(dataDir, simulation))
    const wanted = new Set(body.map((u) => u.id))
    return (await listSensors(db, dataDir, simulation.id, runId)).filter((s) => wanted.has(s.id))
  },
  updateSensor: async ({ params, body }, context) => {
    const { db, user, clock, dataDir } = context
    const row = await readSensorRow(db, params.id)
    const simulation = await findObjectSimulation(db, user, row?.simulation_id, 'Sensor')
    const changed = await db
      .transaction()
      .execute((trx) => applySensorUpdate(trx, simulation, params.id, body, clock.nowIso()))
    if (changed) {
      await clearSensorOutputStates(db, simulation.id)
      await deleteSensorSamples(dataDir, simulation.id, params.id)
    }
    return describeSensor(context, simulation, params.id)
  },
  deleteSensor: async ({ params }, { db, user, dataDir }) => {
    const row = await readSensorRow(db, params.id)
    const simulation = await findObjectSimulation(db, user, row?.simulation_id, 'Sensor')
    await assertSensorsEditable(db, simulation)
    await db.deleteFrom('sensors').where('id', '=', params.id).execute()
    await deleteOrphanMesh(db, row!.mesh_id)
    await deleteSensorSamples(dataDir, simulation.id, params.id)
    return { id: params.id }
  },

  getSensorSeries: async ({ params, query }, { db, user, dataDir }) => {
    const row = await readSensorRow(db, params.id)
    const simulation = await findObjectSimulation(db, user, row?.simulation_id, 'Sensor')
    let runId: number | null
    if (query.runId === undefined) runId = await resolveRunId(dataDir, simulation)
    else {
      const run = await db
        .selectFrom('runs')
        .select(['id'])
        .where('id', '=', query.runId)
        .where('simulation_id', '=', simulation.id)
        .executeTakeFirst()
      if (!run) throw notFound('Run')
      runId = run.id
    }
    return readSensorSeries(dataDir, simulation.id, runId, params.id, query.maxPoints)
  },

  // ── Sensor recomputation ──────────────────────────────────────────────────────────────────────
  getSensorRecomputation: async ({ params }, { db, user }) => {
    const simulation = await findAccessibleSimulation(db, user, params.id)
    return sensorRunnerFor(db).describe(simulation.id)
  },
  startSensorRecomputation: async ({ params }, { db, user, dataDir }) => {
    const simulation = await findAccessibleSimulation(db, user, params.id)
    const runner = sensorRunnerFor(db)
    if (await runner.isActive(simulation.id))
      throw new ApiError('conflict', SENSORS_ALREADY_COMPUTING_MESSAGE)
    const sensors = await listSensors(db, dataDir, simulation.id, null)
    if (sensors.length === 0) throw new ApiError('conflict', NO_SENSORS_MESSAGE)
    const runId = await resolveRunId(dataDir, simulation)
    const outputs = runId === null ? [] : await listOutputManifests(dataDir, simulation.id, runId)
    if (runId === null || outputs.length === 0) throw new ApiError('conflict', NO_OUTPUTS_MESSAGE)
    await runner.schedule(
      simulation.id,
      runId,
      sensors.map((s) => s.id),
    )
    return runner.describe(simulation.id)
  },
  cancelSensorRecomputation: async ({ params }, { db, user }) => {
    const simulation = await findAccessibleSimulation(db, user, params.id)
    const runner = sensorRunnerFor(db)
    await runner.cancel(simulation.id)
    return runner.describe(simulation.id)
  },
}
