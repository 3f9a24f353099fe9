import { describe, expect, it } from 'vitest'
import type { AirDragGrid } from '../../domain/airDragGridFile.ts'
import { airDragGridBounds, airDragGridGeometry } from './airDragGridGeometry.ts'

const GRID: AirDragGrid = {
  dims: [4, 2, 3],
  kind: 'table',
  min: [-1, 0, 0.5],
  cellSize: 0.5,
  velocity: [1, 0, 0],
}

describe('air drag grid geometry', () => {
  it('outlines the box and puts a point at the centre of every cell', () => {
    expect(airDragGridBounds(GRID)).toEqual({ min: [-1, 0, 0.5], max: [1, 1, 2] })
    const { outline, points, stride } = airDragGridGeometry(GRID)
    expect(outline.length).toBe(24 * 3)
    // every outline vertex is a corner of the box
    for (let v = 0; v < 24; v++) {
      expect([-1, 1]).toContain(outline[3 * v])
      expect([0, 1]).toContain(outline[3 * v + 1])
      expect([0.5, 2]).toContain(outline[3 * v + 2])
    }
    expect(stride).toBe(1)
    expect(points.length / 3).toBe(24)
    expect([...points.slice(0, 3)]).toEqual([-0.75, 0.25, 0.75])
    expect([...points.slice(-3)]).toEqual([0.75, 0.75, 1.75])
  })

  it('draws every k-th cell of a grid above the point budget, over the whole box', () => {
    const fine: AirDragGrid = { ...GRID, dims: [100, 100, 100], cellSize: 0.01, min: [0, 0, 0] }
    const { points, stride } = airDragGridGeometry(fine, 10_000)
    expect(stride).toBe(5)
    expect(points.length / 3).toBe(20 ** 3)
    const xs = points.filter((_, i) => i % 3 === 0)
    expect(Math.min(...xs)).toBeCloseTo(0.005, 6)
    expect(Math.max(...xs)).toBeCloseTo(0.955, 6)
  })
})

describe('air drag grid object', () => {
  it('draws the grid while visible, nothing while hidden, and rebuilds only for another grid', async () => {
    const { AirDragGridObject } = await import('./AirDragGridObject.ts')
    const object = new AirDragGridObject()
    object.set({ grid: GRID, visible: true })
    expect(object.drawnPoints()).toBe(24)
    expect(object.root().children).toHaveLength(2)
    const points = object.root().children[1]
    object.set({ grid: { ...GRID }, visible: true })
    expect(object.root().children[1]).toBe(points)
    object.set({ grid: { ...GRID, dims: [2, 2, 2] }, visible: true })
    expect(object.drawnPoints()).toBe(8)
    object.set({ grid: GRID, visible: false })
    expect(object.drawnPoints()).toBe(0)
    expect(object.root().children).toHaveLength(0)
    object.set(null)
    object.dispose()
  })
})
