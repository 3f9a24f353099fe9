/**
 * Tait equation of state of weakly-compressible SPH: p = B((ρ/ρ0)^γ − 1) with B = c0²ρ0/γ.
 */

export interface TaitParameters {
  /** Reference density ρ0 in kg/m³. */
  referenceDensity: number
  /** Numerical speed of sound c0 in m/s. */
  speedOfSound: number
  /** Isentropic exponent γ (7 for water). */
  gamma: number
}

/** The stiffness B = c0²ρ0/γ in Pa. */
export function taitStiffness({ referenceDensity, speedOfSound, gamma }: TaitParameters): number {
  return (speedOfSound * speedOfSound * referenceDensity) / gamma
}

/** Pressure in Pa from density. */
export function pressureFromDensity(params: TaitParameters, density: number): number {
  return taitStiffness(params) * ((density / params.referenceDensity) ** params.gamma - 1)
}

/** Density from pressure (the inverse of the Tait equation); clamped to a tiny positive ratio. */
export function densityFromPressure(params: TaitParameters, pressure: number): number {
  const ratio = Math.max(pressure / taitStiffness(params) + 1, MIN_PRESSURE_RATIO)
  return params.referenceDensity * ratio ** (1 / params.gamma)
}

/** Below this (p/B + 1) the inverse equation of state is undefined: a strong tension. */
export const MIN_PRESSURE_RATIO = 1e-6

/**
 * The numerical speed of sound: c0 = max(material speed of sound, coefficient·√(|g|·H),
 * coefficient·|u0|max), so that the Mach number of gravity-driven flow (u ≈ √(2gH)) stays near
 * 0.1 and density varies by about 1 %. H is the fluid's height along gravity.
 */
export function chooseSpeedOfSound(input: {
  materialSpeedOfSound: number
  gravityMagnitude: number
  fluidHeight: number
  maxInitialSpeed: number
  coefficient: number
}): number {
  const gravityWave = Math.sqrt(input.gravityMagnitude * Math.max(input.fluidHeight, 0))
  return Math.max(
    input.materialSpeedOfSound,
    input.coefficient * gravityWave,
    input.coefficient * input.maxInitialSpeed,
  )
}
