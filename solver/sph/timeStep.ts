/**
 * The time step rules (see NUMERICS.md, Time integration).
 */
import type { Integrator, SolverOptions, SphConstants } from './config.ts'
import { ACOUSTIC_CFL_FACTOR } from './config.ts'
import { conductionTimeStepLimit } from './heat.ts'

/**
 * The viscous limit 0.125 h²/ν (Infinity without laminar viscosity), and with heat conduction
 * the same rule for the thermal diffusivity, 0.125 h²/α.
 */
export function viscousTimeStepLimit(k: SphConstants): number {
  // the smallest h (variable resolution), h itself otherwise
  const h = k.hMin
  const viscous = k.nu > 0 ? (0.125 * h * h) / k.nu : Infinity
  return Math.min(viscous, conductionTimeStepLimit(h, k.heat.thermalDiffusivity))
}

/** Brackbill et al.'s capillary constant as the SPH papers take it (Morris 2000, Adami et al. 2010). */
export const CAPILLARY_FACTOR = 0.25

/**
 * The capillary limit of surface tension (Brackbill, Kothe & Zemach 1992): a capillary wave as
 * short as the kernel must be resolved, dt ≤ 0.25 √(ρ̄ h³/(2πσ)) with ρ̄ the mean reference
 * density of the two phases (the factor 0.25 and h in place of the grid spacing as Morris 2000,
 * Hu & Adams 2006 and Adami et al. 2010: 0.46 √(ρ̄ dp³/(2πσ)) at h = 1.5 dp). Infinity without σ.
 */
export function capillaryTimeStepLimit(k: SphConstants): number {
  const phases = k.phases
  const sigma = k.surfaceTension
  if (!(sigma > 0) || !phases) return Infinity
  const densities = phases.referenceDensity
  const mean = densities.reduce((sum, rho) => sum + rho, 0) / densities.length
  return CAPILLARY_FACTOR * Math.sqrt((mean * k.hMin ** 3) / (2 * Math.PI * sigma))
}

/** The limits that do not change during a run: viscous (and conduction) and capillary. */
export function fixedTimeStepLimit(k: SphConstants): number {
  return Math.min(viscousTimeStepLimit(k), capillaryTimeStepLimit(k))
}

/** The CFL time step with gravity as the only force: the fixed step of static time stepping. */
export function initialTimeStep(k: SphConstants, options: SolverOptions): number {
  const g = Math.hypot(...k.gravity)
  const dtForce = g > 0 ? Math.sqrt(k.hMin / g) : Infinity
  const dtSound = k.hMin / k.speedOfSound
  return Math.min(options.cfl * Math.min(dtForce, dtSound), fixedTimeStepLimit(k))
}

/** The variable time step's four limits, each with its Courant number (see variableTimeStep). */
export interface TimeStepLimits {
  force: number
  acoustic: number
  viscous: number
  capillary: number
}

/**
 * The profile name of the rule that chose a variable step: dt.acoustic, dt.force, dt.viscous or
 * dt.capillary.
 */
export function limitingRule(limits: TimeStepLimits): string {
  const { force, acoustic, viscous, capillary } = limits
  if (acoustic <= force && acoustic <= viscous && acoustic <= capillary) return 'dt.acoustic'
  if (force <= viscous && force <= capillary) return 'dt.force'
  return viscous <= capillary ? 'dt.viscous' : 'dt.capillary'
}

/** The limits of the variable time step into `out` (no allocation per step). */
export function timeStepLimits(
  k: SphConstants,
  options: SolverOptions,
  integrator: Integrator,
  rates: { maxAcceleration: number; maxViscous: number },
  out: TimeStepLimits,
): TimeStepLimits {
  const dtForce = rates.maxAcceleration > 0 ? Math.sqrt(k.hMin / rates.maxAcceleration) : Infinity
  const dtSound = k.hMin / (k.speedOfSound + rates.maxViscous)
  const cfl = options.cfl
  const acousticCfl = integrator === 'rk4_dual_step' ? ACOUSTIC_CFL_FACTOR * cfl : cfl
  out.force = cfl * dtForce
  out.acoustic = acousticCfl * dtSound
  out.viscous = viscousTimeStepLimit(k)
  out.capillary = capillaryTimeStepLimit(k)
  return out
}

/**
 * Variable time step (h: the smallest, hMin): CFL · min(√(h/|a|max), h/(c0 + max h|v·r|/(r²+η²))),
 * 0.125 h²/ν and with surface tension the capillary limit; the acoustic limit at
 * ACOUSTIC_CFL_FACTOR × CFL for rk4_dual_step.
 */
export function variableTimeStep(
  k: SphConstants,
  options: SolverOptions,
  integrator: Integrator,
  rates: { maxAcceleration: number; maxViscous: number },
  limits: TimeStepLimits = { force: 0, acoustic: 0, viscous: 0, capillary: 0 },
): number {
  timeStepLimits(k, options, integrator, rates, limits)
  const dt = Math.min(limits.force, limits.acoustic, limits.viscous, limits.capillary)
  // a floor so that a blown-up particle cannot stall the run (it is deleted once non-finite)
  const dtMin = (1e-3 * options.cfl * k.hMin) / k.speedOfSound
  return dt > dtMin ? dt : dtMin
}
