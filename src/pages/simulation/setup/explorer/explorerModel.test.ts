import { describe, expect, it } from 'vitest'
import { PART_MESSAGES } from '../../../../../domain/parts.ts'
import {
  makeMaterial,
  makePart,
  makePointSensor,
  makeVolumeClip,
} from '../viewport/setupTestKit.tsx'
import {
  NOT_DEFINED,
  explorerSections,
  neighbourOf,
  nextSelection,
  orderedEntries,
  partRoleOf,
  partWarnings,
  selectModeOf,
  type ExplorerInput,
} from './explorerModel.ts'

const PARTS = [
  makePart(1, 'Tank', 'rigid'),
  makePart(2, 'Water', 'filling'),
  makePart(3, 'Inlet', 'openboundary'),
  makePart(4, 'Fine zone', 'refinement'),
  makePart(5, 'Lid', 'rigid'),
  makePart(6, 'Jet', 'flow'),
]

const INPUT = {
  parts: PARTS,
  materials: [makeMaterial(0, 'Water'), makeMaterial(1, 'Oil')],
  sensors: [makePointSensor(3, 'Probe')],
  volumeClips: [makeVolumeClip(4, 'Box')],
  calcDomain: { active: true, min: [0, 0, 0], max: [1, 1, 1], issues: [] },
  airDrag: false,
} satisfies ExplorerInput

describe('explorer sections', () => {
  it('groups parts by role: solids, fluids (filling and flow), inlets/outlets; refinement parts under refinements', () => {
    expect(PARTS.map(partRoleOf)).toEqual([
      'solid',
      'fluid',
      'inlet_outlet',
      'refinement',
      'solid',
      'fluid',
    ])
    const sections = explorerSections({ ...INPUT, parts: PARTS })
    expect(sections.parts.solid.map((e) => e.id)).toEqual(['part:1', 'part:5'])
    expect(sections.parts.fluid.map((e) => e.id)).toEqual(['part:2', 'part:6'])
    expect(sections.parts.inlet_outlet.map((e) => e.name)).toEqual(['Inlet'])
    expect(sections.refinements.map((e) => e.name)).toEqual(['Fine zone'])
  })

  it('lists the coordinate system, materials, sensors, clips and the single items', () => {
    const sections = explorerSections({ ...INPUT, parts: PARTS })
    expect(sections.coordinateSystem.id).toBe('coordinate_system')
    expect(sections.materials.map((e) => [e.id, e.name])).toEqual([
      ['material:0', 'Water'],
      ['material:1', 'Oil'],
    ])
    expect(sections.sensors.map((e) => e.id)).toEqual(['sensor:3'])
    expect(sections.volumeClips.map((e) => e.id)).toEqual(['volume_clip:4'])
    expect(sections.special.map((e) => [e.name, e.status, e.selectable])).toEqual([
      ['Deletion Boundary', 'Active', true],
      ['Periodic Boundary', NOT_DEFINED, false],
      ['Air Drag Domain', NOT_DEFINED, false],
    ])
  })

  it('says the deletion boundary is not defined while the calculation domain is off', () => {
    const sections = explorerSections({
      ...INPUT,
      parts: [],
      calcDomain: { active: false, min: [0, 0, 0], max: [1, 1, 1], issues: [] },
    })
    expect(sections.special[0]?.status).toBe(NOT_DEFINED)
  })

  it('orders the selectable entries as shown, without the items this server cannot store', () => {
    const ids = orderedEntries(explorerSections({ ...INPUT, parts: PARTS })).map((e) => e.id)
    expect(ids).toEqual([
      'coordinate_system',
      'part:1',
      'part:5',
      'part:2',
      'part:6',
      'part:3',
      'material:0',
      'material:1',
      'part:4',
      'sensor:3',
      'volume_clip:4',
      'calc_domain',
    ])
  })
})

describe('selection rules', () => {
  const ordered = ['coordinate_system', 'part:1', 'part:5', 'part:2', 'material:0']

  it('replaces the selection on a plain click', () => {
    expect(nextSelection(['part:1', 'part:2'], ordered, 'part:5', 'replace', 'part:1')).toEqual([
      'part:5',
    ])
  })

  it('adds or removes one object with ctrl/meta', () => {
    expect(nextSelection(['part:1'], ordered, 'part:2', 'toggle', 'part:1')).toEqual([
      'part:1',
      'part:2',
    ])
    expect(nextSelection(['part:1', 'part:2'], ordered, 'part:1', 'toggle', 'part:2')).toEqual([
      'part:2',
    ])
  })

  it('selects the range from the anchor to the clicked entry with shift, either way', () => {
    expect(nextSelection(['part:1'], ordered, 'part:2', 'range', 'part:1')).toEqual([
      'part:1',
      'part:5',
      'part:2',
    ])
    expect(nextSelection([], ordered, 'coordinate_system', 'range', 'part:5')).toEqual([
      'part:5',
      'part:1',
      'coordinate_system',
    ])
    expect(nextSelection([], ordered, 'part:2', 'range', null)).toEqual(['part:2'])
  })

  it('reads the mode from the modifiers (shift wins)', () => {
    const keys = { shiftKey: false, ctrlKey: false, metaKey: false }
    expect(selectModeOf(keys)).toBe('replace')
    expect(selectModeOf({ ...keys, ctrlKey: true })).toBe('toggle')
    expect(selectModeOf({ ...keys, metaKey: true })).toBe('toggle')
    expect(selectModeOf({ ...keys, metaKey: true, shiftKey: true })).toBe('range')
  })

  it('moves through the list with the arrow keys, stopping at the ends', () => {
    expect(neighbourOf(ordered, 'part:1', 1)).toBe('part:5')
    expect(neighbourOf(ordered, 'part:1', -1)).toBe('coordinate_system')
    expect(neighbourOf(ordered, 'coordinate_system', -1)).toBe('coordinate_system')
    expect(neighbourOf(ordered, 'material:0', 1)).toBe('material:0')
    expect(neighbourOf(ordered, null, 1)).toBe('coordinate_system')
    expect(neighbourOf([], null, 1)).toBeNull()
  })
})

describe('part warnings', () => {
  it('has none for a healthy part', () => {
    expect(partWarnings(makePart(1, 'Tank', 'rigid'))).toEqual([])
  })

  it("says 'Part has potential issues…' for holes or a flagged part, then the server's and the discretization's messages once each", () => {
    const part = makePart(1, 'Tank', 'rigid', {
      hasWarnings: true,
      warnings: [{ errorCode: 'open_mesh', message: 'The mesh is not closed.' }],
    })
    expect(
      partWarnings(part, [
        { description: 'No particles were created for Tank.' },
        { description: 'The mesh is not closed.' },
      ]),
    ).toEqual([
      PART_MESSAGES.partIssues,
      'The mesh is not closed.',
      'No particles were created for Tank.',
    ])
    const holed = makePart(2, 'Lid', 'rigid')
    if (holed.shape.info) holed.shape.info.holes = [{ center: [0, 0, 0], size: 0.1 }]
    expect(partWarnings(holed)).toEqual([PART_MESSAGES.partIssues])
    // a plane (an inlet's face) is open by design: its hole is no issue
    const plane = { ...holed, shape: { ...holed.shape, type: 'plane' } } as typeof holed
    expect(partWarnings(plane)).toEqual([])
  })
})
