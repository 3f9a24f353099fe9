/**
 * The settings switches of spec/setup.md §4 (multiphase on/off, surface tension on) and what the
 * Add menu and the forms allow while they are set. Re-exported by settingsRules.ts.
 */
import { createDefaultMaterial, SURFACE_TENSION_MAX_MATERIALS, type Material } from './materials.ts'
import type { Part } from './parts.ts'
import { DEFAULT_DENSITY_THRESHOLD, type SimulationSettings } from './settings.ts'
import { SETTINGS_ADJUSTMENTS, SETTINGS_MESSAGES } from './settingsMessages.ts'

/** True for a rigid part whose thermal condition is heat flux or heat transfer coefficient. */
export function hasHeatBoundary(part: Pick<Part, 'component'>): boolean {
  const c = part.component
  return (
    c.type === 'rigid' &&
    (c.thermoKind === 'heat_flux' || c.thermoKind === 'heat_transfer_coefficient')
  )
}

/**
 * Why multiphase cannot be switched on now (empty when it can): refinements, air drag, or heat
 * flux / heat transfer coefficient boundaries while thermodynamics is on.
 */
export function multiphaseBlockers(
  settings: SimulationSettings,
  setup: { refinementCount: number; parts: readonly Pick<Part, 'component'>[] },
): string[] {
  const reasons: string[] = []
  if (setup.refinementCount > 0) reasons.push(SETTINGS_MESSAGES.multiphaseRefinement)
  if (settings.airDrag) reasons.push(SETTINGS_MESSAGES.multiphaseAirDrag)
  if (settings.thermodynamics && setup.parts.some(hasHeatBoundary))
    reasons.push(SETTINGS_MESSAGES.multiphaseHeatBoundary)
  return reasons
}

/** The air drag switch is off-limits with multiphase on or an air drag domain already active. */
export function canEnableAirDrag(settings: Pick<SimulationSettings, 'multiphase' | 'airDrag'>) {
  return !settings.multiphase && !settings.airDrag
}
/** Refinement zones cannot be added with multiphase on. */
export function canAddRefinement(settings: Pick<SimulationSettings, 'multiphase'>): boolean {
  return !settings.multiphase
}
/** A domain boundary can be added only while no calculation domain exists. */
export function canAddDomainBoundary(
  settings: Pick<SimulationSettings, 'calcDomainActive'>,
): boolean {
  return !settings.calcDomainActive
}
/** Surface tension is unavailable under multiphase with more than 2 materials. */
export function canEnableSurfaceTension(
  settings: Pick<SimulationSettings, 'multiphase'>,
  materialCount: number,
): boolean {
  return !(settings.multiphase && materialCount > SURFACE_TENSION_MAX_MATERIALS)
}
/** The particle diameter is not editable while a part is a point cloud. */
export function isParticleDiameterEditable(parts: readonly Pick<Part, 'shape'>[]): boolean {
  return !parts.some((p) => p.shape.type === 'pointcloud')
}

/** The outcome of switching multiphase: what to store, create and tell the user. */
export interface MultiphaseTransition {
  settings: SimulationSettings
  /** Every material afterwards (new ones included). */
  materials: Material[]
  /** Materials that did not exist before and must be created. */
  createdMaterials: Material[]
  /** Every part afterwards, fluid parts reset to material 0. */
  parts: Part[]
  /** Lines of the 'Advanced Settings Were Adjusted' dialog; empty when nothing changed. */
  adjustments: string[]
}

/**
 * Switches multiphase on or off (spec/setup.md §4). On: static timestep off (dynamicTimeStep on),
 * density limiter off, improved wall pressure (noRiemannWall) on, a second material created when
 * fewer than 2 exist, part materials reset to 0. Off: the density limiter is re-enabled and only
 * material 0 is used. `adjustments` lists the advanced settings that actually changed.
 */
export function applyMultiphase(
  on: boolean,
  settings: SimulationSettings,
  materials: readonly Material[],
  parts: readonly Part[],
  options: { simulationId: number; nowIso: string },
): MultiphaseTransition {
  const next: SimulationSettings = { ...settings, multiphase: on }
  const adjustments: string[] = []
  const createdMaterials: Material[] = []
  if (on) {
    if (settings.densityLimiter) adjustments.push(SETTINGS_ADJUSTMENTS.densityLimiterDisabled)
    if (!settings.dynamicTimeStep) adjustments.push(SETTINGS_ADJUSTMENTS.staticTimestepDisabled)
    if (!settings.noRiemannWall) adjustments.push(SETTINGS_ADJUSTMENTS.improvedWallPressureEnabled)
    next.densityLimiter = false
    next.dynamicTimeStep = true
    next.noRiemannWall = true
    const ids = new Set(materials.map((m) => m.id))
    for (let id = 0; ids.size + createdMaterials.length < 2; id++)
      if (!ids.has(id))
        createdMaterials.push(createDefaultMaterial(id, options.simulationId, options.nowIso))
  } else {
    if (!settings.densityLimiter) adjustments.push(SETTINGS_ADJUSTMENTS.densityLimiterEnabled)
    next.densityLimiter = true
    next.densityThreshold ??= DEFAULT_DENSITY_THRESHOLD
  }
  const nextParts = parts.map((part) =>
    part.component.type === 'rigid' || part.component.type === 'refinement' || part.materialId === 0
      ? part
      : { ...part, materialId: 0 },
  )
  return {
    settings: next,
    materials: [...materials, ...createdMaterials].sort((a, b) => a.id - b.id),
    createdMaterials,
    parts: nextParts,
    adjustments,
  }
}

/** Switches surface tension; switching it on forces shifting to 'lyu21'. */
export function applySurfaceTension(on: boolean, settings: SimulationSettings): SimulationSettings {
  return on
    ? { ...settings, surfaceTension: true, shifting: 'lyu21' }
    : { ...settings, surfaceTension: false }
}
