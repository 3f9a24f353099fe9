import { describe, expect, it } from 'vitest'
import {
  CREDITS_RAN_OUT_TOOLTIP,
  STOP_CONDITION_TOOLTIPS,
  statusTooltipOf,
} from './simulationState.ts'

describe('statusTooltipOf', () => {
  it('says a user stopped the run only when no stop condition ended it', () => {
    expect(statusTooltipOf('stopped', null)).toBe('Simulation stopped by user.')
  })

  it('says the credits ran out for a run stopped by the organization’s credits (issue 14)', () => {
    expect(statusTooltipOf('stopped', { valueType: 'credits', threshold: 0 })).toBe(
      CREDITS_RAN_OUT_TOOLTIP,
    )
  })

  it('names the stop condition that ended the run', () => {
    expect(statusTooltipOf('stopped', { valueType: 'runtime', threshold: 1440 })).toBe(
      STOP_CONDITION_TOOLTIPS.runtime,
    )
    expect(statusTooltipOf('stopped', { valueType: 'credits', threshold: 50 })).toBe(
      'Simulation stopped: credit limit reached.',
    )
  })

  it('keeps the spec’s tooltips of the other states', () => {
    expect(statusTooltipOf('completed', { valueType: 'time', threshold: 500 })).toBe(
      'Successfully completed.',
    )
    expect(statusTooltipOf('failed', null)).toBe('Error while running the simulation.')
  })
})
