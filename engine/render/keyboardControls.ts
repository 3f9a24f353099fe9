/**
 * Camera keys of the 3D view (issue 23), for both scenes, without a DOM: the canvas forwards key
 * presses (engine/client.ts) like pointer events, and the render worker turns them into camera moves.
 * Arrows orbit, Shift+arrows pan, + / − and PageUp / PageDown zoom, Home or 0 fits the view again.
 * Ctrl, Alt and Meta combinations are left to the browser.
 */
import type { CameraState } from '../../domain/results.ts'
import type { ForwardedKeyEvent } from '../protocol.ts'
import { ORBIT_RADIANS_PER_PX, orbitCamera, panCamera, zoomCamera } from './camera.ts'

/** One arrow press orbits by 15°: 24 presses turn the view once around. */
export const KEY_ORBIT_STEP_RAD = Math.PI / 12
/** One Shift+arrow press pans by a tenth of the view's height. */
export const KEY_PAN_STEP_FRACTION = 0.1
/** One zoom press dollies by 20 % (in: × 1/1.25, out: × 1.25). */
export const KEY_ZOOM_FACTOR = 1.25

/** What a camera key does. */
export type CameraKeyAction =
  | { kind: 'orbit'; dxPx: number; dyPx: number }
  | { kind: 'pan'; dx: number; dy: number }
  | { kind: 'zoom'; factor: number }
  | { kind: 'reset' }

/** The keys, as the shortcuts help lists them (the page adds its own, e.g. Space). */
export const CAMERA_KEY_HELP: readonly { keys: string; action: string }[] = [
  { keys: 'Arrow keys', action: 'Orbit the camera' },
  { keys: 'Shift + arrow keys', action: 'Pan the camera' },
  { keys: '+ / − or Page Up / Page Down', action: 'Zoom in / out' },
  { keys: 'Home or 0', action: 'Reset the view (fit)' },
]

const ARROWS: Record<string, [number, number]> = {
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
}

/** The camera action of a key press, or null when the key is not a camera key. */
export function cameraKeyAction(event: ForwardedKeyEvent): CameraKeyAction | null {
  if (event.ctrlKey || event.altKey || event.metaKey) return null
  const arrow = ARROWS[event.key]
  if (arrow !== undefined) {
    const [x, y] = arrow
    if (event.shiftKey) return { kind: 'pan', dx: x, dy: y }
    const stepPx = KEY_ORBIT_STEP_RAD / ORBIT_RADIANS_PER_PX
    return { kind: 'orbit', dxPx: x * stepPx, dyPx: y * stepPx }
  }
  switch (event.key) {
    case '+':
    case '=':
    case 'PageUp':
      return { kind: 'zoom', factor: 1 / KEY_ZOOM_FACTOR }
    case '-':
    case '_':
    case '−':
    case 'PageDown':
      return { kind: 'zoom', factor: KEY_ZOOM_FACTOR }
    case 'Home':
    case '0':
      return { kind: 'reset' }
    default:
      return null
  }
}

/** True for the keys the canvas takes (and keeps from scrolling the page). */
export function isCameraKey(event: ForwardedKeyEvent): boolean {
  return cameraKeyAction(event) !== null
}

/**
 * The camera after an orbit, pan or zoom key (a reset is the scene's fit, not a camera formula).
 * Pans move the picture the arrow's way by KEY_PAN_STEP_FRACTION of the view's height.
 */
export function applyCameraKey(
  camera: CameraState,
  action: Exclude<CameraKeyAction, { kind: 'reset' }>,
  viewportHeightPx: number,
): CameraState {
  switch (action.kind) {
    case 'orbit':
      return orbitCamera(camera, action.dxPx, action.dyPx)
    case 'pan': {
      const stepPx = viewportHeightPx * KEY_PAN_STEP_FRACTION
      return panCamera(camera, action.dx * stepPx, action.dy * stepPx, viewportHeightPx)
    }
    case 'zoom':
      return zoomCamera(camera, action.factor)
  }
}
