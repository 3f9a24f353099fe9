import type { Kysely, Selectable } from 'kysely'
import type { JobMessage } from '../../domain/jobs.ts'
import { COLOUR_MAP_STATUS } from '../../domain/results.ts'
import type { SensorRecomputation } from '../../domain/rest/sensorRoutes.ts'
import type { Database, JobsTable } from '../db/schema.ts'
import { listSensorOutputStates } from './store.ts'

type JobRow = Selectable<JobsTable>

/* The sensor recomputation's row of `jobs`: its kind, its payload and its record. */

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

/** A row's record as GET …/sensor_outputs/recomputation returns it. */
export async function recomputationOf(
  db: Kysely<Database>,
  job: JobRow,
): Promise<SensorRecomputation> {
  const payload = readPayload(job)
  const states = await listSensorOutputStates(db, job.simulation_id, payload.runId)
  const wanted = new Set(payload.outputs)
  const reached = states.filter((s) => wanted.has(s.outputNo) && s.state !== 'pending')
  const failedOutputs = reached.filter((s) => s.state === 'failed').map((s) => s.outputNo)
  const warnings = readMessages(job.warnings)
  return {
    id: job.id,
    simulationId: job.simulation_id,
    runId: payload.runId,
    state: job.state as SensorRecomputation['state'],
    progress: job.progress,
    sensorIds: payload.sensorIds,
    outputsDone: reached.length,
    outputsTotal: payload.outputs.length,
    failedOutputs,
    errors: readMessages(job.errors),
    warnings:
      failedOutputs.length > 0 && warnings.length === 0
        ? [{ description: COLOUR_MAP_STATUS.sensorsFailed(failedOutputs) }]
        : warnings,
    createdAt: job.created_at,
    updatedAt: job.updated_at,
  }
}
