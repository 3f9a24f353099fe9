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

/** The CFL time step with gravity as the only force: the fixed step of static time stepping. */
export function initialTimeStep(k: SphConstants, options: SolverOptions): number {
  const g = Math.hypot(...k.gravity)
  const dtForce = g > 0 ? Math.sqrt(k.hMin / g) : Infinity
  const dtSound = k.hMin / k.speedOfSound
  return Math.min(options.cfl * Math.min(dtForce, dtSound), viscousTimeStepLimit(k))
}

/** The variable time step's three limits, each with its Courant number (see variableTimeStep). */
export interface TimeStepLimits {
  force: number
  acoustic: number
  viscous: number
}

/** The profile name of the rule that chose a variable step: dt.acoustic, dt.force or dt.viscous. */
export function limitingRule(limits: TimeStepLimits): string {
  if (limits.acoustic <= limits.force && limits.acoustic <= limits.viscous) return 'dt.acoustic'
  return limits.force <= limits.viscous ? 'dt.force' : 'dt.viscous'
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
  return out
}

/**
 * Variable time step (h: the smallest, hMin): CFL · min(√(h/|a|max), h/(c0 + max h|v·r|/(r²+η²))), and 0.125 h²/ν; the
 * acoustic limit at ACOUSTIC_CFL_FACTOR × CFL for rk4_dual_step.
 */
export function variableTimeStep(
  k: SphConstants,
  options: SolverOptions,
  integrator: Integrator,
  rates: { maxAcceleration: number; maxViscous: number },
  limits: TimeStepLimits = { force: 0, acoustic: 0, viscous: 0 },
): number {
  timeStepLimits(k, options, integrator, rates, limits)
  const dt = Math.min(limits.force, limits.acoustic, limits.viscous)
  // a floor so that a blown-up particle cannot stall the run (it is deleted once non-finite)
  const dtMin = (1e-3 * options.cfl * k.hMin) / k.speedOfSound
  return dt > dtMin ? dt : dtMin
}
