import type {
  AnalyticsEvent,
  AnalyticsEventName,
  AnalyticsProperties,
} from '../../domain/analytics.ts'
import { ANALYTICS_BATCH_MAX } from '../../domain/analytics.ts'

/** Sends one batch to the server (POST /analytics/events). */
export type SendAnalytics = (events: AnalyticsEvent[]) => Promise<unknown>

/** Collects the interface's analytics events and sends them in batches. */
export interface AnalyticsTracker {
  /** Records one event; dropped unless analytics are enabled. */
  track<N extends AnalyticsEventName>(name: N, properties: AnalyticsProperties<N>): void
  /** Enabled once the user's choice is known and they did not opt out; disabling drops the queue. */
  setEnabled(enabled: boolean): void
  /** Sends what is queued now. */
  flush(): Promise<void>
}

export interface AnalyticsTrackerOptions {
  send: SendAnalytics
  /** How long events gather before a batch goes out. */
  flushDelayMs?: number
  now?: () => Date
}

/**
 * A tracker that starts disabled, so nothing is sent before the user's choice is known, and that
 * sends nothing while the user has opted out: events are dropped, never kept for later.
 */
export function createAnalyticsTracker({
  send,
  flushDelayMs = 2000,
  now = () => new Date(),
}: AnalyticsTrackerOptions): AnalyticsTracker {
  let enabled = false
  let queue: AnalyticsEvent[] = []
  let timer: ReturnType<typeof setTimeout> | undefined

  const clearTimer = () => {
    if (timer !== undefined) clearTimeout(timer)
    timer = undefined
  }

  const flush = async () => {
    clearTimer()
    while (enabled && queue.length > 0) {
      const batch = queue.slice(0, ANALYTICS_BATCH_MAX)
      queue = queue.slice(ANALYTICS_BATCH_MAX)
      // Analytics never disturb the work: a failed batch is dropped.
      await send(batch).catch(() => undefined)
    }
  }

  return {
    track(name, properties) {
      if (!enabled) return
      queue.push({ name, properties, occurredAt: now().toISOString() } as AnalyticsEvent)
      timer ??= setTimeout(() => void flush(), flushDelayMs)
    },
    setEnabled(next) {
      enabled = next
      if (!enabled) {
        queue = []
        clearTimer()
      }
    },
    flush,
  }
}
