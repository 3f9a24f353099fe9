import { describe, expect, it } from 'vitest'
import { DATA_LOAD_BATCH } from '../../domain/constants.ts'
import { PLAYBACK_LEAD_S, playbackLeadOutputs, playbackWindow } from './playbackWindow.ts'

const upcoming = Array.from({ length: 500 }, (_, n) => n)

describe('playback window', () => {
  it('reaches one batch ahead at speed 1 (10 s of playback)', () => {
    expect(playbackLeadOutputs(3)).toBe(DATA_LOAD_BATCH)
    const window = playbackWindow({
      upcoming,
      outputsPerSecond: 3,
      meanBytes: 1e6,
      estimatedBytes: () => 1e6,
      budgetBytes: 1e9,
    })
    expect(window).toEqual(upcoming.slice(0, DATA_LOAD_BATCH + 1))
  })

  it('keeps its lead time as the speed grows, in whole batches', () => {
    for (const speed of [1, 2, 4, 8, 16]) {
      const ahead = playbackLeadOutputs(3 * speed)
      expect(ahead % DATA_LOAD_BATCH).toBe(0)
      expect(ahead / (3 * speed)).toBeGreaterThanOrEqual(PLAYBACK_LEAD_S)
      // No more than one batch beyond the lead.
      expect(ahead - DATA_LOAD_BATCH).toBeLessThan(PLAYBACK_LEAD_S * 3 * speed)
    }
    // Speed 8: 24 outputs a second, 4 s = 96 outputs: four batches.
    expect(playbackLeadOutputs(24)).toBe(4 * DATA_LOAD_BATCH)
  })

  it('is cut to what the memory budget holds, but keeps the shown output and the next', () => {
    const window = playbackWindow({
      upcoming,
      outputsPerSecond: 24,
      meanBytes: 10e6,
      estimatedBytes: () => 1,
      budgetBytes: 55e6,
    })
    expect(window).toEqual([0, 1, 2, 3, 4])
    const tiny = playbackWindow({
      upcoming,
      outputsPerSecond: 24,
      meanBytes: null,
      estimatedBytes: () => 100e6,
      budgetBytes: 55e6,
    })
    expect(tiny).toEqual([0, 1])
  })

  it('stops at the end of the outputs and treats a stopped clock as speed 1', () => {
    expect(
      playbackWindow({
        upcoming: [7, 8, 9],
        outputsPerSecond: 24,
        meanBytes: null,
        estimatedBytes: () => 1,
        budgetBytes: 1e9,
      }),
    ).toEqual([7, 8, 9])
    expect(playbackLeadOutputs(0)).toBe(DATA_LOAD_BATCH)
    expect(playbackLeadOutputs(Number.NaN)).toBe(DATA_LOAD_BATCH)
  })
})
