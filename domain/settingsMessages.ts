/**
 * Labels, messages and adjustment lines of the settings rules and switches (spec/setup.md §4,
 * §5 "Simulation settings"). Re-exported by settingsRules.ts.
 */
import { MULTIPHASE_MAX_MATERIALS, SURFACE_TENSION_MAX_MATERIALS } from './materials.ts'

/** Labels of the settings fields in messages. */
export const SETTINGS_LABELS = {
  particleDiameter: 'Particle diameter',
  endTime: 'End time',
  outputTimeInterval: 'Output time interval',
  gravity: 'Gravity',
  sigma: 'Sigma',
  densityThreshold: 'Density threshold',
  ambientTemperature: 'Ambient temperature',
  rotationVelocity: 'Rotation velocity',
  rotationAxis: 'Rotation axis',
  rotationCenter: 'Rotation center',
  calcDomainMin: 'Deletion boundary minimum',
  calcDomainMax: 'Deletion boundary maximum',
} as const

export const SETTINGS_MESSAGES = {
  setEndTimeFirst: 'Set an end time first',
  multiphaseRefinement: 'Multiphase cannot be used in combination with refinement.',
  multiphaseAirDrag: 'Multiphase cannot be used in combination with air drag.',
  multiphaseHeatBoundary:
    'Multiphase cannot be used in combination with heat flux or heat transfer coefficient boundary conditions.',
  multiphaseMaxMaterials: `Multiphase supports up to ${MULTIPHASE_MAX_MATERIALS} materials.`,
  /** A material past the limit while multiphase is off, when only material 0 is used anyway. */
  singlePhaseMaxMaterials: `Only material 0 ('Fluid 1') is used while multiphase is off, and a simulation holds at most ${MULTIPHASE_MAX_MATERIALS} materials.`,
  multiphaseMinMaterials: 'Multiphase requires at least 2 materials.',
  surfaceTensionMaxMaterials: `Surface tension supports up to ${SURFACE_TENSION_MAX_MATERIALS} materials.`,
  surfaceTensionShifting: 'When using surface tension, shifting must be enabled!',
  accelerationFileCsv: 'Acceleration file must be a .csv file.',
  addDeletionBoundary: 'Add a deletion boundary to save on cost.',
  calcDomainOrder: 'Deletion boundary minimum must be smaller than its maximum.',
  adjustedTitle: 'Advanced Settings Were Adjusted',
  discretizationBlockedTitle: 'Discretization failed',
  discretizationBlockedText:
    'There are errors in your setup. Please check the Input Validation bar.',
} as const

/** Lines of the 'Advanced Settings Were Adjusted' dialog. */
export const SETTINGS_ADJUSTMENTS = {
  densityLimiterDisabled: 'Disabled density limiter',
  densityLimiterEnabled: 'Enabled density limiter',
  staticTimestepDisabled: 'Disabled static timestep',
  improvedWallPressureEnabled: 'Enabled improved wall pressure treatment',
} as const
