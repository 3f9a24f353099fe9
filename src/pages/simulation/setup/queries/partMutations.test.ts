import { describe, expect, it } from 'vitest'
import { defaultAppearance, defaultComponent, type Part } from '../../../../../domain/parts.ts'
import { applyPartUpdate } from './partMutations.ts'

const part: Part = {
  id: 3,
  simulationId: 1,
  name: 'Tank',
  kind: 'solid',
  createdAt: '2026-11-26T00:00:00.000Z',
  updatedAt: '2026-11-26T00:00:00.000Z',
  createdBy: 1,
  organizationId: 1,
  seedPoint: null,
  materialId: null,
  component: defaultComponent('rigid'),
  appearance: defaultAppearance(0),
  shape: {
    type: 'stl_cube',
    translation: [0, 0, 0],
    rotation: [0, 0, 0],
    scale: [1, 1, 1],
    flipNormals: false,
    dimensions: [1, 1, 1],
    info: null,
  },
  hasWarnings: false,
  warnings: [],
  meshUrl: '/api/parts/3/mesh?v=1',
  meshHash: '1',
  pointcloudUrl: null,
  pointcloudCount: null,
}

describe('applyPartUpdate', () => {
  it('replaces plain fields and merges appearance and shape of the same type', () => {
    const next = applyPartUpdate(part, {
      name: 'Walls',
      appearance: { opacity: 0.5 },
      shape: { type: 'stl_cube', translation: [1, 2, 3] },
    })
    expect(next.name).toBe('Walls')
    expect(next.appearance).toEqual({ ...part.appearance, opacity: 0.5 })
    expect(next.shape).toEqual({ ...part.shape, translation: [1, 2, 3] })
    expect(part.name).toBe('Tank')
  })

  it('drops the geometry facts when the shape type changes', () => {
    const withInfo: Part = {
      ...part,
      shape: {
        ...part.shape,
        info: {
          center: [0, 0, 0],
          normal: null,
          isPlanar: false,
          nbrOfTriangles: 12,
          holes: [],
          nonManifold: [],
          surfaceArea: 6,
          boundingBox: { min: [0, 0, 0], max: [1, 1, 1] },
        },
      },
    }
    expect(applyPartUpdate(withInfo, { shape: { type: 'plane' } }).shape.info).toBeNull()
  })
})
