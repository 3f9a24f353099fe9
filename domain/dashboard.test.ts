import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import {
  DashboardCreateSchema,
  TILE_MIN_SIZES,
  TemplateCreateSchema,
  TileCreateSchema,
  checkDashboardName,
  defaultViewTiles,
  fitTileLayout,
} from './dashboard.ts'

describe('tiles', () => {
  it('has the minimum sizes of the spec', () => {
    expect(TILE_MIN_SIZES).toEqual({
      details: { w: 3, h: 1 },
      job: { w: 3, h: 2 },
      progress: { w: 3, h: 1 },
      budget: { w: 3, h: 1 },
      note: { w: 3, h: 2 },
      graph: { w: 6, h: 2 },
      variables: { w: 3, h: 2 },
      image: { w: 3, h: 4 },
    })
  })

  it('places a new tile at x 0, y 9999, 6 × 2', () => {
    const tile = v.parse(TileCreateSchema, { type: 'note' })
    expect(tile).toEqual({ type: 'note', x: 0, y: 9999, w: 6, h: 2, config: null })
  })

  it('grows a tile to its minimum size and keeps it inside 12 columns', () => {
    expect(fitTileLayout('image', { x: 0, y: 0, w: 1, h: 1 })).toEqual({ x: 0, y: 0, w: 3, h: 4 })
    expect(fitTileLayout('graph', { x: 10, y: 2, w: 2, h: 2 })).toEqual({ x: 6, y: 2, w: 6, h: 2 })
    expect(fitTileLayout('note', { x: 0, y: 0, w: 20, h: 3 })).toEqual({ x: 0, y: 0, w: 12, h: 3 })
  })

  it('builds the default view in the order of the spec', () => {
    const tiles = defaultViewTiles()
    expect(tiles.map((t) => (t.type === 'graph' ? `graph:${t.config?.graph}` : t.type))).toEqual([
      'details',
      'progress',
      'budget',
      'variables',
      'job',
      'graph:particles',
      'graph:runtimePerS',
      'graph:dt',
      'note',
      'image',
    ])
  })
})

describe('view and template names', () => {
  it("rejects a view name already used: 'View with entered name already exists'", () => {
    expect(checkDashboardName('view', ' Main ', ['Main', 'Other'])).toEqual([
      { level: 'error', field: 'name', message: 'View with entered name already exists' },
    ])
  })

  it("rejects a template name already used: 'Template with entered name already exists.'", () => {
    expect(checkDashboardName('template', 'Mine', ['Mine'])[0]?.message).toBe(
      'Template with entered name already exists.',
    )
  })

  it('accepts 100 characters, not 101, and needs a non-empty name', () => {
    expect(checkDashboardName('view', 'a'.repeat(100), [])).toEqual([])
    expect(checkDashboardName('view', 'a'.repeat(101), [])[0]?.level).toBe('error')
    expect(checkDashboardName('view', '   ', [])[0]?.level).toBe('info')
    expect(checkDashboardName('view', 'main', ['Main'])).toEqual([])
  })

  it('applies the same rules to the create bodies', () => {
    expect(v.safeParse(DashboardCreateSchema, { name: '' }).success).toBe(false)
    expect(v.safeParse(DashboardCreateSchema, { name: 'x'.repeat(101) }).success).toBe(false)
    expect(v.parse(DashboardCreateSchema, { name: 'View' })).toMatchObject({ default: false })
  })

  it('saves a view as template with copyCustom false', () => {
    expect(v.parse(TemplateCreateSchema, { name: 'T', dashboardId: 3 })).toEqual({
      name: 'T',
      dashboardId: 3,
      copyCustom: false,
    })
    expect(
      v.safeParse(TemplateCreateSchema, { name: 'T', dashboardId: 3, copyCustom: true }).success,
    ).toBe(false)
  })
})
