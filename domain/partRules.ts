/**
 * The part rules (spec/setup.md §5 "Part"): messages, bounds per profile, and the checks of a
 * part's shape, material, initial and boundary conditions. Re-exported by parts.ts.
 */
import { DATATABLE_MESSAGES, TEMPERATURE_HEADER, type DatatableInfo } from './datatable.ts'
import { checkAppearance } from './appearance.ts'
import { MATERIAL_MESSAGES } from './materials.ts'
import {
  FLUID_COMPONENT_TYPES,
  availableThermoKinds,
  type Component,
  type OpenBoundaryComponent,
  type RigidComponent,
} from './partComponent.ts'
import type { Part } from './parts.ts'
import { SHAPE_BOUNDS, type Shape, type ShapeUpdate } from './partShape.ts'
import type { RuleProfile } from './settingsRules.ts'
import {
  checkNumber,
  checkVector,
  isPreliminary,
  issue,
  type Issue,
  type NumberBounds,
} from './validation.ts'

export const PART_MESSAGES = {
  emptyGeometry: 'No geometry found. Please assign a geometry to the part or delete it.',
  heatTransferTemperature:
    'Heat Transfer Model is enabled. Please upload the initial temperature or disable the model in the Physics Tab.',
  inletWithPressure: 'An inlet with pressure is not allowed.',
  thermoKindMultiphase: 'With multiphase, the thermal condition must be adiabatic or temperature.',
  tableRequired: 'Table is required',
  tableNotFound: DATATABLE_MESSAGES.tableNotFound,
  movementRequired: 'Movement is required',
  securityRisk: 'The file was identified as a potential security risk. Please submit a ticket.',
  partIssues: 'Part has potential issues. Check Information tab for details.',
  referenceNotFound: 'The reference simulation was not found.',
  referenceWithoutOutputs:
    'The reference simulation has no outputs. Choose a simulation that has written outputs.',
} as const

/** 'The simulation only has N outputs.': a pointcloud part's output past the reference's last. */
export function referenceOutputsMessage(outputCount: number): string {
  return `The simulation only has ${outputCount} outputs.`
}

/** Bounds of the part rules per profile. */
export const PART_BOUNDS = {
  standard: {
    initialTemperature: { min: 0, max: 1000 },
    initialVelocity: { min: -1000, max: 1000 },
    initialPressure: { min: -1e9, max: 1e9 },
    ioPressure: { min: 0, max: 1e9 },
    ioVelocity: { min: -1000, max: 1000 },
    ioTemperature: { min: 0, max: 1000 },
    heatFlux: { min: -1e6, max: 1e6 },
    boundaryTemperature: { min: 0, max: 1000 },
    referenceTemperature: { min: 0, max: 1000 },
    heatTransferCoefficient: { min: 0, max: 1e6 },
    contactAngle: { min: 0, max: 180 },
  },
  strict: {
    initialTemperature: { min: 0, max: 500 },
    initialVelocity: { min: -300, max: 300 },
    initialPressure: { min: 0, max: 1e7 },
    ioPressure: { min: 0, max: 1e7 },
    ioVelocity: { min: -1000, max: 1000 },
    ioTemperature: { min: 0, max: 1000 },
    heatFlux: { min: -150000, max: 150000 },
    boundaryTemperature: { min: 0, max: 1000 },
    referenceTemperature: { min: 0, max: 1000 },
    heatTransferCoefficient: { min: 0, max: 1000 },
    contactAngle: { min: 0, max: 120 },
  },
} as const satisfies Record<RuleProfile, Record<string, NumberBounds>>

/** Labels of part fields in messages. */
export const PART_LABELS = {
  initialTemperature: 'Initial temperature',
  initialVelocity: 'Initial velocity',
  initialPressure: 'Initial pressure',
  ioPressure: 'Pressure',
  ioVelocity: 'Velocity',
  ioTemperature: 'Temperature',
  heatFlux: 'Heat flux',
  boundaryTemperature: 'Boundary temperature',
  referenceTemperature: 'Reference temperature',
  heatTransferCoefficient: 'Heat transfer coefficient',
  contactAngle: 'Contact angle',
} as const

/** What the part rules need to know about the rest of the setup. */
export interface PartRuleContext {
  profile?: RuleProfile
  thermodynamics: boolean
  multiphase: boolean
  surfaceTension: boolean
  /** Ids of the simulation's materials. */
  materialIds: readonly number[]
  /** A loaded datatable, or undefined when unknown (then its rows and headers are not checked). */
  findDatatable?: (tableId: number) => DatatableInfo | undefined
  /**
   * True when findDatatable knows every table of the simulation, so a table it does not know does
   * not exist ('Table does not exist.'); false or absent, such a table is only unchecked.
   */
  datatablesComplete?: boolean
}

/** The geometry rules of a shape (spec/setup.md §5 "General" and "Part"). */
export function checkShape(shape: Shape | ShapeUpdate, prefix = 'shape'): Issue[] {
  const positive = SHAPE_BOUNDS.positive
  switch (shape.type) {
    case 'empty':
      return [issue('error', prefix, PART_MESSAGES.emptyGeometry)]
    case 'plane':
      return checkVector(`${prefix}.scale`, 'Scale', shape.scale, { bounds: positive })
    case 'stl': {
      const resolution = shape.resolution
      const issues =
        typeof resolution === 'number' && Number.isFinite(resolution)
          ? checkNumber(
              `${prefix}.resolution`,
              'Resolution',
              resolution * 100,
              SHAPE_BOUNDS.resolutionPercent,
            )
          : checkNumber(`${prefix}.resolution`, 'Resolution', resolution)
      if (shape.fileId === null || shape.fileId === undefined)
        issues.push(issue('error', prefix, PART_MESSAGES.emptyGeometry))
      return issues
    }
    case 'stl_cube':
      return checkVector(`${prefix}.dimensions`, 'Dimensions', shape.dimensions, {
        bounds: positive,
      })
    case 'pointcloud': {
      const issues = checkNumber(
        `${prefix}.splittingRatio`,
        'Splitting ratio',
        shape.splittingRatio,
        SHAPE_BOUNDS.splittingRatio,
      )
      if (isPreliminary(shape.refSimulationId))
        issues.push(issue('info', `${prefix}.refSimulationId`, 'Reference simulation is required'))
      issues.push(
        ...checkNumber(`${prefix}.refSimulationOutput`, 'Output', shape.refSimulationOutput, {
          min: 0,
          integer: true,
        }),
      )
      return issues
    }
  }
}

function checkTable(
  field: string,
  tableId: number | null,
  context: PartRuleContext,
): { issues: Issue[]; table: DatatableInfo | undefined } {
  if (tableId === null)
    return { issues: [issue('info', field, PART_MESSAGES.tableRequired)], table: undefined }
  const table = context.findDatatable?.(tableId)
  if (!table && context.datatablesComplete)
    return { issues: [issue('error', field, PART_MESSAGES.tableNotFound)], table }
  if (table && table.resultCount < 2)
    return { issues: [issue('error', field, 'Table must have at least 2 rows.')], table }
  return { issues: [], table }
}

function checkInitialConditions(
  component: Component,
  context: PartRuleContext,
  prefix: string,
): Issue[] {
  if (component.initialPreset !== null) return []
  const bounds = PART_BOUNDS[context.profile ?? 'standard']
  if (component.initialDistribution) {
    const field = `${prefix}.initialDistributionTableId`
    const { issues, table } = checkTable(field, component.initialDistributionTableId, context)
    if (context.thermodynamics && table && !table.headers.includes(TEMPERATURE_HEADER))
      issues.push(issue('error', field, PART_MESSAGES.heatTransferTemperature))
    return issues
  }
  const issues = [
    ...checkVector(
      `${prefix}.initialVelocity`,
      PART_LABELS.initialVelocity,
      component.initialVelocity,
      { bounds: bounds.initialVelocity },
    ),
    ...checkNumber(
      `${prefix}.initialPressure`,
      PART_LABELS.initialPressure,
      component.initialPressure,
      bounds.initialPressure,
    ),
  ]
  if (context.thermodynamics)
    issues.push(
      ...checkNumber(
        `${prefix}.initialTemperature`,
        PART_LABELS.initialTemperature,
        component.initialTemperature,
        bounds.initialTemperature,
      ),
    )
  return issues
}

function checkOpenBoundary(
  component: OpenBoundaryComponent,
  context: PartRuleContext,
  prefix: string,
): Issue[] {
  const bounds = PART_BOUNDS[context.profile ?? 'standard']
  const issues: Issue[] = []
  if (component.ioDirection === 'inflow' && component.ioType === 'riemann_pressure')
    issues.push(issue('error', `${prefix}.ioType`, PART_MESSAGES.inletWithPressure))
  if (component.ioProfileKind === 'field') {
    issues.push(...checkTable(`${prefix}.ioTableId`, component.ioTableId, context).issues)
  } else if (component.ioType === 'riemann_pressure') {
    issues.push(
      ...checkNumber(
        `${prefix}.ioPressure`,
        PART_LABELS.ioPressure,
        component.ioPressure,
        bounds.ioPressure,
      ),
    )
  } else {
    issues.push(
      ...checkNumber(
        `${prefix}.ioVelocity`,
        PART_LABELS.ioVelocity,
        component.ioVelocity,
        bounds.ioVelocity,
      ),
    )
  }
  if (context.thermodynamics && component.ioProfileKind === 'constant')
    issues.push(
      ...checkNumber(
        `${prefix}.ioTemperature`,
        PART_LABELS.ioTemperature,
        component.ioTemperature,
        bounds.ioTemperature,
      ),
    )
  return issues
}

function checkRigid(component: RigidComponent, context: PartRuleContext, prefix: string): Issue[] {
  const bounds = PART_BOUNDS[context.profile ?? 'standard']
  const issues: Issue[] = []
  const check = (key: keyof typeof PART_LABELS & keyof RigidComponent) =>
    checkNumber(`${prefix}.${key}`, PART_LABELS[key], component[key], bounds[key])
  if (context.thermodynamics) {
    if (!availableThermoKinds(context).includes(component.thermoKind))
      issues.push(issue('error', `${prefix}.thermoKind`, PART_MESSAGES.thermoKindMultiphase))
    if (component.thermoKind === 'heat_flux') issues.push(...check('heatFlux'))
    if (component.thermoKind === 'temperature') issues.push(...check('boundaryTemperature'))
    if (component.thermoKind === 'heat_transfer_coefficient')
      issues.push(...check('referenceTemperature'), ...check('heatTransferCoefficient'))
  }
  if (context.surfaceTension) issues.push(...check('contactAngle'))
  if (component.velocityKind === 'moving' && component.velocityConditionMovementId === null)
    issues.push(
      issue('info', `${prefix}.velocityConditionMovementId`, PART_MESSAGES.movementRequired),
    )
  return issues
}

/**
 * The rules of one part: geometry, appearance, material, initial conditions and boundary
 * conditions. Fields are `{prefix}.…`, e.g. 'parts.4.component.ioPressure'.
 */
export function checkPart(part: Part, context: PartRuleContext, prefix = 'part'): Issue[] {
  const issues: Issue[] = []
  if (part.name.trim() === '') issues.push(issue('info', `${prefix}.name`, 'Name is required'))
  issues.push(...checkShape(part.shape, `${prefix}.shape`))
  issues.push(...checkAppearance(part.appearance, `${prefix}.appearance`))
  const component = part.component
  const componentPrefix = `${prefix}.component`
  issues.push(
    ...checkNumber(`${componentPrefix}.metalness`, 'Metalness', component.metalness, {
      min: 0,
      max: 1,
    }),
  )
  if (
    FLUID_COMPONENT_TYPES.includes(component.type) &&
    (part.materialId === null || !context.materialIds.includes(part.materialId))
  )
    issues.push(issue('info', `${prefix}.materialId`, MATERIAL_MESSAGES.materialRequired))
  if (component.type === 'filling' || component.type === 'flow')
    issues.push(...checkInitialConditions(component, context, componentPrefix))
  if (component.type === 'openboundary')
    issues.push(...checkOpenBoundary(component, context, componentPrefix))
  if (component.type === 'rigid') issues.push(...checkRigid(component, context, componentPrefix))
  return issues
}

/** True when the part's geometry is a point cloud (then the particle diameter is not editable). */
export function isPointcloudPart(part: Pick<Part, 'shape'>): boolean {
  return part.shape.type === 'pointcloud'
}

/** Pointclouds are loaded for flow and filling parts only. */
export function loadsPointcloud(part: Pick<Part, 'component'>): boolean {
  return part.component.type === 'flow' || part.component.type === 'filling'
}
