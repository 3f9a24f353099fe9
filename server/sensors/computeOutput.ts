import { mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { objectFile } from '../../domain/output/layout.ts'
import { readObjectStream } from '../../domain/output/reader.ts'
import { readOutputManifest } from '../results/outputFiles.ts'
import { sensorDirectory, sensorSampleFile, type SensorSampleFile } from './layout.ts'
import { sampleFluidColumns, sharedFluidColumns, type FluidTable } from './sampling.ts'

/** What a recomputation hands its executor (plain data: it crosses into a worker thread). */
export interface SensorJobInput {
  dataDir: string
  simulationId: number
  runId: number
  /** Smoothing length of the run, m (support 2h). */
  h: number
  /** Sample points per sensor, 3 numbers per point. */
  sensors: { id: number; points: number[] }[]
  /** Outputs to compute, in order. */
  outputs: number[]
}

/**
 * Samples every sensor at one output and writes one file per sensor (temporary name, then
 * rename: a listed file is always whole). Throws when the output or a fluid payload is missing
 * or unreadable.
 */
export async function computeOutputSamples(input: SensorJobInput, outputNo: number): Promise<void> {
  const { dataDir, simulationId, runId } = input
  const manifest = await readOutputManifest(dataDir, simulationId, runId, outputNo)
  if (!manifest) throw new Error(`Output ${outputNo} is missing.`)
  const fluids: FluidTable[] = []
  for (const object of manifest.objects) {
    if (object.kind !== 'fluid') continue
    const bytes = await readFile(
      join(dataDir, objectFile(simulationId, runId, outputNo, object.objectId, 'full')),
    )
    const view = readObjectStream(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength))
    fluids.push({ rowCount: view.rowCount, columns: view.columns })
  }
  const columnNames = sharedFluidColumns(fluids)
  const allPoints = new Float64Array(input.sensors.reduce((n, s) => n + s.points.length, 0))
  let offset = 0
  for (const sensor of input.sensors) {
    allPoints.set(sensor.points, offset)
    offset += sensor.points.length
  }
  const sampled = sampleFluidColumns(allPoints, fluids, input.h, columnNames)
  let first = 0
  for (const sensor of input.sensors) {
    const count = sensor.points.length / 3
    const columns: SensorSampleFile['columns'] = {}
    for (const [name, values] of Object.entries(sampled))
      columns[name] = Array.from(values.subarray(first, first + count), (value) =>
        Number.isFinite(value) ? value : null,
      )
    first += count
    const file: SensorSampleFile = {
      sensorId: sensor.id,
      outputNo,
      timeS: manifest.timeS,
      count,
      columns,
    }
    await mkdir(join(dataDir, sensorDirectory(simulationId, runId, sensor.id)), {
      recursive: true,
    })
    const path = join(dataDir, sensorSampleFile(simulationId, runId, sensor.id, outputNo))
    const temporary = `${path}.${process.pid}.tmp`
    await writeFile(temporary, JSON.stringify(file))
    await rename(temporary, path)
  }
}
