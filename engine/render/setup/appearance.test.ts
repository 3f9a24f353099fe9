import { describe, expect, it } from 'vitest'
import type { SetupAppearance } from '../../setupProtocol.ts'
import {
  objectOpacity,
  PARTICLES_SHOWN_SURFACE_OPACITY,
  surfaceStyle,
  TRANSLUCENT_OPACITY,
} from './appearance.ts'

function appearance(overrides: Partial<SetupAppearance> = {}): SetupAppearance {
  return {
    color: '#2D69B2',
    opacity: 1,
    wireframe: false,
    translucent: false,
    visible: true,
    ...overrides,
  }
}

describe('setup appearance', () => {
  it('draws a translucent part see-through at its opacity (the seeded tank: 0.3)', () => {
    expect(surfaceStyle(appearance({ translucent: true, opacity: 0.3 }), false)).toEqual({
      mode: 'surface',
      opacity: 0.3,
      translucent: true,
    })
  })

  it('draws a translucent part of opacity 1 at TRANSLUCENT_OPACITY, so the mode always shows through', () => {
    const style = surfaceStyle(appearance({ translucent: true, opacity: 1 }), false)
    expect(style.opacity).toBe(TRANSLUCENT_OPACITY)
    expect(style.translucent).toBe(true)
  })

  it('draws a surface opaque whatever its opacity (opacity is the translucent mode’s)', () => {
    // A new wall starts translucent at 0.35; picking Surface makes it solid.
    expect(surfaceStyle(appearance({ opacity: 0.35 }), false)).toEqual({
      mode: 'surface',
      opacity: 1,
      translucent: false,
    })
  })

  it('draws a wireframe as opaque edges only', () => {
    expect(surfaceStyle(appearance({ wireframe: true, opacity: 0.35 }), false)).toEqual({
      mode: 'wireframe',
      opacity: 1,
      translucent: false,
    })
  })

  it('fades the surface of a part whose particles are shown, so they are not hidden inside it', () => {
    const opaque = surfaceStyle(appearance(), true)
    expect(opaque.opacity).toBe(PARTICLES_SHOWN_SURFACE_OPACITY)
    expect(opaque.translucent).toBe(true)
    // A translucent part fainter still keeps its own opacity.
    expect(surfaceStyle(appearance({ translucent: true, opacity: 0.05 }), true).opacity).toBe(0.05)
    // Edges only stay as they are.
    expect(surfaceStyle(appearance({ wireframe: true }), true).opacity).toBe(1)
  })

  it('hides an invisible part and clamps opacities outside 0 … 1', () => {
    expect(surfaceStyle(appearance({ visible: false }), false).mode).toBe('hidden')
    expect(objectOpacity(appearance({ translucent: true, opacity: -2 }))).toBe(0)
    expect(objectOpacity(appearance({ translucent: true, opacity: Number.NaN }))).toBe(
      TRANSLUCENT_OPACITY,
    )
  })
})
