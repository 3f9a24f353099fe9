import { describe, expect, it } from 'vitest'
import {
  AXIS_RANGE_MESSAGE,
  DASHBOARD_GRID,
  LOG_RANGE_MESSAGE,
  NAME_EMPTY_MESSAGE,
  NAME_TOO_LONG_MESSAGE,
  TILE_MIN_SIZES,
  VIEW_NAME_TAKEN_MESSAGE,
  dashboardNameError,
  defaultGraphSettings,
  defaultViewTiles,
  graphSettingsErrors,
  parseGraphCsv,
  placeTile,
  templateTiles,
} from './dashboards.ts'

describe('default view', () => {
  const tiles = defaultViewTiles()

  it('has the spec tiles: details, progress, budget, variables, job, three log graphs, note, image', () => {
    expect(tiles.map((t) => t.type).sort()).toEqual(
      [
        'budget',
        'details',
        'graph',
        'graph',
        'graph',
        'image',
        'job',
        'note',
        'progress',
        'variables',
      ].sort(),
    )
    expect(
      tiles.flatMap((t) => (t.graph?.source.kind === 'log' ? [t.graph.source.graph] : [])),
    ).toEqual(['particles', 'runtimePerS', 'dt'])
  })

  it('places every tile inside the 12 columns, at least its minimum size, without overlaps', () => {
    const taken = new Set<string>()
    for (const tile of tiles) {
      expect(tile.w).toBeGreaterThanOrEqual(TILE_MIN_SIZES[tile.type].w)
      expect(tile.h).toBeGreaterThanOrEqual(TILE_MIN_SIZES[tile.type].h)
      expect(tile.x + tile.w).toBeLessThanOrEqual(DASHBOARD_GRID.columns)
      for (let x = tile.x; x < tile.x + tile.w; x++)
        for (let y = tile.y; y < tile.y + tile.h; y++) {
          const cell = `${x},${y}`
          expect(taken.has(cell), `${tile.type} overlaps at ${cell}`).toBe(false)
          taken.add(cell)
        }
    }
  })
})

describe('placeTile', () => {
  it('puts a tile without a place at x 0, y 9999, 6 x 2', () => {
    expect(placeTile('note')).toEqual({ x: 0, y: 9999, w: 6, h: 2 })
  })
  it('never makes a tile smaller than its type allows, nor wider than the grid', () => {
    expect(placeTile('image', { w: 1, h: 1 })).toMatchObject({ w: 3, h: 4 })
    expect(placeTile('graph', { x: 10, w: 2 })).toMatchObject({ x: 6, w: 6 })
  })
})

describe('view and template names', () => {
  it('must be non-empty, at most 100 characters and not taken (trimmed, any case)', () => {
    expect(dashboardNameError('  ', [], VIEW_NAME_TAKEN_MESSAGE)).toBe(NAME_EMPTY_MESSAGE)
    expect(dashboardNameError('x'.repeat(101), [], VIEW_NAME_TAKEN_MESSAGE)).toBe(
      NAME_TOO_LONG_MESSAGE,
    )
    expect(dashboardNameError('x'.repeat(100), [], VIEW_NAME_TAKEN_MESSAGE)).toBeNull()
    expect(dashboardNameError(' default ', ['Default'], VIEW_NAME_TAKEN_MESSAGE)).toBe(
      VIEW_NAME_TAKEN_MESSAGE,
    )
  })
})

describe('graph settings', () => {
  const settings = defaultGraphSettings({ kind: 'log', graph: 'dt' })
  it('refuse a manual range whose min is not below its max, and a log axis from 0', () => {
    expect(graphSettingsErrors(settings)).toEqual([])
    expect(graphSettingsErrors({ ...settings, xAuto: false, xMin: 2, xMax: 1 })).toEqual([
      AXIS_RANGE_MESSAGE,
    ])
    expect(
      graphSettingsErrors({ ...settings, logValues: true, yAuto: false, yMin: 0, yMax: 1 }),
    ).toEqual([LOG_RANGE_MESSAGE])
  })
})

describe('templates', () => {
  it('leave out note texts, images and sensor graphs unless copyCustom', () => {
    const tiles = [
      ...defaultViewTiles().map((t) => (t.type === 'note' ? { ...t, text: 'mine' } : t)),
      {
        type: 'graph' as const,
        x: 0,
        y: 9,
        w: 6,
        h: 2,
        graph: defaultGraphSettings({ kind: 'sensor', sensorId: 4, quantity: 'pressure' }),
        text: null,
        imageId: null,
      },
    ]
    const plain = templateTiles(tiles, false)
    expect(plain).toHaveLength(tiles.length - 1)
    expect(plain.find((t) => t.type === 'note')?.text).toBe('')
    expect(templateTiles(tiles, true)).toEqual(tiles)
  })
})

describe('parseGraphCsv', () => {
  it('reads a header and rows of two numbers separated by ; or ,', () => {
    expect(parseGraphCsv('time;force\n0;1.5\n0.1, 2.5\n')).toEqual({
      xLabel: 'time',
      yLabel: 'force',
      x: [0, 0.1],
      y: [1.5, 2.5],
    })
  })
  it('refuses three columns, text after the header and an empty file', () => {
    expect(parseGraphCsv('a;b;c\n')).toBeNull()
    expect(parseGraphCsv('0;1\nx;2\n')).toBeNull()
    expect(parseGraphCsv('')).toBeNull()
  })
})
