import { mkdir, open, readFile, rename, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { objectFile, runLogFile } from '../../domain/output/layout.ts'
import { readObjectStream, type ObjectView } from '../../domain/output/reader.ts'
import { ATTRIBUTE_COLUMNS, OutputFormatError } from '../../domain/outputFormat.ts'
import type { OutputManifestInfo } from '../../domain/rest/resultsRoutes.ts'
import {
  ATTRIBUTE_NAMES,
  EXPORT_MESSAGES,
  exportOutputs,
  type AttributeName,
  type ExportRequest,
} from '../../domain/results.ts'
import type { SimulationRow } from '../db/schema.ts'
import { DEFAULT_JOB_FILENAME, simulationJobFile } from '../files/simulationFiles.ts'
import { readSensorSamples } from '../sensors/store.ts'
import { logCsv, stlChunks, vtuChunks, type VtuArray } from './vtkFiles.ts'

/*
 * One user export's work: reads the run's Arrow outputs and writes, per selected output, one VTU
 * per fluid material, each boundary as VTU points or a binary STL of its wall mesh, plus the run
 * log as CSV and the setup's job file. Every file is written under a temporary name and renamed
 * when complete, and only then reported (onFile), so nothing half-written is ever listed. The
 * work runs on the server's event loop in small pieces (a chunk of 65 536 points at a time, each
 * written with an awaited write), so other requests are served in between.
 */

/** An error or warning of an export, with the outputs it concerns. */
export interface ExportMessage {
  description: string
  details?: { description: string }
  outputs: number[]
}

/** A file the work completed (renamed into place). */
export interface CompletedFile {
  filename: string
  /** Path relative to the export directory. */
  path: string
  sizeBytes: number
}

export interface ExportWorkInput {
  dataDir: string
  simulation: SimulationRow
  runId: number | null
  /** The run's complete outputs (outputFiles.ts listOutputManifests). */
  manifests: readonly OutputManifestInfo[]
  request: ExportRequest
  /** The selected sensors of the simulation (all of them when allObjects). */
  sensors: readonly { id: number; name: string }[]
  /** Absolute directory the files are written into (created by the work). */
  directory: string
  signal: AbortSignal
  onProgress: (fraction: number) => Promise<void>
  onFile: (file: CompletedFile) => Promise<void>
}

/** The export ran to its end but some outputs could not be read: the export failed. */
export class ExportFailure extends Error {
  readonly errors: ExportMessage[]
  readonly warnings: ExportMessage[]
  constructor(errors: ExportMessage[], warnings: ExportMessage[]) {
    super(errors[0]?.description ?? EXPORT_MESSAGES.failed)
    this.name = 'ExportFailure'
    this.errors = errors
    this.warnings = warnings
  }
}

/** Messages of the export's warnings and per-output errors. */
export const EXPORT_WORK_MESSAGES = {
  noMesh: (name: string) => `${name} has no surface mesh: exported as VTU points instead of STL.`,
  notInOutputs: (what: string) => `${what} is not part of these outputs.`,
  unreadable: (outputNo: number) => `Output ${outputNo} could not be read.`,
  noLog: 'The run has no log to export.',
  sensorNotComputed: (name: string) =>
    `${name} has no computed values for these outputs: compute the sensors first.`,
  noSurface: 'Surface reconstructions are not written for this run; they were not exported.',
} as const

const PAD = 6

function safeName(name: string): string {
  return name.replace(/[^\w.-]+/g, '_').replace(/^_+|_+$/g, '') || 'object'
}

/** The attributes written for every object that has their columns. */
export function exportedAttributes(request: ExportRequest): AttributeName[] {
  if (request.allAttributes) return ATTRIBUTE_NAMES.filter((name) => name !== 'position')
  return ATTRIBUTE_NAMES.filter((name) => name !== 'position' && request.attributes.includes(name))
}

function pointArrays(
  table: { columns: Record<string, Float32Array | undefined> },
  attributes: readonly AttributeName[],
): VtuArray[] {
  const arrays: VtuArray[] = []
  for (const attribute of attributes) {
    const columns = ATTRIBUTE_COLUMNS[attribute].map((column) => table.columns[column])
    if (columns.every((column): column is Float32Array => column !== undefined))
      arrays.push({ name: attribute, components: columns })
  }
  return arrays
}

async function writeAtomically(
  path: string,
  chunks: Iterable<Uint8Array>,
  signal: AbortSignal,
): Promise<number> {
  const temporary = `${path}.partial`
  const handle = await open(temporary, 'w')
  let sizeBytes = 0
  try {
    for (const chunk of chunks) {
      signal.throwIfAborted()
      await handle.write(chunk)
      sizeBytes += chunk.length
    }
  } catch (error) {
    await handle.close()
    await rm(temporary, { force: true })
    throw error
  }
  await handle.close()
  await rename(temporary, path)
  return sizeBytes
}

interface SelectedObject {
  objectId: string
  name: string
  kind: 'fluid' | 'boundary'
}

function selectObjects(request: ExportRequest, manifest: OutputManifestInfo): SelectedObject[] {
  const selected: SelectedObject[] = []
  for (const object of manifest.objects) {
    if (
      object.kind === 'fluid' &&
      (request.allObjects || request.materials.includes(object.sourceId))
    )
      selected.push({ objectId: object.objectId, name: object.name, kind: 'fluid' })
    else if (
      (object.kind === 'wall_boundary' || object.kind === 'open_boundary') &&
      (request.allObjects || request.boundaries.includes(object.sourceId))
    )
      selected.push({ objectId: object.objectId, name: object.name, kind: 'boundary' })
  }
  return selected
}

/** Warnings for selected materials and parts that no exported output contains. */
function absentSelections(
  request: ExportRequest,
  manifests: readonly OutputManifestInfo[],
): ExportMessage[] {
  const warnings: ExportMessage[] = []
  const present = (kinds: readonly string[], id: number) =>
    manifests.some((m) => m.objects.some((o) => kinds.includes(o.kind) && o.sourceId === id))
  for (const id of request.materials)
    if (!present(['fluid'], id))
      warnings.push({
        description: EXPORT_WORK_MESSAGES.notInOutputs(`Material ${id}`),
        outputs: [],
      })
  for (const id of request.boundaries)
    if (!present(['wall_boundary', 'open_boundary'], id))
      warnings.push({ description: EXPORT_WORK_MESSAGES.notInOutputs(`Part ${id}`), outputs: [] })
  return warnings
}

/** Runs one export; returns its warnings, throws ExportFailure when outputs could not be read. */
export async function runExportWork(input: ExportWorkInput): Promise<ExportMessage[]> {
  const { request, signal, directory } = input
  await rm(directory, { recursive: true, force: true })
  await mkdir(directory, { recursive: true })
  const warnings: ExportMessage[] = []
  const errors: ExportMessage[] = []
  const byNumber = new Map(input.manifests.map((m) => [m.outputNo, m]))
  const selectsObjects =
    request.allObjects ||
    request.materials.length > 0 ||
    request.boundaries.length > 0 ||
    request.sensors.length > 0 ||
    request.surfaceReconstructions.length > 0
  const wanted = selectsObjects ? exportOutputs(request) : []
  const outputs = wanted.filter((n) => byNumber.has(n))
  const missing = wanted.filter((n) => !byNumber.has(n))
  if (missing.length > 0)
    warnings.push({ description: EXPORT_MESSAGES.missingOutputs(missing), outputs: missing })
  const exported = outputs.map((n) => byNumber.get(n)!)
  warnings.push(...absentSelections(request, exported))
  for (const id of request.sensors)
    if (!input.sensors.some((sensor) => sensor.id === id))
      warnings.push({ description: EXPORT_WORK_MESSAGES.notInOutputs(`Sensor ${id}`), outputs: [] })
  if (request.surfaceReconstructions.length > 0)
    warnings.push({ description: EXPORT_WORK_MESSAGES.noSurface, outputs: [] })

  const attributes = exportedAttributes(request)
  const usedNames = new Set<string>()
  const fileName = (base: string, objectId: string, outputNo: number, extension: string) => {
    const padded = String(outputNo).padStart(PAD, '0')
    let name = `${safeName(base)}_${padded}.${extension}`
    if (usedNames.has(name)) name = `${safeName(base)}_${safeName(objectId)}_${padded}.${extension}`
    usedNames.add(name)
    return name
  }
  const complete = async (filename: string, chunks: Iterable<Uint8Array>) => {
    const sizeBytes = await writeAtomically(join(directory, filename), chunks, signal)
    await input.onFile({ filename, path: filename, sizeBytes })
  }

  const steps =
    exported.reduce((sum, manifest) => sum + selectObjects(request, manifest).length, 0) +
    exported.length * input.sensors.length +
    (request.logs ? 1 : 0) +
    (request.setup ? 1 : 0)
  let done = 0
  const advance = async () => {
    done++
    await input.onProgress(steps === 0 ? 1 : done / steps)
  }
  const meshWarned = new Set<string>()

  for (const manifest of exported) {
    for (const object of selectObjects(request, manifest)) {
      signal.throwIfAborted()
      const dataset =
        object.kind === 'boundary' && request.boundariesMode === 'reduced' ? 'fast' : 'full'
      const path = join(
        input.dataDir,
        objectFile(
          input.simulation.id,
          manifest.runId,
          manifest.outputNo,
          object.objectId,
          dataset,
        ),
      )
      let view: ObjectView
      try {
        view = readObjectStream(new Uint8Array(await readFile(path)))
      } catch (error) {
        if (!(error instanceof OutputFormatError) && !isMissingFile(error)) throw error
        const reason = error instanceof Error ? error.message : String(error)
        errors.push({
          description: EXPORT_WORK_MESSAGES.unreadable(manifest.outputNo),
          details: { description: `${object.name}: ${reason}` },
          outputs: [manifest.outputNo],
        })
        await advance()
        continue
      }
      const asStl = object.kind === 'boundary' && request.boundariesType === 'stl'
      if (asStl && view.mesh && view.mesh.triangleCount > 0) {
        const mesh = view.mesh
        await complete(
          fileName(object.name, object.objectId, manifest.outputNo, 'stl'),
          stlChunks({
            x: mesh.columns.x!,
            y: mesh.columns.y!,
            z: mesh.columns.z!,
            indices: mesh.indices,
            title: `${object.name} output ${manifest.outputNo}`,
          }),
        )
      } else {
        if (asStl && !meshWarned.has(object.objectId)) {
          meshWarned.add(object.objectId)
          warnings.push({
            description: EXPORT_WORK_MESSAGES.noMesh(object.name),
            outputs: [manifest.outputNo],
          })
        } else if (asStl) {
          warnings
            .find((w) => w.description === EXPORT_WORK_MESSAGES.noMesh(object.name))
            ?.outputs.push(manifest.outputNo)
        }
        await complete(
          fileName(object.name, object.objectId, manifest.outputNo, 'vtu'),
          vtuChunks({
            x: view.columns.x!,
            y: view.columns.y!,
            z: view.columns.z!,
            arrays: pointArrays(view, attributes),
            timeS: manifest.timeS,
          }),
        )
      }
      await advance()
    }
  }

  for (const sensor of input.sensors) {
    const uncomputed: number[] = []
    for (const manifest of exported) {
      signal.throwIfAborted()
      const samples = await readSensorSamples(
        input.dataDir,
        input.simulation.id,
        manifest.runId,
        sensor.id,
        manifest.outputNo,
      )
      const x = samples?.columns.x
      const y = samples?.columns.y
      const z = samples?.columns.z
      if (!samples || !x || !y || !z) uncomputed.push(manifest.outputNo)
      else
        await complete(
          fileName(sensor.name, `sensor-${sensor.id}`, manifest.outputNo, 'vtu'),
          vtuChunks({ x, y, z, arrays: pointArrays(samples, attributes), timeS: manifest.timeS }),
        )
      await advance()
    }
    if (uncomputed.length > 0)
      warnings.push({
        description: EXPORT_WORK_MESSAGES.sensorNotComputed(sensor.name),
        outputs: uncomputed,
      })
  }

  if (request.logs) {
    signal.throwIfAborted()
    const lines =
      input.runId === null
        ? null
        : await readLogLines(input.dataDir, input.simulation.id, input.runId)
    if (lines === null) warnings.push({ description: EXPORT_WORK_MESSAGES.noLog, outputs: [] })
    else await complete('logs.csv', [new TextEncoder().encode(logCsv(lines))])
    await advance()
  }
  if (request.setup) {
    signal.throwIfAborted()
    const text = JSON.stringify(simulationJobFile(input.simulation), null, 2)
    await complete(DEFAULT_JOB_FILENAME, [new TextEncoder().encode(text)])
    await advance()
  }
  if (errors.length > 0) throw new ExportFailure(errors, warnings)
  return warnings
}

function isMissingFile(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === 'ENOENT'
}

async function readLogLines(
  dataDir: string,
  simulationId: number,
  runId: number,
): Promise<Record<string, unknown>[] | null> {
  let text: string
  try {
    text = await readFile(join(dataDir, runLogFile(simulationId, runId)), 'utf8')
  } catch (error) {
    if (isMissingFile(error)) return null
    throw error
  }
  const lines: Record<string, unknown>[] = []
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue
    try {
      const parsed: unknown = JSON.parse(line)
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed))
        lines.push(parsed as Record<string, unknown>)
    } catch {
      // A line cut by a crash is not a log line.
    }
  }
  return lines
}
