import type { SessionSnapshot } from '../../../../../engine/results/ResultsSession.ts'
import { useResultsSession, useResultsSessionSnapshot } from '../../../../state/resultsSession.ts'

/** Words of the banner while the server cannot be reached. */
export const CONNECTION_BANNER_TEXT = {
  reconnecting: 'Connection to the results server lost. Reconnecting...',
  failed: 'The results server could not be reached. Reload the page to try again.',
} as const

/**
 * What the banner says: nothing while all is well; reconnecting while the results session is
 * between sockets after having been open, or while the output list cannot be refreshed (the view
 * keeps what it has); failed once the session gave up (50 attempts).
 */
export function connectionBannerText(
  snapshot: SessionSnapshot,
  outputsUnreachable: boolean,
): string | null {
  if (snapshot.status === 'failed') return CONNECTION_BANNER_TEXT.failed
  const between =
    snapshot.status === 'reconnecting' || (snapshot.status === 'connecting' && snapshot.opens > 0)
  if (between || outputsUnreachable) return CONNECTION_BANNER_TEXT.reconnecting
  return null
}

/**
 * The Results page's connection state (issue 13: an outage replaced the whole page): an
 * unobtrusive banner over the view, announced politely (role status); the view stays as it is and
 * the session reconnects by itself with backoff.
 */
export function ResultsConnectionBanner({
  simulationId,
  outputsUnreachable,
}: {
  simulationId: number
  outputsUnreachable: boolean
}) {
  const session = useResultsSession(simulationId)
  const text = connectionBannerText(useResultsSessionSnapshot(session), outputsUnreachable)
  return (
    <div
      role="status"
      aria-label="Server connection"
      className={
        text ? 'results-connection-banner alert alert--warning' : 'results-connection-banner'
      }
    >
      {text}
    </div>
  )
}
