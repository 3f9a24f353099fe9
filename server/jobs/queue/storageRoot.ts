import { randomBytes } from 'node:crypto'
import { readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { sql } from 'kysely'
import type { Db } from '../jobContext.ts'

/*
 * The storage root every machine mounts (DIVE_DATA_DIR): outputs, checkpoints, uploads, exports.
 * The server of remote workers marks it with its database's name; a worker starts only where it
 * finds that mark for the database it works on, so one that does not mount the share (an empty
 * local folder) refuses to start instead of writing outputs nobody can read.
 */

export const STORAGE_ROOT_MARK = '.dive-storage-root.json'

interface StorageRootMark {
  database: string
  markedAt: string
}

async function databaseName(db: Db): Promise<string> {
  const { rows } = await sql<{ name: string }>`select current_database() as name`.execute(db)
  return rows[0]?.name ?? ''
}

async function readMark(dataDir: string): Promise<StorageRootMark | null> {
  try {
    return JSON.parse(await readFile(join(dataDir, STORAGE_ROOT_MARK), 'utf8')) as StorageRootMark
  } catch {
    return null
  }
}

/** Marks the storage root for this database (written through a temporary name, as every file). */
export async function markStorageRoot(dataDir: string, db: Db, nowIso: string): Promise<void> {
  const database = await databaseName(db)
  if ((await readMark(dataDir))?.database === database) return
  const path = join(dataDir, STORAGE_ROOT_MARK)
  const temporary = `${path}.${randomBytes(4).toString('hex')}.tmp`
  await writeFile(
    temporary,
    JSON.stringify({ database, markedAt: nowIso } satisfies StorageRootMark),
  )
  await rename(temporary, path)
}

/** Throws, saying what to fix, unless dataDir is the storage root of this database's server. */
export async function checkStorageRoot(dataDir: string, db: Db): Promise<void> {
  const database = await databaseName(db)
  const mark = await readMark(dataDir)
  if (mark?.database === database) return
  throw new Error(
    mark
      ? `DIVE_DATA_DIR ${dataDir} is the storage root of database ${mark.database}, not ${database}.`
      : `DIVE_DATA_DIR ${dataDir} is not the server's storage root (no ${STORAGE_ROOT_MARK}): mount the share the server uses and start the server (DIVE_JOB_WORKERS=remote) first.`,
  )
}
