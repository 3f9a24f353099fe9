import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Kysely } from 'kysely'
import {
  SENSOR_SERIES_RECORD,
  sensorSeriesFile,
  type SensorSeriesHeader,
} from '../../domain/output/layout.ts'
import type { Sensor } from '../../domain/meshes.ts'
import {
  DEFAULT_SERIES_POINTS,
  SensorSampleRateSchema,
  type SensorSampleRate,
  type SensorSeries,
} from '../../domain/sensorSampling.ts'
import * as v from 'valibot'
import type { RunSensor } from '../../solver/setup.ts'
import type { Database } from '../db/schema.ts'
import { computeTriangleCentroids } from '../meshes/triangles.ts'
import { listSensors } from './store.ts'

/*
 * The sensors a run samples while it steps (solver/run/sensorSeries.ts) and what it wrote: the
 * sample points handed to the run, and a sensor's series read back for the API, thinned for
 * charts without losing a short peak.
 */

type Db = Kysely<Database>

const RECORD_LENGTH = SENSOR_SERIES_RECORD.length

/** The sample points of a sensor (x, y, z each); null when a point sensor's position is unset. */
export function sensorSamplePoints(sensor: Sensor): number[] | null {
  if (sensor.kind === 'surface') return [...computeTriangleCentroids(sensor.mesh)]
  const [x, y, z] = sensor.position
  return x === null || y === null || z === null ? null : [x, y, z]
}

/** The sensors of a simulation that the run samples while stepping, with their points. */
export async function listRunSensors(db: Db, simulationId: number): Promise<RunSensor[]> {
  const sensors = await listSensors(db, '', simulationId, null)
  return sensors.flatMap((sensor) => {
    const rate = sensor.sampleRate ?? null
    const points = rate === null ? null : sensorSamplePoints(sensor)
    if (rate === null || points === null || points.length === 0) return []
    return [{ id: sensor.id, kind: sensor.kind, points, sampleRate: rate }]
  })
}

function isMissingFile(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === 'ENOENT'
}

/**
 * Indices of the records to send when thinning `count` records to about `maxPoints`: per bucket
 * the first record and those of its lowest and highest pressure, in time order, plus the last
 * record. A peak a few samples long stays in.
 */
export function thinSeries(pressure: Float64Array, count: number, maxPoints: number): number[] {
  if (count <= maxPoints) return Array.from({ length: count }, (_, i) => i)
  const buckets = Math.max(1, Math.floor(maxPoints / 3))
  const kept: number[] = []
  for (let b = 0; b < buckets; b++) {
    const start = Math.floor((b * count) / buckets)
    const end = Math.floor(((b + 1) * count) / buckets)
    let low = -1
    let high = -1
    for (let i = start; i < end; i++) {
      const p = pressure[i]!
      if (Number.isNaN(p)) continue
      if (low < 0 || p < pressure[low]!) low = i
      if (high < 0 || p > pressure[high]!) high = i
    }
    const picked = new Set([start, ...(low >= 0 ? [low, high] : [])])
    kept.push(...[...picked].sort((a, c) => a - c))
  }
  if (kept.at(-1) !== count - 1) kept.push(count - 1)
  return kept
}

/**
 * A sensor's samples of one run: all of them, or thinned to about `maxPoints`. A run that did not
 * sample the sensor gives an empty series (sampleRate null).
 */
export async function readSensorSeries(
  dataDir: string,
  simulationId: number,
  runId: number | null,
  sensorId: number,
  maxPoints = DEFAULT_SERIES_POINTS,
): Promise<SensorSeries> {
  const empty: SensorSeries = {
    sensorId,
    runId,
    sampleRate: null,
    sampleCount: 0,
    count: 0,
    timeS: [],
    pressure: [],
    vx: [],
    vy: [],
    vz: [],
  }
  if (runId === null) return empty
  let header: SensorSeriesHeader
  let bytes: Buffer
  try {
    header = JSON.parse(
      await readFile(
        join(dataDir, sensorSeriesFile(simulationId, runId, sensorId, 'header')),
        'utf8',
      ),
    ) as SensorSeriesHeader
    bytes = await readFile(
      join(dataDir, sensorSeriesFile(simulationId, runId, sensorId, 'records')),
    )
  } catch (error) {
    if (isMissingFile(error)) return empty
    throw error
  }
  const rate = v.safeParse(SensorSampleRateSchema, header.sampleRate)
  const sampleRate: SensorSampleRate = rate.success ? rate.output : null
  // a record being appended right now is left out until it is whole
  const count = Math.floor(bytes.length / (RECORD_LENGTH * 8))
  const values = new Float64Array(count * RECORD_LENGTH)
  new Uint8Array(values.buffer).set(bytes.subarray(0, values.byteLength))
  const column = (c: number) => {
    const out = new Float64Array(count)
    for (let i = 0; i < count; i++) out[i] = values[i * RECORD_LENGTH + c]!
    return out
  }
  const pressure = column(1)
  const kept = thinSeries(pressure, count, maxPoints)
  const pick = (c: number) => kept.map((i) => values[i * RECORD_LENGTH + c]!)
  const orNull = (list: number[]) => list.map((x) => (Number.isFinite(x) ? x : null))
  return {
    sensorId,
    runId,
    sampleRate,
    sampleCount: count,
    count: kept.length,
    timeS: pick(0),
    pressure: orNull(pick(1)),
    vx: orNull(pick(2)),
    vy: orNull(pick(3)),
    vz: orNull(pick(4)),
  }
}
