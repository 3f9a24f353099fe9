import { readdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import * as v from 'valibot'
import {
  OUTPUT_MANIFEST_FILE,
  objectFile,
  outputDirectory,
  simulationDirectory,
} from '../../domain/output/layout.ts'
import type { WrittenDataset } from '../../domain/outputFormat.ts'
import { OutputManifestSchema, type OutputManifestInfo } from '../../domain/rest/resultsRoutes.ts'
import type { SimulationRow } from '../db/schema.ts'

/*
 * The run files the solver writes (domain/output/layout.ts), read for the results calls. A
 * manifest.json is written last, so an output without one is still being written and is not listed.
 */

const NUMBER_NAME = /^\d{1,12}$/

async function listNumberedEntries(directory: string): Promise<number[]> {
  try {
    const entries = await readdir(directory, { withFileTypes: true })
    return entries
      .filter((entry) => entry.isDirectory() && NUMBER_NAME.test(entry.name))
      .map((entry) => Number(entry.name))
      .sort((a, b) => a - b)
  } catch (error) {
    if (isMissingFile(error)) return []
    throw error
  }
}

function isMissingFile(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    (error.code === 'ENOENT' || error.code === 'ENOTDIR')
  )
}

/**
 * The run whose outputs the results screen shows: the simulation's active run; while no run row
 * names one (runs written straight to disk, e.g. by scripts/writeSyntheticRun.ts), the newest run
 * directory. null: no run at all.
 */
export async function resolveRunId(
  dataDir: string,
  simulation: SimulationRow,
): Promise<number | null> {
  if (simulation.active_run_id !== null) return simulation.active_run_id
  const runs = await listNumberedEntries(join(dataDir, simulationDirectory(simulation.id), 'runs'))
  return runs.at(-1) ?? null
}

/** Reads and checks one manifest; null when the output is absent or not complete yet. */
export async function readOutputManifest(
  dataDir: string,
  simulationId: number,
  runId: number,
  outputNo: number,
): Promise<OutputManifestInfo | null> {
  const path = join(dataDir, outputDirectory(simulationId, runId, outputNo), OUTPUT_MANIFEST_FILE)
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    if (isMissingFile(error)) return null
    throw error
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw new Error(`${path} is not valid JSON`)
  }
  const checked = v.safeParse(OutputManifestSchema, parsed)
  if (!checked.success)
    throw new Error(`${path} breaks the manifest schema: ${checked.issues[0]?.message ?? ''}`)
  return checked.output
}

/** Every complete output of a run, in output order. A broken manifest is skipped, not fatal. */
export async function listOutputManifests(
  dataDir: string,
  simulationId: number,
  runId: number,
  onBrokenManifest: (outputNo: number, error: unknown) => void = () => undefined,
): Promise<OutputManifestInfo[]> {
  const outputsDir = join(
    dataDir,
    simulationDirectory(simulationId),
    'runs',
    String(runId),
    'outputs',
  )
  const numbers = await listNumberedEntries(outputsDir)
  const manifests = await Promise.all(
    numbers.map(async (outputNo) => {
      try {
        return await readOutputManifest(dataDir, simulationId, runId, outputNo)
      } catch (error) {
        onBrokenManifest(outputNo, error)
        return null
      }
    }),
  )
  return manifests.filter((manifest): manifest is OutputManifestInfo => manifest !== null)
}

/** One object payload on disk, ready to stream into a bundle. */
export interface ObjectPayloadFile {
  objectId: string
  path: string
  sizeBytes: number
  modifiedMs: number
}

/** Path and size of an object's payload file; null when the file is missing. */
export async function statObjectPayload(
  dataDir: string,
  output: { simulationId: number; runId: number; outputNo: number },
  objectId: string,
  dataset: WrittenDataset,
): Promise<ObjectPayloadFile | null> {
  const path = join(
    dataDir,
    objectFile(output.simulationId, output.runId, output.outputNo, objectId, dataset),
  )
  try {
    const info = await stat(path)
    if (!info.isFile()) return null
    return { objectId, path, sizeBytes: info.size, modifiedMs: info.mtimeMs }
  } catch (error) {
    if (isMissingFile(error)) return null
    throw error
  }
}
