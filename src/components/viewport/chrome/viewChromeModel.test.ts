import { describe, expect, it } from 'vitest'
import type { CameraState } from '../../../../domain/results.ts'
import {
  orientationFromSide,
  projectDirection,
  screenBasis,
  visibleCubeFaces,
} from './gizmoMath.ts'
import { firstEnabledClip, formatScaleLength, nudgeClip } from './viewChromeModel.ts'

const FROM_FRONT: CameraState = {
  position: [0, -3, 0],
  target: [0, 0, 0],
  up: [0, 0, 1],
  mode: 'perspective',
}

describe('gizmo and view cube math', () => {
  it('projects +x to the right and +z upwards when looking from the front', () => {
    const basis = screenBasis(FROM_FRONT)
    expect(projectDirection([1, 0, 0], basis)).toMatchObject({ x: 1, y: -0 })
    expect(projectDirection([0, 0, 1], basis).y).toBeCloseTo(-1, 12)
    expect(projectDirection([0, -1, 0], basis).depth).toBeCloseTo(1, 12)
  })

  it('looks from a side back at the target, with +y up when looking along z', () => {
    expect(orientationFromSide({ axis: 'y', positive: false }).direction).toEqual([-0, 1, -0])
    expect(orientationFromSide({ axis: 'z', positive: false })).toEqual({
      direction: [-0, -0, 1],
      up: [0, -1, 0],
    })
  })

  it('shows only the front face of the cube, straight on, when looking from the front', () => {
    const faces = visibleCubeFaces(FROM_FRONT, 10)
    expect(faces.map((face) => face.name)).toEqual(['Front'])
    const xs = faces[0]!.points.map((point) => point.x)
    expect(Math.max(...xs) - Math.min(...xs)).toBeCloseTo(20, 9)
  })
})

describe('clip and scale bar', () => {
  it('places a clip at its default offset in the middle of the output on first enabling', () => {
    const bounds = {
      min: [-1, 0, 0] as [number, number, number],
      max: [3, 2, 1] as [number, number, number],
    }
    const clip = { enabled: false, axis: 'y' as const, flipped: false, offsetM: 0 }
    expect(firstEnabledClip(clip, bounds)).toEqual({ ...clip, enabled: true, offsetM: 1 })
    expect(firstEnabledClip({ ...clip, offsetM: 0.3 }, bounds).offsetM).toBe(0.3)
    expect(firstEnabledClip(clip, null)).toEqual({ ...clip, enabled: true })
  })

  it('reads scale lengths in km, m, cm or mm', () => {
    expect(formatScaleLength(2000)).toBe('2 km')
    expect(formatScaleLength(5)).toBe('5 m')
    expect(formatScaleLength(0.2)).toBe('20 cm')
    expect(formatScaleLength(0.005)).toBe('5 mm')
    expect(formatScaleLength(0.0001)).toBe('0.1 mm')
  })

  it('nudges a clip along its axis or turns it to the next axis, and ignores other keys', () => {
    const clip = { enabled: true, axis: 'z' as const, flipped: false, offsetM: 0.1 }
    const bounds = {
      min: [0, 0, 0] as [number, number, number],
      max: [1, 1, 0.5] as [number, number, number],
    }
    expect(nudgeClip(clip, 'translate', 'ArrowDown', bounds)?.offsetM).toBe(0.09)
    expect(nudgeClip(clip, 'translate', 'ArrowUp', null)?.offsetM).toBe(0.11)
    expect(nudgeClip(clip, 'rotate', 'ArrowUp', bounds)?.axis).toBe('x')
    expect(nudgeClip(clip, 'rotate', 'ArrowLeft', bounds)?.axis).toBe('y')
    expect(nudgeClip(clip, 'translate', 'Enter', bounds)).toBeNull()
  })
})
