import { describe, expect, it } from 'vitest'
import { COLOUR_SCHEMES } from '../../domain/constants.ts'
import {
  buildColourLut,
  LUT_WIDTH,
  lutIndexForValue,
  sampleScheme,
  schemeRow,
} from './colourLut.ts'

function texel(lut: Uint8Array, row: number, i: number): number[] {
  const offset = (row * LUT_WIDTH + i) * 4
  return Array.from(lut.subarray(offset, offset + 4))
}

describe('colour lookup table', () => {
  const lut = buildColourLut()

  it('holds one opaque row of 256 texels for each of the seven schemes', () => {
    expect(lut.length).toBe(LUT_WIDTH * 7 * 4)
    expect(COLOUR_SCHEMES).toHaveLength(7)
    for (let i = 3; i < lut.length; i += 4) expect(lut[i]).toBe(255)
  })

  it('puts each scheme on the row of its index, rainbow from blue to red', () => {
    const row = schemeRow('rainbow')
    expect(row).toBe(COLOUR_SCHEMES.indexOf('rainbow'))
    expect(texel(lut, row, 0)).toEqual([0, 0, 255, 255])
    expect(texel(lut, row, LUT_WIDTH - 1)).toEqual([255, 0, 0, 255])
    expect(texel(lut, row, 128)[1]).toBeGreaterThan(200)
  })

  it('runs blueGreenYellow from blue through green to yellow', () => {
    const row = schemeRow('blueGreenYellow')
    const [r0, g0, b0] = texel(lut, row, 0) as [number, number, number]
    expect(b0).toBeGreaterThan(r0)
    expect(b0).toBeGreaterThan(g0)
    const [r1, g1, b1] = texel(lut, row, LUT_WIDTH - 1) as [number, number, number]
    expect(r1).toBeGreaterThan(200)
    expect(g1).toBeGreaterThan(200)
    expect(b1).toBeLessThan(100)
  })

  it('makes blueBrightness strictly brighter from one end to the other', () => {
    const row = schemeRow('blueBrightness')
    let previous = -1
    for (let i = 0; i < LUT_WIDTH; i += 15) {
      const [r, g, b] = texel(lut, row, i) as [number, number, number]
      const brightness = r + g + b
      expect(brightness).toBeGreaterThan(previous)
      previous = brightness
    }
  })

  it('runs blueRedYellow through pure red in the middle', () => {
    expect(sampleScheme('blueRedYellow', 0)).toEqual([0, 0, 255])
    expect(sampleScheme('blueRedYellow', 0.5)).toEqual([255, 0, 0])
    expect(sampleScheme('blueRedYellow', 1)).toEqual([255, 255, 0])
  })

  it('makes diverging symmetric around a light neutral centre', () => {
    const [r, g, b] = sampleScheme('diverging', 0.5)
    expect(r).toBe(g)
    expect(g).toBe(b)
    expect(r).toBeGreaterThan(200)
    expect(sampleScheme('diverging', 0)[2]).toBeGreaterThan(sampleScheme('diverging', 0)[0])
    expect(sampleScheme('diverging', 1)[0]).toBeGreaterThan(sampleScheme('diverging', 1)[2])
  })

  it('gives discrete exactly eight flat bands', () => {
    const row = schemeRow('discrete')
    const colours = new Set<string>()
    for (let i = 0; i < LUT_WIDTH; i++) colours.add(texel(lut, row, i).join())
    expect(colours.size).toBe(8)
    expect(texel(lut, row, 0)).toEqual(texel(lut, row, 31))
  })

  it('gives binary two colours split at the middle', () => {
    const row = schemeRow('binary')
    const colours = new Set<string>()
    for (let i = 0; i < LUT_WIDTH; i++) colours.add(texel(lut, row, i).join())
    expect(colours.size).toBe(2)
    expect(texel(lut, row, 127)).not.toEqual(texel(lut, row, 128))
  })

  it('maps values through the range to texels, clamping outside and refusing NaN', () => {
    expect(lutIndexForValue(0, 0, 10)).toBe(0)
    expect(lutIndexForValue(10, 0, 10)).toBe(LUT_WIDTH - 1)
    expect(lutIndexForValue(-5, 0, 10)).toBe(0)
    expect(lutIndexForValue(Infinity, 0, 10)).toBe(LUT_WIDTH - 1)
    expect(lutIndexForValue(NaN, 0, 10)).toBeNull()
    expect(lutIndexForValue(1, 5, 5)).toBeNull()
  })
})
