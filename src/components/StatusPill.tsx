import { statusTooltipOf, type SimulationState } from '../../domain/simulationState.ts'
import { capitalize } from '../lib/format.ts'
import { Tooltip } from './Tooltip.tsx'

/** Colour group of each state: neutral, busy (blue), paused (amber), success, danger. */
const TONES: Record<SimulationState, string> = {
  'not started': 'neutral',
  creating: 'busy',
  scheduled: 'busy',
  launching: 'busy',
  running: 'active',
  paused: 'paused',
  stopping: 'paused',
  stopped: 'muted',
  completed: 'success',
  failed: 'danger',
  'launch failed': 'danger',
  'creation failed': 'danger',
}

export function StatusPill({
  state,
  lastStopCondition = null,
}: {
  state: SimulationState
  /** What ended a stopped run by itself (null: the user stopped it, or not stopped). */
  lastStopCondition?: { valueType: string; threshold: number } | null
}) {
  return (
    <Tooltip content={statusTooltipOf(state, lastStopCondition)}>
      <span className={`pill pill--${TONES[state]}`}>
        <span className="pill__dot" aria-hidden="true" />
        {capitalize(state)}
      </span>
    </Tooltip>
  )
}
