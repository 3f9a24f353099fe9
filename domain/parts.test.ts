import * as v from 'valibot'
import { describe, expect, it } from 'vitest'
import {
  PART_WITHOUT_FILES,
  DELETE_TABLE_CONFIRMATION,
  PART_MESSAGES,
  availableIoProfileKinds,
  availableIoTypes,
  needsTableDeletionConfirmation,
  PartCreateSchema,
  PartSchema,
  PartUpdateSchema,
  availableThermoKinds,
  checkAppearance,
  checkAttributeGroup,
  checkPart,
  checkShape,
  defaultAppearance,
  defaultComponent,
  makeUniqueName,
  percentToResolution,
  resolutionToPercent,
  type Component,
  type Part,
  type PartRuleContext,
  type Shape,
} from './parts.ts'
import type { Issue } from './validation.ts'

const cube: Shape = {
  type: 'stl_cube',
  translation: [0, 0, 0],
  scale: [1, 1, 1],
  rotation: [0, 0, 0],
  flipNormals: false,
  dimensions: [1, 1, 1],
  info: null,
}
const common = {
  translation: [0, 0, 0],
  scale: [1, 1, 1],
  rotation: [0, 0, 0],
  flipNormals: false,
  info: null,
} satisfies Partial<Shape>

function part(component: Component, patch: Partial<Part> = {}): Part {
  return {
    id: 1,
    simulationId: 1,
    name: 'Tank',
    kind: 'fluid',
    createdAt: '',
    updatedAt: '',
    createdBy: null,
    organizationId: null,
    seedPoint: null,
    materialId: 0,
    component,
    appearance: defaultAppearance(0),
    shape: cube,
    hasWarnings: false,
    warnings: [],
    ...PART_WITHOUT_FILES,
    ...patch,
  }
}
const context = (patch: Partial<PartRuleContext> = {}): PartRuleContext => ({
  thermodynamics: false,
  multiphase: false,
  surfaceTension: false,
  materialIds: [0],
  ...patch,
})
const messages = (issues: Issue[]) => issues.map((i) => i.message)
const fluid = (patch: Partial<Component> = {}) =>
  ({ ...defaultComponent('filling'), ...patch }) as Component
const rigid = (patch: Record<string, unknown> = {}) =>
  ({ ...defaultComponent('rigid'), ...patch }) as Component
const inlet = (patch: Record<string, unknown> = {}) =>
  ({ ...defaultComponent('openboundary'), ioVelocity: 1, ...patch }) as Component

describe('part schemas', () => {
  it('parses a default part and refuses unknown fields in bodies', () => {
    expect(v.safeParse(PartSchema, part(fluid())).success).toBe(true)
    expect(
      v.safeParse(PartUpdateSchema, { name: 'Wall', component: { type: 'rigid', heatFlux: 10 } })
        .success,
    ).toBe(true)
    expect(v.safeParse(PartUpdateSchema, { name: 'Wall', color: 'red' }).success).toBe(false)
    expect(
      v.safeParse(PartUpdateSchema, { component: { type: 'rigid', ioPressure: 1 } }).success,
    ).toBe(false)
    expect(
      v.safeParse(PartCreateSchema, {
        name: 'Inlet',
        component: { type: 'openboundary' },
        shape: { type: 'plane' },
      }).success,
    ).toBe(true)
    expect(
      v.safeParse(PartCreateSchema, {
        name: '  ',
        component: { type: 'flow' },
        shape: { type: 'plane' },
      }).success,
    ).toBe(false)
  })
})

describe('checkPart: geometry and appearance', () => {
  it('accepts a default fluid part', () => {
    expect(checkPart(part(fluid()), context())).toEqual([])
  })

  it('reports an empty geometry', () => {
    expect(
      checkPart(part(fluid(), { shape: { type: 'empty', ...common } }), context(), 'parts.1'),
    ).toEqual([
      {
        level: 'error',
        field: 'parts.1.shape',
        message: 'No geometry found. Please assign a geometry to the part or delete it.',
      },
    ])
  })

  it('bounds the STL resolution slider to 1 … 100 % of a stored fraction', () => {
    const stl = (resolution: number | null): Shape => ({
      type: 'stl',
      ...common,
      resolution,
      fileId: 1,
      fileName: 'a',
      fileExtension: 'stl',
    })
    expect(checkShape(stl(0.01))).toEqual([])
    expect(checkShape(stl(1))).toEqual([])
    expect(messages(checkShape(stl(0.005)))).toEqual(['Resolution must be at least 1.'])
    expect(messages(checkShape(stl(1.01)))).toEqual(['Resolution must be at most 100.'])
    expect(checkShape(stl(null))[0]?.level).toBe('info')
    expect(resolutionToPercent(0.57)).toBe(57)
    expect(percentToResolution(57)).toBe(0.57)
  })

  it('needs positive cube dimensions and plane scale', () => {
    expect(messages(checkShape({ ...cube, dimensions: [1, 0, 1] }))).toEqual([
      'Dimensions must be greater than 0.',
    ])
    expect(messages(checkShape({ type: 'plane', ...common, scale: [1, 1, -1] }))).toEqual([
      'Scale must be greater than 0.',
    ])
  })

  it('needs an integer splitting ratio of at least 1 for a pointcloud', () => {
    const pc = (splittingRatio: number): Shape => ({
      type: 'pointcloud',
      ...common,
      refSimulationId: 3,
      refSimulationOutput: 0,
      splittingRatio,
    })
    expect(checkShape(pc(1))).toEqual([])
    expect(messages(checkShape(pc(0)))).toEqual(['Splitting ratio must be at least 1.'])
    expect(messages(checkShape(pc(1.5)))).toEqual(['Splitting ratio must be an integer.'])
  })

  it('bounds opacity to 0 … 1 and needs a 7-character hex colour', () => {
    expect(checkAppearance({ color: '#A0b1C2', opacity: 0 })).toEqual([])
    expect(messages(checkAppearance({ color: '#abc', opacity: 1.1 }))).toEqual([
      'Opacity must be at most 1.',
      'Color must be a 7-character hex colour.',
    ])
  })

  it('knows the attribute groups', () => {
    expect(checkAttributeGroup('motion')).toEqual([])
    expect(messages(checkAttributeGroup('physics'))).toEqual([
      'physics is not a known attribute name',
    ])
  })
})

describe('checkPart: material', () => {
  it("needs a material for a non-rigid part ('Material is required')", () => {
    expect(checkPart(part(fluid(), { materialId: null }), context(), 'parts.1')).toEqual([
      { level: 'info', field: 'parts.1.materialId', message: 'Material is required' },
    ])
    expect(messages(checkPart(part(fluid(), { materialId: 4 }), context()))).toEqual([
      'Material is required',
    ])
    expect(checkPart(part(rigid(), { materialId: null }), context())).toEqual([])
  })
})

describe('checkPart: initial conditions', () => {
  it('bounds initial velocity and pressure in the standard profile', () => {
    expect(
      checkPart(
        part(fluid({ initialVelocity: [1000, -1000, 0], initialPressure: -1e9 })),
        context(),
      ),
    ).toEqual([])
    expect(
      messages(
        checkPart(
          part(fluid({ initialVelocity: [1001, 0, 0], initialPressure: 1.1e9 })),
          context(),
        ),
      ),
    ).toEqual([
      'Initial velocity must be at most 1000.',
      'Initial pressure must be at most 1000000000.',
    ])
  })

  it('narrows initial velocity, pressure and temperature in the strict profile', () => {
    const c = fluid({ initialVelocity: [0, 301, 0], initialPressure: -1, initialTemperature: 501 })
    expect(
      messages(checkPart(part(c), context({ profile: 'strict', thermodynamics: true }))),
    ).toEqual([
      'Initial velocity must be at most 300.',
      'Initial pressure must be at least 0.',
      'Initial temperature must be at most 500.',
    ])
  })

  it('checks the initial temperature only with thermodynamics', () => {
    expect(checkPart(part(fluid({ initialTemperature: null })), context())).toEqual([])
    expect(
      messages(
        checkPart(part(fluid({ initialTemperature: null })), context({ thermodynamics: true })),
      ),
    ).toEqual(['Initial temperature is required'])
    expect(
      messages(
        checkPart(part(fluid({ initialTemperature: 1001 })), context({ thermodynamics: true })),
      ),
    ).toEqual(['Initial temperature must be at most 1000.'])
  })

  it('skips initial values for a part with an initial preset', () => {
    expect(
      checkPart(
        part(fluid({ initialPreset: 'hydrostatic', initialPressure: null })),
        context({ thermodynamics: true }),
      ),
    ).toEqual([])
  })

  it('needs an initial distribution table of 2 rows with a temperature column under heat transfer', () => {
    const c = fluid({
      initialDistribution: true,
      initialDistributionTableId: 9,
      initialPressure: null,
    })
    const table = (headers: string[], resultCount: number) => ({
      findDatatable: () => ({ id: 9, headers, resultCount }),
    })
    expect(checkPart(part(c), context(table(['pos_x', 'pos_y', 'pos_z'], 2)))).toEqual([])
    expect(messages(checkPart(part(c), context(table(['pos_x', 'pos_y', 'pos_z'], 1))))).toEqual([
      'Table must have at least 2 rows.',
    ])
    expect(
      messages(
        checkPart(
          part(c),
          context({ thermodynamics: true, ...table(['pos_x', 'pos_y', 'pos_z'], 5) }),
        ),
      ),
    ).toEqual([PART_MESSAGES.heatTransferTemperature])
    expect(
      checkPart(
        part(c),
        context({ thermodynamics: true, ...table(['pos_x', 'pos_y', 'pos_z', 'temperature'], 5) }),
      ),
    ).toEqual([])
    expect(checkPart(part(fluid({ initialDistribution: true })), context())[0]?.level).toBe('info')
  })
})

describe('checkPart: open boundary', () => {
  it('refuses an inlet with pressure', () => {
    const c = inlet({ ioDirection: 'inflow', ioType: 'riemann_pressure', ioPressure: 1000 })
    expect(messages(checkPart(part(c), context()))).toEqual([
      'An inlet with pressure is not allowed.',
    ])
    expect(
      checkPart(
        part(inlet({ ioDirection: 'outflow', ioType: 'riemann_pressure', ioPressure: 1000 })),
        context(),
      ),
    ).toEqual([])
  })

  it('bounds constant pressure to 0 … 1e9, or 1e7 in the strict profile', () => {
    const outlet = (ioPressure: number) =>
      part(inlet({ ioDirection: 'outflow', ioType: 'riemann_pressure', ioPressure }))
    expect(messages(checkPart(outlet(-1), context()))).toEqual(['Pressure must be at least 0.'])
    expect(checkPart(outlet(1e9), context())).toEqual([])
    expect(messages(checkPart(outlet(1e9 + 1), context()))).toEqual([
      'Pressure must be at most 1000000000.',
    ])
    expect(messages(checkPart(outlet(1e7 + 1), context({ profile: 'strict' })))).toEqual([
      'Pressure must be at most 10000000.',
    ])
  })

  it('bounds constant velocity to ±1000 and temperature to 0 … 1000 with thermodynamics', () => {
    expect(messages(checkPart(part(inlet({ ioVelocity: -1001 })), context()))).toEqual([
      'Velocity must be at least -1000.',
    ])
    expect(
      messages(checkPart(part(inlet({ ioTemperature: 1001 })), context({ thermodynamics: true }))),
    ).toEqual(['Temperature must be at most 1000.'])
  })

  it('needs a field profile table of at least 2 rows', () => {
    const c = inlet({ ioProfileKind: 'field', ioTableId: 3 })
    expect(
      messages(
        checkPart(
          part(c),
          context({ findDatatable: () => ({ id: 3, headers: ['time'], resultCount: 1 }) }),
        ),
      ),
    ).toEqual(['Table must have at least 2 rows.'])
    expect(messages(checkPart(part(inlet({ ioProfileKind: 'field' })), context()))).toEqual([
      'Table is required',
    ])
  })
})

describe('checkPart: rigid', () => {
  const thermo = context({ thermodynamics: true })

  it('bounds heat flux to ±1e6, or ±150000 in the strict profile', () => {
    expect(checkPart(part(rigid({ thermoKind: 'heat_flux', heatFlux: -1e6 })), thermo)).toEqual([])
    expect(
      messages(checkPart(part(rigid({ thermoKind: 'heat_flux', heatFlux: 1e6 + 1 })), thermo)),
    ).toEqual(['Heat flux must be at most 1000000.'])
    expect(
      messages(
        checkPart(part(rigid({ thermoKind: 'heat_flux', heatFlux: 150001 })), {
          ...thermo,
          profile: 'strict',
        }),
      ),
    ).toEqual(['Heat flux must be at most 150000.'])
  })

  it('bounds boundary temperature, reference temperature and heat transfer coefficient', () => {
    expect(
      messages(
        checkPart(part(rigid({ thermoKind: 'temperature', boundaryTemperature: -1 })), thermo),
      ),
    ).toEqual(['Boundary temperature must be at least 0.'])
    const htc = rigid({
      thermoKind: 'heat_transfer_coefficient',
      referenceTemperature: 300,
      heatTransferCoefficient: 1001,
    })
    expect(checkPart(part(htc), thermo)).toEqual([])
    expect(messages(checkPart(part(htc), { ...thermo, profile: 'strict' }))).toEqual([
      'Heat transfer coefficient must be at most 1000.',
    ])
  })

  it('ignores thermal values without thermodynamics', () => {
    expect(checkPart(part(rigid({ thermoKind: 'heat_flux', heatFlux: 1e9 })), context())).toEqual(
      [],
    )
  })

  it('limits the thermal condition to adiabatic or temperature under multiphase and thermodynamics', () => {
    const c = rigid({ thermoKind: 'heat_flux', heatFlux: 10 })
    expect(messages(checkPart(part(c), { ...thermo, multiphase: true }))).toEqual([
      PART_MESSAGES.thermoKindMultiphase,
    ])
    expect(
      checkPart(part(rigid({ thermoKind: 'temperature', boundaryTemperature: 300 })), {
        ...thermo,
        multiphase: true,
      }),
    ).toEqual([])
    expect(availableThermoKinds({ multiphase: true, thermodynamics: true })).toEqual([
      'adiabatic',
      'temperature',
    ])
    expect(availableThermoKinds({ multiphase: true, thermodynamics: false })).toHaveLength(4)
  })

  it('bounds the contact angle with surface tension to 0 … 180, or 120 in the strict profile', () => {
    expect(checkPart(part(rigid({ contactAngle: 181 })), context())).toEqual([])
    expect(
      messages(checkPart(part(rigid({ contactAngle: 181 })), context({ surfaceTension: true }))),
    ).toEqual(['Contact angle must be at most 180.'])
    expect(
      messages(
        checkPart(
          part(rigid({ contactAngle: 121 })),
          context({ surfaceTension: true, profile: 'strict' }),
        ),
      ),
    ).toEqual(['Contact angle must be at most 120.'])
  })

  it('needs a movement for a moving wall', () => {
    expect(messages(checkPart(part(rigid({ velocityKind: 'moving' })), context()))).toEqual([
      'Movement is required',
    ])
  })
})

describe('open-boundary choices', () => {
  it('locks inflow to velocity and multi-selections to a constant profile', () => {
    expect(availableIoTypes('inflow')).toEqual(['riemann_velocity'])
    expect(availableIoTypes('outflow')).toEqual(['riemann_pressure', 'riemann_velocity'])
    expect(availableIoProfileKinds(2)).toEqual(['constant'])
    expect(availableIoProfileKinds(1)).toEqual(['field', 'constant'])
  })

  it('asks before dropping a table that has data', () => {
    expect(needsTableDeletionConfirmation({ ioTableId: 3 }, 4)).toBe(true)
    expect(needsTableDeletionConfirmation({ ioTableId: 3 }, 0)).toBe(false)
    expect(needsTableDeletionConfirmation({ ioTableId: null }, 0)).toBe(false)
    expect(DELETE_TABLE_CONFIRMATION).toBe('Delete Previously Defined Table?')
  })
})

describe('makeUniqueName', () => {
  it('keeps a free name and numbers a taken one', () => {
    expect(makeUniqueName('Tank', ['Wall'])).toBe('Tank')
    expect(makeUniqueName('Tank', ['Tank'])).toBe('Tank (1)')
    expect(makeUniqueName('Tank', ['Tank', 'Tank (1)'])).toBe('Tank (2)')
    expect(makeUniqueName('Tank (1)', ['Tank', 'Tank (1)'])).toBe('Tank (2)')
  })
})
