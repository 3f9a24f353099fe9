import { useMemo } from 'react'
import type {
  Discretization,
  DiscretizationMessage,
  DiscretizationSummary,
} from '../../../../../domain/discretization.ts'
import { isJobActive, isJobSucceeded, jobWidgetState } from '../../../../../domain/jobs.ts'
import { issue, type Issue } from '../../../../../domain/validation.ts'
import { useDiscretizationQuery } from '../queries/setupQueries.ts'

/*
 * What the latest discretization says, for the job widget and for the places that show a part's
 * problems: the explorer, the Information folder and the Input Validation bar read
 * useDiscretizationMessages (they do not fetch on their own: the query is shared).
 */

/** The particle counts of a finished discretization (domain/discretization.ts). */
export type { DiscretizationSummary }

/** The summary of a done discretization; null until it is done. */
export function summaryOf(
  discretization: Discretization | null | undefined,
): DiscretizationSummary | null {
  return discretization?.summary ?? null
}

/** A discretization message with its level: errors of a failed run, warnings otherwise. */
export interface LeveledMessage extends DiscretizationMessage {
  level: 'error' | 'warning'
}

/** Every message of a record, errors first. */
export function messagesOf(discretization: Discretization | null | undefined): LeveledMessage[] {
  if (!discretization) return []
  return [
    ...discretization.errors.map((m) => ({ ...m, level: 'error' as const })),
    ...discretization.warnings.map((m) => ({ ...m, level: 'warning' as const })),
  ]
}

/** Field of a discretization issue: 'parts.{id}.discretization', else 'discretization'. */
export function discretizationField(partId: number | null | undefined): string {
  return typeof partId === 'number' ? `parts.${partId}.discretization` : 'discretization'
}

/**
 * The messages as Input Validation items (domain Issue): errors of a failed discretization and the
 * warnings of the latest one, each on its part's field when it names a part.
 */
export function discretizationIssues(discretization: Discretization | null | undefined): Issue[] {
  return messagesOf(discretization).map((m) =>
    issue(m.level, discretizationField(m.partId), m.description),
  )
}

/** Messages by part id (the explorer's and Information folder's warnings). */
export function messagesByPart(
  discretization: Discretization | null | undefined,
): ReadonlyMap<number, LeveledMessage[]> {
  const byPart = new Map<number, LeveledMessage[]>()
  for (const message of messagesOf(discretization)) {
    if (typeof message.partId !== 'number') continue
    byPart.set(message.partId, [...(byPart.get(message.partId) ?? []), message])
  }
  return byPart
}

/**
 * The latest discretization's errors and warnings: `issues` for the Input Validation bar (fields
 * 'parts.{id}.discretization' or 'discretization'), `byPart` for a part's own list.
 */
export function useDiscretizationMessages(simulationId: number) {
  const { data } = useDiscretizationQuery(simulationId)
  return useMemo(
    () => ({ issues: discretizationIssues(data), byPart: messagesByPart(data) }),
    [data],
  )
}

/** The widget's headline for a record. */
export function discretizationStatusText(discretization: Discretization): string {
  const state = jobWidgetState(discretization.state)
  if (state === 'scheduled') return 'Discretization scheduled'
  if (state === 'running') return 'Discretizing'
  if (isJobSucceeded(state)) return 'Discretized'
  if (state === 'failed') return 'Discretization failed'
  if (state === 'canceled') return 'Discretization canceled'
  return 'Discretization state unknown'
}

/** Whether a record can still be cancelled. */
export function isDiscretizationActive(discretization: Discretization | null | undefined): boolean {
  return discretization ? isJobActive(discretization.state) : false
}
