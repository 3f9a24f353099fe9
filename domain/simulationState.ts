/** Simulation states of spec/results.md §4 (the server's spelling, with spaces). */
export const SIMULATION_STATES = [
  'not started',
  'creating',
  'creation failed',
  'launching',
  'launch failed',
  'running',
  'paused',
  'stopping',
  'stopped',
  'completed',
  'failed',
  'scheduled',
] as const
export type SimulationState = (typeof SIMULATION_STATES)[number]

export type RunStatus = 'resumable' | 'restartable' | 'running' | 'stopping' | 'notStarted'

const FINISHED: readonly SimulationState[] = [
  'completed',
  'launch failed',
  'creation failed',
  'stopped',
  'failed',
]

/** The derived run status that drives the Run / Stop / Resume / Restart button. */
export function runStatus(
  state: SimulationState,
  setupLocked: boolean,
  resumable: boolean,
): RunStatus {
  if (FINISHED.includes(state)) return setupLocked && resumable ? 'resumable' : 'restartable'
  if (state === 'running' || state === 'launching' || state === 'creating') return 'running'
  if (state === 'stopping') return 'stopping'
  return 'notStarted'
}

export type TimelineState = 'completed' | 'failed' | 'launching' | 'running' | 'stopped'

export function timelineState(state: SimulationState): TimelineState {
  switch (state) {
    case 'completed':
    case 'failed':
    case 'launching':
    case 'running':
      return state
    default:
      return 'stopped'
  }
}

export type ProgressBarType = 'error' | 'default' | 'pause' | 'success'

export function progressBarType(state: SimulationState): ProgressBarType {
  if (state === 'failed') return 'error'
  if (state === 'paused' || state === 'stopped') return 'pause'
  if (state === 'completed') return 'success'
  return 'default'
}

/** Tooltip of the status badge. */
export function statusTooltip(state: SimulationState): string {
  switch (state) {
    case 'launching':
      return 'The simulation is launching.'
    case 'running':
      return 'The simulation is running.'
    case 'paused':
      return 'The simulation is paused.'
    case 'failed':
      return 'Error while running the simulation.'
    case 'completed':
      return 'Successfully completed.'
    case 'stopped':
      return 'Simulation stopped by user.'
    default:
      return "Simulation hasn't started yet."
  }
}

/** Why a run stopped by itself: its stop condition (the server's lastStopCondition). */
export const STOP_CONDITION_TOOLTIPS: Readonly<Record<string, string>> = {
  time: 'Simulation stopped: physical time limit reached.',
  runtime: 'Simulation stopped: runtime limit reached.',
  credits: 'Simulation stopped: credit limit reached.',
  particle_nbr: 'Simulation stopped: particle count limit reached.',
}
/** A run the organization's credits ran out for (lastStopCondition credits at threshold 0). */
export const CREDITS_RAN_OUT_TOOLTIP = 'The simulation stopped: not enough credits left.'

/**
 * The status badge's tooltip with the stop's cause: 'Simulation stopped by user.' only when no
 * stop condition ended the run (issue 14: a credit stop read as a user's).
 */
export function statusTooltipOf(
  state: SimulationState,
  lastStopCondition: { valueType: string; threshold: number } | null,
): string {
  if (state !== 'stopped' || lastStopCondition === null) return statusTooltip(state)
  if (lastStopCondition.valueType === 'credits' && lastStopCondition.threshold === 0)
    return CREDITS_RAN_OUT_TOOLTIP
  return STOP_CONDITION_TOOLTIPS[lastStopCondition.valueType] ?? statusTooltip(state)
}

/** Toast on a state change (not shown on the dashboard); null where the spec has none. */
export function stateChangeToast(
  state: SimulationState,
): { kind: 'info' | 'error' | 'success'; message: string } | null {
  switch (state) {
    case 'launching':
      return { kind: 'info', message: 'The simulation is launching!' }
    case 'failed':
      return { kind: 'error', message: 'The simulation failed!' }
    case 'completed':
      return { kind: 'success', message: 'The simulation is completed!' }
    case 'running':
      return { kind: 'success', message: 'The simulation is started!' }
    default:
      return null
  }
}

/** Results are available once a run exists and the setup was not uploaded. */
export type PageAvailability =
  { available: true } | { available: false; message: string; toast?: string }

export const UPLOADED_SETUP_PREPROCESSOR_MESSAGE =
  "You can't modify an uploaded setup in the Preprocessor"
export const UPLOADED_SETUP_POSTPROCESSOR_MESSAGE =
  "You can't analyze an uploaded setup in the Preprocessor"
export const NOT_STARTED_POSTPROCESSOR_MESSAGE =
  "You don't have any results to analyze. Start the simulation first."
export const NOT_STARTED_TOAST = 'Please start the simulation first.'
export const RESULTS_NOT_AVAILABLE_TOOLTIP = 'Results not available.'
export const SETUP_NOT_AVAILABLE_TOOLTIP = 'Setup view not available for uploaded simulations.'

interface AvailabilityInput {
  state: SimulationState
  uploadedSetup: boolean
  activeRunId: number | null
}

export function preprocessorAvailability(sim: AvailabilityInput): PageAvailability {
  if (sim.uploadedSetup) return { available: false, message: UPLOADED_SETUP_PREPROCESSOR_MESSAGE }
  return { available: true }
}

export function postprocessorAvailability(sim: AvailabilityInput): PageAvailability {
  if (sim.uploadedSetup) return { available: false, message: UPLOADED_SETUP_POSTPROCESSOR_MESSAGE }
  if (sim.state === 'not started')
    return {
      available: false,
      message: NOT_STARTED_POSTPROCESSOR_MESSAGE,
      toast: NOT_STARTED_TOAST,
    }
  if (sim.activeRunId === null) return { available: false, message: RESULTS_NOT_AVAILABLE_TOOLTIP }
  return { available: true }
}

/** A row click opens the dashboard for an uploaded setup, otherwise the preprocessor. */
export function simulationRowTarget(sim: { uploadedSetup: boolean }): 'dashboard' | 'preprocessor' {
  return sim.uploadedSetup ? 'dashboard' : 'preprocessor'
}
