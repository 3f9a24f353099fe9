import type { AnalyticsEventName, AnalyticsProperties } from '../../domain/analytics.ts'
import { callApi } from '../api/index.ts'
import { createAnalyticsTracker } from './tracker.ts'

/** The app's one tracker; AnalyticsConsent enables it from the user's choice. */
export const analyticsTracker = createAnalyticsTracker({
  send: (events) => callApi('trackAnalytics', { body: { events } }),
})

if (typeof window !== 'undefined')
  window.addEventListener('pagehide', () => void analyticsTracker.flush())

/** Reports one analytics event of the spec (sent only if the user did not opt out). */
export function trackEvent<N extends AnalyticsEventName>(
  name: N,
  properties: AnalyticsProperties<N>,
): void {
  analyticsTracker.track(name, properties)
}
