import { describe, expect, it } from 'vitest'
import { defaultViewportState } from '../../../domain/results.ts'
import { cameraBasis, dotVectors } from '../camera.ts'
import {
  SURFACE_FRAGMENT_SHADER,
  FLAT_FRAGMENT_SHADER,
  OUTLINE_FRAGMENT_SHADER,
  POINT_FRAGMENT_SHADER,
  surfaceLightFactor,
} from './setupShaders.ts'

/** The light factor of a world-space face normal seen from the default (front-right-top) camera. */
function lightOf(worldNormal: [number, number, number]): number {
  const { right, up, forward } = cameraBasis(defaultViewportState().camera)
  // View space: x right, y up, z towards the camera.
  const view = [
    dotVectors(worldNormal, right),
    dotVectors(worldNormal, up),
    -dotVectors(worldNormal, forward),
  ]
  return surfaceLightFactor(view, worldNormal)
}

describe('setup surface light', () => {
  it('lights the three faces of a box seen from the front-right-top each in its own shade', () => {
    const top = lightOf([0, 0, 1])
    const front = lightOf([0, -1, 0])
    const right = lightOf([1, 0, 0])
    // From this view a headlight alone gives the three faces the same shade.
    expect(Math.abs(top - front)).toBeGreaterThan(0.15)
    expect(Math.abs(front - right)).toBeGreaterThan(0.15)
    expect(Math.abs(top - right)).toBeGreaterThan(0.15)
    expect(top).toBeGreaterThan(front)
  })

  it('shows a face turned to the light in about its own colour, and no face dark', () => {
    expect(lightOf([0, 0, 1])).toBeGreaterThan(0.9)
    expect(lightOf([0, 0, 1])).toBeLessThan(1.3)
    expect(lightOf([1, 0, 0])).toBeGreaterThan(0.45)
  })

  it('writes every colour through the output conversion (a palette hex reads as that hex)', () => {
    for (const shader of [
      SURFACE_FRAGMENT_SHADER,
      FLAT_FRAGMENT_SHADER,
      OUTLINE_FRAGMENT_SHADER,
      POINT_FRAGMENT_SHADER,
    ])
      expect(shader).toContain('#include <colorspace_fragment>')
  })
})
