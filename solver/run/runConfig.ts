/**
 * What a run hands the solver and what it checks first: the solver's view of the materials, the
 * solver config of a run (settings, materials, particles, wall conditions, movements about each
 * part's wall centre, options) and the problems that keep a run from starting.
 */
import type { Material } from '../../domain/materials.ts'
import type { Vec3 } from '../../domain/vector.ts'
import type { SolverConfig, SolverMaterial } from '../sph/config.ts'
import { solverPartOf, unsupportedParts, unsupportedSettings } from '../sph/config.ts'
import { unsupportedSetupObjects } from '../sph/support.ts'
import { createDomainMovementMotion } from '../sph/motion.ts'
import { PARTICLE_KIND } from '../sph/particles.ts'
import type { RunSimulationOptions } from './types.ts'

/** The solver's view of a material. */
export function solverMaterialOf(material: Material): SolverMaterial {
  return {
    id: material.id,
    // missing values are refused by checkRunStart
    density: material.density ?? NaN,
    gamma: material.gamma ?? NaN,
    speedOfSound: material.speedOfSound ?? NaN,
    kinematicViscosity: material.kinematicViscosity ?? NaN,
    viscosityKind: material.viscosityKind,
  }
}

/** Centre of each part's wall particles: the default centre of its rotations. */
function wallCentres(options: RunSimulationOptions): Map<number, Vec3> {
  const { positions, kinds, partIds } = options.particles
  const sums = new Map<number, [number, number, number, number]>()
  for (let i = 0; i < kinds.length; i++) {
    if (kinds[i] !== PARTICLE_KIND.wall) continue
    const id = partIds[i]!
    let sum = sums.get(id)
    if (!sum) sums.set(id, (sum = [0, 0, 0, 0]))
    sum[0] += positions[3 * i]!
    sum[1] += positions[3 * i + 1]!
    sum[2] += positions[3 * i + 2]!
    sum[3]++
  }
  return new Map([...sums].map(([id, s]) => [id, [s[0] / s[3], s[1] / s[3], s[2] / s[3]]]))
}

/** The solver config of a run: settings, materials, wall conditions, movements, options. */
export function createRunSolverConfig(options: RunSimulationOptions): SolverConfig {
  const { setup } = options
  const endTimeS = setup.settings.endTime ?? Infinity
  const centres = wallCentres(options)
  return {
    settings: setup.settings,
    materials: setup.materials.map(solverMaterialOf),
    particles: options.particles,
    parts: setup.parts.map(solverPartOf),
    wallMotion:
      setup.movements.length > 0
        ? createDomainMovementMotion(setup.movements, endTimeS, (id) => centres.get(id))
        : undefined,
    options: { ...options.solverOptions, threads: options.threads },
  }
}

/**
 * What must be fixed before a run can start, as messages (empty: it can start). The unsupported
 * settings and parts name each setting and part.
 */
export function checkRunStart(options: RunSimulationOptions): string[] {
  const { settings } = options.setup
  const problems: string[] = []
  const refused = unsupportedSettings(settings, options.solverOptions)
  if (refused.length > 0) problems.push(`Unsupported simulation settings: ${refused.join(', ')}.`)
  const parts = unsupportedParts(options.setup.parts)
  if (parts.length > 0) problems.push(`Unsupported parts: ${parts.join(', ')}.`)
  const objects = unsupportedSetupObjects(options.setup)
  if (objects.length > 0) problems.push(`Unsupported setup objects: ${objects.join(', ')}.`)
  if (!(settings.endTime !== null && settings.endTime > 0))
    problems.push('Setting endTime must be a number greater than 0.')
  if (!(settings.outputTimeInterval !== null && settings.outputTimeInterval > 0))
    problems.push('Setting outputTimeInterval must be a number greater than 0.')
  const { kinds, materialIds } = options.particles
  const used = new Set<number>()
  for (let i = 0; i < kinds.length; i++)
    if (kinds[i] === PARTICLE_KIND.fluid) used.add(materialIds ? materialIds[i]! : -1)
  if (used.size === 0) problems.push('The discretization has no fluid particles.')
  for (const material of options.setup.materials) {
    if (!used.has(material.id) && !(used.has(-1) && material === options.setup.materials[0]))
      continue
    const { density, gamma, speedOfSound, kinematicViscosity } = material
    const values = [density, gamma, speedOfSound, kinematicViscosity]
    if (values.some((value) => value === null || !Number.isFinite(value)))
      problems.push(
        `Material "${material.name}" needs a density, gamma, speed of sound and kinematic viscosity.`,
      )
  }
  return problems
}
