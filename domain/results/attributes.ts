/** The attribute catalogue shared by the colour map, statistics and export. */
import * as v from 'valibot'
import { type Quantity } from '../units.ts'

/** Sub-options of vector attributes. */
export const VECTOR_SUB_OPTIONS = ['x', 'y', 'z', 'magnitude'] as const
/** One vector sub-option. */
export type VectorSubOption = (typeof VECTOR_SUB_OPTIONS)[number]

/** What an attribute is: its quantity and whether it is a vector or depends on a material. */
export interface AttributeDef {
  label: string
  quantity: Quantity
  kind: 'scalar' | 'vector'
  /** Per-material values: the sub-option is a material id. */
  materialDependent: boolean
}

/** The attribute catalogue (colour map, statistics, export). */
export const ATTRIBUTES = {
  velocity: { label: 'Velocity', quantity: 'velocity', kind: 'vector', materialDependent: false },
  acceleration: {
    label: 'Acceleration',
    quantity: 'acceleration',
    kind: 'vector',
    materialDependent: false,
  },
  position: { label: 'Position', quantity: 'position', kind: 'vector', materialDependent: false },
  pressure: { label: 'Pressure', quantity: 'pressure', kind: 'scalar', materialDependent: false },
  density: { label: 'Density', quantity: 'density', kind: 'scalar', materialDependent: false },
  temperature: {
    label: 'Temperature',
    quantity: 'temperature',
    kind: 'scalar',
    materialDependent: false,
  },
  heat_flux: {
    label: 'Heat flux',
    quantity: 'heat_flux',
    kind: 'scalar',
    materialDependent: false,
  },
  kinematic_viscosity: {
    label: 'Kinematic viscosity',
    quantity: 'kinematic_viscosity',
    kind: 'scalar',
    materialDependent: false,
  },
  mass: { label: 'Mass', quantity: 'mass', kind: 'scalar', materialDependent: false },
  mass_flux: {
    label: 'Mass flux',
    quantity: 'mass_flux',
    kind: 'scalar',
    materialDependent: false,
  },
  normal_stress: {
    label: 'Normal stress',
    quantity: 'normal_stress',
    kind: 'scalar',
    materialDependent: false,
  },
  shear_stress: {
    label: 'Shear stress',
    quantity: 'shear_stress',
    kind: 'vector',
    materialDependent: false,
  },
  combined_stress: {
    label: 'Combined stress',
    quantity: 'combined_stress',
    kind: 'vector',
    materialDependent: false,
  },
  power_density: {
    label: 'Power density',
    quantity: 'power_density',
    kind: 'scalar',
    materialDependent: false,
  },
  shear_rate: {
    label: 'Shear rate',
    quantity: 'shear_rate',
    kind: 'scalar',
    materialDependent: false,
  },
  volume: { label: 'Volume', quantity: 'volume', kind: 'scalar', materialDependent: false },
  volume_flux: {
    label: 'Volume flux',
    quantity: 'volume_flux',
    kind: 'scalar',
    materialDependent: false,
  },
  shepard_summation: {
    label: 'Shepard summation',
    quantity: 'dimensionless',
    kind: 'scalar',
    materialDependent: false,
  },
  wetting: { label: 'Wetting', quantity: 'dimensionless', kind: 'scalar', materialDependent: true },
} as const satisfies Record<string, AttributeDef>

/** One attribute name of the catalogue. */
export type AttributeName = keyof typeof ATTRIBUTES
/** Every attribute name, in menu order. */
export const ATTRIBUTE_NAMES = Object.keys(ATTRIBUTES) as [AttributeName, ...AttributeName[]]

/** '{value} is not a known attribute name'. */
export function unknownAttributeMessage(value: unknown): string {
  return `${String(value)} is not a known attribute name`
}

/** An attribute name on the wire; anything else fails with '{value} is not a known attribute name'. */
export const AttributeNameSchema = v.picklist(ATTRIBUTE_NAMES, (failure) =>
  unknownAttributeMessage(failure.input),
)

/** True for a name of the catalogue. */
export function isAttributeName(value: unknown): value is AttributeName {
  return typeof value === 'string' && Object.hasOwn(ATTRIBUTES, value)
}

/**
 * Sub-options of an attribute: x, y, z, magnitude for vectors; the material ids (as strings) for a
 * material-dependent attribute; none for scalars.
 */
export function attributeSubOptions(
  attribute: AttributeName,
  materials: readonly { id: number }[] = [],
): readonly string[] {
  const def: AttributeDef = ATTRIBUTES[attribute]
  if (def.kind === 'vector') return VECTOR_SUB_OPTIONS
  if (def.materialDependent) return materials.map((material) => String(material.id))
  return []
}
