import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { GRAPH_REFRESH_MS } from '../../../../domain/dashboards.ts'
import type { Simulation } from '../../../../domain/projects.ts'
import { isRunLive, logGraphsKey } from './dashboardQueries.ts'

/*
 * Graph tiles follow the run's progress pushed on /ws/live (each log line updates the simulation's
 * `log` in the cache), at most once per 10 s (spec/results.md §9: graphs 10 s). While nothing is
 * pushed for two periods (the live channel down, a run still launching) they poll every 10 s.
 */

/** How often the page checks whether the graphs are due: the solver logs a line a second. */
export const GRAPH_REFRESH_CHECK_MS = 1000

/** What decides a refresh of the graphs (all times in ms since the epoch). */
export interface GraphRefreshState {
  nowMs: number
  /** When the graphs the tiles show were fetched (0: never). */
  fetchedAtMs: number
  /** When progress was last pushed, null when none was since the page opened. */
  pushedAtMs: number | null
  fetching: boolean
}

/**
 * True when the graphs should be fetched now: never within 10 s of the last fetch; then at once
 * when progress was pushed since that fetch, or as the fallback poll when none was pushed for
 * two periods.
 */
export function isGraphRefreshDue(state: GraphRefreshState): boolean {
  const { nowMs, fetchedAtMs, pushedAtMs, fetching } = state
  if (fetching || nowMs - fetchedAtMs < GRAPH_REFRESH_MS) return false
  if (pushedAtMs === null) return true
  return pushedAtMs > fetchedAtMs || nowMs - pushedAtMs >= 2 * GRAPH_REFRESH_MS
}

/**
 * Keeps the log graphs of a live run fresh (pushed progress first, the 10 s poll as the fallback):
 * one per page, beside the tiles that read useLogGraphsQuery.
 */
export function useLogGraphsRefresh(simulation: Simulation): void {
  const queryClient = useQueryClient()
  const live = isRunLive(simulation) && simulation.activeRunId !== null
  const key = logGraphsKey(simulation)
  const keyText = JSON.stringify(key)
  const pushedAtRef = useRef<number | null>(null)
  const progressTime = simulation.log?.time ?? null
  const seenTimeRef = useRef(progressTime)
  useEffect(() => {
    if (progressTime === seenTimeRef.current) return
    seenTimeRef.current = progressTime
    pushedAtRef.current = Date.now()
  }, [progressTime])
  // The run's last lines came after the last refresh: fetch once more when it ends.
  const wasLiveRef = useRef(live)
  useEffect(() => {
    if (wasLiveRef.current && !live)
      void queryClient.invalidateQueries({ queryKey: JSON.parse(keyText) as unknown[] })
    wasLiveRef.current = live
  }, [live, keyText, queryClient])
  useEffect(() => {
    if (!live) return
    const queryKey = JSON.parse(keyText) as unknown[]
    const timer = setInterval(() => {
      const state = queryClient.getQueryState(queryKey)
      const due = isGraphRefreshDue({
        nowMs: Date.now(),
        fetchedAtMs: state?.dataUpdatedAt ?? 0,
        pushedAtMs: pushedAtRef.current,
        fetching: state?.fetchStatus === 'fetching',
      })
      if (due) void queryClient.refetchQueries({ queryKey, exact: true, type: 'active' })
    }, GRAPH_REFRESH_CHECK_MS)
    return () => clearInterval(timer)
  }, [live, keyText, queryClient])
}
