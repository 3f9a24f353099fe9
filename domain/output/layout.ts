/**
 * Where a run's files live under the data directory: the contract between the solver (writes),
 * the job runner (checkpoints, logs) and the results server (reads outputs). Pure path arithmetic,
 * no file system access, so every side computes the same names.
 *
 * ```
 * {dataDir}/simulations/{simulationId}/runs/{runId}/
 *   outputs/{outputNo:6}/manifest.json        OutputManifest, written last (its presence = output complete)
 *   outputs/{outputNo:6}/{objectId}.{dataset}.arrow   one object payload (writer.ts WrittenObject.bytes)
 *   checkpoints/{outputNo:6}.ckpt              solver state to resume from that output
 *   log.jsonl                                  one RunLogLine per line
 *   numerics.json                              the numerical parameters of the run (RunNumerics)
 *   sensor_series/{sensorId}.json, .f64        a sensor's samples taken while stepping (header, records)
 * ```
 */
import type { FormatObjectKind, WrittenDataset } from '../outputFormat.ts'

/** Output numbers are zero-padded so directory listings sort in time order. */
export const OUTPUT_NO_DIGITS = 6

/** Name of the file whose presence marks an output as completely written. */
export const OUTPUT_MANIFEST_FILE = 'manifest.json'

function padOutputNo(outputNo: number): string {
  return String(outputNo).padStart(OUTPUT_NO_DIGITS, '0')
}

/** Directory of one simulation's files, relative to the data directory. */
export function simulationDirectory(simulationId: number): string {
  return `simulations/${simulationId}`
}

/** Directory of one run, relative to the data directory. */
export function runDirectory(simulationId: number, runId: number): string {
  return `${simulationDirectory(simulationId)}/runs/${runId}`
}

/** Directory of one output, relative to the data directory. */
export function outputDirectory(simulationId: number, runId: number, outputNo: number): string {
  return `${runDirectory(simulationId, runId)}/outputs/${padOutputNo(outputNo)}`
}

/** File of one object payload of one output, relative to the data directory. */
export function objectFile(
  simulationId: number,
  runId: number,
  outputNo: number,
  objectId: string,
  dataset: WrittenDataset,
): string {
  if (!/^[\w-]+$/.test(objectId))
    throw new Error(`Object id not usable in a file name: ${objectId}`)
  return `${outputDirectory(simulationId, runId, outputNo)}/${objectId}.${dataset}.arrow`
}

/** Checkpoint written with one output, relative to the data directory. */
export function checkpointFile(simulationId: number, runId: number, outputNo: number): string {
  return `${runDirectory(simulationId, runId)}/checkpoints/${padOutputNo(outputNo)}.ckpt`
}

/** The run's log (JSON lines), relative to the data directory. */
export function runLogFile(simulationId: number, runId: number): string {
  return `${runDirectory(simulationId, runId)}/log.jsonl`
}

/** Directory of the sensor samples a run takes while stepping (domain/sensorSampling.ts). */
export function sensorSeriesDirectory(simulationId: number, runId: number): string {
  return `${runDirectory(simulationId, runId)}/sensor_series`
}

/**
 * One sensor's samples of a run: `{sensorId}.f64`, little-endian Float64 records of
 * SENSOR_SERIES_RECORD (time s, pressure Pa, vx, vy, vz m/s; NaN where dry), appended in batches,
 * and `{sensorId}.json`, its header (SensorSeriesHeader).
 */
export function sensorSeriesFile(
  simulationId: number,
  runId: number,
  sensorId: number,
  part: 'records' | 'header',
): string {
  const extension = part === 'records' ? 'f64' : 'json'
  return `${sensorSeriesDirectory(simulationId, runId)}/${sensorId}.${extension}`
}

/** The values of one record of a sensor series file, in order. */
export const SENSOR_SERIES_RECORD = ['timeS', 'pressure', 'vx', 'vy', 'vz'] as const

/** The header of a sensor series file. */
export interface SensorSeriesHeader {
  version: 1
  sensorId: number
  kind: 'point' | 'surface'
  /** 'every_step' or samples per second of simulated time. */
  sampleRate: 'every_step' | number
  /** SENSOR_SERIES_RECORD. */
  columns: readonly string[]
  /** Points sampled (1 for a point sensor; a surface sensor's triangle centroids). */
  pointCount: number
}

/** The numerical parameters the run used (domain/runNumerics.ts RunNumerics as JSON). */
export function runNumericsFile(simulationId: number, runId: number): string {
  return `${runDirectory(simulationId, runId)}/numerics.json`
}

/** One object of an output as the manifest lists it. */
export interface ManifestObject {
  objectId: string
  kind: FormatObjectKind
  /** Display name: the material or part name. */
  name: string
  /** Material id for fluids and masks, part id for walls and open boundaries. */
  sourceId: number
  /** Float32 columns besides x, y, z (e.g. vx, vy, vz, pressure, density, mass). */
  columns: string[]
  particleCount: { full: number; fast: number }
  triangleCount: number
  sizeBytes: { full: number; fast: number }
}

/** manifest.json of one output. */
export interface OutputManifest {
  formatVersion: string
  simulationId: number
  runId: number
  outputNo: number
  timeS: number
  objects: ManifestObject[]
}
