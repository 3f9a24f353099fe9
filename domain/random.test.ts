import { describe, expect, it } from 'vitest'
import { createRandom } from './random.ts'

describe('createRandom', () => {
  it('replays mulberry32 from its seed', () => {
    const a = createRandom(1)
    const first = [a(), a(), a()]
    // mulberry32(1)'s first numbers
    expect(first.map((v) => v.toFixed(10))).toEqual([
      '0.6270739406',
      '0.0027357212',
      '0.5274470400',
    ])
    const b = createRandom(1)
    expect([b(), b(), b()]).toEqual(first)
    expect(createRandom(2)()).not.toBe(first[0])
  })
})
