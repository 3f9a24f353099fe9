/**
 * Parts (spec/setup.md §3 "Part", §5 "Part"): geometry with a physical role. Schemas of the part,
 * its component (rigid, filling, flow, open boundary, refinement), shape and appearance; defaults;
 * the part rules and unique names.
 */
import * as v from 'valibot'
import { COLOUR_PALETTE } from './constants.ts'
import { TEMPERATURE_HEADER, type DatatableInfo } from './datatable.ts'
import { MATERIAL_MESSAGES } from './materials.ts'
import type { RuleProfile } from './settingsRules.ts'
import {
  checkNumber,
  checkVector,
  isHexColour,
  isPreliminary,
  issue,
  type Issue,
  type NumberBounds,
} from './validation.ts'
import { LooseVec3Schema, Vec3Schema, type LooseVec3 } from './vector.ts'

const num = v.nullable(v.number())

// ── Component ───────────────────────────────────────────────────────────────────────────────────

/** The physical role of a part. */
export const COMPONENT_TYPES = ['rigid', 'filling', 'flow', 'openboundary', 'refinement'] as const
/** One component type. */
export type ComponentType = (typeof COMPONENT_TYPES)[number]
/** Component types that hold fluid and so need a material. */
export const FLUID_COMPONENT_TYPES: readonly ComponentType[] = ['filling', 'flow', 'openboundary']

export const IO_DIRECTIONS = ['inflow', 'outflow'] as const
export type IoDirection = (typeof IO_DIRECTIONS)[number]
export const IO_TYPES = ['riemann_pressure', 'riemann_velocity'] as const
export type IoType = (typeof IO_TYPES)[number]
/** An open-boundary profile: one constant value or a table over time and position ('field'). */
export const IO_PROFILE_KINDS = ['field', 'constant'] as const
export type IoProfileKind = (typeof IO_PROFILE_KINDS)[number]
export const THERMO_KINDS = [
  'adiabatic',
  'heat_flux',
  'heat_transfer_coefficient',
  'temperature',
] as const
export type ThermoKind = (typeof THERMO_KINDS)[number]
/** Thermal conditions allowed with multiphase and thermodynamics both on. */
export const MULTIPHASE_THERMO_KINDS: readonly ThermoKind[] = ['adiabatic', 'temperature']
export const VELOCITY_KINDS = ['slip', 'no_slip', 'moving'] as const
export type VelocityKind = (typeof VELOCITY_KINDS)[number]

const sharedComponentEntries = {
  initialTemperature: num,
  initialVelocity: LooseVec3Schema,
  initialPressure: num,
  /** A named initial state; initial conditions are not editable while one is set. */
  initialPreset: v.nullable(v.string()),
  initialDistribution: v.boolean(),
  initialDistributionTableId: v.nullable(v.number()),
  metalness: num,
}
const rigidEntries = {
  thermoKind: v.picklist(THERMO_KINDS),
  heatFlux: num,
  boundaryTemperature: num,
  referenceTemperature: num,
  heatTransferCoefficient: num,
  velocityKind: v.picklist(VELOCITY_KINDS),
  velocityConditionMovementId: v.nullable(v.number()),
  /** Degrees; used with surface tension. */
  contactAngle: num,
}
const fillingEntries = {
  /** Fill level in m; null fills the whole geometry. */
  height: num,
}
const openBoundaryEntries = {
  ioDirection: v.picklist(IO_DIRECTIONS),
  ioType: v.picklist(IO_TYPES),
  ioPressure: num,
  /** Speed along the boundary normal, m/s. */
  ioVelocity: num,
  ioTemperature: num,
  ioProfileKind: v.picklist(IO_PROFILE_KINDS),
  ioTableId: v.nullable(v.number()),
  csvFileId: v.nullable(v.number()),
}

export const RigidComponentSchema = v.object({
  type: v.literal('rigid'),
  ...sharedComponentEntries,
  ...rigidEntries,
})
export const FillingComponentSchema = v.object({
  type: v.literal('filling'),
  ...sharedComponentEntries,
  ...fillingEntries,
})
export const FlowComponentSchema = v.object({ type: v.literal('flow'), ...sharedComponentEntries })
export const OpenBoundaryComponentSchema = v.object({
  type: v.literal('openboundary'),
  ...sharedComponentEntries,
  ...openBoundaryEntries,
})
export const RefinementComponentSchema = v.object({
  type: v.literal('refinement'),
  ...sharedComponentEntries,
})
/** A part's component, told apart by `type`. */
export const ComponentSchema = v.variant('type', [
  RigidComponentSchema,
  FillingComponentSchema,
  FlowComponentSchema,
  OpenBoundaryComponentSchema,
  RefinementComponentSchema,
])
/** A part's component. */
export type Component = v.InferOutput<typeof ComponentSchema>
export type RigidComponent = v.InferOutput<typeof RigidComponentSchema>
export type OpenBoundaryComponent = v.InferOutput<typeof OpenBoundaryComponentSchema>

const optionalShared = v.partial(v.object(sharedComponentEntries)).entries
/**
 * A component in an update body: `type` plus any of that type's fields. A changed type replaces the
 * component; missing fields then take the defaults of defaultComponent.
 */
export const ComponentUpdateSchema = v.variant('type', [
  v.strictObject({
    type: v.literal('rigid'),
    ...optionalShared,
    ...v.partial(v.object(rigidEntries)).entries,
  }),
  v.strictObject({
    type: v.literal('filling'),
    ...optionalShared,
    ...v.partial(v.object(fillingEntries)).entries,
  }),
  v.strictObject({ type: v.literal('flow'), ...optionalShared }),
  v.strictObject({
    type: v.literal('openboundary'),
    ...optionalShared,
    ...v.partial(v.object(openBoundaryEntries)).entries,
  }),
  v.strictObject({ type: v.literal('refinement'), ...optionalShared }),
])
/** A component in an update body. */
export type ComponentUpdate = v.InferOutput<typeof ComponentUpdateSchema>

/** The component a new part of `type` starts with. */
export function defaultComponent(type: ComponentType): Component {
  const shared = {
    initialTemperature: null,
    initialVelocity: [0, 0, 0] as LooseVec3,
    initialPressure: 0,
    initialPreset: null,
    initialDistribution: false,
    initialDistributionTableId: null,
    metalness: 0,
  }
  switch (type) {
    case 'rigid':
      return {
        type,
        ...shared,
        thermoKind: 'adiabatic',
        heatFlux: null,
        boundaryTemperature: null,
        referenceTemperature: null,
        heatTransferCoefficient: null,
        velocityKind: 'no_slip',
        velocityConditionMovementId: null,
        contactAngle: 90,
      }
    case 'filling':
      return { type, ...shared, height: null }
    case 'openboundary':
      return {
        type,
        ...shared,
        ioDirection: 'inflow',
        ioType: 'riemann_velocity',
        ioPressure: null,
        ioVelocity: null,
        ioTemperature: null,
        ioProfileKind: 'constant',
        ioTableId: null,
        csvFileId: null,
      }
    case 'flow':
    case 'refinement':
      return { type, ...shared }
  }
}

// ── Shape ───────────────────────────────────────────────────────────────────────────────────────

export const SHAPE_TYPES = ['plane', 'stl', 'stl_cube', 'pointcloud', 'empty'] as const
export type ShapeType = (typeof SHAPE_TYPES)[number]

/** An axis-aligned box. */
export const BoundingBoxSchema = v.object({ min: Vec3Schema, max: Vec3Schema })
/** A hole or non-manifold edge found by the mesh-health check; size is the extent to zoom to. */
export const MeshDefectSchema = v.object({ center: Vec3Schema, size: v.number() })

/** Geometry facts the server computes (PUT /parts/{id}/shape_info stores them). */
export const ShapeInfoSchema = v.object({
  center: Vec3Schema,
  normal: v.nullable(Vec3Schema),
  isPlanar: v.boolean(),
  nbrOfTriangles: v.number(),
  holes: v.array(MeshDefectSchema),
  nonManifold: v.array(MeshDefectSchema),
  /** m². */
  surfaceArea: v.number(),
  boundingBox: BoundingBoxSchema,
})
/** Geometry facts of a shape. */
export type ShapeInfo = v.InferOutput<typeof ShapeInfoSchema>
/** PUT /parts/{id}/shape_info body. */
export const ShapeInfoUpdateSchema = v.strictObject(ShapeInfoSchema.entries)

const shapeCommonEntries = {
  translation: LooseVec3Schema,
  scale: LooseVec3Schema,
  /** Degrees about x, y, z. */
  rotation: LooseVec3Schema,
  flipNormals: v.boolean(),
}
const stlEntries = {
  /** Meshing resolution as a fraction 0.01 … 1 (the slider shows 1 … 100 %). */
  resolution: num,
  fileId: v.nullable(v.number()),
  fileName: v.nullable(v.string()),
  fileExtension: v.nullable(v.string()),
}
const stlCubeEntries = { dimensions: LooseVec3Schema }
const pointcloudEntries = {
  refSimulationId: v.nullable(v.number()),
  refSimulationOutput: v.nullable(v.number()),
  splittingRatio: num,
}

/** A part's shape, told apart by `type`. */
export const ShapeSchema = v.variant('type', [
  v.object({
    type: v.literal('plane'),
    ...shapeCommonEntries,
    info: v.nullable(ShapeInfoSchema),
  }),
  v.object({
    type: v.literal('stl'),
    ...shapeCommonEntries,
    ...stlEntries,
    info: v.nullable(ShapeInfoSchema),
  }),
  v.object({
    type: v.literal('stl_cube'),
    ...shapeCommonEntries,
    ...stlCubeEntries,
    info: v.nullable(ShapeInfoSchema),
  }),
  v.object({
    type: v.literal('pointcloud'),
    ...shapeCommonEntries,
    ...pointcloudEntries,
    info: v.nullable(ShapeInfoSchema),
  }),
  v.object({ type: v.literal('empty'), ...shapeCommonEntries, info: v.nullable(ShapeInfoSchema) }),
])
/** A part's shape. */
export type Shape = v.InferOutput<typeof ShapeSchema>

const optionalCommon = v.partial(v.object(shapeCommonEntries)).entries
/** A shape in a create or update body: `type` plus any of its fields (info is computed). */
export const ShapeUpdateSchema = v.variant('type', [
  v.strictObject({ type: v.literal('plane'), ...optionalCommon }),
  v.strictObject({
    type: v.literal('stl'),
    ...optionalCommon,
    ...v.partial(v.object(stlEntries)).entries,
  }),
  v.strictObject({
    type: v.literal('stl_cube'),
    ...optionalCommon,
    ...v.partial(v.object(stlCubeEntries)).entries,
  }),
  v.strictObject({
    type: v.literal('pointcloud'),
    ...optionalCommon,
    ...v.partial(v.object(pointcloudEntries)).entries,
  }),
  v.strictObject({ type: v.literal('empty'), ...optionalCommon }),
])
/** A shape in a create or update body. */
export type ShapeUpdate = v.InferOutput<typeof ShapeUpdateSchema>

// ── Appearance ──────────────────────────────────────────────────────────────────────────────────

const appearanceEntries = {
  /** '#rrggbb'. */
  color: v.string(),
  opacity: num,
  wireframe: v.boolean(),
  translucent: v.boolean(),
  visibility: v.boolean(),
  showPointcloud: v.boolean(),
}
/** How an object is drawn; shared by parts, refinements, sensors and volume clips. */
export const AppearanceSchema = v.object({
  id: v.optional(v.number()),
  createdAt: v.optional(v.string()),
  updatedAt: v.optional(v.string()),
  ...appearanceEntries,
})
/** How an object is drawn. */
export type Appearance = v.InferOutput<typeof AppearanceSchema>
/** Appearance in a create or update body: any of its fields. */
export const AppearanceUpdateSchema = v.partial(v.strictObject(appearanceEntries))
export type AppearanceUpdate = v.InferOutput<typeof AppearanceUpdateSchema>

/** The appearance of the `index`-th object: palette colours in turn, opaque and visible. */
export function defaultAppearance(index: number): Appearance {
  return {
    color: COLOUR_PALETTE[index % COLOUR_PALETTE.length] ?? '#2D69B2',
    opacity: 1,
    wireframe: false,
    translucent: false,
    visibility: true,
    showPointcloud: false,
  }
}

/** Opacity 0 … 1 and a '#rrggbb' colour. */
export function checkAppearance(
  appearance: Pick<Appearance, 'color' | 'opacity'>,
  prefix = 'appearance',
): Issue[] {
  const issues = checkNumber(`${prefix}.opacity`, 'Opacity', appearance.opacity, { min: 0, max: 1 })
  if (!isHexColour(appearance.color))
    issues.push(issue('error', `${prefix}.color`, 'Color must be a 7-character hex colour.'))
  return issues
}

// ── Part ────────────────────────────────────────────────────────────────────────────────────────

/** A warning the server attached to a part (geometry or discretization). */
export const PartWarningSchema = v.object({ errorCode: v.string(), message: v.string() })

const partName = v.pipe(v.string(), v.trim(), v.minLength(1, 'Name is required'), v.maxLength(100))

/** A part as the API returns it. */
export const PartSchema = v.object({
  id: v.number(),
  simulationId: v.number(),
  name: v.string(),
  /** Free-form kind tag the server sets when the part is created (e.g. from the Add menu). */
  kind: v.string(),
  createdAt: v.string(),
  updatedAt: v.string(),
  createdBy: v.nullable(v.number()),
  organizationId: v.nullable(v.number()),
  seedPoint: v.nullable(LooseVec3Schema),
  materialId: v.nullable(v.number()),
  component: ComponentSchema,
  appearance: AppearanceSchema,
  shape: ShapeSchema,
  hasWarnings: v.boolean(),
  warnings: v.array(PartWarningSchema),
})
/** A part as the API returns it. */
export type Part = v.InferOutput<typeof PartSchema>

/** POST /simulations/{id}/parts. Missing component fields take defaultComponent's values. */
export const PartCreateSchema = v.strictObject({
  name: partName,
  kind: v.optional(v.string()),
  materialId: v.optional(v.nullable(v.number())),
  seedPoint: v.optional(v.nullable(LooseVec3Schema)),
  component: ComponentUpdateSchema,
  shape: ShapeUpdateSchema,
  appearance: v.optional(AppearanceUpdateSchema),
})
export type PartCreate = v.InferOutput<typeof PartCreateSchema>

/** PUT /parts/{id}: any of the editable fields. */
export const PartUpdateSchema = v.strictObject({
  name: v.optional(partName),
  materialId: v.optional(v.nullable(v.number())),
  seedPoint: v.optional(v.nullable(LooseVec3Schema)),
  component: v.optional(ComponentUpdateSchema),
  shape: v.optional(ShapeUpdateSchema),
  appearance: v.optional(AppearanceUpdateSchema),
})
export type PartUpdate = v.InferOutput<typeof PartUpdateSchema>

/** PUT /simulations/{id}/parts: several parts at once, each with its id. */
export const PartBulkUpdateSchema = v.array(
  v.strictObject({ id: v.number(), ...PartUpdateSchema.entries }),
)
export type PartBulkUpdate = v.InferOutput<typeof PartBulkUpdateSchema>

/** PUT /simulations/{id}/parts/material_reset: every fluid part gets this material (default 0). */
export const MaterialResetSchema = v.strictObject({
  materialId: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0)), 0),
})
export type MaterialReset = v.InferOutput<typeof MaterialResetSchema>

/** Attribute groups of the UI's secondary toolbar. */
export const ATTRIBUTE_GROUPS = [
  'appearance',
  'boundary_conditions',
  'geometry',
  'initial_conditions',
  'material',
  'motion',
  'information',
] as const
export type AttributeGroup = (typeof ATTRIBUTE_GROUPS)[number]

/** '{value} is not a known attribute name' for anything outside ATTRIBUTE_GROUPS. */
export function checkAttributeGroup(value: string, field = 'attribute'): Issue[] {
  return (ATTRIBUTE_GROUPS as readonly string[]).includes(value)
    ? []
    : [issue('error', field, `${value} is not a known attribute name`)]
}

export const PART_MESSAGES = {
  emptyGeometry: 'No geometry found. Please assign a geometry to the part or delete it.',
  heatTransferTemperature:
    'Heat Transfer Model is enabled. Please upload the initial temperature or disable the model in the Physics Tab.',
  inletWithPressure: 'An inlet with pressure is not allowed.',
  thermoKindMultiphase: 'With multiphase, the thermal condition must be adiabatic or temperature.',
  tableRequired: 'Table is required',
  movementRequired: 'Movement is required',
  securityRisk: 'The file was identified as a potential security risk. Please submit a ticket.',
  partIssues: 'Part has potential issues. Check Information tab for details.',
} as const

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

/** Shape bounds: resolution slider 1 … 100 % (stored as a fraction), splitting ratio ≥ 1. */
export const SHAPE_BOUNDS = {
  resolutionPercent: { min: 1, max: 100 },
  splittingRatio: { min: 1, integer: true },
  positive: { min: 0, exclusiveMin: true },
} as const satisfies Record<string, NumberBounds>

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
}

/** Resolution as a percent (slider) from the stored fraction, rounded to whole percent steps. */
export function resolutionToPercent(fraction: number): number {
  return Math.round(fraction * 100)
}
/** The stored fraction of a resolution percent. */
export function percentToResolution(percent: number): number {
  return percent / 100
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

/** Inflow locks the condition to velocity (an inlet with pressure is not allowed). */
export function availableIoTypes(direction: IoDirection): readonly IoType[] {
  return direction === 'inflow' ? ['riemann_velocity'] : IO_TYPES
}

/** A field (table) profile cannot be set on several parts at once. */
export function availableIoProfileKinds(selectedParts: number): readonly IoProfileKind[] {
  return selectedParts > 1 ? ['constant'] : IO_PROFILE_KINDS
}

/** Title of the confirmation shown when the condition type changes while a table has data. */
export const DELETE_TABLE_CONFIRMATION = 'Delete Previously Defined Table?'

/** Changing the open-boundary condition type drops its table, so ask first when it has rows. */
export function needsTableDeletionConfirmation(
  component: Pick<OpenBoundaryComponent, 'ioTableId'>,
  tableRowCount: number,
): boolean {
  return component.ioTableId !== null && tableRowCount > 0
}

/** Thermal conditions offered: adiabatic or temperature only with multiphase and thermodynamics. */
export function availableThermoKinds(settings: {
  multiphase: boolean
  thermodynamics: boolean
}): readonly ThermoKind[] {
  return settings.multiphase && settings.thermodynamics ? MULTIPHASE_THERMO_KINDS : THERMO_KINDS
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

/**
 * `name` unless one of `existingNames` (parts, refinements, sensors and volume clips together)
 * already has it; then the first free 'name (n)', n = 1, 2, …
 */
export function makeUniqueName(name: string, existingNames: Iterable<string>): string {
  const taken = new Set(existingNames)
  const trimmed = name.trim()
  if (!taken.has(trimmed)) return trimmed
  const base = trimmed.replace(/ \(\d+\)$/, '')
  for (let n = 1; ; n++) {
    const candidate = `${base} (${n})`
    if (!taken.has(candidate)) return candidate
  }
}
