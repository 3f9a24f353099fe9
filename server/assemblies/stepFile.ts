import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { resolveStoredPath } from '../storage/files.ts'

/*
 * STEP files (ISO 10303-21) on disk and by content. A STEP file opens with the token
 * 'ISO-10303-21;' (after an optional byte-order mark, white space and comments); an upload named
 * .stp or .step that does not is refused as a potential security risk (spec/setup.md §5, as an
 * STL that is no STL).
 */

/** How many first bytes decide whether a file is STEP. */
export const STEP_SNIFF_BYTES = 4096

const STEP_MAGIC = 'ISO-10303-21;'

/** Whether the first bytes of a file are those of a STEP file. */
export function looksLikeStep(head: Uint8Array): boolean {
  let text = new TextDecoder('latin1').decode(head.subarray(0, STEP_SNIFF_BYTES))
  text = text.replace(/^\u00ef\u00bb\u00bf/, '')
  for (;;) {
    text = text.trimStart()
    if (!text.startsWith('/*')) break
    const end = text.indexOf('*/')
    if (end < 0) return false
    text = text.slice(end + 2)
  }
  return text.startsWith(STEP_MAGIC)
}

/** Where the STEP file of an assembly is kept, relative to the data directory. */
export function assemblyStoredPath(simulationId: number, assemblyId: number): string {
  return join(assembliesDirectory(simulationId), `${assemblyId}.step`)
}

/** The directory of a simulation's STEP files, relative to the data directory. */
export function assembliesDirectory(simulationId: number): string {
  return join('assemblies', String(simulationId))
}

/** Removes the STEP files of a deleted simulation. */
export async function removeAssemblyFiles(dataDir: string, simulationId: number): Promise<void> {
  await rm(resolveStoredPath(dataDir, assembliesDirectory(simulationId)), {
    recursive: true,
    force: true,
  })
}
