import { describe, expect, it } from 'vitest'
import { nearestPointIndex, pixelOf, tooltipPlacement, type GraphFrame } from './graphFrame.ts'

const FRAME: GraphFrame = {
  left: 50,
  right: 550,
  top: 10,
  bottom: 210,
  xMin: 0,
  xMax: 10,
  yMin: 0,
  yMax: 100,
  yLog: false,
}

describe('graph frame', () => {
  it('places points in the plot area, y up', () => {
    expect(pixelOf(FRAME, 0, 0)).toEqual({ px: 50, py: 210 })
    expect(pixelOf(FRAME, 10, 100)).toEqual({ px: 550, py: 10 })
    expect(pixelOf(FRAME, 5, 50)).toEqual({ px: 300, py: 110 })
  })

  it('places points on a logarithmic y axis by decades', () => {
    const log = { ...FRAME, yMin: 1, yMax: 100, yLog: true }
    expect(pixelOf(log, 0, 10).py).toBeCloseTo(110)
    expect(pixelOf(log, 0, 0).py).toBeNaN()
  })

  it('finds the point nearest the pointer along x, only inside the plot', () => {
    const points = [
      { x: 1, y: 5 },
      { x: 4, y: 50 },
      { x: 9, y: 20 },
    ]
    expect(nearestPointIndex(FRAME, points, 260, 100)).toBe(1)
    expect(nearestPointIndex(FRAME, points, 540, 100)).toBe(2)
    expect(nearestPointIndex(FRAME, points, 20, 100)).toBeNull()
    expect(nearestPointIndex(FRAME, points, 300, 250)).toBeNull()
    expect(nearestPointIndex(FRAME, [], 300, 100)).toBeNull()
  })

  it('skips points outside a manual x range', () => {
    const narrow = { ...FRAME, xMin: 3, xMax: 10 }
    expect(
      nearestPointIndex(
        narrow,
        [
          { x: 1, y: 5 },
          { x: 9, y: 20 },
        ],
        51,
        100,
      ),
    ).toBe(1)
  })

  it('keeps a tooltip inside the tile: left of points in the right half, below points at the top', () => {
    // Tried in the browser: at the right edge the tooltip ran out of the tile and was cut.
    expect(tooltipPlacement(FRAME, 100, 150)).toEqual({ horizontal: 'right', vertical: 'above' })
    expect(tooltipPlacement(FRAME, 540, 150)).toEqual({ horizontal: 'left', vertical: 'above' })
    expect(tooltipPlacement(FRAME, 540, 20)).toEqual({ horizontal: 'left', vertical: 'below' })
  })
})
