import type { Sensor } from '../../../../../domain/meshes.ts'
import {
  EVERY_STEP,
  checkSampleRate,
  type SensorSampleRate,
} from '../../../../../domain/sensorSampling.ts'
import { checkVector, type Issue } from '../../../../../domain/validation.ts'
import {
  checkMeshDraft,
  checkObjectName,
  defaultMeshDraft,
  meshDraftOf,
  parseNumber,
  parseVector,
  vectorDraft,
  type MeshDraft,
  type VectorDraft,
} from './explorerModel.ts'

/*
 * The sensor form (Setup and Results): name, a point's position or a surface's mesh, and how often
 * the running solver samples it (domain/sensorSampling.ts): from outputs only, every solver step,
 * or a fixed number of samples per second of simulated time.
 */

/** How the form offers the sample rate. */
export const SAMPLING_CHOICES = ['outputs', 'every_step', 'rate'] as const
/** One sampling choice. */
export type SamplingChoice = (typeof SAMPLING_CHOICES)[number]

/** The words of each choice. */
export const SAMPLING_LABELS: Record<SamplingChoice, string> = {
  outputs: 'From outputs only (Compute Sensors)',
  every_step: 'Every solver step while running',
  rate: 'A fixed rate while running',
}

/** The sensor form as typed. */
export interface SensorDraft {
  name: string
  kind: Sensor['kind']
  position: VectorDraft
  mesh: MeshDraft
  sampling: SamplingChoice
  /** Samples per second of simulated time, as typed (used with sampling 'rate'). */
  sampleRate: string
}

/** A new sensor draft: a point at the origin (a surface sensor starts as a 1 m rectangle). */
export function newSensorDraft(name: string): SensorDraft {
  return {
    name,
    kind: 'point',
    position: ['0', '0', '0'],
    mesh: defaultMeshDraft('rectangle'),
    sampling: 'outputs',
    sampleRate: '1000',
  }
}

/** The draft of an existing sensor. */
export function sensorDraftOf(sensor: Sensor): SensorDraft {
  const draft = newSensorDraft(sensor.name)
  draft.kind = sensor.kind
  if (sensor.kind === 'point') draft.position = vectorDraft(sensor.position, draft.position)
  else draft.mesh = meshDraftOf(sensor.mesh)
  const rate = sensor.sampleRate ?? null
  draft.sampling = rate === null ? 'outputs' : rate === EVERY_STEP ? 'every_step' : 'rate'
  if (typeof rate === 'number') draft.sampleRate = String(rate)
  return draft
}

/** The sensor form's issues; `takenNames` are the names of the other objects. */
export function checkSensorDraft(draft: SensorDraft, takenNames: readonly string[]): Issue[] {
  return [
    ...checkObjectName(draft.name, takenNames),
    ...(draft.kind === 'point'
      ? checkVector('position', 'Position', parseVector(draft.position))
      : checkMeshDraft(draft.mesh)),
    ...(draft.sampling === 'rate'
      ? checkSampleRate('sampleRate', parseNumber(draft.sampleRate))
      : []),
  ]
}

/** A point sensor's position of a valid draft. */
export function sensorPositionOf(draft: SensorDraft): [number, number, number] {
  return parseVector(draft.position) as [number, number, number]
}

/** The sample rate of a valid draft. */
export function sampleRateOf(draft: SensorDraft): SensorSampleRate {
  if (draft.sampling === 'outputs') return null
  if (draft.sampling === 'every_step') return EVERY_STEP
  return parseNumber(draft.sampleRate)
}
