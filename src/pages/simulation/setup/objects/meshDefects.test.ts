import { describe, expect, it } from 'vitest'
import type { CameraState } from '../../../../../domain/results.ts'
import {
  cameraAtDefect,
  defectName,
  defectSizeText,
  isMarkedDefect,
  meshDefects,
  MIN_ZOOM_DISTANCE_M,
} from './meshDefects.ts'

const info = (holes: number, nonManifold: number) => ({
  info: {
    holes: Array.from({ length: holes }, (_, i) => ({ center: [i, 0, 0], size: 0.1 })),
    nonManifold: Array.from({ length: nonManifold }, (_, i) => ({ center: [0, i, 0], size: 0 })),
  },
})

describe('mesh defects', () => {
  it('lists holes and non-manifold edges per part, numbered within their part', () => {
    const parts = [
      { id: 1, name: 'Tank', shape: info(2, 1) },
      { id: 2, name: 'Lid', shape: { info: null } },
      { id: 3, name: 'Paddle', shape: info(1, 0) },
    ] as never
    const { holes, nonManifold } = meshDefects(parts)
    expect(holes.map((d) => [d.partName, d.number, d.center[0]])).toEqual([
      ['Tank', 1, 0],
      ['Tank', 2, 1],
      ['Paddle', 1, 0],
    ])
    expect(nonManifold).toHaveLength(1)
    expect(nonManifold[0]).toMatchObject({ partId: 1, kind: 'nonManifold', number: 1 })
  })

  it('zooms to a defect along the current viewing direction, keeping up and mode', () => {
    const camera: CameraState = {
      position: [0, 0, 10],
      target: [0, 0, 0],
      up: [0, 1, 0],
      mode: 'perspective',
    }
    expect(cameraAtDefect({ center: [1, 2, 3], size: 0.5 }, camera)).toEqual({
      position: [1, 2, 4.5],
      target: [1, 2, 3],
      up: [0, 1, 0],
      mode: 'perspective',
    })
    const point = cameraAtDefect({ center: [0, 0, 0], size: 0 }, camera)
    expect(point.position[2]).toBeCloseTo(MIN_ZOOM_DISTANCE_M)
  })

  it('names a defect by its part, kind and number, and its size as people write it', () => {
    expect(defectName({ partName: 'Tank', kind: 'hole', number: 2 })).toBe('Tank: Hole 2')
    expect(defectName({ partName: 'Tank', kind: 'nonManifold', number: 1 })).toBe(
      'Tank: Non-manifold edge 1',
    )
    expect(defectSizeText({ size: 0.24494897792834194 })).toBe('0.245 m')
    expect(defectSizeText({ size: 0.2 })).toBe('0.2 m')
  })

  it('tells the defect the view rings by its centre and size', () => {
    const marked = isMarkedDefect({ center: [1, 2, 3], sizeM: 0.5 })
    expect(marked({ center: [1, 2, 3], size: 0.5 })).toBe(true)
    expect(marked({ center: [1, 2, 4], size: 0.5 })).toBe(false)
    expect(marked({ center: [1, 2, 3], size: 0.4 })).toBe(false)
    expect(isMarkedDefect(null)({ center: [1, 2, 3], size: 0.5 })).toBe(false)
  })
})
