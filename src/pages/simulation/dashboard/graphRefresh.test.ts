import { describe, expect, it } from 'vitest'
import { GRAPH_REFRESH_MS } from '../../../../domain/dashboards.ts'
import { isGraphRefreshDue } from './graphRefresh.ts'

const FETCHED = 1_000_000

describe('graph refresh (pushed progress, 10 s poll as the fallback)', () => {
  it('never fetches within 10 s of the last fetch, however much progress is pushed', () => {
    for (const after of [0, 1000, GRAPH_REFRESH_MS - 1])
      expect(
        isGraphRefreshDue({
          nowMs: FETCHED + after,
          fetchedAtMs: FETCHED,
          pushedAtMs: FETCHED + after,
          fetching: false,
        }),
      ).toBe(false)
  })

  it('fetches as soon as 10 s have passed when progress was pushed since the last fetch', () => {
    const state = { fetchedAtMs: FETCHED, pushedAtMs: FETCHED + 4000, fetching: false }
    expect(isGraphRefreshDue({ ...state, nowMs: FETCHED + GRAPH_REFRESH_MS })).toBe(true)
    expect(isGraphRefreshDue({ ...state, nowMs: FETCHED + GRAPH_REFRESH_MS, fetching: true })).toBe(
      false,
    )
  })

  it('waits for progress while it was pushed lately, and polls when none came for 20 s', () => {
    const quiet = { fetchedAtMs: FETCHED, pushedAtMs: FETCHED - 5000, fetching: false }
    expect(isGraphRefreshDue({ ...quiet, nowMs: FETCHED + GRAPH_REFRESH_MS })).toBe(false)
    expect(isGraphRefreshDue({ ...quiet, nowMs: FETCHED - 5000 + 2 * GRAPH_REFRESH_MS })).toBe(true)
  })

  it('polls every 10 s when nothing was ever pushed (the live channel is down)', () => {
    const state = { fetchedAtMs: FETCHED, pushedAtMs: null, fetching: false }
    expect(isGraphRefreshDue({ ...state, nowMs: FETCHED + GRAPH_REFRESH_MS - 1 })).toBe(false)
    expect(isGraphRefreshDue({ ...state, nowMs: FETCHED + GRAPH_REFRESH_MS })).toBe(true)
  })
})
