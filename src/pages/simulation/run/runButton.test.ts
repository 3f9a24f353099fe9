import { describe, expect, it } from 'vitest'
import { RUN_TEXTS } from '../../../../domain/rest/runRoutes.ts'
import { runStatus } from '../../../../domain/simulationState.ts'
import {
  START_LIMIT_TEXTS,
  coreOptions,
  runButtonFor,
  solverLabel,
  startLimitOf,
} from './runButton.ts'

const ready = { solverAvailable: true, setupBlocked: false }

describe('runButtonFor', () => {
  it('shows Run for a simulation that has not started', () => {
    const button = runButtonFor({ status: runStatus('not started', false, false), ...ready })
    expect(button).toEqual({
      label: 'Run',
      action: 'start',
      loading: false,
      disabled: false,
      tooltip: null,
    })
  })

  it('shows Stop while launching or running, which asks before stopping', () => {
    for (const state of ['launching', 'running', 'creating'] as const)
      expect(runButtonFor({ status: runStatus(state, true, false), ...ready })).toMatchObject({
        label: 'Stop',
        action: 'stop',
        disabled: false,
      })
  })

  it('is disabled and loading while stopping', () => {
    expect(runButtonFor({ status: runStatus('stopping', true, false), ...ready })).toMatchObject({
      label: RUN_TEXTS.stopping,
      loading: true,
      disabled: true,
    })
  })

  it('shows Resume for a stopped, locked, resumable run and Restart otherwise', () => {
    expect(runButtonFor({ status: runStatus('stopped', true, true), ...ready }).label).toBe(
      'Resume',
    )
    expect(runButtonFor({ status: runStatus('stopped', false, true), ...ready }).label).toBe(
      'Restart',
    )
    expect(runButtonFor({ status: runStatus('completed', true, false), ...ready }).action).toBe(
      'restart',
    )
    expect(runButtonFor({ status: runStatus('failed', true, false), ...ready }).label).toBe(
      'Restart',
    )
  })

  it("is disabled with 'No solver available' when no solver can run", () => {
    const button = runButtonFor({
      status: 'notStarted',
      solverAvailable: false,
      setupBlocked: false,
    })
    expect(button).toMatchObject({ disabled: true, tooltip: 'No solver available' })
  })

  it('is disabled with the fix-errors tooltip while the setup has errors or missing inputs', () => {
    const button = runButtonFor({ status: 'notStarted', solverAvailable: true, setupBlocked: true })
    expect(button).toMatchObject({
      disabled: true,
      tooltip: 'You need to fix errors and provide missing inputs before running the simulation.',
    })
    // A running simulation can always be stopped.
    expect(
      runButtonFor({ status: 'running', solverAvailable: false, setupBlocked: true }).disabled,
    ).toBe(false)
  })
})

describe('coreOptions', () => {
  it('offers 1 up to the subscription maximum, at least 1', () => {
    expect(coreOptions(4)).toEqual([1, 2, 3, 4])
    expect(coreOptions(undefined)).toEqual([1])
    expect(coreOptions(0)).toEqual([1])
  })
})

describe('solverLabel', () => {
  it('does not repeat the kind a solver name already carries (issue 14)', () => {
    expect(solverLabel({ name: 'Dive SPH (CPU)' }, false)).toBe('Dive SPH (CPU)')
  })
  it('adds CPU or GPU to a name without it', () => {
    expect(solverLabel({ name: 'Dive SPH' }, true)).toBe('Dive SPH (GPU)')
    expect(solverLabel({ name: 'Dive SPH' }, false)).toBe('Dive SPH (CPU)')
  })
})

describe('startLimitOf', () => {
  const organization = {
    activeSubscription: { freeInstance: false },
    freeInstanceOccupied: false,
    maximumSimulationsExceeded: false,
  }
  it('lets a run start within the organization’s limits', () => {
    expect(startLimitOf(organization)).toBeNull()
    expect(startLimitOf(undefined)).toBeNull()
    // Occupied matters only for a free instance subscription.
    expect(startLimitOf({ ...organization, freeInstanceOccupied: true })).toBeNull()
  })
  it('blocks a start past the maximum simulations or on an occupied free instance', () => {
    expect(startLimitOf({ ...organization, maximumSimulationsExceeded: true })).toBe(
      START_LIMIT_TEXTS.maximumSimulations,
    )
    expect(
      startLimitOf({
        activeSubscription: { freeInstance: true },
        freeInstanceOccupied: true,
        maximumSimulationsExceeded: false,
      }),
    ).toBe(START_LIMIT_TEXTS.freeInstanceOccupied)
  })
})
