import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import * as v from 'valibot'
import {
  OUTPUT_MANIFEST_FILE,
  runDirectory,
  runLogFile,
  runNumericsFile,
} from '../../../domain/output/layout.ts'
import { RunLogLineSchema, type RunLogLine } from '../../../domain/rest/runRoutes.ts'
import type { OutputInfo } from '../../../domain/results.ts'
import { RunNumericsSchema, type RunNumerics } from '../../../domain/runNumerics.ts'

/*
 * What a run left on disk, as the run calls read it: its log lines, its numerical parameters and
 * its complete outputs (server/api/handlers/runHandlers.ts).
 */

/** The lines of a run's log file (JSON lines; a torn last line is skipped). */
export function readRunLog(dataDir: string, simulationId: number, runId: number): RunLogLine[] {
  const path = join(dataDir, runLogFile(simulationId, runId))
  if (!existsSync(path)) return []
  const lines: RunLogLine[] = []
  for (const text of readFileSync(path, 'utf8').split('\n')) {
    if (text.trim() === '') continue
    let raw: unknown
    try {
      raw = JSON.parse(text)
    } catch {
      continue
    }
    const parsed = v.safeParse(RunLogLineSchema, raw)
    if (parsed.success) lines.push(parsed.output)
  }
  return lines
}

/** The numerical parameters the solver stored for a run; null when it has not (yet) or they break. */
export function readRunNumerics(
  dataDir: string,
  simulationId: number,
  runId: number,
): RunNumerics | null {
  const path = join(dataDir, runNumericsFile(simulationId, runId))
  if (!existsSync(path)) return null
  let raw: unknown
  try {
    raw = JSON.parse(readFileSync(path, 'utf8'))
  } catch {
    return null
  }
  const parsed = v.safeParse(RunNumericsSchema, raw)
  return parsed.success ? parsed.output : null
}

/** Outputs whose manifest is on disk (the manifest is written last: its presence = complete). */
export function listRunOutputs(dataDir: string, simulationId: number, runId: number): OutputInfo[] {
  const directory = join(dataDir, runDirectory(simulationId, runId), 'outputs')
  if (!existsSync(directory)) return []
  return readdirSync(directory)
    .filter((name) => /^\d+$/.test(name) && existsSync(join(directory, name, OUTPUT_MANIFEST_FILE)))
    .map(Number)
    .sort((a, b) => a - b)
    .map((outputNo) => ({
      outputNo,
      states: { visualization: 'ready', sensor: 'pending' },
      wallSensorState: 'unknown',
    }))
}
