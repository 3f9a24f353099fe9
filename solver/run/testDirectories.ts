import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll } from 'vitest'

/**
 * Fresh data directories for a test file's runs (`prefix` names them under the system's temp
 * folder), all removed once the file's tests are done. Call it at the file's top level.
 */
export function tempDirectories(prefix: string): () => Promise<string> {
  const directories: string[] = []
  afterAll(async () => {
    await Promise.all(directories.map((d) => rm(d, { recursive: true, force: true })))
  })
  return async () => {
    const directory = await mkdtemp(join(tmpdir(), prefix))
    directories.push(directory)
    return directory
  }
}
