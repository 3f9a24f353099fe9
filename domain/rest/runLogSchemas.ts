/**
 * The run log's calls (spec/results.md §7 logs, the Run sidebar's History tab): the values of a
 * log line, the logs query and reply, and a run's history with levels.
 */
import * as v from 'valibot'
import { LOG_LEVELS } from '../constants.ts'
import { idQuerySchema } from '../ids.ts'

/** Names of the values of a log line (the `key` query of GET /simulations/{id}/logs). */
export const LOG_KEYS = [
  'time',
  'runtime',
  'runtimeLeft',
  'particles',
  'dt',
  'progress',
  'output',
] as const
/** One log value name. */
export type LogKey = (typeof LOG_KEYS)[number]

/**
 * One log line of a run as the solver logs it (solver/run/types.ts RunLogLine): physical time
 * (ms), runtime (ms of wall time), runtimeLeft (ms, null while unknown), particle count, time
 * step dt (s), progress 0 … 1, last output number (−1 before the first).
 */
export const RunLogLineSchema = v.object({
  time: v.number(),
  runtime: v.number(),
  runtimeLeft: v.nullable(v.number()),
  particles: v.number(),
  dt: v.number(),
  progress: v.number(),
  output: v.number(),
})
/** One log line of a run. */
export type RunLogLine = v.InferOutput<typeof RunLogLineSchema>

/** GET /simulations/{id}/logs query: repeated `key` picks the values (default all); runId. */
export const LogQuerySchema = v.object({
  key: v.optional(
    v.pipe(
      v.union([v.string(), v.array(v.string())]),
      v.transform((value) => (Array.isArray(value) ? value : value.split(','))),
      v.array(v.picklist(LOG_KEYS, 'key must be one of ' + LOG_KEYS.join(', '))),
    ),
  ),
  runId: v.optional(idQuerySchema('runId')),
})

/** GET /simulations/{id}/logs: the lines of one run with the requested values. */
export const LogListSchema = v.object({
  runId: v.nullable(v.number()),
  lines: v.array(v.partial(RunLogLineSchema)),
})
/** GET /simulations/{id}/logs reply. */
export type LogList = v.InferOutput<typeof LogListSchema>

/** GET /simulations/{id}/history query: the run (default: the active run). */
export const HistoryQuerySchema = v.object({ runId: v.optional(idQuerySchema('runId')) })

/**
 * One entry of a run's history (the Run sidebar's History tab): when, its level (spec/results.md
 * §9 log levels) and its words. Progress lines of the solver are DEBUG entries, sent to admins only.
 */
export const RunHistoryEntrySchema = v.object({
  at: v.string(),
  level: v.picklist(LOG_LEVELS),
  message: v.string(),
})
/** One entry of a run's history. */
export type RunHistoryEntry = v.InferOutput<typeof RunHistoryEntrySchema>

/** GET /simulations/{id}/history: the run's log, oldest first (runId null: no run yet). */
export const RunHistorySchema = v.object({
  runId: v.nullable(v.number()),
  entries: v.array(RunHistoryEntrySchema),
})
/** GET /simulations/{id}/history reply. */
export type RunHistory = v.InferOutput<typeof RunHistorySchema>
