import { randomBytes } from 'node:crypto'
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises'
import { dirname, join, resolve, sep } from 'node:path'
import { decodeMeshFile } from '../../domain/meshFile.ts'
import type { TriangleMesh } from '../../solver/geometry/mesh.ts'

/*
 * Files of the setup under the data directory: uploads/{organizationId}/{uploadId}.{mesh|csv}.
 * Paths in the database are relative to the data directory, so a moved data directory still works.
 */

/** Where upload `uploadId` of an organization is kept, relative to the data directory. */
export function uploadStoredPath(
  organizationId: number,
  uploadId: number,
  kind: 'stl' | 'csv',
): string {
  return join('uploads', String(organizationId), `${uploadId}.${kind === 'stl' ? 'mesh' : 'csv'}`)
}

/** The absolute path of a stored relative path; refuses anything that leaves the data directory. */
export function resolveStoredPath(dataDir: string, storedPath: string): string {
  const root = resolve(dataDir)
  const path = resolve(root, storedPath)
  if (path !== root && !path.startsWith(root + sep))
    throw new Error(`Stored path outside the data directory: ${storedPath}`)
  return path
}

/** Writes a file atomically: a temporary sibling first, then a rename, so readers never see half a file. */
export async function writeStoredFile(
  dataDir: string,
  storedPath: string,
  bytes: Uint8Array,
): Promise<void> {
  const path = resolveStoredPath(dataDir, storedPath)
  await mkdir(dirname(path), { recursive: true })
  // A name of its own: two writers of the same file never share a temporary.
  const temporary = `${path}.${process.pid}-${randomBytes(4).toString('hex')}.part`
  try {
    await writeFile(temporary, bytes)
    await rename(temporary, path)
  } catch (error) {
    await rm(temporary, { force: true })
    throw error
  }
}

export async function removeStoredFile(dataDir: string, storedPath: string): Promise<void> {
  await rm(resolveStoredPath(dataDir, storedPath), { force: true })
}

/** The mesh of a stored STL upload (metres, the file's own coordinates). */
export async function readStoredMesh(dataDir: string, storedPath: string): Promise<TriangleMesh> {
  return decodeMeshFile(new Uint8Array(await readFile(resolveStoredPath(dataDir, storedPath))))
}
