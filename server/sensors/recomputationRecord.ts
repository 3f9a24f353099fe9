import type { Selectable } from 'kysely'
import type { JobMessage } from '../../domain/jobs.ts'
import type { SensorRecomputation } from '../../domain/rest/sensorRoutes.ts'
import type { JobsTable } from '../db/schema.ts'

type JobRow = Selectable<JobsTable>

/* The sensor recomputation's row of `jobs`: its kind, its payload and its empty record. */

/** Kind of the recomputation rows in `jobs`. */
export const SENSOR_JOB_KIND = 'sensorRecomputation'

/** What a recomputation row keeps in `payload`. */
export interface SensorJobPayload {
  runId: number
  sensorIds: number[]
  outputs: number[]
}

/** A row's payload; an unreadable one reads as empty. */
export function readPayload(job: JobRow): SensorJobPayload {
  try {
    const parsed = JSON.parse(job.payload) as Partial<SensorJobPayload>
    return {
      runId: parsed.runId ?? 0,
      sensorIds: parsed.sensorIds ?? [],
      outputs: parsed.outputs ?? [],
    }
  } catch {
    return { runId: 0, sensorIds: [], outputs: [] }
  }
}

/** A row's errors or warnings; unreadable text reads as none. */
export function readMessages(text: string): JobMessage[] {
  try {
    const parsed = JSON.parse(text) as unknown
    return Array.isArray(parsed) ? (parsed as JobMessage[]) : []
  } catch {
    return []
  }
}

/** The record of GET …/sensor_outputs/recomputation when none was ever started. */
export function emptyRecomputation(simulationId: number): SensorRecomputation {
  return {
    id: null,
    simulationId,
    runId: null,
    state: 'unknown',
    progress: 0,
    sensorIds: [],
    outputsDone: 0,
    outputsTotal: 0,
    failedOutputs: [],
    errors: [],
    warnings: [],
    createdAt: null,
    updatedAt: null,
  }
}
