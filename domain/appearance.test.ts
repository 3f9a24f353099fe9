import { describe, expect, it } from 'vitest'
import { defaultAppearance, defaultPartAppearance, WALL_OPACITY } from './appearance.ts'

describe('defaultPartAppearance', () => {
  it('starts walls translucent so the fluid inside shows, in the palette colour of their turn', () => {
    expect(defaultPartAppearance(2, 'rigid')).toEqual({
      ...defaultAppearance(2),
      translucent: true,
      opacity: WALL_OPACITY,
    })
  })

  it('starts fluids and boundaries opaque', () => {
    for (const type of ['filling', 'flow', 'openboundary'])
      expect(defaultPartAppearance(1, type)).toEqual(defaultAppearance(1))
  })
})
