import { describe, expect, it } from 'vitest'
import {
  LAUNCH_DELAYED_MESSAGE,
  isExportFileDownloadable,
  isJobActive,
  isJobSucceeded,
  jobMessagesShown,
  jobWidgetState,
  progressTileMessage,
  progressTileStatus,
  progressTooltip,
  showsTessellationProgress,
} from './jobs.ts'

describe('job states', () => {
  it('shows an expired job as unknown in job widgets', () => {
    expect(jobWidgetState('expired')).toBe('unknown')
    expect(jobWidgetState('running')).toBe('running')
    expect(jobWidgetState('done')).toBe('done')
  })

  it('allows cancelling only scheduled or running jobs', () => {
    expect(isJobActive('scheduled')).toBe(true)
    expect(isJobActive('running')).toBe(true)
    for (const state of ['completed', 'done', 'canceled', 'failed', 'unknown', 'expired'] as const)
      expect(isJobActive(state)).toBe(false)
  })

  it('treats done and completed as success', () => {
    expect(isJobSucceeded('done')).toBe(true)
    expect(isJobSucceeded('completed')).toBe(true)
    expect(isJobSucceeded('failed')).toBe(false)
  })

  it('shows errors for a failed job and warnings otherwise', () => {
    expect(jobMessagesShown('failed')).toBe('errors')
    expect(jobMessagesShown('completed')).toBe('warnings')
  })

  it('hides the tessellation progress while running at 0', () => {
    expect(showsTessellationProgress('running', 0)).toBe(false)
    expect(showsTessellationProgress('running', 0.1)).toBe(true)
    expect(showsTessellationProgress('scheduled', 0)).toBe(true)
  })

  it("can download only export files in state 'created'", () => {
    expect(isExportFileDownloadable('created')).toBe(true)
    expect(isExportFileDownloadable('running')).toBe(false)
  })
})

describe('progress tile', () => {
  const minute = 60_000

  it('reports delay only after more than 15 minutes of launching', () => {
    expect(progressTileMessage('launching', 0, 15 * minute)).toBeNull()
    expect(progressTileMessage('launching', 0, 15 * minute + 1)).toBe(
      'Simulation delayed due to resource limits.',
    )
    expect(LAUNCH_DELAYED_MESSAGE).toBe('Simulation delayed due to resource limits.')
    expect(progressTileMessage('launching', null, 60 * minute)).toBeNull()
    expect(progressTileMessage('running', 0, 60 * minute)).toBeNull()
  })

  it('explains failed runs and failed launches', () => {
    expect(progressTileMessage('failed', null, 0)).toBe(
      'Your setup could not be simulated to completion. Please check your setup or submit a ticket.',
    )
    expect(progressTileMessage('launch failed', null, 0)).toBe(
      'The launch of the simulation job failed. Please try again soon.',
    )
  })

  it('colours creating, launching and running as in progress, completed as success', () => {
    expect(progressTileStatus('creating')).toBe('inProgress')
    expect(progressTileStatus('launching')).toBe('inProgress')
    expect(progressTileStatus('running')).toBe('inProgress')
    expect(progressTileStatus('completed')).toBe('success')
    expect(progressTileStatus('failed')).toBe('error')
    expect(progressTileStatus('launch failed')).toBe('error')
    expect(progressTileStatus('creation failed')).toBe('error')
    expect(progressTileStatus('stopped')).toBe('idle')
  })

  it('shows the progress percent as tooltip', () => {
    expect(progressTooltip(0.423)).toBe('42%')
    expect(progressTooltip(1.2)).toBe('100%')
    expect(progressTooltip(Number.NaN)).toBe('0%')
  })
})
