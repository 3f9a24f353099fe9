/**
 * What a run hands the solver and what it checks first: the solver's view of the materials, the
 * solver config of a run (settings, materials, particles, wall conditions, movements about each
 * part's wall centre, options) and the problems that keep a run from starting.
 */
import type { Material } from '../../domain/materials.ts'
import { sliceFrame } from '../../domain/periodic.ts'
import type { Vec3 } from '../../domain/vector.ts'
import type { SolverConfig, SolverMaterial } from '../sph/config.ts'
import { solverPartOf, unsupportedParts, unsupportedSettings } from '../sph/config.ts'
import { unsupportedSetupObjects } from '../sph/support.ts'
import { rotatingFrameProblem } from '../sph/rotatingFrame.ts'
import { refineParticles } from '../discretizer/refinement.ts'
import { refinementPartZones } from '../discretizer/refinementParts.ts'
import { openBoundariesOf } from './openBoundaryConfig.ts'
import { createDomainMovementMotion } from '../sph/motion.ts'
import { PARTICLE_KIND } from '../sph/particles.ts'
import type { RunSimulationOptions } from './types.ts'
import type { RunSetup } from '../setup.ts'
import type { ViscosityTable } from '../sph/viscosityModels.ts'
import { maxTableViscosity, orderViscosityTable } from '../sph/viscosityModels.ts'
import { airDragInputOf } from './airDragSetup.ts'

/** The id of the table a material's viscosity kind reads (null: constant or none set). */
function viscosityTableId(material: Material): number | null {
  if (material.viscosityKind === 'shear_rate') return material.viscosityShearRateTableId
  if (material.viscosityKind === 'temperature') return material.viscosityTemperatureTableId
  return null
}

/**
 * A material's viscosity table from the setup's datatables (columns shear_rate or temperature,
 * and kinematic_viscosity), rows ordered; a message when it is missing or unusable, null for a
 * constant viscosity.
 */
export function viscosityTableOf(
  material: Material,
  datatables: RunSetup['datatables'],
): ViscosityTable | string | null {
  if (material.viscosityKind === 'constant') return null
  const id = viscosityTableId(material)
  const table = id === null ? undefined : datatables?.[id]
  const what = material.viscosityKind === 'shear_rate' ? 'shear-rate' : 'temperature'
  if (!table) return `Material "${material.name}" needs its ${what} viscosity table.`
  const xs = table.table[material.viscosityKind === 'shear_rate' ? 'shear_rate' : 'temperature']
  const nus = table.table.kinematic_viscosity
  const rows = (xs ?? [])
    .map((x, i) => ({ x, nu: nus?.[i] }))
    .filter((row) => row.x !== null || (row.nu ?? null) !== null)
    .map((row) => ({ x: row.x ?? NaN, nu: row.nu ?? NaN }))
  const ordered = orderViscosityTable(rows)
  return typeof ordered === 'string'
    ? `The ${what} viscosity table of material "${material.name}" ${ordered}.`
    : ordered
}

/**
 * The solver's view of a material, with its viscosity table (shear_rate, temperature) from the
 * setup's datatables: kinematicViscosity is then the table's largest ν (the viscous time-step
 * limit).
 */
export function solverMaterialOf(
  material: Material,
  datatables?: RunSetup['datatables'],
): SolverMaterial {
  const table = viscosityTableOf(material, datatables)
  const viscosityTable = table !== null && typeof table !== 'string' ? table : null
  return {
    id: material.id,
    // missing values are refused by checkRunStart
    density: material.density ?? NaN,
    gamma: material.gamma ?? NaN,
    speedOfSound: material.speedOfSound ?? NaN,
    kinematicViscosity: viscosityTable
      ? maxTableViscosity(viscosityTable)
      : (material.kinematicViscosity ?? NaN),
    viscosityKind: material.viscosityKind,
    viscosityTable,
    thermalConductivity: material.thermalConductivity,
    specificHeatCapacity: material.specificHeatCapacity,
  }
}

/**
 * The initial temperature of each particle with thermodynamics on (undefined when off): a fluid
 * particle's part's initialTemperature, else the ambientTemperature; walls NaN (their temperature
 * is their part's condition, SolverPart.wallTemperature).
 */
export function initialTemperatures(options: RunSimulationOptions): Float64Array | undefined {
  const { settings, parts } = options.setup
  if (!settings.thermodynamics) return undefined
  const byPart = new Map(parts.map((part) => [part.id, part.component.initialTemperature]))
  const { kinds, partIds } = options.particles
  const temperatures = new Float64Array(kinds.length)
  for (let i = 0; i < kinds.length; i++)
    temperatures[i] =
      kinds[i] === PARTICLE_KIND.fluid
        ? (byPart.get(partIds[i]!) ?? settings.ambientTemperature ?? NaN)
        : NaN
  return temperatures
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

/**
 * The solver config of a run: settings, materials, particles (split in the refinement zones,
 * solver/discretizer/refinement.ts), wall conditions, movements, options.
 */
export function createRunSolverConfig(options: RunSimulationOptions): SolverConfig {
  const { setup } = options
  const endTimeS = setup.settings.endTime ?? Infinity
  const centres = wallCentres(options)
  const airDrag = airDragInputOf(setup)
  const particles = { ...options.particles, temperatures: initialTemperatures(options) }
  const zones = setup.refinements ?? []
  const partZones = refinementPartZones(setup.parts, setup.meshes)
  const dp = setup.settings.particleDiameter
  return {
    settings: setup.settings,
    materials: setup.materials.map((material) => solverMaterialOf(material, setup.datatables)),
    particles:
      zones.length + partZones.length > 0 && dp !== null
        ? refineParticles(particles, zones, dp, partZones).particles
        : particles,
    parts: setup.parts.map(solverPartOf),
    openBoundaries: openBoundariesOf(options).zones,
    wallMotion:
      setup.movements.length > 0
        ? createDomainMovementMotion(setup.movements, endTimeS, (id) => centres.get(id))
        : undefined,
    options: { ...options.solverOptions, threads: options.threads },
    // a message is refused by checkRunStart
    airDrag: typeof airDrag === 'string' ? null : airDrag,
    // the particles fill its slice (solver/discretizer/slice.ts)
    rotationalPeriodic: setup.periodics?.[0] ? sliceFrame(setup.periodics[0]) : null,
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
  const parts = unsupportedParts(options.setup.parts, settings, options.setup.meshes)
  if (parts.length > 0) problems.push(`Unsupported parts: ${parts.join(', ')}.`)
  const objects = unsupportedSetupObjects(options.setup)
  if (objects.length > 0) problems.push(`Unsupported setup objects: ${objects.join(', ')}.`)
  // particles an open boundary creates take one spacing (variable resolution: refinement.ts)
  if (
    ((options.setup.refinements ?? []).length > 0 ||
      options.setup.parts.some((part) => part.component.type === 'refinement')) &&
    options.setup.parts.some((part) => part.component.type === 'openboundary')
  )
    problems.push('Refinement zones cannot be used with open boundaries yet.')
  const airDrag = airDragInputOf(options.setup)
  if (typeof airDrag === 'string') problems.push(airDrag)
  const rotation = rotatingFrameProblem(settings)
  if (rotation !== null) problems.push(rotation)
  if (parts.length === 0) problems.push(...openBoundariesOf(options).problems)
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
    const table = viscosityTableOf(material, options.setup.datatables)
    if (typeof table === 'string') problems.push(table)
    const values = [density, gamma, speedOfSound, table === null ? kinematicViscosity : 0]
    if (values.some((value) => value === null || !Number.isFinite(value)))
      problems.push(
        `Material "${material.name}" needs a density, gamma, speed of sound and kinematic viscosity.`,
      )
    if (material.viscosityKind === 'temperature' && !settings.thermodynamics)
      problems.push('Temperature-dependent viscosity requires the Heat Transfer Model.')
    if (settings.thermodynamics) {
      const { thermalConductivity: k, specificHeatCapacity: cp } = material
      if (!(k !== null && k > 0 && cp !== null && cp > 0))
        problems.push(
          `Material "${material.name}" needs a thermal conductivity and a specific heat capacity.`,
        )
    }
  }
  if (settings.thermodynamics) {
    const temperatures = initialTemperatures(options)!
    if (
      temperatures.some((t, i) => options.particles.kinds[i] === PARTICLE_KIND.fluid && !(t >= 0))
    )
      problems.push(
        'Thermodynamics needs an initial temperature: set the ambient temperature or the initial temperature of every fluid part.',
      )
  }
  return problems
}
