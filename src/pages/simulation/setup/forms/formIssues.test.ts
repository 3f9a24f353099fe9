import { describe, expect, it } from 'vitest'
import { issue } from '../../../../../domain/validation.ts'
import {
  calcDomainFieldOf,
  materialFieldOf,
  mergeIssues,
  partFieldOf,
  rebaseIssues,
  refusalIssues,
  settingsFieldOf,
} from './formIssues.ts'

describe('form issues', () => {
  it('keeps one of each message per field', () => {
    const a = issue('error', 'settings.endTime', 'End time must be greater than 0.')
    const b = issue('info', 'settings.sigma', 'Sigma is required')
    expect(mergeIssues([a], [a, b], [b])).toEqual([a, b])
  })

  it("renames the setup validation's paths of one object to the form's", () => {
    const issues = [
      issue('error', 'parts.12.component.ioPressure', 'Pressure must be at least 0.'),
      issue('error', 'parts.120.name', 'Name is already used'),
      issue('info', 'parts.12', 'No geometry found.'),
    ]
    expect(rebaseIssues(issues, 'parts.12', 'part').map((i) => i.field)).toEqual([
      'part.component.ioPressure',
      'part',
    ])
  })

  it("maps a refusal's server paths to the form's fields", () => {
    expect(partFieldOf('part.component.ioPressure')).toBe('part.component.ioPressure')
    expect(partFieldOf('0.shape.scale.1')).toBe('part.shape.scale.1')
    expect(partFieldOf('parts.4.name')).toBe('part.name')
    expect(partFieldOf('materialId')).toBe('part.materialId')
    expect(settingsFieldOf('gravity.2')).toBe('settings.gravity.2')
    expect(settingsFieldOf('settings.sigma')).toBe('settings.sigma')
    expect(materialFieldOf('material.density')).toBe('material.density')
    expect(materialFieldOf('density')).toBe('material.density')
    expect(calcDomainFieldOf('settings.calcDomainMax')).toBe('settings.calcDomainMax')
    expect(calcDomainFieldOf('min.0')).toBe('settings.calcDomainMin.0')
    expect(refusalIssues([{ path: 'endTime', message: 'Too long.' }], settingsFieldOf)).toEqual([
      { level: 'error', field: 'settings.endTime', message: 'Too long.' },
    ])
  })
})
