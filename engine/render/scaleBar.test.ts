import { describe, expect, it } from 'vitest'
import { FIELD_OF_VIEW_DEG } from '../../domain/constants.ts'
import type { CameraState } from '../../domain/results.ts'
import { scaleBarForView } from './scaleBar.ts'

// A camera whose view is exactly 1 m tall at the target.
const distanceForOneMetre = 0.5 / Math.tan((FIELD_OF_VIEW_DEG * Math.PI) / 360)
const camera: CameraState = {
  position: [0, 0, distanceForOneMetre],
  target: [0, 0, 0],
  up: [0, 1, 0],
  mode: 'perspective',
}

describe('scale bar', () => {
  it('picks the largest nice length within 300 px on a wide viewport', () => {
    // 1000 px tall → 1 mm per px; 300 px = 0.3 m → 0.2 m over 200 px.
    const bar = scaleBarForView(camera, 2000, 1000)
    expect(bar?.lengthM).toBeCloseTo(0.2)
    expect(bar?.widthPx).toBeCloseTo(200)
  })

  it('stays within 30 % of a narrow viewport', () => {
    // 30 % of 400 px = 120 px = 0.12 m → 0.1 m over 100 px.
    const bar = scaleBarForView(camera, 400, 1000)
    expect(bar?.lengthM).toBeCloseTo(0.1)
    expect(bar?.widthPx).toBeLessThanOrEqual(120)
  })

  it('is the same for both camera modes and follows zoom', () => {
    const ortho = scaleBarForView({ ...camera, mode: 'orthographic' }, 2000, 1000)
    expect(ortho).toEqual(scaleBarForView(camera, 2000, 1000))
    const far = scaleBarForView(
      { ...camera, position: [0, 0, distanceForOneMetre * 10] },
      2000,
      1000,
    )
    expect(far?.lengthM).toBeCloseTo(2)
  })

  it('gives none for an empty viewport', () => {
    expect(scaleBarForView(camera, 0, 0)).toBeNull()
  })
})
