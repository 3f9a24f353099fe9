import { describe, expect, it } from 'vitest'
import { defaultComponent, type Part } from '../../../../../../domain/parts.ts'
import {
  mergeVectorEdit,
  partFolderState,
  selectedParts,
  shared,
  sharedVector,
} from './partSelection.ts'

const part = (id: number, translation: [number, number, number], patch: Partial<Part> = {}) =>
  ({
    id,
    name: `Part ${id}`,
    component: defaultComponent('rigid'),
    shape: {
      type: 'plane',
      translation,
      rotation: [0, 0, 0],
      scale: [1, 1, 1],
      flipNormals: false,
      info: null,
    },
    ...patch,
  }) as Part

describe('part selection', () => {
  it('picks the selected parts in selection order, skipping other objects', () => {
    const parts = [part(1, [0, 0, 0]), part(2, [0, 0, 0])]
    expect(
      selectedParts(['sensor:1', 'part:2', 'part:1', 'part:9'], parts).map((p) => p.id),
    ).toEqual([2, 1])
  })

  it('shows a common value, or mixed', () => {
    const parts = [part(1, [0, 1, 2]), part(2, [0, 5, 2])]
    expect(shared(parts, (p) => p.shape.type)).toEqual({ value: 'plane', mixed: false })
    expect(shared(parts, (p) => p.shape.translation)).toEqual({ value: null, mixed: true })
    expect(sharedVector(parts, (p) => p.shape.translation)).toEqual({
      value: [0, null, 2],
      mixed: true,
    })
  })

  it('changes only the components a person edited', () => {
    expect(mergeVectorEdit([1, 5, 2], [0, null, 2], [7, null, 2])).toEqual([7, 5, 2])
    expect(mergeVectorEdit(null, null, [1, 2, 3])).toEqual([1, 2, 3])
  })

  it('keeps Motion and Information to one part, and point clouds out of Geometry', () => {
    const two = [part(1, [0, 0, 0]), part(2, [0, 0, 0])]
    expect(partFolderState(two, 'information').disabled).toBe(true)
    expect(partFolderState(two, 'appearance').disabled).toBe(false)
    const cloud = part(3, [0, 0, 0], {
      shape: { ...part(3, [0, 0, 0]).shape, type: 'pointcloud' } as Part['shape'],
    })
    expect(partFolderState([cloud], 'geometry')).toEqual({
      disabled: true,
      reason: 'Point cloud parts cannot be edited.',
    })
  })
})
