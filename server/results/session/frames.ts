import * as v from 'valibot'
import { ResultsClientFrameSchema } from '../../../domain/resultsProtocol.ts'
import { SocketClosedError } from './FrameSender.ts'

/** Commands the session knows, for the "unknown command" error. */
export const KNOWN_COMMANDS = new Set<string>(
  ResultsClientFrameSchema.options.map((o) => o.entries.type.literal),
)

export function describeInvalidFrame(
  raw: unknown,
  issues: readonly v.BaseIssue<unknown>[],
): string {
  const type = typeof raw === 'object' && raw !== null && 'type' in raw ? raw.type : null
  if (typeof type !== 'string') return 'The message has no command: a "type" string is required.'
  if (!KNOWN_COMMANDS.has(type))
    return `Unknown command ${type}. Known commands: ${[...KNOWN_COMMANDS].join(', ')}.`
  const issue = issues[0]
  const path = issue?.path?.map((item) => String(item.key)).join('.') ?? ''
  return `Invalid ${type} message${path ? ` at ${path}` : ''}: ${issue?.message ?? 'invalid'}`
}

export function requestIdOf(raw: unknown): number | null {
  if (typeof raw !== 'object' || raw === null || !('requestId' in raw)) return null
  const id = raw.requestId
  return typeof id === 'number' && Number.isSafeInteger(id) && id >= 0 ? id : null
}

/** Logs what went wrong with one frame; the socket may already be gone, so nothing is sent. */
export function logFrameFailure(error: unknown): void {
  if (error instanceof SocketClosedError) return
  console.error('results session: a frame failed', error)
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
