/**
 * The pointer in the render worker, for both scenes: camera drags and wheel (CameraControls), the
 * 300 ms click / double-click window (ClickTracker) and the hover, picked at most every 30 ms
 * (HoverTracker). A hover is answered when its event comes (a BVH ray or a bounded point scan),
 * not at the next frame, which may be hundreds of ms away while the GPU draws a heavy scene.
 */
import { DOUBLE_CLICK_WINDOW_MS, HOVER_THROTTLE_MS } from '../../domain/constants.ts'
import type { CameraState } from '../../domain/results.ts'
import type { ForwardedPointerEvent } from '../protocol.ts'
import { ClickTracker, HoverTracker } from './clicks.ts'
import { CameraControls } from './controls.ts'
import type { ViewScene } from './host.ts'
import type { ViewportSize } from './RenderScene.ts'

/** What the pointer needs of the engine. */
export interface PointerHost {
  camera(): CameraState
  setCamera(camera: CameraState): void
  cameraAnimating(): boolean
  size(): ViewportSize
  /** The scene shown (picks, clicks and hovers go to it). */
  shown(): ViewScene
  /** Both scenes forget what is under the pointer. */
  clearHovers(): void
  nowMs(): number
  scheduleTimeout(callback: () => void, delayMs: number): void
  requestFrame(): void
  /** A hover was picked between frames: the UI hears of it now if it changed. */
  answered(): void
  isDisposed(): boolean
}

/** The pointer's state. */
export class PointerInput {
  #host: PointerHost
  #controls = new CameraControls()
  #clicks = new ClickTracker()
  #hover = new HoverTracker()

  constructor(host: PointerHost) {
    this.#host = host
  }

  /** A drag, wheel, click or hover of the scene shown. */
  handle(event: ForwardedPointerEvent): void {
    const host = this.#host
    const now = host.nowMs()
    const result = this.#controls.handleEvent(host.camera(), event, host.size(), now)
    if (result.camera !== host.camera()) host.setCamera(result.camera)
    if (result.click !== null) {
      const double = this.#clicks.press(result.click, now)
      if (double !== null) host.shown().doubleClick(double.x, double.y)
      else host.scheduleTimeout(() => host.requestFrame(), DOUBLE_CLICK_WINDOW_MS + 1)
    }
    if (result.hover !== null) {
      this.#hover.set(result.hover)
      this.#hoverNow(now)
    }
    if (event.type === 'pointerleave') {
      this.#hover.clear()
      host.clearHovers()
    }
    const settlesAt = this.#controls.settlesAtMs(now)
    if (settlesAt !== null) host.scheduleTimeout(() => host.requestFrame(), settlesAt - now + 1)
    host.requestFrame()
  }

  /** A drag or a wheel is under way, or the camera animates. */
  isInteracting(nowMs: number): boolean {
    return this.#controls.isInteracting(nowMs) || this.#host.cameraAnimating()
  }

  /**
   * At a frame: a click whose double-click window has passed goes to the scene shown, and a
   * hover still waiting is picked. True while something waits (frames must keep coming).
   */
  atFrame(nowMs: number, interacting: boolean): boolean {
    let waiting = false
    const click = this.#clicks.takeExpired(nowMs)
    if (click !== null) this.#host.shown().click(click.x, click.y, click.additive)
    if (this.#clicks.isWaiting()) waiting = true
    if (this.#hover.isPending() && !interacting) {
      const at = this.#hover.take(nowMs)
      if (at !== null) this.#host.shown().hoverAt(at.x, at.y)
      else waiting = true
    }
    return waiting
  }

  /** The scene changed: a click or hover waiting does not carry over. */
  clear(): void {
    this.#clicks.clear()
    this.#hover.clear()
  }

  #hoverNow(now: number): void {
    const host = this.#host
    if (!this.#hover.isPending() || host.isDisposed() || this.isInteracting(now)) return
    const at = this.#hover.take(now)
    // Within the throttle interval: once it has passed, rather than at a distant frame.
    if (at === null) {
      host.scheduleTimeout(() => this.#hoverNow(host.nowMs()), HOVER_THROTTLE_MS)
      return
    }
    host.shown().hoverAt(at.x, at.y)
    host.answered()
  }
}
