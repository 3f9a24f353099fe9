import type { Sensor, VolumeClip } from '../../../domain/meshes.ts'
import type { OutputManifestInfo } from '../../../domain/rest/resultsRoutes.ts'
import type { ResultsClientFrame, ResultsServerFrame } from '../../../domain/resultsProtocol.ts'
import { encodeObjectId } from '../../../domain/resultsObjects.ts'
import { readOutputManifest } from '../outputFiles.ts'
import { describeStatisticsAttributes } from '../statistics/statsInfo.ts'
import { describeDatasetStats, describeMasks, describeOutputObjects } from './outputObjects.ts'
import { listCompleteOutputNumbers } from './outputStates.ts'

/** Where a command's outputs are: the simulation's active run under the data directory. */
export interface RunPlace {
  dataDir: string
  simulationId: number
  runId: number | null
}

type Send = (frame: ResultsServerFrame) => Promise<void>

/** fetch.info: per requested output its objects (sensors included), masks and dataset stats. */
export async function sendFetchInfo(
  frame: Extract<ResultsClientFrame, { type: 'fetch.info' }>,
  { dataDir, simulationId, runId }: RunPlace,
  sensors: readonly Sensor[],
  clips: VolumeClip[],
  send: Send,
): Promise<void> {
  const { requestId } = frame
  const sensorObjects = sensors.map((sensor) => ({
    id: encodeObjectId('sensor', sensor.id),
    kind: 'sensor' as const,
    name: sensor.name,
  }))
  for (const outputNo of frame.outputs) {
    const manifest =
      runId === null ? null : await readOutputManifest(dataDir, simulationId, runId, outputNo)
    if (!manifest) {
      await send({ type: 'fetch.info.missing_output', requestId, outputNo })
      continue
    }
    await send({
      type: 'fetch.info.resp',
      requestId,
      outputNo,
      timeS: manifest.timeS,
      objects: [...describeOutputObjects(manifest), ...sensorObjects],
      masks: describeMasks(manifest, clips),
      stats: describeDatasetStats(manifest),
    })
  }
}

/** stats.info: the attributes statistics can be computed for in the run. */
export async function sendStatsInfo(
  frame: Extract<ResultsClientFrame, { type: 'stats.info' }>,
  { dataDir, simulationId, runId }: RunPlace,
  send: Send,
): Promise<void> {
  const numbers =
    runId === null ? [] : await listCompleteOutputNumbers(dataDir, simulationId, runId)
  // The first and last outputs name every object of the run (sets of objects do not change).
  const sample: OutputManifestInfo[] = []
  for (const outputNo of new Set([numbers[0], numbers.at(-1)])) {
    if (outputNo === undefined || runId === null) continue
    const manifest = await readOutputManifest(dataDir, simulationId, runId, outputNo)
    if (manifest) sample.push(manifest)
  }
  await send({
    type: 'stats.info.resp',
    requestId: frame.requestId,
    attributes: describeStatisticsAttributes(sample),
  })
}
