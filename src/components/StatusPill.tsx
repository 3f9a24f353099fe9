import { statusTooltip, type SimulationState } from '../../domain/simulationState.ts'
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

export function StatusPill({ state }: { state: SimulationState }) {
  return (
    <Tooltip content={statusTooltip(state)}>
      <span className={`pill pill--${TONES[state]}`} tabIndex={0}>
        <span className="pill__dot" aria-hidden="true" />
        {capitalize(state)}
      </span>
    </Tooltip>
  )
}
