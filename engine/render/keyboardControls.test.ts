import { describe, expect, it } from 'vitest'
import type { CameraState } from '../../domain/results.ts'
import type { ForwardedKeyEvent } from '../protocol.ts'
import { cameraDistance, subtractVectors, vectorLength } from './camera.ts'
import {
  KEY_ORBIT_STEP_RAD,
  KEY_ZOOM_FACTOR,
  applyCameraKey,
  cameraKeyAction,
  isCameraKey,
} from './keyboardControls.ts'

const CAMERA: CameraState = {
  position: [0, -10, 0],
  target: [0, 0, 0],
  up: [0, 0, 1],
  mode: 'perspective',
}

function key(name: string, modifiers: Partial<ForwardedKeyEvent> = {}): ForwardedKeyEvent {
  return { key: name, shiftKey: false, ctrlKey: false, altKey: false, metaKey: false, ...modifiers }
}

function move(name: string, modifiers: Partial<ForwardedKeyEvent> = {}): CameraState {
  const action = cameraKeyAction(key(name, modifiers))
  if (action === null || action.kind === 'reset') throw new Error(`${name} does not move`)
  return applyCameraKey(CAMERA, action, 500)
}

function angleBetween(a: readonly number[], b: readonly number[]): number {
  const dot = (a[0] ?? 0) * (b[0] ?? 0) + (a[1] ?? 0) * (b[1] ?? 0) + (a[2] ?? 0) * (b[2] ?? 0)
  return Math.acos(Math.min(1, Math.max(-1, dot / (vectorLength(a) * vectorLength(b)))))
}

describe('camera keys', () => {
  it('orbits about the target by 15° per arrow, keeping the distance', () => {
    for (const arrow of ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown']) {
      const moved = move(arrow)
      expect(moved.target).toEqual(CAMERA.target)
      expect(cameraDistance(moved)).toBeCloseTo(10, 9)
      expect(angleBetween(moved.position, CAMERA.position)).toBeCloseTo(KEY_ORBIT_STEP_RAD, 6)
    }
    // Left and right turn opposite ways about the up axis; up and down tilt (z changes).
    expect(move('ArrowLeft').position[0]).toBeCloseTo(-move('ArrowRight').position[0], 9)
    expect(move('ArrowLeft').position[2]).toBeCloseTo(0, 9)
    expect(move('ArrowUp').position[2]).not.toBeCloseTo(0, 3)
    expect(move('ArrowUp').position[2]).toBeCloseTo(-move('ArrowDown').position[2], 9)
  })

  it('pans position and target together by a tenth of the view height with Shift+arrows', () => {
    const left = move('ArrowLeft', { shiftKey: true })
    const shift = subtractVectors(left.target, CAMERA.target)
    expect(subtractVectors(left.position, CAMERA.position)).toEqual(shift)
    // The view is 2 · 10 m · tan(fov/2) high at the target; a tenth of it, sideways only.
    expect(Math.abs(shift[0])).toBeGreaterThan(0)
    expect(shift[1]).toBeCloseTo(0, 9)
    expect(shift[2]).toBeCloseTo(0, 9)
    const right = move('ArrowRight', { shiftKey: true })
    expect(right.target[0]).toBeCloseTo(-left.target[0], 9)
    const up = move('ArrowUp', { shiftKey: true })
    expect(up.target[0]).toBeCloseTo(0, 9)
    expect(Math.abs(up.target[2])).toBeCloseTo(Math.abs(shift[0]), 9)
  })

  it('zooms in with + and Page Up, out with − and Page Down, by 1.25', () => {
    for (const name of ['+', '=', 'PageUp'])
      expect(cameraDistance(move(name))).toBeCloseTo(10 / KEY_ZOOM_FACTOR, 9)
    for (const name of ['-', 'PageDown'])
      expect(cameraDistance(move(name))).toBeCloseTo(10 * KEY_ZOOM_FACTOR, 9)
  })

  it('resets with Home or 0', () => {
    expect(cameraKeyAction(key('Home'))).toEqual({ kind: 'reset' })
    expect(cameraKeyAction(key('0'))).toEqual({ kind: 'reset' })
  })

  it('leaves other keys and Ctrl, Alt or Meta combinations to the page and the browser', () => {
    for (const name of [' ', 'Tab', 'Enter', 'a', 'Escape'])
      expect(isCameraKey(key(name))).toBe(false)
    expect(isCameraKey(key('+', { ctrlKey: true }))).toBe(false)
    expect(isCameraKey(key('ArrowLeft', { altKey: true }))).toBe(false)
    expect(isCameraKey(key('0', { metaKey: true }))).toBe(false)
  })
})
