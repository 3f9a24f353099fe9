/**
 * The loading status (outputs loaded and loading) goes to the UI at most once per
 * DATA_LOAD_STATUS_THROTTLE_MS (spec/results.md §9: status throttle 1000 ms): at playback speed 8 it
 * changes 24 times a second, and each change would otherwise send a snapshot and re-render the
 * page's loading readouts. A change after a quiet second goes out at once; later ones wait for the
 * end of the second, and the latest of them goes out then.
 */
import { DATA_LOAD_STATUS_THROTTLE_MS } from '../../domain/constants.ts'

/** Output numbers loaded and being loaded, as the snapshot carries them. */
export interface LoadStatus {
  loadedOutputs: number[]
  loadingOutputs: number[]
}

function sameNumbers(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((value, index) => value === b[index])
}

/** Throttles the loading status; the clock and the wake-up come from outside. */
export class LoadStatusThrottle {
  #published: LoadStatus = { loadedOutputs: [], loadingOutputs: [] }
  #publishedAtMs = -Infinity
  #wakePending = false
  readonly #intervalMs: number
  readonly #wakeAt: (delayMs: number, wake: () => void) => void

  /** `wakeAt(delayMs, wake)`: call `wake` after `delayMs` (and draw a frame, so the status goes out). */
  constructor(
    wakeAt: (delayMs: number, wake: () => void) => void,
    intervalMs = DATA_LOAD_STATUS_THROTTLE_MS,
  ) {
    this.#wakeAt = wakeAt
    this.#intervalMs = intervalMs
  }

  /** The status to publish now for the current one: the current, or the last published. */
  offer(nowMs: number, current: LoadStatus): LoadStatus {
    if (
      sameNumbers(current.loadedOutputs, this.#published.loadedOutputs) &&
      sameNumbers(current.loadingOutputs, this.#published.loadingOutputs)
    )
      return this.#published
    const waitMs = this.#publishedAtMs + this.#intervalMs - nowMs
    if (waitMs <= 0) {
      this.#published = current
      this.#publishedAtMs = nowMs
      return current
    }
    if (!this.#wakePending) {
      this.#wakePending = true
      this.#wakeAt(waitMs, () => {
        this.#wakePending = false
      })
    }
    return this.#published
  }
}
