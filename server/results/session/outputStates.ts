import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { OUTPUT_MANIFEST_FILE, runDirectory } from '../../../domain/output/layout.ts'
import type { OutputState } from '../../../domain/results.ts'

/** Output numbers whose manifest is on disk (complete outputs), ascending. */
export async function listCompleteOutputNumbers(
  dataDir: string,
  simulationId: number,
  runId: number,
): Promise<number[]> {
  const directory = join(dataDir, runDirectory(simulationId, runId), 'outputs')
  let names: string[]
  try {
    names = await readdir(directory)
  } catch {
    return []
  }
  const numbers = await Promise.all(
    names
      .filter((name) => /^\d{1,12}$/.test(name))
      .map(async (name) => {
        try {
          await stat(join(directory, name, OUTPUT_MANIFEST_FILE))
          return Number(name)
        } catch {
          return null
        }
      }),
  )
  return numbers.filter((n): n is number => n !== null).sort((a, b) => a - b)
}

/** What sys.sync compares against: the states the client was last told, per simulation. */
export interface SyncBaseline {
  runId: number | null
  viz: Map<number, OutputState>
  sensor: Map<number, OutputState>
}

export function diffStates(
  baseline: Map<number, OutputState>,
  current: readonly { outputNo: number; state: OutputState }[],
): { outputNo: number; state: OutputState }[] {
  const changed = current.filter((entry) => baseline.get(entry.outputNo) !== entry.state)
  for (const entry of current) baseline.set(entry.outputNo, entry.state)
  return changed
}
