/**
 * The movement timeline's clock (spec/setup.md §2 "Movement timeline with play, pause, loop and
 * speed", §4 "Progress is clamped 0 to 1 and looping repeats forever"): time advances by the
 * frame clock × speed while playing; at the end it wraps when looping, else it stops there. The
 * clock is passed in, never read.
 */

/** The timeline's state, as the snapshot reports it. */
export interface TimelineState {
  timeS: number
  playing: boolean
  speed: number
  loop: boolean
}

/** A speed the clock accepts: finite and positive, else 1 (real time). */
export function sanitizeSpeed(speed: number): number {
  return Number.isFinite(speed) && speed > 0 ? speed : 1
}

/** The movement timeline's clock over [0, durationS]. */
export class SetupTimeline {
  #timeS = 0
  #playing = false
  #speed = 1
  #loop = false
  #lastMs: number | null = null

  /** Plays from the current time; at the end without looping, from the start again. */
  play(nowMs: number, speed: number, loop: boolean, durationS: number): void {
    this.#speed = sanitizeSpeed(speed)
    this.#loop = loop
    if (!loop && durationS > 0 && this.#timeS >= durationS) this.#timeS = 0
    this.#playing = true
    this.#lastMs = nowMs
  }

  pause(): void {
    this.#playing = false
    this.#lastMs = null
  }

  /** Jumps to a time, clamped to the timeline. */
  seek(timeS: number, durationS: number): void {
    this.#timeS = clampTime(timeS, durationS)
  }

  /** Changes the speed from now on (time already played stays). */
  setSpeed(nowMs: number, speed: number): void {
    if (this.#playing) this.tick(nowMs, Infinity)
    this.#speed = sanitizeSpeed(speed)
  }

  /**
   * Advances to `nowMs`; true when the time changed. Past the end it wraps (looping) or stops at
   * the end (not looping). A timeline of no length stays at 0 and stops.
   */
  tick(nowMs: number, durationS: number): boolean {
    if (!this.#playing) return false
    const lastMs = this.#lastMs ?? nowMs
    this.#lastMs = nowMs
    const before = this.#timeS
    let timeS = before + (Math.max(0, nowMs - lastMs) / 1000) * this.#speed
    if (!(durationS > 0)) {
      this.#timeS = 0
      this.#playing = false
      return before !== 0
    }
    if (timeS >= durationS) {
      if (this.#loop) timeS %= durationS
      else {
        timeS = durationS
        this.#playing = false
        this.#lastMs = null
      }
    }
    this.#timeS = timeS
    return timeS !== before
  }

  /** Time clamped to a (possibly shorter) timeline: the end time may change under it. */
  clampTo(durationS: number): void {
    this.#timeS = clampTime(this.#timeS, durationS)
  }

  state(): TimelineState {
    return { timeS: this.#timeS, playing: this.#playing, speed: this.#speed, loop: this.#loop }
  }

  isPlaying(): boolean {
    return this.#playing
  }

  timeS(): number {
    return this.#timeS
  }
}

function clampTime(timeS: number, durationS: number): number {
  if (!Number.isFinite(timeS)) return 0
  return Math.min(Math.max(timeS, 0), Math.max(durationS, 0))
}
