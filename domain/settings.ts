import * as v from 'valibot'
import { idSchema } from './ids.ts'
import { LooseVec3Schema, type LooseVec3 } from './vector.ts'

/** Number inputs may be empty (null) while a setup is being built: the rules report them as info. */
const num = v.nullable(v.number())

export const INTEGRATION_SCHEMES = ['dual_timestep_rk_4', 'runge_kutta_4'] as const
export const SHIFTING_KINDS = ['lyu21', 'sun17', 'zero'] as const

/** Simulation settings of spec/setup.md §3. densityThreshold is a fraction (shown as percent). */
export const SimulationSettingsSchema = v.object({
  gravity: LooseVec3Schema,
  particleDiameter: num,
  endTime: num,
  outputTimeInterval: num,
  calcDomainMin: LooseVec3Schema,
  calcDomainMax: LooseVec3Schema,
  calcDomainActive: v.boolean(),
  accelerationFileId: v.nullable(idSchema('accelerationFileId')),
  accelerationFile: v.nullable(v.object({ id: idSchema('accelerationFile.id'), name: v.string() })),
  multiphase: v.boolean(),
  integrationScheme: v.picklist(INTEGRATION_SCHEMES),
  shifting: v.picklist(SHIFTING_KINDS),
  surfaceTension: v.boolean(),
  sigma: num,
  dynamicTimeStep: v.boolean(),
  densityLimiter: v.boolean(),
  densityThreshold: num,
  accelerationLimiter: v.boolean(),
  thermodynamics: v.boolean(),
  ambientTemperature: num,
  airDrag: v.boolean(),
  rotatingSystem: v.boolean(),
  rotationVelocity: num,
  rotationAxis: v.nullable(LooseVec3Schema),
  rotationCenter: v.nullable(LooseVec3Schema),
  noRiemannWall: v.boolean(),
  discretizerLegacy: v.boolean(),
  lowDissipationOperators: v.boolean(),
})
export type SimulationSettings = v.InferOutput<typeof SimulationSettingsSchema>

/** A partial settings update (PUT /simulations/{id} with `settings`): unknown keys are refused. */
export const SimulationSettingsPatchSchema = v.strictObject(
  Object.fromEntries(
    Object.entries(SimulationSettingsSchema.entries).map(([key, schema]) => [
      key,
      v.optional(schema),
    ]),
  ) as {
    [K in keyof typeof SimulationSettingsSchema.entries]: v.OptionalSchema<
      (typeof SimulationSettingsSchema.entries)[K],
      undefined
    >
  },
)
export type SimulationSettingsPatch = v.InferOutput<typeof SimulationSettingsPatchSchema>

export const DEFAULT_GRAVITY: LooseVec3 = [0, 0, -9.81]
/** Standard density limiter threshold: 30 %. */
export const DEFAULT_DENSITY_THRESHOLD = 0.3

/** Settings of a new simulation: valid as they stand, so a fresh setup only needs geometry. */
export function defaultSettings(): SimulationSettings {
  return {
    gravity: [...DEFAULT_GRAVITY],
    particleDiameter: 0.01,
    endTime: 1,
    outputTimeInterval: 0.02,
    calcDomainMin: [-1, -1, -1],
    calcDomainMax: [1, 1, 1],
    calcDomainActive: false,
    accelerationFileId: null,
    accelerationFile: null,
    multiphase: false,
    integrationScheme: 'dual_timestep_rk_4',
    shifting: 'lyu21',
    surfaceTension: false,
    sigma: null,
    dynamicTimeStep: true,
    densityLimiter: true,
    densityThreshold: DEFAULT_DENSITY_THRESHOLD,
    accelerationLimiter: false,
    thermodynamics: false,
    ambientTemperature: null,
    airDrag: false,
    rotatingSystem: false,
    rotationVelocity: null,
    rotationAxis: null,
    rotationCenter: null,
    noRiemannWall: false,
    discretizerLegacy: false,
    lowDissipationOperators: false,
  }
}
