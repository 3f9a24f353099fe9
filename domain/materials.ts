/**
 * Materials (fluids) of a simulation (spec/setup.md §3 "Material", §5 "Material"): schemas, the
 * water-like defaults, labels and the property rules of the standard and stricter profiles.
 */
import * as v from 'valibot'
import { idSchema } from './ids.ts'
import { DATATABLE_MESSAGES } from './datatable.ts'
import type { RuleProfile } from './settingsRules.ts'
import { checkNumber, issue, type Issue, type NumberBounds } from './validation.ts'

/** Number inputs may be empty (null) while a setup is being built: the rules report them as info. */
const num = v.nullable(v.number())

/** How the kinematic viscosity is given: one value, or a table over shear rate or temperature. */
export const VISCOSITY_KINDS = ['constant', 'shear_rate', 'temperature'] as const
/** One viscosity kind. */
export type ViscosityKind = (typeof VISCOSITY_KINDS)[number]

/**
 * Material id 0 is 'Fluid 1'; ids 0 and 1 are the two fluids multiphase needs, so only ids from 2
 * on can be deleted.
 */
export const MIN_DELETABLE_MATERIAL_ID = 2
/** Multiphase supports up to this many materials. */
export const MULTIPHASE_MAX_MATERIALS = 5
/** Surface tension supports up to this many materials. */
export const SURFACE_TENSION_MAX_MATERIALS = 2
/** Shear-rate and temperature viscosity tables need at least this many rows. */
export const VISCOSITY_TABLE_MIN_ROWS = 2

/** Isentropic exponent guidance: 7 for fluids, 1.4 for gases. */
export const GAMMA_GUIDANCE = { fluid: 7, gas: 1.4 } as const

export const MATERIAL_MESSAGES = {
  propertiesRequired: 'Properties are required.',
  checkProperties: 'Check your properties.',
  materialRequired: 'Material is required',
  temperatureViscosityNeedsThermodynamics:
    'Temperature-dependent viscosity requires the Heat Transfer Model.',
  tableRequired: 'Viscosity table is required',
} as const

const materialEntries = {
  name: v.string(),
  density: num,
  /** Isentropic exponent of the equation of state. */
  gamma: num,
  speedOfSound: num,
  thermalConductivity: num,
  specificHeatCapacity: num,
  viscosityKind: v.picklist(VISCOSITY_KINDS),
  kinematicViscosity: num,
  viscosityShearRateTableId: v.nullable(idSchema('viscosityShearRateTableId')),
  viscosityTemperatureTableId: v.nullable(idSchema('viscosityTemperatureTableId')),
}

/** A material as the API returns it; `id` is the material id within its simulation (0, 1, …). */
export const MaterialSchema = v.object({
  id: v.pipe(v.number(), v.integer(), v.minValue(0)),
  simulationId: v.number(),
  ...materialEntries,
  createdAt: v.string(),
})
/** A material as the API returns it. */
export type Material = v.InferOutput<typeof MaterialSchema>

/**
 * PUT /simulations/{id}/materials/{materialId}: a partial update, which creates the material when
 * the id is new (missing fields take the defaults). Unknown fields are refused.
 */
export const MaterialUpdateSchema = v.partial(
  v.strictObject({
    ...materialEntries,
    name: v.pipe(v.string(), v.trim(), v.minLength(1, 'Name is required'), v.maxLength(100)),
  }),
)
/** A material update body. */
export type MaterialUpdate = v.InferOutput<typeof MaterialUpdateSchema>

/** A preset of GET /material_presets. */
export const MaterialPresetSchema = v.object({
  id: v.number(),
  name: v.string(),
  density: v.number(),
  kinematicViscosity: v.number(),
  gamma: v.number(),
  thermalConductivity: v.nullable(v.number()),
  specificHeatCapacity: v.nullable(v.number()),
})
/** A material preset. */
export type MaterialPreset = v.InferOutput<typeof MaterialPresetSchema>

/** The label of material `id`: id 0 is 'Fluid 1', id n is 'Fluid {n+1}'. */
export function materialLabel(id: number): string {
  return `Fluid ${id + 1}`
}

/** The editable properties of a material (everything but ids and timestamps). */
export type MaterialProperties = v.InferOutput<v.ObjectSchema<typeof materialEntries, undefined>>

/**
 * The default speed of sound of a material, m/s. The solver's c0 is the largest of the material's
 * speed of sound, 10·√(g·H) (H the fluid's height) and 10 × the fastest initial speed, so this
 * default leaves the choice to the solver for any fluid more than 0.102 m tall: measured on the
 * validation cases, c0 = 10·√(g·H) is as accurate as twice that (solver/sph/NUMERICS.md,
 * 'Speed of sound') at half the steps, where the former default of 100 m/s cost 4–5 × the steps
 * of a tank half a metre deep. A higher value set on the material raises c0 explicitly.
 */
export const DEFAULT_SPEED_OF_SOUND = 10

/**
 * Water at about 20 °C. The speed of sound is the weakly-compressible one (a floor under the
 * solver's choice, see DEFAULT_SPEED_OF_SOUND), not water's physical 1480 m/s.
 */
export function defaultMaterialProperties(id: number): MaterialProperties {
  return {
    name: materialLabel(id),
    density: 1000,
    gamma: GAMMA_GUIDANCE.fluid,
    speedOfSound: DEFAULT_SPEED_OF_SOUND,
    thermalConductivity: 0.6,
    specificHeatCapacity: 4186,
    viscosityKind: 'constant',
    kinematicViscosity: 1e-6,
    viscosityShearRateTableId: null,
    viscosityTemperatureTableId: null,
  }
}

/** A new material with the water-like defaults. */
export function createDefaultMaterial(
  id: number,
  simulationId: number,
  createdAt: string,
): Material {
  return { id, simulationId, ...defaultMaterialProperties(id), createdAt }
}

/** Only materials from id 2 on can be deleted. */
export function canDeleteMaterial(materialId: number): boolean {
  return materialId >= MIN_DELETABLE_MATERIAL_ID
}

/** Property bounds per rule profile. */
export const MATERIAL_BOUNDS = {
  standard: {
    density: { min: 0.001, max: 20000 },
    gamma: { min: 0, exclusiveMin: true },
    speedOfSound: { min: 0, exclusiveMin: true, max: 5000 },
    thermalConductivity: { min: 0.0001, max: 10 },
    specificHeatCapacity: { min: 100, max: 10000 },
    kinematicViscosity: { min: 1e-9, max: 2000 },
  },
  strict: {
    density: { min: 0.1, max: 10000 },
    gamma: { min: 1, max: 10 },
    speedOfSound: { min: 1, max: 1000 },
    thermalConductivity: { min: 0.005, max: 2 },
    specificHeatCapacity: { min: 500, max: 5000 },
    kinematicViscosity: { min: 1e-7, max: 1 },
  },
} as const satisfies Record<RuleProfile, Record<string, NumberBounds>>

/** Labels of the material fields in messages. */
export const MATERIAL_LABELS = {
  density: 'Density',
  gamma: 'Gamma',
  speedOfSound: 'Speed of sound',
  thermalConductivity: 'Thermal conductivity',
  specificHeatCapacity: 'Specific heat capacity',
  kinematicViscosity: 'Kinematic viscosity',
} as const

/** What the material rules need to know about the rest of the setup. */
export interface MaterialRuleContext {
  profile?: RuleProfile
  /** settings.thermodynamics (the Heat Transfer Model). */
  thermodynamics: boolean
  /** Row count of a datatable, or undefined when it is not loaded (then rows are not checked). */
  tableRowCount?: (tableId: number) => number | undefined
  /** True when tableRowCount knows every table of the simulation: an unknown one does not exist. */
  datatablesComplete?: boolean
}

function checkViscosityTable(
  field: string,
  tableId: number | null,
  context: MaterialRuleContext,
): Issue[] {
  if (tableId === null) return [issue('info', field, MATERIAL_MESSAGES.tableRequired)]
  const rows = context.tableRowCount?.(tableId)
  if (rows === undefined && context.datatablesComplete)
    return [issue('error', field, DATATABLE_MESSAGES.tableNotFound)]
  if (rows !== undefined && rows < VISCOSITY_TABLE_MIN_ROWS)
    return [issue('error', field, `Table must have at least ${VISCOSITY_TABLE_MIN_ROWS} rows.`)]
  return []
}

/**
 * The property rules of one material (spec/setup.md §5 "Material"). Thermal properties are
 * checked only with thermodynamics on; the viscosity value or table by the viscosity kind.
 * Fields are `{prefix}.{property}`.
 */
export function checkMaterial(
  material: MaterialProperties,
  context: MaterialRuleContext,
  prefix = 'material',
): Issue[] {
  const bounds = MATERIAL_BOUNDS[context.profile ?? 'standard']
  const check = (key: keyof typeof MATERIAL_LABELS) =>
    checkNumber(`${prefix}.${key}`, MATERIAL_LABELS[key], material[key], bounds[key])
  const issues = [...check('density'), ...check('gamma'), ...check('speedOfSound')]
  if (context.thermodynamics)
    issues.push(...check('thermalConductivity'), ...check('specificHeatCapacity'))
  switch (material.viscosityKind) {
    case 'constant':
      issues.push(...check('kinematicViscosity'))
      break
    case 'shear_rate':
      issues.push(
        ...checkViscosityTable(
          `${prefix}.viscosityShearRateTableId`,
          material.viscosityShearRateTableId,
          context,
        ),
      )
      break
    case 'temperature':
      if (!context.thermodynamics)
        issues.push(
          issue(
            'error',
            `${prefix}.viscosityKind`,
            MATERIAL_MESSAGES.temperatureViscosityNeedsThermodynamics,
          ),
        )
      issues.push(
        ...checkViscosityTable(
          `${prefix}.viscosityTemperatureTableId`,
          material.viscosityTemperatureTableId,
          context,
        ),
      )
      break
  }
  return issues
}

/** Viscosity kinds offered: 'temperature' only with the Heat Transfer Model on. */
export function availableViscosityKinds(thermodynamics: boolean): readonly ViscosityKind[] {
  return thermodynamics ? VISCOSITY_KINDS : VISCOSITY_KINDS.filter((k) => k !== 'temperature')
}

/**
 * The one-line summary of a material in lists: 'Properties are required.' (info) while a property
 * is unset, else 'Check your properties.' (warning) while one breaks a rule, else none.
 */
export function summarizeMaterialIssues(field: string, issues: readonly Issue[]): Issue[] {
  if (issues.some((i) => i.level === 'info'))
    return [issue('info', field, MATERIAL_MESSAGES.propertiesRequired)]
  if (issues.length > 0) return [issue('warning', field, MATERIAL_MESSAGES.checkProperties)]
  return []
}
