import { describe, expect, it } from 'vitest'
import { imageFileName, sharedValue } from './canvasModel.ts'

describe('canvas model', () => {
  it('names saved images after the simulation and output, without path characters', () => {
    expect(imageFileName('Tank: v2/final', 12)).toBe('Tank_ v2_final output 12.png')
    expect(imageFileName('  ', null)).toBe('simulation.png')
  })

  it('finds the value every item shares', () => {
    expect(sharedValue(['a', 'a'])).toBe('a')
    expect(sharedValue(['a', 'b'])).toBeNull()
    expect(sharedValue([])).toBeNull()
  })
})
