/** Playback of outputs: the spec's rate and the timeline's steps. */
import { PLAYBACK } from '../constants.ts'

/** A speed within the playback bounds; NaN falls back to the default speed 1. */
export function clampPlaybackSpeed(speed: number): number {
  if (Number.isNaN(speed)) return PLAYBACK.speed
  return Math.min(PLAYBACK.maxSpeed, Math.max(PLAYBACK.minSpeed, speed))
}

/** One step slower: half the speed, not below 2^-10. */
export function halvePlaybackSpeed(speed: number): number {
  return clampPlaybackSpeed(speed / 2)
}

/** One step faster: twice the speed, not above 2048. */
export function doublePlaybackSpeed(speed: number): number {
  return clampPlaybackSpeed(speed * 2)
}

/** Time between playback frames: 1/3 s ÷ speed (3 × speed outputs per second). */
export function playbackFrameIntervalMs(speed: number): number {
  return 1000 / (PLAYBACK.framesPerSecond * clampPlaybackSpeed(speed))
}

/** Progress clamped to 0 … 1; NaN is 0. */
export function clampProgress(progress: number): number {
  if (Number.isNaN(progress)) return 0
  return Math.min(1, Math.max(0, progress))
}

/** The frame after `index` of `count`: wraps to 0 when looping, null at the end otherwise. */
export function nextPlaybackFrame(index: number, count: number, loop: boolean): number | null {
  if (count <= 0) return null
  if (index + 1 < count) return index + 1
  return loop ? 0 : null
}

/** Progress of frame `index` of `count` (0 for a single frame). */
export function progressForFrame(index: number, count: number): number {
  return count <= 1 ? 0 : clampProgress(index / (count - 1))
}

/** The frame nearest to a progress value. */
export function frameForProgress(progress: number, count: number): number {
  return count <= 1 ? 0 : Math.round(clampProgress(progress) * (count - 1))
}

/**
 * The outputs played by default: up to `target` (10) outputs spread evenly over the available
 * ones, first and last included.
 */
export function selectPlaybackOutputs(
  outputs: readonly number[],
  target: number = PLAYBACK.targetOutputs,
): number[] {
  const sorted = [...new Set(outputs)].sort((a, b) => a - b)
  if (sorted.length <= target) return sorted
  if (target <= 1) return sorted.slice(-1)
  const picked = new Set<number>()
  for (let i = 0; i < target; i++)
    picked.add(sorted[Math.round((i * (sorted.length - 1)) / (target - 1))] as number)
  return [...picked]
}
