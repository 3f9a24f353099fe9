/**
 * Orbit/pan/zoom controls that need no DOM: they consume forwarded pointer and wheel events (CSS
 * pixels) and produce a new CameraState. Left drag orbits; right or middle drag, or a left drag with
 * Shift, Ctrl or Meta, pans; the wheel zooms. A left press that barely moves is a click (a pick),
 * additive when Shift, Ctrl or Meta was held (the setup scene adds to the selection).
 * The clock is passed in (nowMs), never read.
 */
import type { CameraState } from '../../domain/results.ts'
import type { ForwardedPointerEvent } from '../protocol.ts'
import { orbitCamera, panCamera, wheelZoomFactor, zoomCameraTowards } from './camera.ts'

/** A press that moves less than this is a click, not a drag. */
export const CLICK_SLOP_PX = 4
/** The camera counts as moving this long after the last wheel event (wheels send no "end"). */
export const WHEEL_SETTLE_MS = 150

/** What an event did. */
export interface ControlsResult {
  camera: CameraState
  /** A click at this position (CSS pixels): pick there. */
  click: { x: number; y: number; additive: boolean } | null
  /** The pointer hovers here without a button (CSS pixels): hover-pick there. */
  hover: { x: number; y: number } | null
}

type DragKind = 'orbit' | 'pan'

/** Pointer state of one canvas. */
export class CameraControls {
  #drag: {
    pointerId: number
    kind: DragKind
    /** A left press (a click when it does not move); with Shift, Ctrl or Meta it adds. */
    left: boolean
    additive: boolean
    startX: number
    startY: number
    lastX: number
    lastY: number
    moved: boolean
  } | null = null
  #wheelUntilMs = -Infinity

  /** Applies one event; the viewport size (CSS pixels) scales pans and places wheel zooms. */
  handleEvent(
    camera: CameraState,
    event: ForwardedPointerEvent,
    viewport: { width: number; height: number },
    nowMs: number,
  ): ControlsResult {
    const viewportHeightPx = viewport.height
    const result: ControlsResult = { camera, click: null, hover: null }
    switch (event.type) {
      case 'pointerdown': {
        const panning =
          event.button === 1 ||
          event.button === 2 ||
          (event.button === 0 && (event.shiftKey || event.ctrlKey || event.metaKey))
        this.#drag = {
          pointerId: event.pointerId,
          kind: panning ? 'pan' : 'orbit',
          left: event.button === 0,
          additive: event.shiftKey || event.ctrlKey || event.metaKey,
          startX: event.x,
          startY: event.y,
          lastX: event.x,
          lastY: event.y,
          moved: false,
        }
        return result
      }
      case 'pointermove': {
        const drag = this.#drag
        if (drag === null || drag.pointerId !== event.pointerId) {
          if (event.buttons === 0) result.hover = { x: event.x, y: event.y }
          return result
        }
        if (!drag.moved && Math.hypot(event.x - drag.startX, event.y - drag.startY) < CLICK_SLOP_PX)
          return result
        drag.moved = true
        const dx = event.x - drag.lastX
        const dy = event.y - drag.lastY
        drag.lastX = event.x
        drag.lastY = event.y
        result.camera =
          drag.kind === 'orbit'
            ? orbitCamera(camera, dx, dy)
            : panCamera(camera, dx, dy, viewportHeightPx)
        return result
      }
      case 'pointerup': {
        const drag = this.#drag
        if (drag !== null && drag.pointerId === event.pointerId) {
          if (!drag.moved && drag.left)
            result.click = { x: event.x, y: event.y, additive: drag.additive }
          this.#drag = null
        }
        return result
      }
      case 'pointercancel':
      case 'pointerleave':
        if (this.#drag?.pointerId === event.pointerId) this.#drag = null
        return result
      case 'wheel':
        this.#wheelUntilMs = nowMs + WHEEL_SETTLE_MS
        // Towards the point under the pointer, so the wheel zooms into what it points at.
        result.camera = zoomCameraTowards(
          camera,
          wheelZoomFactor(event.deltaY),
          (event.x / viewport.width) * 2 - 1,
          1 - (event.y / viewport.height) * 2,
          viewport.width / viewport.height,
        )
        return result
    }
  }

  /** True while a drag is under way or a wheel turned in the last WHEEL_SETTLE_MS. */
  isInteracting(nowMs: number): boolean {
    return (this.#drag !== null && this.#drag.moved) || nowMs < this.#wheelUntilMs
  }

  /** When the camera stops counting as moving if nothing else happens (null: not moving). */
  settlesAtMs(nowMs: number): number | null {
    if (this.#drag?.moved) return null
    return nowMs < this.#wheelUntilMs ? this.#wheelUntilMs : null
  }
}
