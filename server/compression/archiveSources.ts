import { createReadStream, existsSync } from 'node:fs'
import { readdir, stat } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { OUTPUT_MANIFEST_FILE, runDirectory } from '../../domain/output/layout.ts'
import type { SimulationRow } from '../db/schema.ts'
import { DEFAULT_JOB_FILENAME, simulationJobFile } from '../files/simulationFiles.ts'
import type { TarSource } from './tarArchive.ts'

/*
 * What a compressed archive holds, as the plain download does (server/files/simulationFiles.ts):
 * the job file, the simulation record and the active run's files, minus checkpoints (solver state
 * for resuming here), outputs still being written (no manifest yet) and temporaries of cut writes.
 */

/** A file of the archive with the place it is read from (null: in memory). */
export interface ArchiveEntry extends TarSource {
  path: string | null
}

const TEMPORARY_SUFFIXES = ['.tmp', '.partial', '.part']

function textEntry(name: string, text: string): ArchiveEntry {
  const bytes = Buffer.from(text, 'utf8')
  return {
    name,
    path: null,
    sizeBytes: bytes.length,
    chunks: async function* () {
      yield await Promise.resolve(bytes)
    },
  }
}

async function* noChunks(): AsyncGenerator<Uint8Array> {}

async function listFiles(directory: string): Promise<string[]> {
  if (!existsSync(directory)) return []
  const found: string[] = []
  const entries = await readdir(directory, { withFileTypes: true })
  entries.sort((a, b) => a.name.localeCompare(b.name))
  for (const entry of entries) {
    const path = join(directory, entry.name)
    if (entry.isDirectory()) found.push(...(await listFiles(path)))
    else if (entry.isFile()) found.push(path)
  }
  return found
}

/** Whether a run-relative file belongs in the archive. */
export function isArchivedRunFile(name: string, completeOutputs: ReadonlySet<string>): boolean {
  if (name.startsWith('checkpoints/')) return false
  if (TEMPORARY_SUFFIXES.some((suffix) => name.endsWith(suffix))) return false
  const output = /^outputs\/([^/]+)\//.exec(name)
  return output === null || completeOutputs.has(output[1] ?? '')
}

/** The archive's entries for a simulation and its record (GET /simulations/{id}'s body). */
export async function listArchiveEntries(
  dataDir: string,
  simulation: SimulationRow,
  record: unknown,
): Promise<ArchiveEntry[]> {
  const entries: ArchiveEntry[] = [
    textEntry(DEFAULT_JOB_FILENAME, JSON.stringify(simulationJobFile(simulation), null, 2)),
    textEntry('simulation.json', JSON.stringify(record, null, 2)),
  ]
  if (simulation.active_run_id === null) return entries
  const runDir = join(dataDir, runDirectory(simulation.id, simulation.active_run_id))
  const files = await listFiles(runDir)
  const names = files.map((path) => relative(runDir, path).split('\\').join('/'))
  const completeOutputs = new Set(
    names
      .map((name) => new RegExp(`^outputs/([^/]+)/${OUTPUT_MANIFEST_FILE}$`).exec(name)?.[1])
      .filter((outputNo): outputNo is string => outputNo !== undefined),
  )
  for (const [index, path] of files.entries()) {
    const name = names[index] ?? ''
    if (!isArchivedRunFile(name, completeOutputs)) continue
    let sizeBytes: number
    try {
      sizeBytes = (await stat(path)).size
    } catch {
      continue // removed since it was listed
    }
    entries.push({
      name: `run/${name}`,
      path,
      sizeBytes,
      chunks: () =>
        sizeBytes === 0
          ? noChunks()
          : (createReadStream(path, {
              highWaterMark: 1024 * 1024,
              // A log still growing is read up to the size its header announced.
              end: sizeBytes - 1,
            }) as AsyncIterable<Uint8Array>),
    })
  }
  return entries
}
