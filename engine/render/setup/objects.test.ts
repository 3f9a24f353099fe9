import { describe, expect, it } from 'vitest'
import type { SetupObjectView } from '../../setupProtocol.ts'
import { diffSetupObjects, HIGHLIGHT_COLOURS, highlightColour } from './objects.ts'
import { placementMatrix, transformPoint } from './setupMath.ts'

function part(id: string, hash: string, overrides: Partial<SetupObjectView> = {}): SetupObjectView {
  return {
    id,
    kind: 'part',
    name: id,
    geometry: { type: 'mesh', url: `/api/parts/${id}/mesh?v=${hash}`, hash },
    transform: { translation: [0, 0, 0], rotationDeg: [0, 0, 0], scale: [1, 1, 1] },
    appearance: {
      color: '#336699',
      opacity: 1,
      wireframe: false,
      translucent: false,
      visible: true,
    },
    seedPoint: null,
    pointcloud: null,
    arrow: null,
    keyframes: null,
    selectable: true,
    editable: true,
    warning: false,
    ...overrides,
  }
}

describe('setup objects', () => {
  it('diffs by id: added, removed, and what must be fetched again', () => {
    const held = new Map([
      ['a', part('a', 'h1')],
      ['b', part('b', 'h2', { keyframes: { url: '/k', hash: 'k1' } })],
      ['c', part('c', 'h3')],
    ])
    const diff = diffSetupObjects(
      held,
      [
        // Only the look changed: nothing to fetch.
        part('a', 'h1', { appearance: { ...part('a', 'h1').appearance, color: '#ff0000' } }),
        // A new mesh hash and a new keyframe hash.
        part('b', 'h9', { keyframes: { url: '/k', hash: 'k2' } }),
        part('d', 'h4'),
      ],
      5,
      5,
    )
    expect(diff.added.map((view) => view.id)).toEqual(['d'])
    expect(diff.removed).toEqual(['c'])
    expect(
      diff.changed.map((c) => [
        c.view.id,
        c.geometryChanged,
        c.pointcloudChanged,
        c.keyframesChanged,
      ]),
    ).toEqual([
      ['a', false, false, false],
      ['b', true, false, true],
    ])
  })

  it('resamples keyframe tracks when the end time changes', () => {
    const held = new Map([['b', part('b', 'h', { keyframes: { url: '/k', hash: 'k' } })]])
    const diff = diffSetupObjects(held, [held.get('b')!], 5, 8)
    expect(diff.changed[0]!.keyframesChanged).toBe(true)
    expect(diff.changed[0]!.geometryChanged).toBe(false)
  })

  it('picks a highlight that stands out from the object colour', () => {
    expect(highlightColour('#336699', 'selected')).toBe(HIGHLIGHT_COLOURS.selected.preferred)
    // An orange part gets the blue selection, a cyan part the pink hover.
    expect(highlightColour('#ff9900', 'selected')).toBe(HIGHLIGHT_COLOURS.selected.alternative)
    expect(highlightColour('#20b0c0', 'hovered')).toBe(HIGHLIGHT_COLOURS.hovered.alternative)
  })

  it('places a part like the server: scale, then R = Rx·Ry·Rz (three.js XYZ), then translation', () => {
    const matrix = placementMatrix({
      translation: [10, 0, 0],
      rotationDeg: [90, 90, 0],
      scale: [2, 1, 1],
    })
    // (1,0,0) → scale (2,0,0) → Ry(90°) (0,0,−2) → Rx(90°) (0,2,0) → + (10,0,0).
    const p = transformPoint(matrix, [1, 0, 0])
    expect(p[0]).toBeCloseTo(10)
    expect(p[1]).toBeCloseTo(2)
    expect(p[2]).toBeCloseTo(0)
  })
})
