import { readdir, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { Kysely } from 'kysely'
import * as v from 'valibot'
import { defaultMesh, type Mesh, type Sensor } from '../../domain/meshes.ts'
import {
  EVERY_STEP,
  SensorSampleRateSchema,
  type SensorSampleRate,
} from '../../domain/sensorSampling.ts'
import type { OutputState } from '../../domain/results.ts'
import { LooseVec3Schema } from '../../domain/vector.ts'
import type { Database, SensorsTable } from '../db/schema.ts'
import { readMeshesById } from '../meshes/store.ts'
import { parseJsonColumn } from '../setup/views.ts'
import {
  SAMPLE_FILE_PATTERN,
  runSensorsDirectory,
  sensorDirectory,
  sensorSampleFile,
  type SensorSampleFile,
} from './layout.ts'

/*
 * Sensors (spec/setup.md §3 "Sensor") and what the recomputation wrote for them: a sensor's
 * `outputs` are the outputs of the run whose sample file is on disk; each output's sensor state
 * is a row of sensor_output_states (no row: pending).
 */

type Db = Kysely<Database>
type SensorRow = Omit<SensorsTable, 'id'> & { id: number }

function isMissingFile(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === 'ENOENT'
}

/** Outputs for which a sensor has a complete sample file in this run, ascending. */
export async function listSensorOutputs(
  dataDir: string,
  simulationId: number,
  runId: number,
  sensorId: number,
): Promise<number[]> {
  try {
    const names = await readdir(join(dataDir, sensorDirectory(simulationId, runId, sensorId)))
    return names
      .flatMap((name) => {
        const match = SAMPLE_FILE_PATTERN.exec(name)
        return match ? [Number(match[1])] : []
      })
      .sort((a, b) => a - b)
  } catch (error) {
    if (isMissingFile(error)) return []
    throw error
  }
}

function readVisibility(text: string): boolean {
  const stored = parseJsonColumn(text)
  if (typeof stored === 'object' && stored !== null && 'visibility' in stored)
    return stored.visibility !== false
  return true
}

/** The sample_rate column of a rate: 'every_step', the rate as text, or null. */
export function encodeSampleRate(rate: SensorSampleRate | undefined): string | null {
  return rate === undefined || rate === null ? null : String(rate)
}

/** A sample_rate column read back; anything unreadable is null (from outputs only). */
export function decodeSampleRate(text: string | null | undefined): SensorSampleRate {
  if (text === null || text === undefined) return null
  const parsed = v.safeParse(SensorSampleRateSchema, text === EVERY_STEP ? text : Number(text))
  return parsed.success ? parsed.output : null
}

/** A sensor row as the API returns it, with its outputs of `runId` (none when runId is null). */
export function toSensor(row: SensorRow, mesh: Mesh, outputs: number[]): Sensor {
  const appearance = { visibility: readVisibility(row.appearance) }
  const sampleRate = decodeSampleRate(row.sample_rate)
  if (row.kind === 'surface')
    return { id: row.id, name: row.name, kind: 'surface', appearance, outputs, sampleRate, mesh }
  const position = v.safeParse(LooseVec3Schema, parseJsonColumn(row.position))
  return {
    id: row.id,
    name: row.name,
    kind: 'point',
    appearance,
    outputs,
    sampleRate,
    position: position.success ? position.output : [null, null, null],
  }
}

/** The sensors of a simulation, oldest first, each with its outputs of `runId`. */
export async function listSensors(
  db: Db,
  dataDir: string,
  simulationId: number,
  runId: number | null,
): Promise<Sensor[]> {
  const rows = await db
    .selectFrom('sensors')
    .selectAll()
    .where('simulation_id', '=', simulationId)
    .orderBy('id')
    .execute()
  const meshes = await readMeshesById(
    db,
    rows.flatMap((row) => (row.mesh_id === null ? [] : [row.mesh_id])),
  )
  return Promise.all(
    rows.map(async (row) =>
      toSensor(
        row,
        (row.mesh_id === null ? undefined : meshes.get(row.mesh_id)) ?? defaultMesh('plane'),
        runId === null ? [] : await listSensorOutputs(dataDir, simulationId, runId, row.id),
      ),
    ),
  )
}

/**
 * The sensor state of every output of a run that has one ('ready' or 'failed' once the
 * recomputation reached it, 'pending' while it is queued), ascending; outputs not listed are
 * pending.
 */
export async function listSensorOutputStates(
  db: Db,
  simulationId: number,
  runId: number,
): Promise<{ outputNo: number; state: OutputState }[]> {
  const rows = await db
    .selectFrom('sensor_output_states')
    .select(['output_no', 'state'])
    .where('simulation_id', '=', simulationId)
    .where('run_id', '=', runId)
    .orderBy('output_no')
    .execute()
  return rows.map((row) => ({
    outputNo: row.output_no,
    state: row.state === 'ready' || row.state === 'failed' ? row.state : 'pending',
  }))
}

/** Sets the sensor state of one output of a run. */
export async function setSensorOutputState(
  db: Db,
  key: { simulationId: number; runId: number; outputNo: number },
  state: OutputState,
  nowIso: string,
): Promise<void> {
  await db
    .insertInto('sensor_output_states')
    .values({
      simulation_id: key.simulationId,
      run_id: key.runId,
      output_no: key.outputNo,
      state,
      updated_at: nowIso,
    })
    .onConflict((conflict) =>
      conflict
        .columns(['simulation_id', 'run_id', 'output_no'])
        .doUpdateSet({ state, updated_at: nowIso }),
    )
    .execute()
}

/** Forgets every output's sensor state of a simulation (all back to pending). */
export async function clearSensorOutputStates(db: Db, simulationId: number): Promise<void> {
  await db.deleteFrom('sensor_output_states').where('simulation_id', '=', simulationId).execute()
}

/**
 * One sensor's samples of one output: the sample count and Float32 columns (x, y, z of the sample
 * points, then pressure, vx, vy, vz, density and the other fluid columns; NaN where no fluid lay
 * within the kernel support). null when the output has no samples of this sensor.
 */
export async function readSensorSamples(
  dataDir: string,
  simulationId: number,
  runId: number,
  sensorId: number,
  outputNo: number,
): Promise<{ count: number; columns: Record<string, Float32Array> } | null> {
  let text: string
  try {
    text = await readFile(
      join(dataDir, sensorSampleFile(simulationId, runId, sensorId, outputNo)),
      'utf8',
    )
  } catch (error) {
    if (isMissingFile(error)) return null
    throw error
  }
  const file = JSON.parse(text) as SensorSampleFile
  const columns: Record<string, Float32Array> = {}
  for (const [name, values] of Object.entries(file.columns))
    columns[name] = Float32Array.from(values, (value) => (value === null ? Number.NaN : value))
  return { count: file.count, columns }
}

/** Deletes a sensor's samples in every run of the simulation (its definition changed or it is gone). */
export async function deleteSensorSamples(
  dataDir: string,
  simulationId: number,
  sensorId: number,
): Promise<void> {
  const runsDir = join(dataDir, 'simulations', String(simulationId), 'runs')
  let runs: string[]
  try {
    runs = await readdir(runsDir)
  } catch (error) {
    if (isMissingFile(error)) return
    throw error
  }
  await Promise.all(
    runs
      .filter((name) => /^\d+$/.test(name))
      .map((runId) =>
        rm(join(dataDir, sensorDirectory(simulationId, Number(runId), sensorId)), {
          recursive: true,
          force: true,
        }),
      ),
  )
}

/** Deletes every sensor sample of a run (a recomputation starts from the beginning). */
export async function deleteRunSensorSamples(
  dataDir: string,
  simulationId: number,
  runId: number,
): Promise<void> {
  await rm(join(dataDir, runSensorsDirectory(simulationId, runId)), {
    recursive: true,
    force: true,
  })
}
