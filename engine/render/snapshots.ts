/**
 * Snapshot throttling: the UI gets at most one RenderSnapshot per frame, and only when something in
 * it changed. Snapshots are small, so comparing their JSON is cheap and exact.
 */
import type { RenderSnapshot } from '../protocol.ts'

/** Decides whether a frame's snapshot goes out. */
export class SnapshotThrottle {
  #lastJson: string | null = null
  #lastFrame = -1

  /** Returns the snapshot to send for this frame, or null (unchanged, or one already sent). */
  offer(frame: number, snapshot: RenderSnapshot): RenderSnapshot | null {
    if (frame === this.#lastFrame) return null
    const json = JSON.stringify(snapshot)
    if (json === this.#lastJson) return null
    this.#lastJson = json
    this.#lastFrame = frame
    return snapshot
  }
}

/** Frames per second over a sliding one-second window of frame times. */
export class FrameRateMeter {
  #timesMs: number[] = []

  /** Records a drawn frame. */
  recordFrame(nowMs: number): void {
    this.#timesMs.push(nowMs)
    this.#dropOld(nowMs)
  }

  /** Frames drawn in the last second (0 when idle: nothing is drawn when nothing changes). */
  framesPerSecond(nowMs: number): number {
    this.#dropOld(nowMs)
    return this.#timesMs.length
  }

  #dropOld(nowMs: number): void {
    while (this.#timesMs.length > 0 && (this.#timesMs[0] as number) <= nowMs - 1000)
      this.#timesMs.shift()
  }
}
