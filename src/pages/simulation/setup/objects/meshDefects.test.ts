import { describe, expect, it } from 'vitest'
import type { CameraState } from '../../../../../domain/results.ts'
import { cameraAtDefect, meshDefects, MIN_ZOOM_DISTANCE_M } from './meshDefects.ts'

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
})
