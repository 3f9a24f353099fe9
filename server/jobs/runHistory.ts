import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import * as v from 'valibot'
import { LOG_LEVELS } from '../../domain/constants.ts'
import { runLogFile } from '../../domain/output/layout.ts'
import type { RunHistoryEntry } from '../../domain/rest/runRoutes.ts'
import { formatCount, formatNumber } from '../../domain/units.ts'

/*
 * A run's history (spec/results.md §2 Run sidebar, History): the lines of its log file
 * (solver/run appends one JSON object per line) as leveled messages. Lines with a message
 * (start, numerical parameters, outputs, warnings, the end) keep the solver's level; progress
 * lines carry none and become DEBUG entries describing the step, which only admins see.
 */

/** The fields of a log line the history reads (solver/run/types.ts RunLogLine). */
const HistoryLineSchema = v.object({
  at: v.string(),
  level: v.picklist(LOG_LEVELS),
  message: v.optional(v.string()),
  time: v.number(),
  dt: v.number(),
  particles: v.number(),
  output: v.number(),
  step: v.optional(v.number()),
})
type HistoryLine = v.InferOutput<typeof HistoryLineSchema>

/** A progress line in words: step, simulated time, time step, particles and last output. */
export function progressMessage(line: HistoryLine): string {
  const parts = [
    ...(line.step === undefined ? [] : [`Step ${formatCount(line.step)}`]),
    `t = ${formatNumber(line.time / 1000, 6)} s`,
    `dt = ${formatNumber(line.dt, 4)} s`,
    `${formatCount(line.particles)} particles`,
    line.output < 0 ? 'no output yet' : `last output ${line.output}`,
  ]
  return `${parts.join(', ')}.`
}

/** One log line as a history entry. */
function entryOf(line: HistoryLine): RunHistoryEntry {
  if (line.message !== undefined) return { at: line.at, level: line.level, message: line.message }
  return { at: line.at, level: 'DEBUG', message: progressMessage(line) }
}

/** The end of a run as its row records it (the runner's message when the solver logged none). */
export interface RunEnd {
  state: string
  message: string | null
  endedAt: string | null
}

/**
 * The history of a run, oldest first: its log file's lines, then the run's end message when the
 * log does not already end with it (a failure the runner recorded, e.g. a server restart).
 * `withDebug` false leaves the DEBUG entries out.
 */
export function readRunHistory(
  dataDir: string,
  simulationId: number,
  runId: number,
  end: RunEnd,
  withDebug: boolean,
): RunHistoryEntry[] {
  const path = join(dataDir, runLogFile(simulationId, runId))
  const entries: RunHistoryEntry[] = []
  if (existsSync(path))
    for (const text of readFileSync(path, 'utf8').split('\n')) {
      if (text.trim() === '') continue
      let raw: unknown
      try {
        raw = JSON.parse(text)
      } catch {
        continue // a torn last line
      }
      const parsed = v.safeParse(HistoryLineSchema, raw)
      if (parsed.success) entries.push(entryOf(parsed.output))
    }
  if (end.message !== null && !entries.some((entry) => entry.message === end.message))
    entries.push({
      at: end.endedAt ?? entries.at(-1)?.at ?? new Date(0).toISOString(),
      level: end.state === 'failed' || end.state === 'launch failed' ? 'ERROR' : 'INFO',
      message: end.message,
    })
  return withDebug ? entries : entries.filter((entry) => entry.level !== 'DEBUG')
}
