/**
 * Part components (spec/setup.md §3 "Part"): the physical role of a part — rigid wall, filling
 * fluid, flow, open boundary, refinement — with its schemas, update bodies, defaults and the
 * choices the forms offer. Re-exported by parts.ts.
 */
import * as v from 'valibot'
import { idSchema } from './ids.ts'
import { LooseVec3Schema, type LooseVec3 } from './vector.ts'

const num = v.nullable(v.number())

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
  initialDistributionTableId: v.nullable(idSchema('initialDistributionTableId')),
  metalness: num,
}
const rigidEntries = {
  thermoKind: v.picklist(THERMO_KINDS),
  heatFlux: num,
  boundaryTemperature: num,
  referenceTemperature: num,
  heatTransferCoefficient: num,
  velocityKind: v.picklist(VELOCITY_KINDS),
  velocityConditionMovementId: v.nullable(idSchema('velocityConditionMovementId')),
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
  ioTableId: v.nullable(idSchema('ioTableId')),
  csvFileId: v.nullable(idSchema('csvFileId')),
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
