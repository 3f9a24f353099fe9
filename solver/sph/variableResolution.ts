/**
 * Variable resolution (refinement zones): what a run with particles of more than one spacing
 * needs from its config, and what it refuses. Each particle has its own spacing dp_i (the
 * discretizer's refinement, solver/discretizer/refinement.ts), mass ρ dp_i³ and smoothing length
 * h_i = (h/dp) dp_i; pairs take the symmetric kernel W(r, h_ij), h_ij = (h_i + h_j)/2
 * (variableForces.ts, variableWalls.ts). The neighbour grid is built for the largest support,
 * 2h of the settings' particleDiameter; the time step for the smallest h.
 */
import type { SimulationSettings } from '../../domain/settings.ts'
import type { SolverParticles } from './config.ts'
import type { SolverOptions } from './options.ts'
import { SolverSetupError } from './options.ts'

/** The resolution of a run: its smallest particle spacing and whether spacings differ. */
export interface Resolution {
  smallestSpacing: number
  variable: boolean
}

/**
 * The spacings of the particles (particles.spacings, default the particleDiameter dp for all):
 * each must lie in (0, dp], finer than the settings' dp or equal to it.
 */
export function resolutionOf(particles: SolverParticles, dp: number): Resolution {
  const spacings = particles.spacings
  if (!spacings) return { smallestSpacing: dp, variable: false }
  const n = particles.kinds.length
  if (spacings.length !== n)
    throw new SolverSetupError('spacings must hold one value per particle.')
  let smallest = dp
  let variable = false
  for (let i = 0; i < n; i++) {
    const s = spacings[i]!
    if (!(s > 0 && s <= dp))
      throw new SolverSetupError(
        `Particle ${i} has a spacing of ${s} m; spacings must lie between 0 and the particle diameter (${dp} m).`,
      )
    if (s !== dp) variable = true
    if (s < smallest) smallest = s
  }
  return { smallestSpacing: smallest, variable }
}

/**
 * What variable resolution does not implement, named as the settings and options name it:
 * multiphase (the spec: 'Multiphase cannot be used in combination with refinement.'), heat
 * conduction, air drag, viscosity tables, dynamic boundary particles and the log-law wall function (their
 * passes take one h). A run with refinement must not start while this list is not empty.
 */
export function unsupportedWithRefinement(
  settings: Pick<SimulationSettings, 'multiphase' | 'thermodynamics'> &
    Partial<Pick<SimulationSettings, 'airDrag'>>,
  options: Partial<Pick<SolverOptions, 'boundary' | 'wallShear'>> = {},
  viscosityKinds: readonly (string | undefined)[] = [],
): string[] {
  const refused: string[] = []
  if (settings.multiphase) refused.push('multiphase with refinement')
  if (settings.thermodynamics) refused.push('thermodynamics with refinement')
  // the drag's exposed area and neighbour counts are those of one spacing (airDrag.ts)
  if (settings.airDrag) refused.push('airDrag with refinement')
  if (viscosityKinds.some((kind) => kind !== undefined && kind !== 'constant'))
    refused.push('a temperature or shear-rate viscosity with refinement')
  if (options.boundary === 'dynamic') refused.push('dynamic boundary particles with refinement')
  if (options.wallShear === 'logLaw') refused.push('the log-law wall function with refinement')
  return refused
}
