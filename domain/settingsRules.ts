/**
 * Rules of the simulation settings (spec/setup.md §5 "Simulation settings"), with their messages
 * (settingsMessages.ts) and the settings transitions of §4 (settingsTransitions.ts: multiphase
 * on/off, surface tension on), both re-exported here. Each rule is a pure function that returns
 * Issue[]; bounds come in a standard and a stricter profile.
 */
import { MULTIPHASE_MAX_MATERIALS, SURFACE_TENSION_MAX_MATERIALS } from './materials.ts'
import type { SimulationSettings } from './settings.ts'
import { SETTINGS_LABELS, SETTINGS_MESSAGES } from './settingsMessages.ts'
import { checkNumber, checkVector, issue, type Issue, type NumberBounds } from './validation.ts'

export * from './settingsMessages.ts'
export * from './settingsTransitions.ts'

/** The standard rules, or the stricter ones with narrower physical ranges. */
export const RULE_PROFILES = ['standard', 'strict'] as const
/** One rule profile. */
export type RuleProfile = (typeof RULE_PROFILES)[number]

/** Output count used when end time or interval is not set yet. */
export const DEFAULT_OUTPUT_COUNT = 200

/** Bounds of the settings rules per profile. */
export const SETTINGS_BOUNDS = {
  standard: {
    particleDiameter: { min: 0, exclusiveMin: true },
    outputCount: { min: 5, max: 10000 },
    gravity: { min: -1000, max: 1000 },
    sigma: { min: 0.0001, max: 10 },
    ambientTemperature: { min: 0, exclusiveMin: true, max: 2000 },
  },
  strict: {
    particleDiameter: { min: 1e-5, max: 10 },
    outputCount: { min: 50, max: 5000 },
    gravity: { min: -300, max: 300 },
    sigma: { min: 0.001, max: 1 },
    ambientTemperature: { min: 100, max: 600 },
  },
} as const satisfies Record<RuleProfile, Record<string, NumberBounds>>

/** Density limiter threshold in percent, either profile. */
export const DENSITY_THRESHOLD_PERCENT_BOUNDS = { min: 1, max: 100 } as const

const isValidNumber = (value: number | null | undefined): value is number =>
  typeof value === 'number' && Number.isFinite(value)

/**
 * Outputs a run writes: end time ÷ output interval, or null while either is unset or not positive.
 * Rounded to 9 decimals first, so 1 ÷ 0.02 is 50 and not 49.99….
 */
export function outputCount(settings: Pick<SimulationSettings, 'endTime' | 'outputTimeInterval'>) {
  const { endTime, outputTimeInterval } = settings
  if (!isValidNumber(endTime) || !isValidNumber(outputTimeInterval)) return null
  if (endTime <= 0 || outputTimeInterval <= 0) return null
  return Math.floor(Math.round((endTime / outputTimeInterval) * 1e9) / 1e9)
}

/** The output count field's value: end time ÷ interval when both are set, else 200. */
export function defaultOutputCount(
  settings: Pick<SimulationSettings, 'endTime' | 'outputTimeInterval'>,
): number {
  return outputCount(settings) ?? DEFAULT_OUTPUT_COUNT
}

/** Output count within the profile's bounds ('Total output number must be less than N. Now is M.'). */
export function checkOutputCount(
  count: number,
  profile: RuleProfile = 'standard',
  field = 'settings.outputTimeInterval',
): Issue[] {
  const { min, max } = SETTINGS_BOUNDS[profile].outputCount
  if (count > max)
    return [issue('error', field, `Total output number must be less than ${max}. Now is ${count}.`)]
  if (count < min)
    return [issue('error', field, `Total output number must be more than ${min}. Now is ${count}.`)]
  return []
}

/**
 * The output count input sets the interval to end time ÷ count. It needs an end time first
 * ('Set an end time first'); the count must be a whole number within the profile's bounds.
 */
export function checkOutputCountInput(
  endTime: number | null,
  count: number | null,
  profile: RuleProfile = 'standard',
  field = 'settings.outputCount',
): Issue[] {
  if (!isValidNumber(endTime) || endTime <= 0)
    return [issue('info', field, SETTINGS_MESSAGES.setEndTimeFirst)]
  const numberIssues = checkNumber(field, 'Output count', count, { min: 1, integer: true })
  if (numberIssues.length > 0 || count === null) return numberIssues
  return checkOutputCount(count, profile, field)
}

/** The interval the output count input stores: end time ÷ count, or null without an end time. */
export function outputIntervalFromCount(endTime: number | null, count: number): number | null {
  if (!isValidNumber(endTime) || endTime <= 0 || !(count > 0)) return null
  return endTime / count
}

/** Density threshold shown as percent from the stored fraction (0.3 → 30). */
export function densityThresholdToPercent(fraction: number): number {
  return Math.round(fraction * 100 * 1e9) / 1e9
}
/** Stored fraction of a density threshold percent (30 → 0.3). */
export function percentToDensityThreshold(percent: number): number {
  return Math.round((percent / 100) * 1e12) / 1e12
}

/** The acceleration file must be a .csv file. */
export function isAccelerationFileAccepted(fileName: string): boolean {
  return /\.csv$/i.test(fileName.trim())
}

/** What the settings rules need to know about the rest of the setup. */
export interface SettingsRuleContext {
  profile?: RuleProfile
  /** A pointcloud part fixes the particle diameter (the field is disabled). */
  hasPointcloudPart?: boolean
}

/**
 * The rules of the settings alone: particle diameter, end time, output interval and count,
 * gravity, surface tension, density limiter, thermodynamics, rotating system, acceleration file
 * and the deletion boundary. Fields are 'settings.…'.
 */
export function checkSettings(
  settings: SimulationSettings,
  context: SettingsRuleContext = {},
): Issue[] {
  const profile = context.profile ?? 'standard'
  const bounds = SETTINGS_BOUNDS[profile]
  const issues: Issue[] = []
  const f = (key: string) => `settings.${key}`
  if (!context.hasPointcloudPart)
    issues.push(
      ...checkNumber(
        f('particleDiameter'),
        SETTINGS_LABELS.particleDiameter,
        settings.particleDiameter,
        bounds.particleDiameter,
      ),
    )
  const positive: NumberBounds = { min: 0, exclusiveMin: true }
  const endTimeIssues = checkNumber(
    f('endTime'),
    SETTINGS_LABELS.endTime,
    settings.endTime,
    positive,
  )
  const intervalIssues = checkNumber(
    f('outputTimeInterval'),
    SETTINGS_LABELS.outputTimeInterval,
    settings.outputTimeInterval,
    positive,
  )
  issues.push(...endTimeIssues, ...intervalIssues)
  const count = outputCount(settings)
  if (count !== null) issues.push(...checkOutputCount(count, profile))
  issues.push(
    ...checkVector(f('gravity'), SETTINGS_LABELS.gravity, settings.gravity, {
      bounds: bounds.gravity,
    }),
  )
  if (settings.surfaceTension) {
    if (settings.shifting === 'zero')
      issues.push(issue('error', f('shifting'), SETTINGS_MESSAGES.surfaceTensionShifting))
    issues.push(...checkNumber(f('sigma'), SETTINGS_LABELS.sigma, settings.sigma, bounds.sigma))
  }
  if (settings.densityLimiter) {
    const fraction = settings.densityThreshold
    issues.push(
      ...checkNumber(
        f('densityThreshold'),
        SETTINGS_LABELS.densityThreshold,
        isValidNumber(fraction) ? densityThresholdToPercent(fraction) : fraction,
        DENSITY_THRESHOLD_PERCENT_BOUNDS,
      ),
    )
  }
  if (settings.thermodynamics)
    issues.push(
      ...checkNumber(
        f('ambientTemperature'),
        SETTINGS_LABELS.ambientTemperature,
        settings.ambientTemperature,
        bounds.ambientTemperature,
      ),
    )
  if (settings.rotatingSystem)
    issues.push(
      ...checkNumber(
        f('rotationVelocity'),
        SETTINGS_LABELS.rotationVelocity,
        settings.rotationVelocity,
      ),
      ...checkVector(f('rotationAxis'), SETTINGS_LABELS.rotationAxis, settings.rotationAxis, {
        nonZero: true,
      }),
      ...checkVector(f('rotationCenter'), SETTINGS_LABELS.rotationCenter, settings.rotationCenter),
    )
  const fileName = settings.accelerationFile?.name
  if (fileName !== undefined && !isAccelerationFileAccepted(fileName))
    issues.push(issue('error', f('accelerationFile'), SETTINGS_MESSAGES.accelerationFileCsv))
  issues.push(...checkCalcDomain(settings))
  return issues
}

/** The deletion boundary: a warning while it is off, a valid box (min < max) while it is on. */
export function checkCalcDomain(
  settings: Pick<SimulationSettings, 'calcDomainActive' | 'calcDomainMin' | 'calcDomainMax'>,
): Issue[] {
  if (!settings.calcDomainActive)
    return [issue('warning', 'settings.calcDomainActive', SETTINGS_MESSAGES.addDeletionBoundary)]
  const issues = [
    ...checkVector('settings.calcDomainMin', SETTINGS_LABELS.calcDomainMin, settings.calcDomainMin),
    ...checkVector('settings.calcDomainMax', SETTINGS_LABELS.calcDomainMax, settings.calcDomainMax),
  ]
  if (issues.length > 0) return issues
  const min = settings.calcDomainMin as readonly number[]
  const max = settings.calcDomainMax as readonly number[]
  if (min.some((value, axis) => value >= (max[axis] ?? Number.NaN)))
    issues.push(issue('error', 'settings.calcDomainMax', SETTINGS_MESSAGES.calcDomainOrder))
  return issues
}

/** The setup around the settings that the coupled rules look at. */
export interface SettingsCoupling {
  materialCount: number
  refinementCount: number
}

/**
 * Rules that couple settings with the rest of the setup: multiphase with refinements, air drag
 * and the material count; surface tension with the material count. (Multiphase with heat-flux
 * boundaries is reported on each part, see parts.ts.)
 */
export function checkSettingsCoupling(
  settings: SimulationSettings,
  coupling: SettingsCoupling,
): Issue[] {
  const issues: Issue[] = []
  if (settings.multiphase) {
    if (coupling.refinementCount > 0)
      issues.push(issue('error', 'settings.multiphase', SETTINGS_MESSAGES.multiphaseRefinement))
    if (settings.airDrag)
      issues.push(issue('error', 'settings.multiphase', SETTINGS_MESSAGES.multiphaseAirDrag))
    if (coupling.materialCount > MULTIPHASE_MAX_MATERIALS)
      issues.push(issue('error', 'settings.multiphase', SETTINGS_MESSAGES.multiphaseMaxMaterials))
    if (coupling.materialCount < 2)
      issues.push(issue('error', 'settings.multiphase', SETTINGS_MESSAGES.multiphaseMinMaterials))
    if (settings.surfaceTension && coupling.materialCount > SURFACE_TENSION_MAX_MATERIALS)
      issues.push(
        issue('error', 'settings.surfaceTension', SETTINGS_MESSAGES.surfaceTensionMaxMaterials),
      )
  }
  return issues
}
