/**
 * Click versus double click by the 300 ms window (spec/setup.md §2, spec/results.md §4): a click
 * waits out DOUBLE_CLICK_WINDOW_MS; a second click close by within it makes a double click and the
 * first is never reported; and the hover's throttle (30 ms). Both scenes use them. The clock is
 * passed in.
 */
import { DOUBLE_CLICK_WINDOW_MS, HOVER_THROTTLE_MS } from '../../domain/constants.ts'
import { Throttle } from './picking.ts'

/** A second click this close (CSS pixels) to the first, within the window, is a double-click. */
export const DOUBLE_CLICK_DISTANCE_PX = 8

/** A click, CSS pixels relative to the canvas; additive with Shift, Ctrl or Meta held. */
export interface ViewClick {
  x: number
  y: number
  additive: boolean
}

/** Tells clicks from double clicks. */
export class ClickTracker {
  #pending: (ViewClick & { atMs: number }) | null = null

  /**
   * A click: returns it as a double click when it completes one (the waiting click is dropped),
   * else null (it waits; {@link takeExpired} hands it out once the window has passed).
   */
  press(click: ViewClick, nowMs: number): ViewClick | null {
    const pending = this.#pending
    if (
      pending !== null &&
      nowMs - pending.atMs <= DOUBLE_CLICK_WINDOW_MS &&
      Math.hypot(click.x - pending.x, click.y - pending.y) <= DOUBLE_CLICK_DISTANCE_PX
    ) {
      this.#pending = null
      return click
    }
    this.#pending = { ...click, atMs: nowMs }
    return null
  }

  /** The waiting click once its window has passed (taken: returned once), else null. */
  takeExpired(nowMs: number): ViewClick | null {
    const pending = this.#pending
    if (pending === null || nowMs - pending.atMs <= DOUBLE_CLICK_WINDOW_MS) return null
    this.#pending = null
    return { x: pending.x, y: pending.y, additive: pending.additive }
  }

  /** True while a click waits out its window. */
  isWaiting(): boolean {
    return this.#pending !== null
  }

  /** Forgets a waiting click (the scene changed under it). */
  clear(): void {
    this.#pending = null
  }
}

/** Where the pointer rests (no button): the latest place, picked at most once per 30 ms. */
export class HoverTracker {
  #pending: { x: number; y: number } | null = null
  #throttle = new Throttle(HOVER_THROTTLE_MS)

  /** The pointer rests here now (CSS pixels). */
  set(at: { x: number; y: number }): void {
    this.#pending = at
  }

  clear(): void {
    this.#pending = null
  }

  isPending(): boolean {
    return this.#pending !== null
  }

  /** The place to pick now, or null (none waiting, or within the throttle interval). */
  take(nowMs: number): { x: number; y: number } | null {
    const at = this.#pending
    if (at === null || !this.#throttle.tryAcquire(nowMs)) return null
    this.#pending = null
    return at
  }
}
