import { useEffect } from 'react'
import { CONNECTION_TOAST_MS } from '../../../../../domain/constants.ts'
import type { ConnectionToastState } from '../../../../../domain/liveProtocol.ts'
import type { Simulation } from '../../../../../domain/projects.ts'
import { usePushToast } from '../../../../components/Toasts.tsx'
import { useResultsSession, useResultsSessionSnapshot } from '../../../../state/resultsSession.ts'

/** Words of the results-session connection toast. */
export const RESULTS_CONNECTION_TOAST_TEXT: Record<ConnectionToastState, string> = {
  connected: 'Connected to the results server.',
  reconnecting: 'Connection to the results server lost. Reconnecting...',
  reconnected: 'Reconnected to the results server.',
}

/**
 * The connection toast of the Results page (spec/results.md §4 "Connection toast"): connected,
 * reconnecting, reconnected, each shown 3 s. Renders nothing itself; the toast stack shows it.
 */
export function ResultsConnectionToast({ simulation }: { simulation: Simulation }) {
  const session = useResultsSession(simulation.id)
  const toast = useResultsSessionSnapshot(session).toast
  const pushToast = usePushToast()
  useEffect(() => {
    if (!toast) return
    pushToast({
      // One id: a new state replaces the one on screen instead of stacking.
      id: `results-connection-${simulation.id}`,
      kind: toast.state === 'reconnecting' ? 'warning' : 'success',
      title: RESULTS_CONNECTION_TOAST_TEXT[toast.state],
      durationMs: CONNECTION_TOAST_MS,
    })
  }, [toast, pushToast, simulation.id])
  return null
}
