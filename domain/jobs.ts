/**
 * Job and process states (spec/results.md §2 "Dashboard", §4 "Jobs", "Sensor computation",
 * "Export"; spec/account.md §4): discretization, tessellation, assembly, sensor recomputation,
 * statistics and user export records, and the dashboard progress tile.
 */
import * as v from 'valibot'
import { LAUNCH_DELAY_MESSAGE_AFTER_MS } from './constants.ts'
import type { SimulationState } from './simulationState.ts'

/** Every state a job or process record can report. 'done' and 'completed' both mean success. */
export const JOB_STATES = [
  'scheduled',
  'running',
  'completed',
  'done',
  'canceled',
  'failed',
  'unknown',
  'expired',
] as const
/** One job or process state. */
export type JobState = (typeof JOB_STATES)[number]

/** States of the sensor recomputation job. */
export const SENSOR_RECOMPUTATION_STATES = ['scheduled', 'running', 'done', 'unknown'] as const
/** One sensor recomputation state. */
export type SensorRecomputationState = (typeof SENSOR_RECOMPUTATION_STATES)[number]

/** Kinds of process records the server runs as durable jobs. */
export const JOB_KINDS = [
  'assembly',
  'tessellation',
  'discretization',
  'sensorRecomputation',
  'statistics',
  'userExport',
  'simulation',
] as const
/** One kind of process record. */
export type JobKind = (typeof JOB_KINDS)[number]

/** Job widgets of the dashboard, with their titles. */
export const JOB_WIDGETS = {
  discretization: 'Discretization',
  sensorRecomputation: 'Sensors',
  statistics: 'Statistics',
  tessellation: 'Tessellation',
  userExport: 'Export',
} as const satisfies Partial<Record<JobKind, string>>

/** The state a job widget shows: an expired export reads as unknown. */
export function jobWidgetState(state: JobState): Exclude<JobState, 'expired'> {
  return state === 'expired' ? 'unknown' : state
}

/** Scheduled or running: the job is still active and may be cancelled. */
export function isJobActive(state: JobState): boolean {
  return state === 'scheduled' || state === 'running'
}

/** A successful end, whichever spelling the record uses. */
export function isJobSucceeded(state: JobState): boolean {
  return state === 'completed' || state === 'done'
}

/** A finished job shows its errors when it failed, its warnings otherwise. */
export function jobMessagesShown(state: JobState): 'errors' | 'warnings' {
  return state === 'failed' ? 'errors' : 'warnings'
}

/** A running tessellation at 0 % shows no progress bar yet. */
export function showsTessellationProgress(state: JobState, progress: number): boolean {
  return !(state === 'running' && progress === 0)
}

/** An export file in this state can be downloaded. */
export const EXPORT_FILE_CREATED = 'created'

/** True for a downloadable export file. */
export function isExportFileDownloadable(fileState: string): boolean {
  return fileState === EXPORT_FILE_CREATED
}

/** One error or warning a job reports. */
export const JobMessageSchema = v.object({
  description: v.string(),
  details: v.optional(v.object({ description: v.string() })),
})
/** One error or warning a job reports. */
export type JobMessage = v.InferOutput<typeof JobMessageSchema>

/** A durable process record (assembly, tessellation, discretization, sensors, statistics …). */
export const JobRecordSchema = v.object({
  id: v.number(),
  kind: v.picklist(JOB_KINDS),
  simulationId: v.number(),
  state: v.picklist(JOB_STATES),
  /** 0 … 1. */
  progress: v.number(),
  errors: v.array(JobMessageSchema),
  warnings: v.array(JobMessageSchema),
  createdAt: v.string(),
  updatedAt: v.string(),
})
/** A durable process record. */
export type JobRecord = v.InferOutput<typeof JobRecordSchema>

// ── Texts of the job widgets and dialogs ─────────────────────────────────────────────────────────

/** Texts of the cancel dialog and progress widgets (spec/results.md §4 "Jobs", "Sensor computation"). */
export const JOB_TEXTS = {
  importing: 'Importing File',
  stopTitle: 'Stop computation?',
  stopConfirm: 'Yes, stop',
  stopping: 'Stopping...',
  stopDone: 'Done',
  stopSensorsWarning:
    'There is no resume option. You will need to recompute Sensors from the beginning.',
  stopButton: 'Stop computation',
  computeSensors: 'Compute Sensors',
  tessellationStarted: 'Tessellation started.',
  discretizationFailed: 'Discretization failed',
  discretizationFailedTitle:
    'There are errors in your setup. Please check the Input Validation bar.',
  discretizationWarning: 'Discretization warning',
  cancelDiscretizationFailed: 'Canceling discretization failed',
} as const

// ── Dashboard progress tile ─────────────────────────────────────────────────────────────────────

/** 'Simulation delayed due to resource limits.' (launching for more than 15 min). */
export const LAUNCH_DELAYED_MESSAGE = 'Simulation delayed due to resource limits.'
/** Progress tile text for a failed run. */
export const RUN_FAILED_MESSAGE =
  'Your setup could not be simulated to completion. Please check your setup or submit a ticket.'
/** Progress tile text for a failed launch. */
export const LAUNCH_FAILED_MESSAGE =
  'The launch of the simulation job failed. Please try again soon.'

/** How the progress tile colours its bar. */
export type ProgressTileStatus = 'inProgress' | 'success' | 'error' | 'idle'

/** Creating, launching, running are in progress; completed is success; failures are errors. */
export function progressTileStatus(state: SimulationState): ProgressTileStatus {
  switch (state) {
    case 'creating':
    case 'launching':
    case 'running':
      return 'inProgress'
    case 'completed':
      return 'success'
    case 'failed':
    case 'launch failed':
    case 'creation failed':
      return 'error'
    default:
      return 'idle'
  }
}

/**
 * The progress tile's message: the delay notice once launching has lasted more than 15 minutes,
 * the failure texts for failed and launch failed, else null.
 */
export function progressTileMessage(
  state: SimulationState,
  launchingSinceMs: number | null,
  nowMs: number,
): string | null {
  if (state === 'failed') return RUN_FAILED_MESSAGE
  if (state === 'launch failed') return LAUNCH_FAILED_MESSAGE
  if (
    state === 'launching' &&
    launchingSinceMs !== null &&
    nowMs - launchingSinceMs > LAUNCH_DELAY_MESSAGE_AFTER_MS
  )
    return LAUNCH_DELAYED_MESSAGE
  return null
}

/** Tooltip of the progress bar: the percent of a 0 … 1 progress, rounded ('42%'). */
export function progressTooltip(progress: number): string {
  const clamped = Number.isFinite(progress) ? Math.min(1, Math.max(0, progress)) : 0
  return `${Math.round(clamped * 100)}%`
}
