import { OUTPUT_NO_DIGITS, runDirectory } from '../../domain/output/layout.ts'

/*
 * Where sensor samples live, beside the run's outputs:
 * {dataDir}/simulations/{simulationId}/runs/{runId}/sensors/{sensorId}/{outputNo:6}.json
 * Each file is written under a temporary name and renamed into place, so a listed file is whole.
 */

/** Directory of every sensor's samples of one run, relative to the data directory. */
export function runSensorsDirectory(simulationId: number, runId: number): string {
  return `${runDirectory(simulationId, runId)}/sensors`
}

/** Directory of one sensor's samples of one run, relative to the data directory. */
export function sensorDirectory(simulationId: number, runId: number, sensorId: number): string {
  return `${runSensorsDirectory(simulationId, runId)}/${sensorId}`
}

/** File name of one output's samples. */
export function sensorSampleFileName(outputNo: number): string {
  return `${String(outputNo).padStart(OUTPUT_NO_DIGITS, '0')}.json`
}

/** One output's samples of one sensor, relative to the data directory. */
export function sensorSampleFile(
  simulationId: number,
  runId: number,
  sensorId: number,
  outputNo: number,
): string {
  return `${sensorDirectory(simulationId, runId, sensorId)}/${sensorSampleFileName(outputNo)}`
}

/** A complete sample file's name (temporary files end in .tmp and are never listed). */
export const SAMPLE_FILE_PATTERN = /^(\d{6,})\.json$/

/** The JSON of one sample file. NaN (no fluid within the support) is written as null. */
export interface SensorSampleFile {
  sensorId: number
  outputNo: number
  timeS: number
  /** Sample points: 1 for a point sensor, one per triangle centroid for a surface sensor. */
  count: number
  /** x, y, z of the sample points and every interpolated column (pressure, vx, vy, vz, density …). */
  columns: Record<string, (number | null)[]>
}
