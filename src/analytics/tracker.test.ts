import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { AnalyticsEvent } from '../../domain/analytics.ts'
import { createAnalyticsTracker } from './tracker.ts'

describe('createAnalyticsTracker', () => {
  let sent: AnalyticsEvent[][]
  const send = (events: AnalyticsEvent[]) => {
    sent.push(events)
    return Promise.resolve()
  }
  const now = () => new Date('2026-11-27T10:00:00.000Z')
  beforeEach(() => {
    sent = []
    vi.useFakeTimers()
  })
  afterEach(() => vi.useRealTimers())

  it('sends the events of a moment together, with when they happened', async () => {
    const tracker = createAnalyticsTracker({ send, flushDelayMs: 1000, now })
    tracker.setEnabled(true)
    tracker.track('ui_project-view_changed', { view: 'all' })
    tracker.track('ui_mesh-resolution-value_changed', { value: 0.5 })
    expect(sent).toEqual([])
    await vi.advanceTimersByTimeAsync(1000)
    expect(sent).toEqual([
      [
        {
          name: 'ui_project-view_changed',
          properties: { view: 'all' },
          occurredAt: '2026-11-27T10:00:00.000Z',
        },
        {
          name: 'ui_mesh-resolution-value_changed',
          properties: { value: 0.5 },
          occurredAt: '2026-11-27T10:00:00.000Z',
        },
      ],
    ])
  })

  it('sends nothing before the user’s choice is known or after they opted out', async () => {
    const tracker = createAnalyticsTracker({ send, flushDelayMs: 1000, now })
    tracker.track('ui_simulation_started', { simulationId: 4 })
    await vi.advanceTimersByTimeAsync(5000)
    tracker.setEnabled(true)
    tracker.track('ui_simulation_started', { simulationId: 5 })
    tracker.setEnabled(false)
    tracker.track('ui_discretize-button_clicked', {})
    await tracker.flush()
    await vi.advanceTimersByTimeAsync(5000)
    expect(sent).toEqual([])
  })

  it('keeps working after a failed batch', async () => {
    let fail = true
    const attempts: number[] = []
    const tracker = createAnalyticsTracker({
      send: (events) => {
        attempts.push(events.length)
        return fail ? Promise.reject(new Error('offline')) : Promise.resolve()
      },
      flushDelayMs: 10,
      now,
    })
    tracker.setEnabled(true)
    tracker.track('ui_project-view_changed', { view: 'own' })
    await vi.advanceTimersByTimeAsync(10)
    fail = false
    tracker.track('ui_project-view_changed', { view: 'all' })
    await vi.advanceTimersByTimeAsync(10)
    expect(attempts).toEqual([1, 1])
  })
})
