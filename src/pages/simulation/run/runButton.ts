import { RUN_TEXTS, START_LIMIT_TEXTS } from '../../../../domain/rest/runRoutes.ts'
import type { RunStatus } from '../../../../domain/simulationState.ts'

/** What pressing the run button does. */
export type RunAction = 'start' | 'stop' | 'resume' | 'restart' | 'none'

/** The run button of the simulation header for one run status (spec/results.md §2). */
export interface RunButton {
  label: string
  action: RunAction
  /** Disabled and showing a spinner (stopping). */
  loading: boolean
  disabled: boolean
  /** Why it is disabled, as its tooltip. */
  tooltip: string | null
}

export interface RunButtonInput {
  status: RunStatus
  /** At least one solver can run (GET /solvers). */
  solverAvailable: boolean
  /** The setup has errors or missing inputs (not checked for uploaded setups). */
  setupBlocked: boolean
}

/**
 * not started → Run; running → Stop (asks first); stopping → disabled, loading; restartable →
 * Restart; resumable → Resume. Starting is disabled with a tooltip when no solver is available
 * or the setup needs fixing.
 */
export function runButtonFor({ status, solverAvailable, setupBlocked }: RunButtonInput): RunButton {
  const startBlockedBy = !solverAvailable
    ? RUN_TEXTS.noSolver
    : setupBlocked && status === 'notStarted'
      ? RUN_TEXTS.startBlocked
      : null
  switch (status) {
    case 'running':
      return {
        label: RUN_TEXTS.stop,
        action: 'stop',
        loading: false,
        disabled: false,
        tooltip: null,
      }
    case 'stopping':
      return {
        label: RUN_TEXTS.stopping,
        action: 'none',
        loading: true,
        disabled: true,
        tooltip: null,
      }
    case 'resumable':
      return {
        label: RUN_TEXTS.resume,
        action: 'resume',
        loading: false,
        disabled: startBlockedBy !== null,
        tooltip: startBlockedBy,
      }
    case 'restartable':
      return {
        label: RUN_TEXTS.restart,
        action: 'restart',
        loading: false,
        disabled: startBlockedBy !== null,
        tooltip: startBlockedBy,
      }
    case 'notStarted':
      return {
        label: RUN_TEXTS.run,
        action: 'start',
        loading: false,
        disabled: startBlockedBy !== null,
        tooltip: startBlockedBy,
      }
  }
}

/** Core options: 1 … the subscription's maximum cores (at least 1). */
export function coreOptions(maxCores: number | undefined): number[] {
  const max = Math.max(1, Math.floor(maxCores ?? 1))
  return Array.from({ length: max }, (_, i) => i + 1)
}

/**
 * A solver as people read it: its name with CPU or GPU, unless the name already says so
 * ('Dive SPH (CPU)', not 'Dive SPH (CPU) (CPU)'; 'Dive SPH GPU (NVIDIA H200)' as it is).
 */
export function solverLabel(solver: { name: string }, gpu: boolean): string {
  const kind = gpu ? 'GPU' : 'CPU'
  return new RegExp(`\\b${kind}\\b`).test(solver.name) ? solver.name : `${solver.name} (${kind})`
}

/** Why the organization cannot start another run now (domain: the start call refuses with them). */
export { START_LIMIT_TEXTS }

/**
 * The organization's limits on starting a run: the maximum number of simulations, and a free
 * instance subscription whose one instance is taken. Null when a run may start.
 */
export function startLimitOf(
  organization:
    | {
        activeSubscription: { freeInstance: boolean } | null
        freeInstanceOccupied: boolean
        maximumSimulationsExceeded: boolean
      }
    | null
    | undefined,
): string | null {
  if (!organization) return null
  if (organization.maximumSimulationsExceeded) return START_LIMIT_TEXTS.maximumSimulations
  if (organization.activeSubscription?.freeInstance && organization.freeInstanceOccupied)
    return START_LIMIT_TEXTS.freeInstanceOccupied
  return null
}
