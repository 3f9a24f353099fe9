/**
 * Snapshot throttling: the UI gets at most one RenderSnapshot per frame, and only when something in
 * it changed. Snapshots are small, so comparing their JSON is cheap and exact.
 */
import type { RenderSnapshot } from '../protocol.ts'
import type { SceneKind, SetupSnapshot } from '../setupProtocol.ts'
import type { Bounds } from './camera.ts'

/** Decides whether a frame's snapshot goes out. */
export class SnapshotThrottle {
  #lastJson: string | null = null
  #lastFrame = -1

  /** Returns the snapshot to send for this frame, or null (unchanged, or one already sent). */
  offer(frame: number, snapshot: RenderSnapshot): RenderSnapshot | null {
    if (frame === this.#lastFrame) return null
    const sent = this.offerNow(snapshot)
    if (sent !== null) this.#lastFrame = frame
    return sent
  }

  /**
   * Returns the snapshot to send now, between frames, or null when unchanged: the answer to an
   * input (a hover), whose rate the input's own throttle bounds.
   */
  offerNow(snapshot: RenderSnapshot): RenderSnapshot | null {
    const json = JSON.stringify(snapshot)
    if (json === this.#lastJson) return null
    this.#lastJson = json
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

/** What the snapshot needs of the setup scene. */
export interface SetupSnapshotSource {
  used(): boolean
  drawn(): { points: number; triangles: number }
  bounds(): Bounds | null
  snapshot(): SetupSnapshot
}

/**
 * The scene drawn goes into the snapshot once the setup scene was used, with `setup`; while the
 * setup is shown, points, triangles and bounds are the setup's.
 */
export function withSetupScene(
  snapshot: RenderSnapshot,
  scene: SceneKind,
  setup: SetupSnapshotSource,
): RenderSnapshot {
  if (scene === 'setup') {
    const drawn = setup.drawn()
    snapshot.pointsDrawn = drawn.points
    snapshot.trianglesDrawn = drawn.triangles
    snapshot.bounds = setup.bounds()
  }
  if (scene === 'setup' || setup.used()) snapshot.scene = scene
  if (setup.used()) snapshot.setup = setup.snapshot()
  return snapshot
}
