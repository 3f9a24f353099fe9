import { useEffect, useRef } from 'react'
import {
  CONDITION_VALUE_TYPE_LABELS,
  type ConditionValueType,
} from '../../../../domain/conditions.ts'
import { TOAST_DURATION_MS } from '../../../../domain/constants.ts'
import type { Simulation } from '../../../../domain/projects.ts'
import { usePushToast } from '../../../components/Toasts.tsx'
import { simulationPageLink } from '../../projects/projectLinks.ts'
import { conditionLimitText } from './AlertsTab.tsx'
import { isRunGoingOn, useRunConditionsQuery } from './sidebarQueries.ts'

/** The toast of a warning alert, in the solver's words of its history line. */
export const WARNING_ALERT_TITLES: Record<ConditionValueType, string> = {
  time: 'Warning: physical time limit reached.',
  runtime: 'Warning: runtime limit reached.',
  credits: 'Warning: credit limit reached.',
  particle_nbr: 'Warning: particle count limit reached.',
}

/**
 * A toast when a warning alert of the running simulation triggers (issue 14: it showed nothing).
 * The active run's alerts are polled while it runs; an alert already triggered when the page
 * opened is shown by the Alerts tab, not toasted again.
 */
export function useWarningAlertToasts(simulation: Simulation) {
  const running = isRunGoingOn(simulation)
  const runId = simulation.activeRunId
  const conditions = useRunConditionsQuery(simulation, runId ?? -1, running && runId !== null)
  const pushToast = usePushToast()
  const seenRef = useRef<{ runId: number | null; triggered: Set<number> } | null>(null)

  useEffect(() => {
    const data = conditions.data
    if (!data || runId === null) return
    const triggered = data.filter((c) => c.action === 'warning' && c.triggered)
    const seen = seenRef.current
    seenRef.current = { runId, triggered: new Set(triggered.map((c) => c.id)) }
    if (!seen || seen.runId !== runId) return
    for (const condition of triggered) {
      if (seen.triggered.has(condition.id)) continue
      pushToast({
        id: `warning-alert-${condition.id}`,
        kind: 'warning',
        title: WARNING_ALERT_TITLES[condition.valueType],
        description: `${CONDITION_VALUE_TYPE_LABELS[condition.valueType]} ${condition.operator === '>=' ? '≥' : '>'} ${conditionLimitText(condition)}`,
        durationMs: TOAST_DURATION_MS.simulation,
        links: [{ label: 'Monitor', to: simulationPageLink(simulation.id, 'dashboard') }],
      })
    }
  }, [conditions.data, runId, pushToast, simulation.id])
}

/** Renders nothing: shows the warning alerts of the simulation as toasts. */
export function WarningAlertToasts({ simulation }: { simulation: Simulation }) {
  useWarningAlertToasts(simulation)
  return null
}
