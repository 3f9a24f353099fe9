import { describe, expect, it } from 'vitest'
import type { CameraState } from '../../domain/results.ts'
import type { ForwardedPointerEvent } from '../protocol.ts'
import { cameraDistance } from './camera.ts'
import { CameraControls, WHEEL_SETTLE_MS } from './controls.ts'

const camera: CameraState = {
  position: [10, 0, 0],
  target: [0, 0, 0],
  up: [0, 0, 1],
  mode: 'perspective',
}

function pointer(
  type: ForwardedPointerEvent['type'],
  x: number,
  y: number,
  extra: Partial<ForwardedPointerEvent> = {},
): ForwardedPointerEvent {
  return {
    type,
    pointerId: 1,
    button: 0,
    buttons: type === 'pointerup' ? 0 : 1,
    x,
    y,
    deltaY: 0,
    shiftKey: false,
    ctrlKey: false,
    altKey: false,
    metaKey: false,
    ...extra,
  }
}

const viewport = { width: 500, height: 500 }

describe('camera controls', () => {
  it('orbits on a left drag and reports interaction until release', () => {
    const controls = new CameraControls()
    controls.handleEvent(camera, pointer('pointerdown', 100, 100), viewport, 0)
    const moved = controls.handleEvent(camera, pointer('pointermove', 150, 100), viewport, 10)
    expect(moved.camera.position).not.toEqual(camera.position)
    expect(moved.camera.target).toEqual(camera.target)
    expect(cameraDistance(moved.camera)).toBeCloseTo(10)
    expect(controls.isInteracting(10)).toBe(true)
    const up = controls.handleEvent(moved.camera, pointer('pointerup', 150, 100), viewport, 20)
    expect(up.click).toBeNull()
    expect(controls.isInteracting(20)).toBe(false)
  })

  it('pans on a right drag and on a shift drag, moving the target', () => {
    for (const extra of [{ button: 2 }, { shiftKey: true }]) {
      const controls = new CameraControls()
      controls.handleEvent(camera, pointer('pointerdown', 100, 100, extra), viewport, 0)
      const moved = controls.handleEvent(
        camera,
        pointer('pointermove', 150, 100, extra),
        viewport,
        10,
      )
      expect(moved.camera.target).not.toEqual(camera.target)
    }
  })

  it('turns a press without movement into a click at the release point', () => {
    const controls = new CameraControls()
    controls.handleEvent(camera, pointer('pointerdown', 100, 100), viewport, 0)
    const jitter = controls.handleEvent(camera, pointer('pointermove', 101, 101), viewport, 5)
    expect(jitter.camera).toBe(camera)
    const up = controls.handleEvent(camera, pointer('pointerup', 101, 101), viewport, 10)
    expect(up.click).toEqual({ x: 101, y: 101, additive: false })
  })

  it('reports a shift, ctrl or meta click as additive, and no click for a right press', () => {
    for (const modifier of [{ shiftKey: true }, { ctrlKey: true }, { metaKey: true }]) {
      const controls = new CameraControls()
      controls.handleEvent(camera, pointer('pointerdown', 50, 60, modifier), viewport, 0)
      const up = controls.handleEvent(camera, pointer('pointerup', 50, 60, modifier), viewport, 5)
      expect(up.click).toEqual({ x: 50, y: 60, additive: true })
    }
    const controls = new CameraControls()
    controls.handleEvent(camera, pointer('pointerdown', 50, 60, { button: 2 }), viewport, 0)
    const up = controls.handleEvent(
      camera,
      pointer('pointerup', 50, 60, { button: 2 }),
      viewport,
      5,
    )
    expect(up.click).toBeNull()
  })

  it('reports hover for moves without a button', () => {
    const controls = new CameraControls()
    const hover = controls.handleEvent(
      camera,
      pointer('pointermove', 7, 8, { buttons: 0 }),
      viewport,
      0,
    )
    expect(hover.hover).toEqual({ x: 7, y: 8 })
  })

  it('zooms on the wheel and counts as moving for a short settle time', () => {
    const controls = new CameraControls()
    const zoomedIn = controls.handleEvent(
      camera,
      pointer('wheel', 0, 0, { deltaY: -100 }),
      viewport,
      0,
    )
    expect(cameraDistance(zoomedIn.camera)).toBeLessThan(10)
    const zoomedOut = controls.handleEvent(
      camera,
      pointer('wheel', 0, 0, { deltaY: 100 }),
      viewport,
      0,
    )
    expect(cameraDistance(zoomedOut.camera)).toBeGreaterThan(10)
    expect(controls.isInteracting(WHEEL_SETTLE_MS - 1)).toBe(true)
    expect(controls.settlesAtMs(1)).toBe(WHEEL_SETTLE_MS)
    expect(controls.isInteracting(WHEEL_SETTLE_MS)).toBe(false)
  })
})
