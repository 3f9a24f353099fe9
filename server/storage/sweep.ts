import { readdir, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { Kysely } from 'kysely'
import type { Database } from '../db/schema.ts'
import { resolveStoredPath } from './files.ts'
import { refreshSimulationSize } from './usage.ts'

/*
 * The start sweep (issue 13 item 6): before any job or upload of this process writes, it removes
 * what a crash or an older version left behind: the directories of simulations that no longer
 * exist, stored uploads and images without their row, and the temporaries of cut writes
 * (`*.part` of uploads and atomic writes, `*.partial` of exports, `*.tmp` of the solver's and the
 * sensors' atomic writes). Then every simulation's size is measured again, so sizes are true even
 * after a crash mid-run.
 */

type Db = Kysely<Database>

/** What one sweep removed, relative to the data directory. */
export interface SweepResult {
  removed: string[]
}

/** Directories holding one entry per simulation id. */
const PER_SIMULATION_ROOTS = ['simulations', 'discretizations', 'assemblies']
/** Directories holding one entry per organization, then one file per upload id. */
const PER_UPLOAD_ROOTS = ['uploads', 'images', 'mesh-cache']
/**
 * Suffixes of temporaries that only a write cut short leaves: uploads and stored files (`.part`),
 * export files (`.partial`), and the solver's and sensors' write-then-rename (`.tmp`: output
 * manifests, checkpoints, sample files), which a kill between the write and the rename leaves.
 */
const TEMPORARY_SUFFIXES = ['.part', '.partial', '.tmp']

async function entriesOf(path: string): Promise<{ name: string; directory: boolean }[]> {
  try {
    return (await readdir(path, { withFileTypes: true })).map((entry) => ({
      name: entry.name,
      directory: entry.isDirectory(),
    }))
  } catch {
    return []
  }
}

/** The leading id of an upload file name: `12.mesh`, `12-flipped.mesh`, `12.png` → 12. */
function uploadIdOf(fileName: string): number | null {
  const match = /^(\d+)[.-]/.exec(fileName)
  return match ? Number(match[1]) : null
}

async function removeTemporaries(dataDir: string, relative: string, removed: string[]) {
  for (const entry of await entriesOf(resolveStoredPath(dataDir, relative))) {
    const path = relative === '' ? entry.name : join(relative, entry.name)
    if (entry.directory) await removeTemporaries(dataDir, path, removed)
    else if (TEMPORARY_SUFFIXES.some((suffix) => entry.name.endsWith(suffix))) {
      await rm(resolveStoredPath(dataDir, path), { force: true })
      removed.push(path)
    }
  }
}

/** Removes orphans and cut temporaries under the data directory; call before anything writes. */
export async function sweepDataDirectory(db: Db, dataDir: string): Promise<SweepResult> {
  const removed: string[] = []
  const simulations = new Set(
    (await db.selectFrom('simulations').select('id').execute()).map((row) => row.id),
  )
  for (const root of PER_SIMULATION_ROOTS) {
    for (const entry of await entriesOf(resolveStoredPath(dataDir, root))) {
      const id = /^\d+$/.test(entry.name) ? Number(entry.name) : null
      if (id !== null && simulations.has(id)) continue
      if (id === null && !entry.directory) continue
      const path = join(root, entry.name)
      await rm(resolveStoredPath(dataDir, path), { recursive: true, force: true })
      removed.push(path)
    }
  }
  const uploads = new Map(
    (await db.selectFrom('uploads').select(['id', 'organization_id']).execute()).map((row) => [
      row.id,
      row.organization_id,
    ]),
  )
  for (const root of PER_UPLOAD_ROOTS) {
    for (const organization of await entriesOf(resolveStoredPath(dataDir, root))) {
      if (!organization.directory) continue
      const organizationDir = join(root, organization.name)
      for (const file of await entriesOf(resolveStoredPath(dataDir, organizationDir))) {
        const id = uploadIdOf(file.name)
        if (file.directory || id === null) continue
        if (uploads.get(id) === Number(organization.name)) continue
        const path = join(organizationDir, file.name)
        await rm(resolveStoredPath(dataDir, path), { force: true })
        removed.push(path)
      }
    }
  }
  await removeTemporaries(dataDir, '', removed)
  for (const id of simulations) await refreshSimulationSize(db, dataDir, id)
  return { removed }
}
