import { describe, expect, it } from 'vitest'
import { clipPlaneEquation, keepsPoint } from './clip.ts'

describe('clipping plane', () => {
  it('keeps points at or below the offset on the axis, and above it when flipped', () => {
    const plane = clipPlaneEquation({ enabled: true, axis: 'y', flipped: false, offsetM: 0.3 })
    expect(keepsPoint(plane, 9, 0.2, 9)).toBe(true)
    expect(keepsPoint(plane, 0, 0.3, 0)).toBe(true)
    expect(keepsPoint(plane, 0, 0.4, 0)).toBe(false)
    const flipped = clipPlaneEquation({ enabled: true, axis: 'y', flipped: true, offsetM: 0.3 })
    expect(keepsPoint(flipped, 0, 0.2, 0)).toBe(false)
    expect(keepsPoint(flipped, 0, 0.4, 0)).toBe(true)
  })

  it('uses the chosen axis only', () => {
    const plane = clipPlaneEquation({ enabled: true, axis: 'z', flipped: false, offsetM: -1 })
    expect(plane).toEqual([0, 0, -1, -1])
    expect(keepsPoint(plane, 100, 100, -2)).toBe(true)
    expect(keepsPoint(plane, -100, -100, 0)).toBe(false)
  })

  it('keeps everything when disabled', () => {
    const plane = clipPlaneEquation({ enabled: false, axis: 'x', flipped: false, offsetM: 0 })
    expect(plane).toBeNull()
    expect(keepsPoint(plane, 1e9, 0, 0)).toBe(true)
  })
})
