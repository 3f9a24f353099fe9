/**
 * The playback clock: which output to show next and which to have loaded ahead. Frames advance
 * every 1/3 s ÷ speed (domain/results.ts playbackFrameIntervalMs). A frame whose output is still
 * loading does not hold the clock back while the current one is in: it advances on time (counted
 * late) and the latest loaded output stays on screen until the frame's output arrives. Otherwise a
 * frame waits for its output. The clock is passed in.
 */
import { PLAYBACK } from '../../domain/constants.ts'
import {
  clampPlaybackSpeed,
  nextPlaybackFrame,
  playbackFrameIntervalMs,
} from '../../domain/results.ts'

/** Snaps a speed to the nearest power of two within 2^-10 … 2^11. */
export function snapPlaybackSpeed(speed: number): number {
  const clamped = clampPlaybackSpeed(speed)
  return clampPlaybackSpeed(2 ** Math.round(Math.log2(clamped)))
}

/** Playback over an ordered list of output numbers. */
export class PlaybackClock {
  #outputs: number[] = []
  #index = 0
  #playing = false
  #speed: number = PLAYBACK.speed
  #loop: boolean = PLAYBACK.loop
  #dueMs = 0
  #framesShown = 0
  #framesLate = 0

  /** Sets the outputs in play order; the shown output is kept when it is still among them. */
  setOutputs(outputs: readonly number[]): void {
    const shown = this.currentOutput()
    this.#outputs = [...outputs]
    const index = shown === null ? -1 : this.#outputs.indexOf(shown)
    this.#index = Math.max(0, index)
  }

  /** Shows a given output (a timeline click); unknown outputs are ignored. */
  seek(outputNo: number): void {
    const index = this.#outputs.indexOf(outputNo)
    if (index >= 0) this.#index = index
  }

  play(nowMs: number, speed: number, loop: boolean): void {
    this.#speed = snapPlaybackSpeed(speed)
    this.#loop = loop
    if (!this.#playing) {
      // Playing from the last output without looping starts over.
      if (!loop && this.#index >= this.#outputs.length - 1) this.#index = 0
      this.#playing = true
      this.#dueMs = nowMs + playbackFrameIntervalMs(this.#speed)
    }
  }

  pause(): void {
    this.#playing = false
  }

  setSpeed(nowMs: number, speed: number): void {
    this.#speed = snapPlaybackSpeed(speed)
    if (this.#playing) this.#dueMs = Math.min(this.#dueMs, nowMs + this.frameIntervalMs())
  }

  isPlaying(): boolean {
    return this.#playing
  }

  speed(): number {
    return this.#speed
  }

  loop(): boolean {
    return this.#loop
  }

  frameIntervalMs(): number {
    return playbackFrameIntervalMs(this.#speed)
  }

  currentOutput(): number | null {
    return this.#outputs[this.#index] ?? null
  }

  /** The output after the current one in play order (null at the end without looping). */
  nextOutput(): number | null {
    const next = nextPlaybackFrame(this.#index, this.#outputs.length, this.#loop)
    return next === null ? null : (this.#outputs[next] ?? null)
  }

  /**
   * Advances when a frame is due and the next output is ready, or loading (`isLoading`: a load in
   * flight, shown when it arrives) while the current one is ready. Returns the new current output,
   * or null. At the end without looping, playback stops.
   */
  tick(
    nowMs: number,
    isReady: (outputNo: number) => boolean,
    isLoading: (outputNo: number) => boolean = () => false,
  ): number | null {
    if (!this.#playing || nowMs < this.#dueMs) return null
    const next = nextPlaybackFrame(this.#index, this.#outputs.length, this.#loop)
    if (next === null) {
      this.#playing = false
      return null
    }
    const outputNo = this.#outputs[next] as number
    const ready = isReady(outputNo)
    // The clock runs ahead of the screen by one frame at most: it passes an output still loading
    // only when the current one is in (else a load slower than a frame would never be shown).
    const current = this.#outputs[this.#index]
    if (!ready && !(isLoading(outputNo) && current !== undefined && isReady(current))) return null
    const intervalMs = this.frameIntervalMs()
    if (!ready || nowMs - this.#dueMs > intervalMs / 2) this.#framesLate++
    this.#framesShown++
    this.#index = next
    // Keep the cadence when on time; restart it after a wait so a stall is not followed by a burst.
    this.#dueMs = nowMs - this.#dueMs > intervalMs ? nowMs + intervalMs : this.#dueMs + intervalMs
    return outputNo
  }

  /** When the next frame is due (null: not playing). */
  dueAtMs(): number | null {
    return this.#playing ? this.#dueMs : null
  }

  /**
   * Frames advanced since creation, and those late: advanced more than half an interval after their
   * time, or before their output was loaded.
   */
  punctuality(): { shown: number; late: number } {
    return { shown: this.#framesShown, late: this.#framesLate }
  }

  /**
   * Outputs to have loaded: the shown one first, then up to `target` ahead in play order (wrapping
   * when looping). Without playback only the shown one and the next.
   */
  wantedOutputs(target: number = PLAYBACK.targetOutputs): number[] {
    return this.#ahead(this.#playing ? target : 1)
  }

  /**
   * Outputs worth keeping in memory once loaded: while looping playback, the whole loop in play
   * order from the shown one (the ones needed soonest first); otherwise the wanted ones.
   */
  retainedOutputs(): number[] {
    return this.#playing && this.#loop
      ? this.#ahead(this.#outputs.length - 1)
      : this.wantedOutputs()
  }

  /**
   * The shown output and every output after it in play order (the loop, wrapping, while looping
   * playback; up to the last otherwise); paused, the shown one and the next. The loads take the
   * playback window from it (OutputLoads.playbackWindow).
   */
  upcomingOutputs(): number[] {
    return this.#ahead(this.#playing ? this.#outputs.length - 1 : 1)
  }

  #ahead(ahead: number): number[] {
    const count = this.#outputs.length
    if (count === 0) return []
    const wanted: number[] = [this.#outputs[this.#index] as number]
    for (let step = 1; step <= ahead && wanted.length < count; step++) {
      const index = this.#index + step
      // Paused, the next output after the last is none: only playback wraps around.
      if (index >= count && !(this.#loop && this.#playing)) break
      wanted.push(this.#outputs[index % count] as number)
    }
    return wanted
  }
}
