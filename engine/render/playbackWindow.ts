/**
 * The playback window: which outputs to have loaded ahead of the playhead. It reaches at least
 * PLAYBACK_LEAD_S of playback ahead, in whole batches of DATA_LOAD_BATCH outputs (spec/results.md
 * §9), so the lead time does not shrink as the speed grows (one batch is 10 s at speed 1 but
 * 1.25 s at speed 8), and never more than the memory budget holds.
 */
import { DATA_LOAD_BATCH } from '../../domain/constants.ts'

/** Seconds of playback the window reaches ahead at least (rounded up to whole batches). */
export const PLAYBACK_LEAD_S = 4

/** What the window is cut from. */
export interface PlaybackWindowInput {
  /** The shown output and every output after it in play order. */
  upcoming: readonly number[]
  /** Outputs shown per second at the playback speed (3 × speed). */
  outputsPerSecond: number
  /** The bytes the outputs held take on average (null: none held yet). */
  meanBytes: number | null
  /** An output's estimated bytes (used while none is held). */
  estimatedBytes: (outputNo: number) => number
  budgetBytes: number
}

/** Outputs ahead of the shown one: whole batches covering PLAYBACK_LEAD_S at the given rate. */
export function playbackLeadOutputs(outputsPerSecond: number): number {
  const rate = Number.isFinite(outputsPerSecond) && outputsPerSecond > 0 ? outputsPerSecond : 0
  const batches = Math.max(1, Math.ceil((PLAYBACK_LEAD_S * rate) / DATA_LOAD_BATCH))
  return batches * DATA_LOAD_BATCH
}

/**
 * The shown output and the outputs after it to have loaded: {@link playbackLeadOutputs} ahead,
 * shortened to what the budget holds (each counted at the mean size of those held, else at its
 * estimate); the shown output and the next one whatever their size.
 */
export function playbackWindow(input: PlaybackWindowInput): number[] {
  const ahead = playbackLeadOutputs(input.outputsPerSecond)
  const window: number[] = []
  let bytes = 0
  for (const outputNo of input.upcoming) {
    if (window.length > ahead) break
    bytes += input.meanBytes ?? input.estimatedBytes(outputNo)
    if (window.length >= 2 && bytes > input.budgetBytes) break
    window.push(outputNo)
  }
  return window
}
