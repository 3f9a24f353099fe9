import { describe, expect, it } from 'vitest'
import { defaultAirDragDomain } from '../../../../../domain/airDrag.ts'
import type { PeriodicBoundary } from '../../../../../domain/periodic.ts'
import {
  airDragView,
  gridLines,
  MAX_GRID_LINES_PER_AXIS,
  periodicSlice,
  periodicView,
} from './objectViews.ts'

const periodic = (patch: Partial<PeriodicBoundary> = {}): PeriodicBoundary => ({
  id: 1,
  type: 'rotational',
  center: [0, 0, 0],
  axis: [0, 0, 1],
  sliceRotation: 0,
  sliceAngle: 90,
  visibility: true,
  normal: null,
  ...patch,
})

const points = (positions: readonly number[]) =>
  Array.from({ length: positions.length / 3 }, (_, i) => positions.slice(i * 3, i * 3 + 3))

describe('setup object views', () => {
  it('draws the air drag box only while air drag is on, with its grid when shown', () => {
    const domain = {
      ...defaultAirDragDomain(3),
      kind: 'table' as const,
      center: [1, 0, 0] as [number, number, number],
    }
    expect(airDragView(domain, false)).toBeNull()
    const box = airDragView(domain, true)
    expect(box?.geometry).toMatchObject({ type: 'lines' })
    const edges = box?.geometry.type === 'lines' ? box.geometry.positions : []
    expect(edges).toHaveLength(72)
    expect(Math.min(...points(edges).map((p) => p[0]!))).toBeCloseTo(0.5)
    const grid = airDragView({ ...domain, gridVisibility: true }, true)
    // 1 m box, 0.1 m cells: 9 inner rings per axis, 4 segments each.
    expect(grid?.geometry.type === 'lines' && grid.geometry.positions.length).toBe(
      72 + 3 * 9 * 8 * 3,
    )
    // A constant kind has no grid.
    const constant = airDragView({ ...domain, kind: 'constant', gridVisibility: true }, true)
    expect(constant?.geometry.type === 'lines' && constant.geometry.positions.length).toBe(72)
  })

  it('caps the grid lines of a fine grid', () => {
    const lines = gridLines([0, 0, 0], [1, 1, 1], 0.001)
    expect(lines.length / (8 * 3 * 3)).toBeLessThanOrEqual(MAX_GRID_LINES_PER_AXIS)
  })

  it('draws the slice faces at sliceRotation and sliceRotation + sliceAngle about the axis', () => {
    const positions = periodicSlice(periodic({ sliceRotation: 30, sliceAngle: 60 }), 2)
    expect(positions).not.toBeNull()
    const ends = points(positions!)
    // The first face's outer edge at 30°, the second's at 90° (radius 2, z = ±1), counted from
    // the axis's first perpendicular: helper x × axis z = −y, i.e. 270° from +x.
    const angles = ends
      .filter((p) => Math.hypot(p[0]!, p[1]!) > 1.99 && Math.abs(p[2]!) > 0.99)
      .map((p) => Math.round((Math.atan2(p[1]!, p[0]!) * 180) / Math.PI + 360) % 360)
    expect(new Set(angles)).toEqual(new Set([(30 + 270) % 360, (90 + 270) % 360]))
    expect(periodicSlice(periodic({ axis: [0, 0, 0] }), 1)).toBeNull()
    expect(periodicView(periodic({ sliceAngle: null }), 1)).toBeNull()
    expect(periodicView(periodic(), 1)).toMatchObject({ id: 'periodic_boundary', selectable: true })
  })
})
