import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import type { StoredAnalyticsEvent } from '../../../domain/analytics.ts'
import {
  ANALYTICS_CSV_NAME,
  ANALYTICS_MAX_PAGE_LIMIT,
  analyticsEventsCsv,
} from '../../../domain/analytics.ts'
import { formatNumber } from '../../../domain/units.ts'
import { analyticsTracker } from '../../analytics/analytics.ts'
import { messageOf } from '../../api/ApiError.ts'
import { callApi } from '../../api/index.ts'
import { usePushToast } from '../../components/Toasts.tsx'
import { routeKey } from '../../queries/queries.ts'
import { downloadText } from './downloadText.ts'

function useAnalyticsPreference() {
  return useQuery({
    queryKey: routeKey('analyticsPreference'),
    queryFn: ({ signal }) => callApi('analyticsPreference', {}, { signal }),
    staleTime: 5 * 60_000,
  })
}

/**
 * Turns the app's analytics on once the user's choice is known and they did not opt out (the
 * menu bar mounts it for every logged-in page).
 */
export function useAnalyticsConsent(): void {
  const { data } = useAnalyticsPreference()
  const enabled = data !== undefined && !data.optOut
  useEffect(() => {
    analyticsTracker.setEnabled(enabled)
  }, [enabled])
}

/** Message after the choice was saved. */
export const ANALYTICS_SAVED = {
  optOut: 'Usage analytics turned off',
  optIn: 'Usage analytics turned on',
}

/** Profile: the opt-out of usage analytics. */
export function AnalyticsPreferenceCard() {
  const queryClient = useQueryClient()
  const pushToast = usePushToast()
  const preference = useAnalyticsPreference()
  const save = useMutation({
    mutationFn: (optOut: boolean) => callApi('updateAnalyticsPreference', { body: { optOut } }),
    onSuccess: (saved) => {
      analyticsTracker.setEnabled(!saved.optOut)
      queryClient.setQueryData(routeKey('analyticsPreference'), saved)
      pushToast({
        kind: 'success',
        title: saved.optOut ? ANALYTICS_SAVED.optOut : ANALYTICS_SAVED.optIn,
      })
    },
    onError: (error) =>
      pushToast({
        kind: 'error',
        title: 'Could not save your analytics choice',
        description: messageOf(error),
      }),
  })
  return (
    <section className="card card--padded" aria-labelledby="analytics-preference">
      <h2 id="analytics-preference" className="card__title">
        Usage analytics
      </h2>
      <p className="muted">
        Dive records a few choices you make (for example the quantity you colour results by or when
        you start a simulation) to improve the product. Nothing else is recorded.
      </p>
      {preference.data && (
        <label className="check">
          <input
            type="checkbox"
            checked={!preference.data.optOut}
            disabled={save.isPending}
            onChange={(event) => save.mutate(!event.target.checked)}
          />
          Send usage analytics
        </label>
      )}
    </section>
  )
}

/** Every stored event since `startDate`, page after page, for the export. */
async function allEvents(startDate: string): Promise<StoredAnalyticsEvent[]> {
  const events: StoredAnalyticsEvent[] = []
  for (let pageNumber = 1; ; pageNumber++) {
    const page = await callApi('adminAnalyticsEvents', {
      query: { startDate, pageNumber, pageLimit: ANALYTICS_MAX_PAGE_LIMIT },
    })
    events.push(...page.results)
    if (pageNumber >= page.pageCount) return events
  }
}

/** How far back the overview's analytics report reaches. */
const REPORT_DAYS = 30

/** Overview, for provider members (ACCESS_GRANT_SELECTION): events of the last 30 days and the export. */
export function AnalyticsReportCard() {
  const pushToast = usePushToast()
  const [startDate] = useState(() => new Date(Date.now() - REPORT_DAYS * 86_400_000).toISOString())
  const summary = useQuery({
    queryKey: routeKey('adminAnalyticsSummary', { query: { startDate } }),
    queryFn: ({ signal }) => callApi('adminAnalyticsSummary', { query: { startDate } }, { signal }),
  })
  const download = useMutation({
    mutationFn: async () =>
      downloadText(ANALYTICS_CSV_NAME, analyticsEventsCsv(await allEvents(startDate))),
    onError: (error) =>
      pushToast({
        kind: 'error',
        title: 'Could not export the analytics',
        description: messageOf(error),
      }),
  })
  return (
    <section className="card card--padded" aria-labelledby="analytics-report">
      <h2 id="analytics-report" className="card__title">
        Usage analytics (last {REPORT_DAYS} days)
      </h2>
      {summary.isPending && <p className="muted">Loading…</p>}
      {summary.isError && (
        <p role="alert">Could not load the analytics: {messageOf(summary.error)}</p>
      )}
      {summary.data?.length === 0 && (
        <p className="muted">No events in the last {REPORT_DAYS} days.</p>
      )}
      {summary.data !== undefined && summary.data.length > 0 && (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Times</th>
              <th scope="col">Users</th>
            </tr>
          </thead>
          <tbody>
            {summary.data.map((row) => (
              <tr key={row.name}>
                <td>{row.name}</td>
                <td>{formatNumber(row.count)}</td>
                <td>{formatNumber(row.users)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div className="settings-actions">
        <button
          type="button"
          className="button button--secondary"
          disabled={download.isPending}
          onClick={() => download.mutate()}
        >
          {download.isPending ? 'Exporting…' : 'Download as CSV'}
        </button>
      </div>
    </section>
  )
}
