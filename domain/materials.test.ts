import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import {
  MaterialSchema,
  MaterialUpdateSchema,
  DEFAULT_SPEED_OF_SOUND,
  availableViscosityKinds,
  canDeleteMaterial,
  checkMaterial,
  createDefaultMaterial,
  defaultMaterialProperties,
  materialLabel,
  summarizeMaterialIssues,
  type MaterialProperties,
} from './materials.ts'

const water = (patch: Partial<MaterialProperties> = {}): MaterialProperties => ({
  ...defaultMaterialProperties(0),
  ...patch,
})
const messages = (
  m: MaterialProperties,
  thermodynamics = false,
  profile: 'standard' | 'strict' = 'standard',
) => checkMaterial(m, { thermodynamics, profile }).map((i) => i.message)

describe('material labels and defaults', () => {
  it("labels material 0 'Fluid 1' and material n 'Fluid n+1'", () => {
    expect(materialLabel(0)).toBe('Fluid 1')
    expect(materialLabel(3)).toBe('Fluid 4')
  })

  it('starts water-like and valid in both profiles, thermodynamics included', () => {
    const m = defaultMaterialProperties(1)
    expect(m).toMatchObject({
      name: 'Fluid 2',
      density: 1000,
      gamma: 7,
      kinematicViscosity: 1e-6,
      viscosityKind: 'constant',
    })
    // a floor under the solver's own c0 = 10 √(gH), not a value that overrides it: the solver's
    // rule wins from a fluid height of 0.102 m (a half-metre tank: 22 m/s, where 100 m/s cost
    // 4.5 × its steps)
    expect(m.speedOfSound).toBe(DEFAULT_SPEED_OF_SOUND)
    expect(DEFAULT_SPEED_OF_SOUND).toBeLessThan(10 * Math.sqrt(9.81 * 0.102))
    expect(DEFAULT_SPEED_OF_SOUND).toBeGreaterThan(10 * Math.sqrt(9.81 * 0.101))
    expect(checkMaterial(m, { thermodynamics: true })).toEqual([])
    expect(checkMaterial(m, { thermodynamics: true, profile: 'strict' })).toEqual([])
  })

  it('parses a default material with the read schema', () => {
    expect(v.parse(MaterialSchema, createDefaultMaterial(0, 7, 'now')).simulationId).toBe(7)
  })

  it('refuses unknown fields in an update body', () => {
    expect(v.safeParse(MaterialUpdateSchema, { density: 998 }).success).toBe(true)
    expect(v.safeParse(MaterialUpdateSchema, { density: 998, colour: 'red' }).success).toBe(false)
    expect(v.safeParse(MaterialUpdateSchema, { name: '   ' }).success).toBe(false)
  })

  it('deletes only materials from id 2 on', () => {
    expect(canDeleteMaterial(1)).toBe(false)
    expect(canDeleteMaterial(2)).toBe(true)
  })
})

describe('checkMaterial (standard)', () => {
  it('bounds density to 0.001 … 20000', () => {
    expect(messages(water({ density: 0.001 }))).toEqual([])
    expect(messages(water({ density: 20000 }))).toEqual([])
    expect(messages(water({ density: 0.0009 }))).toEqual(['Density must be at least 0.001.'])
    expect(messages(water({ density: 20001 }))).toEqual(['Density must be at most 20000.'])
  })

  it('needs gamma above 0 and speed of sound above 0 up to 5000', () => {
    expect(messages(water({ gamma: 0 }))).toEqual(['Gamma must be greater than 0.'])
    expect(messages(water({ speedOfSound: 0 }))).toEqual(['Speed of sound must be greater than 0.'])
    expect(messages(water({ speedOfSound: 5000 }))).toEqual([])
    expect(messages(water({ speedOfSound: 5001 }))).toEqual([
      'Speed of sound must be at most 5000.',
    ])
  })

  it('checks thermal properties only with thermodynamics', () => {
    const m = water({ thermalConductivity: 0.00005, specificHeatCapacity: 99 })
    expect(messages(m)).toEqual([])
    expect(messages(m, true)).toEqual([
      'Thermal conductivity must be at least 0.0001.',
      'Specific heat capacity must be at least 100.',
    ])
    expect(messages(water({ thermalConductivity: 10, specificHeatCapacity: 10000 }), true)).toEqual(
      [],
    )
  })

  it('bounds a constant kinematic viscosity to 1e-9 … 2000', () => {
    expect(messages(water({ kinematicViscosity: 1e-9 }))).toEqual([])
    expect(messages(water({ kinematicViscosity: 2001 }))).toEqual([
      'Kinematic viscosity must be at most 2000.',
    ])
    expect(
      messages(
        water({
          kinematicViscosity: null,
          viscosityKind: 'shear_rate',
          viscosityShearRateTableId: 4,
        }),
      ),
    ).toEqual([])
  })

  it('reports unset properties as info', () => {
    const issues = checkMaterial(water({ density: null }), { thermodynamics: false }, 'materials.0')
    expect(issues).toEqual([
      { level: 'info', field: 'materials.0.density', message: 'Density is required' },
    ])
  })

  it('allows temperature-dependent viscosity only with thermodynamics', () => {
    const m = water({ viscosityKind: 'temperature', viscosityTemperatureTableId: 2 })
    expect(checkMaterial(m, { thermodynamics: false })).toEqual([
      {
        level: 'error',
        field: 'material.viscosityKind',
        message: 'Temperature-dependent viscosity requires the Heat Transfer Model.',
      },
    ])
    expect(checkMaterial(m, { thermodynamics: true })).toEqual([])
    expect(availableViscosityKinds(false)).toEqual(['constant', 'shear_rate'])
    expect(availableViscosityKinds(true)).toContain('temperature')
  })

  it('needs viscosity tables with at least 2 rows', () => {
    const m = water({ viscosityKind: 'shear_rate', viscosityShearRateTableId: 5 })
    expect(checkMaterial(m, { thermodynamics: false, tableRowCount: () => 1 })[0]?.message).toBe(
      'Table must have at least 2 rows.',
    )
    expect(checkMaterial(m, { thermodynamics: false, tableRowCount: () => 2 })).toEqual([])
    expect(
      checkMaterial(water({ viscosityKind: 'shear_rate' }), { thermodynamics: false })[0],
    ).toMatchObject({
      level: 'info',
    })
  })
})

describe('checkMaterial (strict)', () => {
  it('uses the narrower ranges', () => {
    expect(messages(water({ density: 0.09 }), false, 'strict')).toEqual([
      'Density must be at least 0.1.',
    ])
    expect(messages(water({ density: 10001 }), false, 'strict')).toEqual([
      'Density must be at most 10000.',
    ])
    expect(messages(water({ gamma: 0.5 }), false, 'strict')).toEqual(['Gamma must be at least 1.'])
    expect(messages(water({ gamma: 11 }), false, 'strict')).toEqual(['Gamma must be at most 10.'])
    expect(messages(water({ speedOfSound: 1001 }), false, 'strict')).toEqual([
      'Speed of sound must be at most 1000.',
    ])
    expect(messages(water({ thermalConductivity: 2.1 }), true, 'strict')).toEqual([
      'Thermal conductivity must be at most 2.',
    ])
    expect(messages(water({ specificHeatCapacity: 499 }), true, 'strict')).toEqual([
      'Specific heat capacity must be at least 500.',
    ])
    expect(messages(water({ kinematicViscosity: 1e-8 }), false, 'strict')).toEqual([
      'Kinematic viscosity must be at least 1e-7.',
    ])
  })
})

describe('summarizeMaterialIssues', () => {
  it("says 'Properties are required.' while something is unset", () => {
    const issues = checkMaterial(water({ density: null, gamma: -1 }), { thermodynamics: false })
    expect(summarizeMaterialIssues('materials.0', issues)).toEqual([
      { level: 'info', field: 'materials.0', message: 'Properties are required.' },
    ])
  })

  it("warns 'Check your properties.' when a property breaks a rule", () => {
    const issues = checkMaterial(water({ gamma: -1 }), { thermodynamics: false })
    expect(summarizeMaterialIssues('materials.0', issues)).toEqual([
      { level: 'warning', field: 'materials.0', message: 'Check your properties.' },
    ])
    expect(summarizeMaterialIssues('materials.0', [])).toEqual([])
  })
})
