import { describe, expect, it } from 'vitest'
import { issueTargetOf, partFolderOfField } from './issueTarget.ts'

const MOVEMENTS = [
  { id: 3, partId: 12 },
  { id: 4, partId: 5 },
]

const target = (field: string) => issueTargetOf(field, MOVEMENTS)

describe('where an Input Validation item leads', () => {
  it('selects the part a field names and opens its form at the folder of the field', () => {
    expect(target('parts.12.component.height')).toEqual({
      select: ['part:12'],
      open: { form: { kind: 'part', folder: 'geometry' } },
    })
    expect(target('parts.12.component.ioPressure')?.open).toEqual({
      form: { kind: 'part', folder: 'boundary_conditions' },
    })
    expect(target('parts.4.component.initialVelocity.2')?.open).toEqual({
      form: { kind: 'part', folder: 'initial_conditions' },
    })
    expect(target('parts.4.materialId')?.open).toEqual({
      form: { kind: 'part', folder: 'material' },
    })
    expect(target('parts.4.appearance.opacity')?.open).toEqual({
      form: { kind: 'part', folder: 'appearance' },
    })
    expect(target('parts.4.discretization')?.open).toEqual({
      form: { kind: 'part', folder: 'information' },
    })
  })

  it('opens the settings form for settings, the physics form for the physics switches', () => {
    expect(target('settings.endTime')).toEqual({ select: [], open: { form: { kind: 'settings' } } })
    expect(target('settings.gravity.2')?.open).toEqual({ form: { kind: 'settings' } })
    expect(target('settings.multiphase')?.open).toEqual({ form: { kind: 'physics' } })
    expect(target('settings.sigma')?.open).toEqual({ form: { kind: 'physics' } })
    expect(target('airDrag')?.open).toEqual({ form: { kind: 'physics' } })
  })

  it('opens the deletion boundary for its settings', () => {
    expect(target('settings.calcDomainActive')).toEqual({
      select: ['calc_domain'],
      open: { form: { kind: 'calcDomain' } },
    })
    expect(target('settings.calcDomainMax.0')?.select).toEqual(['calc_domain'])
  })

  it('opens the material form of a material field', () => {
    expect(target('materials.0.density')).toEqual({
      select: ['material:0'],
      open: { form: { kind: 'material', materialId: 0 } },
    })
  })

  it("opens the moving part's motion form for a movement field", () => {
    expect(target('movements.3.start')).toEqual({
      select: ['part:12'],
      open: { form: { kind: 'motion' } },
    })
    expect(target('movements.99.start')).toBeNull()
  })

  it('opens the dialog of a sensor or volume clip and the form of a refinement zone', () => {
    expect(target('sensors.3.position.1')).toEqual({
      select: ['sensor:3'],
      open: { dialog: { kind: 'sensor', sensorId: 3 } },
    })
    expect(target('volumeClips.4.mesh.radius')).toEqual({
      select: ['volume_clip:4'],
      open: { dialog: { kind: 'volumeClip', clipId: 4 } },
    })
    expect(target('refinements.2.level')).toEqual({
      select: ['refinement:2'],
      open: { form: { kind: 'refinement', refinementId: 2 } },
    })
  })

  it('leads nowhere for an empty scene, a periodic boundary or an unknown field', () => {
    expect(target('parts')).toBeNull()
    expect(target('periodics.1.sliceAngle')).toBeNull()
    expect(target('discretization')).toBeNull()
    expect(target('parts.x.name')).toBeNull()
  })

  it('knows the folder of every part field', () => {
    expect(partFolderOfField(['name'])).toBe('geometry')
    expect(partFolderOfField(['shape', 'dimensions', '0'])).toBe('geometry')
    expect(partFolderOfField(['seedPoint'])).toBe('geometry')
    expect(partFolderOfField(['component', 'metalness'])).toBe('appearance')
    expect(partFolderOfField(['component', 'velocityConditionMovementId'])).toBe(
      'boundary_conditions',
    )
    expect(partFolderOfField(['component', 'contactAngle'])).toBe('boundary_conditions')
    expect(partFolderOfField(['component', 'initialDistributionTableId'])).toBe(
      'initial_conditions',
    )
  })
})
