import { describe, expect, it } from 'vitest'
import { decodeMaskId, decodeObjectId, encodeMaskId, encodeObjectId } from './resultsObjects.ts'

describe('results object ids', () => {
  it('gives a material and a part with the same table id different numbers, and decodes them back', () => {
    const fluid = encodeObjectId('fluid', 2)
    const wall = encodeObjectId('wall_boundary', 2)
    expect(fluid).not.toBe(wall)
    expect(decodeObjectId(fluid)).toEqual({ kind: 'fluid', sourceId: 2 })
    expect(decodeObjectId(wall)).toEqual({ kind: 'wall_boundary', sourceId: 2 })
    expect(decodeObjectId(16)).toBeNull()
    expect(decodeObjectId(-3)).toBeNull()
    expect(() => encodeObjectId('fluid', -1)).toThrow()
  })

  it('pairs clip and material ids into unique mask ids that decode back', () => {
    const seen = new Set<number>()
    for (let clip = 0; clip < 40; clip++)
      for (let material = 0; material < 40; material++) {
        const id = encodeMaskId(clip, material)
        expect(seen.has(id)).toBe(false)
        seen.add(id)
        expect(decodeMaskId(id)).toEqual({ volumeClipId: clip, materialId: material })
      }
    expect(decodeMaskId(encodeMaskId(123_456, 7_890_123))).toEqual({
      volumeClipId: 123_456,
      materialId: 7_890_123,
    })
    expect(decodeMaskId(1.5)).toBeNull()
  })
})
