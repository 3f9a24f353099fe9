import { describe, expect, it } from 'vitest'
import { boxShape, makePart } from '../discretizer/testSetup.ts'
import { unsupportedParts } from './support.ts'

describe('unsupportedParts', () => {
  it('refuses an initial preset and a pointcloud splitting ratio above 1, not a pointcloud of 1', () => {
    const preset = makePart(1, 'flow', boxShape([0, 0, 0], [1, 1, 1]))
    if (preset.component.type === 'flow') preset.component.initialPreset = 'still water'
    const cloud = (id: number, splittingRatio: number) =>
      makePart(id, 'filling', {
        type: 'pointcloud',
        translation: [0, 0, 0],
        scale: [1, 1, 1],
        rotation: [0, 0, 0],
        flipNormals: false,
        info: null,
        refSimulationId: 4,
        refSimulationOutput: 2,
        splittingRatio,
      })
    expect(unsupportedParts([preset, cloud(2, 1), cloud(3, 4)])).toEqual([
      'initial preset "still water" of part "Part 1"',
      'splitting ratio 4 of pointcloud part "Part 3"',
    ])
  })
})
