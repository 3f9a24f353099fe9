/**
 * What a run must refuse before it starts: the simulation settings and parts this solver does not
 * implement (refused, never ignored), and the wall condition of each part.
 */
import type { Refinement } from '../../domain/meshes.ts'
import type { Part } from '../../domain/parts.ts'
import type { Material } from '../../domain/materials.ts'
import type { PeriodicBoundary } from '../../domain/periodic.ts'
import { sliceFrame } from '../../domain/periodic.ts'
import { PART_MESSAGES } from '../../domain/parts.ts'
import type { SimulationSettings } from '../../domain/settings.ts'
import type { SolverOptions, SolverPart } from './config.ts'
import { INTEGRATOR_FOR_SCHEME, SHIFTING_CODE } from './config.ts'
import { refinementZoneProblem } from '../discretizer/refinement.ts'
import { unsupportedWithRotationalPeriodic } from './periodicRotation.ts'
import { refinementPartProblem } from '../discretizer/refinementParts.ts'
import type { TriangleMesh } from '../geometry/mesh.ts'

/**
 * The settings (with their values) this solver does not implement. A run must not start while
 * this list is not empty; createSolver refuses such settings with a message listing them.
 * An explicit options.integrator replaces settings.integrationScheme, an explicit
 * options.boundary settings.noRiemannWall. The discretizer's discretizerLegacy is not listed.
 * The rotating system runs (rotatingFrame.ts). Thermodynamics runs
 * (heat conduction, walls adiabatic or at a set temperature; heat.ts); the heat-flux and
 * heat-transfer-coefficient walls are refused with their parts (unsupportedParts).
 */
export function unsupportedSettings(
  settings: SimulationSettings,
  options: Partial<SolverOptions> = {},
): string[] {
  const refused: string[] = []
  // multiphase (up to 5 materials) and surface tension between two of them run (multiphase.ts,
  // surfaceTension.ts); the spec turns the density limiter off with multiphase (the limiter's
  // bounds are one material's), free-surface tension is not implemented
  if (settings.multiphase && settings.densityLimiter) refused.push('densityLimiter with multiphase')
  if (settings.surfaceTension && !settings.multiphase)
    refused.push('surfaceTension without multiphase')
  // heat conduction takes one material's conductivity and heat capacity
  if (settings.multiphase && settings.thermodynamics) refused.push('thermodynamics with multiphase')
  // air drag runs with its domain (airDrag.ts); the spec keeps it off with multiphase
  if (settings.airDrag && settings.multiphase) refused.push('airDrag with multiphase')
  // the air's velocity is the lab frame's, the particles' those of a rotating frame
  if (settings.airDrag && settings.rotatingSystem) refused.push('airDrag with rotatingSystem')
  // a rotating frame runs (rotatingFrame.ts); its centrifugal force varies along y unless the axis
  // is y, which a y-periodic slab cannot hold
  const axis = settings.rotationAxis
  if (
    settings.rotatingSystem &&
    options.periodicY &&
    !(axis !== null && axis[0] === 0 && axis[2] === 0)
  )
    refused.push('rotatingSystem with periodicY (axis other than y)')
  if (settings.accelerationLimiter) refused.push('accelerationLimiter')
  if (settings.accelerationFileId !== null || settings.accelerationFile !== null)
    refused.push('accelerationFile')
  if (settings.lowDissipationOperators) refused.push('lowDissipationOperators')
  if (!(settings.shifting in SHIFTING_CODE)) refused.push(`shifting: ${settings.shifting}`)
  if (!options.integrator && INTEGRATOR_FOR_SCHEME[settings.integrationScheme] === null)
    refused.push(`integrationScheme: ${settings.integrationScheme}`)
  return refused
}

/**
 * The parts this solver cannot run, named as in the setup: open boundaries it does not implement
 * (refusedOpenBoundary), refinement parts without a closed mesh (refinementParts.ts; `meshes` holds
 * the stored meshes of 'stl' parts), fluid parts with an initial preset (not defined yet) and pointcloud parts with a
 * splitting ratio above 1 (each reference particle becomes one particle), and under surface
 * tension a rigid part's contact angle other than 90°. A run must not start
 * while this list is not empty.
 */
export function unsupportedParts(
  parts: readonly (Pick<Part, 'name' | 'component'> & { id?: number; shape?: Part['shape'] })[],
  settings?: Pick<SimulationSettings, 'thermodynamics'> &
    Partial<Pick<SimulationSettings, 'surfaceTension' | 'multiphase'>>,
  meshes: Record<number, TriangleMesh> = {},
): string[] {
  const refused: string[] = []
  for (const part of parts) {
    const thermo = part.component.type === 'rigid' ? part.component.thermoKind : 'adiabatic'
    if (
      settings?.thermodynamics &&
      (thermo === 'heat_flux' || thermo === 'heat_transfer_coefficient')
    )
      refused.push(`thermal condition ${thermo} of part "${part.name}"`)
    // surface tension: walls carry no colour (a neutral wall, 90°; surfaceTension.ts)
    const angle = part.component.type === 'rigid' ? part.component.contactAngle : null
    if (settings?.surfaceTension && angle !== null && angle !== undefined && angle !== 90)
      refused.push(`contact angle ${angle}° of part "${part.name}" (only 90° is implemented)`)
    if (part.component.type === 'openboundary') refused.push(...refusedOpenBoundary(part, settings))
    if (part.component.type === 'refinement') {
      const { id, shape } = part
      const problem =
        id === undefined || shape === undefined
          ? `refinement part "${part.name}" (no geometry)`
          : refinementPartProblem({ ...part, id, shape }, meshes)
      if (problem !== null) refused.push(problem)
    }
    if (typeof part.component.initialPreset === 'string')
      refused.push(`initial preset "${part.component.initialPreset}" of part "${part.name}"`)
    const shape = part.shape
    if (shape?.type === 'pointcloud' && shape.splittingRatio !== null && shape.splittingRatio !== 1)
      refused.push(`splitting ratio ${shape.splittingRatio} of pointcloud part "${part.name}"`)
  }
  return refused
}

/**
 * What an open-boundary part asks that openBoundary.ts does not run: a pressure inlet (the spec
 * does not allow one), a velocity outlet (only pressure outlets are implemented), and open
 * boundaries with multiphase (a buffer holds one fluid) or thermodynamics (no temperature is
 * imposed on the buffers yet).
 */
function refusedOpenBoundary(
  part: Pick<Part, 'name' | 'component'>,
  settings?: Partial<Pick<SimulationSettings, 'thermodynamics' | 'multiphase'>>,
): string[] {
  const c = part.component
  if (c.type !== 'openboundary') return []
  const name = `open boundary part "${part.name}"`
  if (c.ioDirection === 'inflow' && c.ioType === 'riemann_pressure')
    return [`${name} (${PART_MESSAGES.inletWithPressure})`]
  if (c.ioDirection === 'outflow' && c.ioType === 'riemann_velocity')
    return [`velocity outlet of ${name} (only pressure outlets are implemented)`]
  if (settings?.multiphase) return [`${name} with multiphase`]
  if (settings?.thermodynamics) return [`${name} with thermodynamics`]
  return []
}

/**
 * The setup objects this solver does not implement yet, named as in the setup: refinement zones
 * it cannot run (a mesh without an inside, a level that gives no spacing of dp/2, dp/3 or dp/4;
 * solver/discretizer/refinement.ts) and a periodic boundary whose slice is not set or that comes
 * with what its images do not carry (periodicRotation.ts). A run must not start while this list
 * is not empty (the air drag domain runs with settings.airDrag, airDrag.ts; multiphase with
 * refinement is refused by the setup's own rule and by the solver).
 */
export function unsupportedSetupObjects(objects: {
  refinements?: readonly Pick<Refinement, 'name' | 'level' | 'mesh'>[] | undefined
  periodics?:
    | readonly Pick<PeriodicBoundary, 'sliceAngle' | 'sliceRotation' | 'center' | 'axis'>[]
    | undefined
  settings?: SimulationSettings
  parts?: readonly Pick<Part, 'component'>[]
  materials?: readonly Pick<Material, 'viscosityKind'>[]
}): string[] {
  const refused = (objects.refinements ?? []).flatMap((zone) => {
    const problem = refinementZoneProblem(zone)
    return problem === null ? [] : [problem]
  })
  for (const periodic of objects.periodics ?? []) {
    const slice = sliceFrame(periodic)
    if (slice === null) {
      refused.push(
        'periodic boundary (its centre, axis, slice rotation and slice angle must be set)',
      )
      continue
    }
    if (objects.settings)
      refused.push(
        ...unsupportedWithRotationalPeriodic(slice, objects.settings, {
          openBoundaries: (objects.parts ?? []).some((p) => p.component.type === 'openboundary'),
          refinements: (objects.refinements ?? []).length > 0,
          viscosityModels: (objects.materials ?? []).some((m) => m.viscosityKind !== 'constant'),
        }),
      )
  }
  return refused
}

/**
 * The wall condition of a part: slip walls are free-slip, no-slip and moving walls no-slip; a
 * rigid part with thermoKind 'temperature' holds its boundaryTemperature (used with
 * thermodynamics), any other wall is adiabatic.
 */
export function solverPartOf(part: Pick<Part, 'id' | 'component'>): SolverPart {
  const c = part.component
  const slip = c.type === 'rigid' && c.velocityKind === 'slip'
  const wallTemperature =
    c.type === 'rigid' && c.thermoKind === 'temperature' ? c.boundaryTemperature : null
  const solverPart: SolverPart = { id: part.id, wallCondition: slip ? 'slip' : 'no_slip' }
  return wallTemperature === null ? solverPart : { ...solverPart, wallTemperature }
}
