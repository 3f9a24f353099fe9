import { describe, expect, it } from 'vitest'
import { defaultAirDragDomain } from './airDrag.ts'
import { DATATABLE_MESSAGES } from './datatable.ts'
import { canDiscretize } from './discretization.ts'
import { createDefaultMaterial } from './materials.ts'
import { defaultMesh } from './meshes.ts'
import type { Movement } from './movements.ts'
import {
  PART_WITHOUT_FILES,
  PART_MESSAGES,
  defaultAppearance,
  defaultComponent,
  type Component,
  type Part,
  type Shape,
} from './parts.ts'
import { defaultSettings, type SimulationSettings } from './settings.ts'
import {
  AIR_DRAG_DOMAIN_REQUIRED,
  EMPTY_SETUP_MESSAGE,
  validateSetup,
  type SetupInput,
} from './setupValidation.ts'
import { issue, type Issue } from './validation.ts'

const cube: Shape = {
  type: 'stl_cube',
  translation: [0, 0, 0],
  scale: [1, 1, 1],
  rotation: [0, 0, 0],
  flipNormals: false,
  dimensions: [1, 1, 1],
  info: null,
}
function part(
  id: number,
  component: Component = defaultComponent('filling'),
  patch: Partial<Part> = {},
): Part {
  return {
    id,
    simulationId: 1,
    name: `Part ${id}`,
    kind: 'fluid',
    createdAt: '',
    updatedAt: '',
    createdBy: null,
    organizationId: null,
    seedPoint: null,
    materialId: 0,
    component,
    appearance: defaultAppearance(id),
    shape: cube,
    hasWarnings: false,
    warnings: [],
    ...PART_WITHOUT_FILES,
    ...patch,
  }
}
const water = createDefaultMaterial(0, 1, 'now')
const air = { ...createDefaultMaterial(1, 1, 'now'), density: 1.2, gamma: 1.4 }
const refinement = {
  id: 5,
  name: 'Zone',
  mesh: defaultMesh('cube', 5),
  appearance: defaultAppearance(0),
  kind: 'chiron' as const,
  level: 0.3,
}

function setup(
  settings: Partial<SimulationSettings> = {},
  rest: Partial<SetupInput> = {},
): SetupInput {
  return {
    settings: { ...defaultSettings(), calcDomainActive: true, ...settings },
    materials: [water],
    parts: [part(1)],
    ...rest,
  }
}
const messages = (issues: Issue[]) => issues.map((i) => i.message)

describe('validateSetup', () => {
  it('finds nothing in a complete single-phase setup', () => {
    expect(validateSetup(setup())).toEqual([])
  })

  it('asks for a first object in an empty scene, which blocks discretization', () => {
    const issues = validateSetup(setup({}, { parts: [] }))
    expect(issues).toEqual([{ level: 'info', field: 'parts', message: EMPTY_SETUP_MESSAGE }])
    expect(canDiscretize(issues)).toBe(false)
  })

  it('warns without a deletion boundary but still allows discretization', () => {
    const issues = validateSetup(setup({ calcDomainActive: false }))
    expect(issues).toEqual([
      {
        level: 'warning',
        field: 'settings.calcDomainActive',
        message: 'Add a deletion boundary to save on cost.',
      },
    ])
    expect(canDiscretize(issues)).toBe(true)
  })

  it('applies the strict profile to every rule', () => {
    const input = setup({ gravity: [0, 0, -400] }, { materials: [{ ...water, gamma: 11 }] })
    expect(validateSetup(input)).toEqual([])
    expect(validateSetup(input, { profile: 'strict' }).map((i) => i.field)).toEqual([
      'settings.gravity.2',
      'materials.0.gamma',
    ])
  })

  it('refuses multiphase with a refinement zone', () => {
    const issues = validateSetup(
      setup({ multiphase: true }, { materials: [water, air], refinements: [refinement] }),
    )
    expect(messages(issues)).toEqual(['Multiphase cannot be used in combination with refinement.'])
  })

  it('limits thermal conditions of parts under multiphase with thermodynamics', () => {
    const wall = part(
      2,
      { ...defaultComponent('rigid'), thermoKind: 'heat_flux', heatFlux: 100 } as Component,
      { materialId: null },
    )
    const issues = validateSetup(
      setup(
        { multiphase: true, thermodynamics: true, ambientTemperature: 293, densityLimiter: false },
        {
          materials: [water, air],
          parts: [part(1, { ...defaultComponent('filling'), initialTemperature: 293 }), wall],
        },
      ),
    )
    expect(issues).toEqual([
      {
        level: 'error',
        field: 'parts.2.component.thermoKind',
        message: PART_MESSAGES.thermoKindMultiphase,
      },
    ])
  })

  it('needs a material for fluid parts and checks material properties', () => {
    const issues = validateSetup(
      setup(
        {},
        {
          materials: [{ ...water, density: null }],
          parts: [part(1, undefined, { materialId: null })],
        },
      ),
    )
    expect(issues.map((i) => [i.field, i.message])).toEqual([
      ['materials.0.density', 'Density is required'],
      ['parts.1.materialId', 'Material is required'],
    ])
  })

  it('skips the particle diameter while a part is a point cloud', () => {
    const pointcloud: Shape = {
      ...cube,
      type: 'pointcloud',
      refSimulationId: 2,
      refSimulationOutput: 0,
      splittingRatio: 1,
    }
    expect(
      validateSetup(
        setup({ particleDiameter: null }, { parts: [part(1, undefined, { shape: pointcloud })] }),
      ),
    ).toEqual([])
    expect(messages(validateSetup(setup({ particleDiameter: null })))).toEqual([
      'Particle diameter is required',
    ])
  })

  it('reads datatable rows and headers from the loaded tables', () => {
    const distributed = {
      ...defaultComponent('filling'),
      initialDistribution: true,
      initialDistributionTableId: 8,
    } as Component
    const input = setup(
      {},
      {
        parts: [part(1, distributed)],
        datatables: [{ id: 8, headers: ['pos_x', 'pos_y', 'pos_z'], resultCount: 1 }],
      },
    )
    expect(messages(validateSetup(input))).toEqual(['Table must have at least 2 rows.'])
  })

  it('flags a table the simulation does not have once its tables are given, not before', () => {
    const distributed = {
      ...defaultComponent('filling'),
      initialDistribution: true,
      initialDistributionTableId: 9,
    } as Component
    const shearRate = {
      ...water,
      viscosityKind: 'shear_rate' as const,
      viscosityShearRateTableId: 9,
    }
    const parts = [part(1, distributed)]
    expect(messages(validateSetup(setup({}, { parts, materials: [shearRate] })))).toEqual([])
    const tables = [{ id: 8, headers: ['pos_x', 'pos_y', 'pos_z'], resultCount: 3 }]
    const issues = validateSetup(setup({}, { parts, materials: [shearRate], datatables: tables }))
    expect(issues).toEqual([
      issue('error', 'materials.0.viscosityShearRateTableId', DATATABLE_MESSAGES.tableNotFound),
      issue(
        'error',
        'parts.1.component.initialDistributionTableId',
        DATATABLE_MESSAGES.tableNotFound,
      ),
    ])
  })

  it('checks movements against the simulation end time', () => {
    const movement: Movement = {
      id: 3,
      partId: 1,
      type: 'translatory',
      name: 'translation 1',
      start: 1,
      end: null,
      acc: 0,
      vel: 1,
      virtualMovement: false,
      direction: [1, 0, 0],
      parents: [],
      followers: [],
    }
    expect(validateSetup(setup({ endTime: 1 }, { movements: [movement] }))).toEqual([
      {
        level: 'error',
        field: 'movements.3.start',
        message: 'Start must be smaller than simulation end time.',
      },
    ])
  })

  it('checks the air drag domain only while air drag is on, and needs one then', () => {
    const domain = { ...defaultAirDragDomain(1), size: [0, 1, 1] as [number, number, number] }
    expect(validateSetup(setup({ airDrag: false }, { airDrag: domain }))).toEqual([])
    expect(messages(validateSetup(setup({ airDrag: true }, { airDrag: domain })))).toEqual([
      'Size must be greater than 0.',
    ])
    expect(messages(validateSetup(setup({ airDrag: true })))).toEqual([AIR_DRAG_DOMAIN_REQUIRED])
  })

  it('checks the periodic boundary', () => {
    const periodic = {
      id: 2,
      type: 'rotational' as const,
      center: [0, 0, 0] as [number, number, number],
      axis: [0, 0, 1] as [number, number, number],
      sliceRotation: 0,
      sliceAngle: 10,
      visibility: true,
      normal: null,
    }
    expect(
      validateSetup(setup({}, { periodics: [periodic] })).map((i) => [i.level, i.field]),
    ).toEqual([['warning', 'periodics.2.sliceAngle']])
  })

  it('flags names shared by parts, refinements, sensors and volume clips', () => {
    const zone = { ...refinement, name: 'Part 1' }
    const issues = validateSetup(setup({}, { refinements: [zone] }))
    expect(issues).toEqual([
      { level: 'error', field: 'parts.1.name', message: 'Name is already used' },
      { level: 'error', field: 'refinements.5.name', message: 'Name is already used' },
    ])
  })
})
