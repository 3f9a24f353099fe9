/**
 * The phase table of a multiphase run (see multiphase.ts): the materials the fluid particles use,
 * at most MAX_PHASES, and their constants, derived once and shared with the worker threads.
 */
import type { SolverConfig, SolverMaterial, SphConstants } from './config.ts'
import type { SolverOptions } from './options.ts'
import { SolverSetupError } from './options.ts'
import { chooseSpeedOfSound, taitStiffness } from './equationOfState.ts'
import { PARTICLE_KIND } from './particles.ts'

/** Materials a multiphase run may hold (spec: up to 5). */
export const MAX_PHASES = 5

/** The per-material constants of a multiphase run, indexed by phase (plain data for workers). */
export interface PhaseConstants {
  /** Material id of each phase: the materials the fluid particles use, in the config's order. */
  materialIds: number[]
  referenceDensity: number[]
  gamma: number[]
  /** Numerical speed of sound c_k of each phase (the single-phase rule with its material's). */
  soundSpeed: number[]
  /** B_k = c_k²ρ0_k/γ_k. */
  stiffness: number[]
  /** μ_k = ρ0_k ν_k (0 without laminar viscosity). */
  dynamicViscosity: number[]
  /** p_b in Pa, see options.backgroundPressure. */
  backgroundPressure: number
  /** options.pressureReference === 'localMinimum'. */
  localMinimumReference: boolean
}

/**
 * The materials the fluid particles use, in the order of config.materials (the phase table);
 * the first material when there is no fluid particle.
 */
export function phaseMaterials(config: SolverConfig): SolverMaterial[] {
  const { particles, materials } = config
  const first = materials[0]
  if (!first) throw new SolverSetupError('A material is required.')
  const used = new Set<number>()
  const n = particles.kinds.length
  for (let i = 0; i < n; i++) {
    if (particles.kinds[i] !== PARTICLE_KIND.fluid) continue
    used.add(particles.materialIds ? particles.materialIds[i]! : first.id)
  }
  for (const id of used)
    if (!materials.some((m) => m.id === id))
      throw new SolverSetupError(`Material ${id} is not defined.`)
  const table = used.size === 0 ? [first] : materials.filter((m) => used.has(m.id))
  if (table.length > MAX_PHASES)
    throw new SolverSetupError(
      `Fluid particles use ${table.length} materials; multiphase supports up to ${MAX_PHASES}.`,
    )
  return table
}

/** The phase table's constants; c_k from the single-phase rule with each material's own speed. */
export function derivePhaseConstants(
  materials: readonly SolverMaterial[],
  options: SolverOptions,
  flow: { gravityMagnitude: number; fluidHeight: number; maxInitialSpeed: number },
): PhaseConstants {
  for (const m of materials) {
    if (!(m.density > 0 && m.gamma > 0 && m.speedOfSound > 0))
      throw new SolverSetupError(
        'Every fluid material needs density, gamma and speed of sound > 0.',
      )
    if ((m.viscosityKind ?? 'constant') !== 'constant')
      throw new SolverSetupError(
        `Viscosity kind ${m.viscosityKind} is not supported (only constant viscosity).`,
      )
  }
  if (options.boundary === 'dynamic')
    throw new SolverSetupError('Multiphase runs with generalized or Riemann walls only.')
  if (options.riemannWallNormal === 'fluid' || options.wallShear === 'logLaw')
    throw new SolverSetupError(
      "Multiphase supports the Riemann wall's wall normal and the viscous wall shear only.",
    )
  if (!(options.backgroundPressure >= 0))
    throw new SolverSetupError('backgroundPressure must be 0 or more.')
  const laminar = options.viscosity !== 'artificial'
  const soundSpeed = materials.map((m) =>
    chooseSpeedOfSound({
      materialSpeedOfSound: m.speedOfSound,
      ...flow,
      coefficient: options.soundSpeedCoefficient,
    }),
  )
  return {
    materialIds: materials.map((m) => m.id),
    referenceDensity: materials.map((m) => m.density),
    gamma: materials.map((m) => m.gamma),
    soundSpeed,
    stiffness: materials.map((m, k) =>
      taitStiffness({ referenceDensity: m.density, speedOfSound: soundSpeed[k]!, gamma: m.gamma }),
    ),
    dynamicViscosity: materials.map((m) => (laminar ? m.density * m.kinematicViscosity : 0)),
    backgroundPressure: options.backgroundPressure,
    localMinimumReference: options.pressureReference === 'localMinimum',
  }
}

/** The Tait parameters of a phase (initial densities from pressures). */
export function phaseTait(phases: PhaseConstants, phase: number) {
  return {
    referenceDensity: phases.referenceDensity[phase]!,
    speedOfSound: phases.soundSpeed[phase]!,
    gamma: phases.gamma[phase]!,
  }
}

/**
 * A fluid particle's Tait pressure at `density`: its own material's (phase; multiphase.ts
 * computeMultiphasePressures), the run's one material's without multiphase.
 */
export function fluidPressure(k: SphConstants, phase: number, density: number): number {
  const phases = k.phases
  if (!phases) return k.stiffness * (Math.pow(density / k.referenceDensity, k.gamma) - 1)
  const ratio = density / phases.referenceDensity[phase]!
  return phases.stiffness[phase]! * (Math.pow(ratio, phases.gamma[phase]!) - 1)
}
