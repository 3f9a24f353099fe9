/**
 * What a solver is created from, its numerical options, the constants derived from them, and the
 * list of simulation settings the solver does not implement (refused, never ignored).
 */
import type { SimulationSettings } from '../../domain/settings.ts'
import { kernelFactors, kernelValue } from './kernels.ts'
import { chooseSpeedOfSound, taitStiffness } from './equationOfState.ts'
import type { WallMotion } from './motion.ts'
import { PARTICLE_KIND } from './particles.ts'
import type { HeatConstants } from './heatConfig.ts'
import { deriveHeatConstants } from './heatConfig.ts'
import type { PhaseConstants } from './phaseTable.ts'
import { derivePhaseConstants, phaseMaterials } from './phaseTable.ts'
import type { SolverOptions } from './options.ts'
import { SolverSetupError } from './options.ts'
import { resolutionOf, unsupportedWithRefinement } from './variableResolution.ts'
import type { AirDragConstants, AirDragInput } from './airDragField.ts'
import { deriveAirDragConstants } from './airDragField.ts'
import type { RotatingFrame } from './rotatingFrame.ts'
import { deriveRotatingFrame, frameHead } from './rotatingFrame.ts'
import type { SolverOpenBoundary } from './openBoundary.ts'
import type { RotationalSlice } from './rotationalSlice.ts'
export type { SolverOpenBoundary } from './openBoundary.ts'

// the run-start checks live in support.ts; solver/run imports them from here
export { solverPartOf, unsupportedParts, unsupportedSettings } from './support.ts'
// the numerical options and the setup error live in options.ts
export type { SolverOptions } from './options.ts'
export { DEFAULT_SOLVER_OPTIONS, resolveOptions, SolverSetupError } from './options.ts'

/** The fluid properties the solver uses (a subset of the spec's Material). */
export interface SolverMaterial {
  id: number
  /** Reference density ρ0, kg/m³. */
  density: number
  /** Isentropic exponent γ of the Tait equation (7 for water). */
  gamma: number
  /** Speed of sound, m/s; the numerical c0 is at least this (see chooseSpeedOfSound). */
  speedOfSound: number
  /** Kinematic viscosity ν, m²/s. */
  kinematicViscosity: number
  /** How ν is given (heatConfig.ts): one value, or a table over temperature or shear rate. */
  viscosityKind?: 'constant' | 'shear_rate' | 'temperature'
  /**
   * The table of a 'temperature' (K) or 'shear_rate' (1/s) viscosity, rows ascending; with a
   * table, kinematicViscosity is the table's largest ν (the viscous time-step limit).
   */
  viscosityTable?: { x: number[]; nu: number[] } | null
  /** Thermal conductivity k, W/(m·K) (settings.thermodynamics). */
  thermalConductivity?: number | null
  /** Specific heat capacity c_p, J/(kg·K) (settings.thermodynamics). */
  specificHeatCapacity?: number | null
}

/** Wall condition of a rigid part (spec: velocityKind; 'moving' walls are no-slip with a motion). */
export interface SolverPart {
  id: number
  wallCondition: 'slip' | 'no_slip'
  /** Thermodynamics: the wall's set temperature in K (thermoKind 'temperature'); else adiabatic. */
  wallTemperature?: number | null
}

/**
 * The particles a run starts from (what the discretizer produced), N particles: interleaved xyz
 * arrays of length 3N and per-particle arrays of length N.
 */
export interface SolverParticles {
  positions: ArrayLike<number>
  /** PARTICLE_KIND per particle: 0 fluid, 1 wall. */
  kinds: ArrayLike<number>
  partIds: ArrayLike<number>
  /** Material id of each fluid particle (ignored for walls); default: the first material. */
  materialIds?: ArrayLike<number>
  velocities?: ArrayLike<number>
  /** Initial pressure in Pa (sets the initial density through the equation of state). */
  pressures?: ArrayLike<number>
  /** Initial temperature in K of each fluid particle (thermodynamics; default ambientTemperature). */
  temperatures?: ArrayLike<number>
  /**
   * Particle spacing of each particle in m (refinement zones: finer than particleDiameter);
   * default particleDiameter for all. Sets its mass ρ dp_i³ and smoothing length (h/dp) dp_i.
   */
  spacings?: ArrayLike<number>
}

/**
 * 'generalized': Adami et al. 2012 extrapolated wall pressure (settings.noRiemannWall on, the
 * spec's "improved wall pressure"); 'riemann': the same wall particles, and fluid–wall pairs take
 * the interface pressure of a one-sided Riemann problem along the wall normal (noRiemannWall off);
 * 'dynamic': DualSPHysics dynamic boundary particles.
 */
export const BOUNDARY_KINDS = ['generalized', 'riemann', 'dynamic'] as const
export type BoundaryKind = (typeof BOUNDARY_KINDS)[number]
export const DENSITY_DIFFUSION_KINDS = ['fourtakas', 'molteni', 'none'] as const
export const VISCOSITY_KINDS = ['artificial', 'laminar', 'artificial+laminar'] as const
/**
 * 'symplectic': DualSPHysics' Symplectic position-Verlet (2 force passes per step).
 * 'rk4': classical 4-stage Runge–Kutta (4 force passes per step); settings 'runge_kutta_4'.
 * 'rk4_dual_step': the same RK4 stages with two step criteria of their own Courant numbers: the
 * acoustic limit h/(c0 + …) at ACOUSTIC_CFL_FACTOR × cfl (inside RK4's wider stability interval on
 * the imaginary axis, 2.83 against 2 for the Symplectic scheme), the force limit √(h/|a|) at cfl;
 * settings 'dual_timestep_rk_4' (see NUMERICS.md).
 */
export const INTEGRATORS = ['symplectic', 'rk4', 'rk4_dual_step'] as const
export type Integrator = (typeof INTEGRATORS)[number]

/** The integrator each settings.integrationScheme runs with; null: not implemented (refused). */
export const INTEGRATOR_FOR_SCHEME: Record<
  SimulationSettings['integrationScheme'],
  Integrator | null
> = {
  runge_kutta_4: 'rk4',
  dual_timestep_rk_4: 'rk4_dual_step',
}

/** Acoustic Courant number of 'rk4_dual_step' relative to options.cfl. */
export const ACOUSTIC_CFL_FACTOR = 2

/** Particle shifting: none, Sun et al. 2017 (δ+-SPH) or the free-surface-aware variant (lyu21). */
export const SHIFTING_CODE = { zero: 0, sun17: 1, lyu21: 2 } as const

export interface SolverConfig {
  settings: SimulationSettings
  materials: readonly SolverMaterial[]
  particles: SolverParticles
  /** Wall condition per part id; parts not listed are no-slip. */
  parts?: readonly SolverPart[]
  wallMotion?: WallMotion
  /** Inlets and outlets (openBoundary.ts); their buffer particles are in `particles`. */
  openBoundaries?: readonly SolverOpenBoundary[]
  options?: Partial<SolverOptions>
  /** The air drag domain and its air (settings.airDrag; airDragField.ts). */
  airDrag?: AirDragInput | null
  /** The rotational periodic boundary's slice (periodicRotation.ts); the particles fill it. */
  rotationalPeriodic?: RotationalSlice | null
}

/** Numbers derived once from the config; shared with worker threads as plain data. */
export interface SphConstants {
  particleDiameter: number
  h: number
  /** Support radius 2h and its square. */
  support: number
  support2: number
  /** η² = 0.01 h², keeps r²-denominators finite. */
  eta2: number
  /** 0: Wendland C2, 1: cubic spline. */
  kernelCode: number
  kernelAlpha: number
  kernelGradFactor: number
  referenceDensity: number
  speedOfSound: number
  gamma: number
  stiffness: number
  gravity: [number, number, number]
  /** Artificial viscosity α (0: off). */
  alpha: number
  /** Laminar kinematic viscosity ν (0: off); with a viscosity table its largest ν (heatConfig.ts). */
  nu: number
  /** Heat conduction and the viscosity model (heatConfig.ts). */
  heat: HeatConstants
  /** 2δhc0 (0: no density diffusion). */
  diffusionCoefficient: number
  /** ρ0 g / c0²: hydrostatic density gradient of Fourtakas' correction (zero for Molteni). */
  hydrostaticDensityGradient: [number, number, number]
  /** 0: generalized wall (Adami, also under the Riemann wall), 1: dynamic boundary particles. */
  boundaryCode: number
  /**
   * Fluid–wall pairs use the Riemann interface pressure along the wall normal: 0 no, 1 the wall
   * particles' normals towards the fluid (options.riemannWallNormal 'fluid'), 2 the wall's
   * kernel gradient at the fluid particle ('wall').
   */
  riemannWall: number
  /** Kinematic viscosity of the log-law wall function (options.wallShear 'logLaw'); 0: off. */
  wallFunctionNu: number
  /** Free-slip walls in the viscous sums (options.freeSlipViscosity 'mirror'). */
  freeSlipMirror: boolean
  /** SHIFTING_CODE of settings.shifting. */
  shiftingCode: number
  /** Kernel value at r = dp (the shifting's tensile-instability term). */
  kernelAtDp: number
  /** Density limiter bounds (±Infinity when off). */
  densityMin: number
  densityMax: number
  /** Mass of every particle: ρ0 dp³. */
  particleMass: number
  /**
   * Variable resolution (particles.spacings, refinement zones; variableResolution.ts): the
   * passes take each particle's h_i (hsml) and W(r, (h_i + h_j)/2). h above and the support are
   * those of particleDiameter, the largest; hMin, the smallest h, sets the time step.
   */
  variableResolution: boolean
  hMin: number
  /** Period along y (0: not periodic, see SolverOptions.periodicY). */
  periodY: number
  /** Multiphase (settings.multiphase): the per-material constants (phaseTable.ts); null: off. */
  phases: PhaseConstants | null
  /** Surface tension coefficient σ in N/m (settings.surfaceTension with sigma); 0: off. */
  surfaceTension: number
  /** Air drag (settings.airDrag with the air drag domain; airDrag.ts); null: off. */
  airDrag: AirDragConstants | null
  /** The rotating system (settings.rotatingSystem, rotatingFrame.ts); null: an inertial frame. */
  rotation: RotatingFrame | null
}

export const KERNEL_CODE = { wendland: 0, cubic: 1 } as const
export const BOUNDARY_CODE = { generalized: 0, riemann: 0, dynamic: 1 } as const

function requireNumber(value: number | null, name: string): number {
  if (value === null || !Number.isFinite(value))
    throw new SolverSetupError(`Setting ${name} must be a number.`)
  return value
}

/** The integrator a run uses: the explicit option, else the one of the settings' scheme. */
export function resolveIntegrator(
  settings: SimulationSettings,
  options: SolverOptions,
): Integrator {
  const integrator = options.integrator ?? INTEGRATOR_FOR_SCHEME[settings.integrationScheme]
  if (!integrator)
    throw new SolverSetupError(`integrationScheme ${settings.integrationScheme} is not supported.`)
  return integrator
}

/** The wall treatment a run uses: the explicit option, else the settings' (improved wall pressure). */
export function resolveBoundary(
  settings: SimulationSettings,
  options: SolverOptions,
): BoundaryKind {
  return options.boundary ?? (settings.noRiemannWall ? 'generalized' : 'riemann')
}

/**
 * The fluid material: the one all fluid particles use (one fluid without multiphase); with
 * multiphase the first of the phase table (walls take its reference density).
 */
export function findFluidMaterial(config: SolverConfig): SolverMaterial {
  const { particles, materials } = config
  const first = materials[0]
  if (!first) throw new SolverSetupError('A material is required.')
  const used = new Set<number>()
  const n = particles.kinds.length
  for (let i = 0; i < n; i++) {
    if (particles.kinds[i] !== PARTICLE_KIND.fluid) continue
    used.add(particles.materialIds ? particles.materialIds[i]! : first.id)
  }
  if (config.settings.multiphase) return phaseMaterials(config)[0]!
  if (used.size > 1)
    throw new SolverSetupError(
      `Fluid particles use ${used.size} materials; more than one fluid needs multiphase, which this solver does not support.`,
    )
  const id = used.size === 1 ? [...used][0]! : first.id
  const material = materials.find((m) => m.id === id)
  if (!material) throw new SolverSetupError(`Material ${id} is not defined.`)
  return material
}

/** Derives the SPH constants from settings, options, the fluid material and the initial particles. */
export function deriveConstants(
  config: SolverConfig,
  options: SolverOptions,
  material: SolverMaterial,
): SphConstants {
  const { settings, particles } = config
  const dp = requireNumber(settings.particleDiameter, 'particleDiameter')
  if (!(dp > 0)) throw new SolverSetupError('Setting particleDiameter must be greater than 0.')
  const gravity = settings.gravity.map((g, k) => requireNumber(g, `gravity.${k}`)) as [
    number,
    number,
    number,
  ]
  if (!(material.density > 0 && material.gamma > 0 && material.speedOfSound > 0))
    throw new SolverSetupError('The fluid material needs density, gamma and speed of sound > 0.')
  const gMag = Math.hypot(...gravity)
  let lo = Infinity
  let hi = -Infinity
  let maxSpeed = 0
  const n = particles.kinds.length
  for (let i = 0; i < n; i++) {
    if (particles.kinds[i] !== PARTICLE_KIND.fluid) continue
    if (gMag > 0) {
      const s =
        (particles.positions[3 * i]! * gravity[0] +
          particles.positions[3 * i + 1]! * gravity[1] +
          particles.positions[3 * i + 2]! * gravity[2]) /
        gMag
      if (s < lo) lo = s
      if (s > hi) hi = s
    }
    if (particles.velocities) {
      const v = particles.velocities
      maxSpeed = Math.max(maxSpeed, Math.hypot(v[3 * i]!, v[3 * i + 1]!, v[3 * i + 2]!))
    }
  }
  // a rotating frame's centrifugal head Ω²R²/2 counts as height (or, without gravity, as a speed)
  const rotation = deriveRotatingFrame(settings)
  const head = frameHead(
    rotation,
    particles.positions,
    (i) => particles.kinds[i] === PARTICLE_KIND.fluid,
  )
  const fluidHeight = (hi > lo ? hi - lo + dp : dp) + (gMag > 0 ? head / gMag : 0)
  const maxInitialSpeed = gMag > 0 ? maxSpeed : Math.max(maxSpeed, Math.sqrt(head))
  const flow = { gravityMagnitude: gMag, fluidHeight, maxInitialSpeed }
  const phases = settings.multiphase
    ? derivePhaseConstants(phaseMaterials(config), options, flow)
    : null
  const surfaceTension = settings.surfaceTension ? requireNumber(settings.sigma, 'sigma') : 0
  if (settings.surfaceTension && phases?.materialIds.length !== 2)
    throw new SolverSetupError('Surface tension needs multiphase with two fluid materials.')
  if (!(surfaceTension >= 0)) throw new SolverSetupError('Setting sigma must be 0 or more.')
  // multiphase: the fastest phase's c0 sets the time step, the viscosities and diffusion
  const c0 = phases
    ? Math.max(...phases.soundSpeed)
    : chooseSpeedOfSound({
        materialSpeedOfSound: material.speedOfSound,
        ...flow,
        coefficient: options.soundSpeedCoefficient,
      })
  const h = options.smoothingLengthFactor * dp
  const resolution = resolutionOf(particles, dp)
  const refused = resolution.variable
    ? unsupportedWithRefinement(
        settings,
        { boundary: resolveBoundary(settings, options), wallShear: options.wallShear },
        config.materials.map((m) => m.viscosityKind),
      )
    : []
  // the drag's face area and neighbour count are those of one spacing (airDrag.ts)
  if (resolution.variable && settings.airDrag) refused.push('air drag with refinement')
  if (refused.length > 0)
    throw new SolverSetupError(`Not supported with refinement: ${refused.join(', ')}.`)
  const factors = kernelFactors(options.kernel, h, 3)
  const rho0 = material.density
  const laminar = options.viscosity !== 'artificial'
  const artificial = options.viscosity !== 'laminar'
  const diffusion = options.densityDiffusion
  const threshold = settings.densityLimiter
    ? requireNumber(settings.densityThreshold, 'densityThreshold')
    : null
  const k = diffusion === 'fourtakas' ? rho0 / (c0 * c0) : 0
  const boundary = resolveBoundary(settings, options)
  return {
    particleDiameter: dp,
    heat: deriveHeatConstants(config, material),
    h,
    support: 2 * h,
    support2: 4 * h * h,
    eta2: 0.01 * h * h,
    kernelCode: KERNEL_CODE[options.kernel],
    kernelAlpha: factors.alpha,
    kernelGradFactor: factors.gradFactor,
    referenceDensity: rho0,
    speedOfSound: c0,
    gamma: material.gamma,
    stiffness: taitStiffness({ referenceDensity: rho0, speedOfSound: c0, gamma: material.gamma }),
    gravity,
    alpha: artificial ? options.artificialViscosityAlpha : 0,
    nu: !laminar
      ? 0
      : phases
        ? Math.max(...phaseMaterials(config).map((m) => m.kinematicViscosity))
        : material.kinematicViscosity,
    diffusionCoefficient: diffusion === 'none' ? 0 : 2 * options.densityDiffusionDelta * h * c0,
    hydrostaticDensityGradient: [k * gravity[0], k * gravity[1], k * gravity[2]],
    boundaryCode: BOUNDARY_CODE[boundary],
    riemannWall: boundary !== 'riemann' ? 0 : options.riemannWallNormal === 'wall' ? 2 : 1,
    wallFunctionNu: options.wallShear === 'logLaw' ? material.kinematicViscosity : 0,
    freeSlipMirror: options.freeSlipViscosity === 'mirror',
    shiftingCode: SHIFTING_CODE[settings.shifting],
    kernelAtDp: kernelValue(factors, dp),
    densityMin: threshold === null ? -Infinity : rho0 * (1 - threshold),
    densityMax: threshold === null ? Infinity : rho0 * (1 + threshold),
    particleMass: rho0 * dp * dp * dp,
    variableResolution: resolution.variable,
    hMin: options.smoothingLengthFactor * resolution.smallestSpacing,
    periodY: options.periodicY ? options.periodicY.max - options.periodicY.min : 0,
    phases,
    surfaceTension,
    airDrag: deriveAirDragConstants(config.airDrag, settings.airDrag, dp, options),
    rotation,
  }
}
