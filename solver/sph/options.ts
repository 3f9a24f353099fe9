/**
 * The solver's numerical options (the choices that are not simulation settings), their defaults
 * and checks, and the error a solver setup throws. Re-exported by config.ts.
 */
import type { KernelKind } from './kernels.ts'
import type {
  BoundaryKind,
  DENSITY_DIFFUSION_KINDS,
  Integrator,
  VISCOSITY_KINDS,
} from './config.ts'

/** Thrown when a solver cannot be created from a config (unsupported or invalid input). */
export class SolverSetupError extends Error {
  override name = 'SolverSetupError'
}

/** Numerical choices that are not simulation settings. */
export interface SolverOptions {
  kernel: KernelKind
  /** h / particle diameter. */
  smoothingLengthFactor: number
  /**
   * Wall treatment (BOUNDARY_KINDS). null follows settings.noRiemannWall (on: 'generalized', off:
   * 'riemann'); an explicit value overrides it.
   */
  boundary: BoundaryKind | null
  /**
   * The wall normal of the Riemann wall (boundary 'riemann'): 'wall' (default), the wall's own
   * geometry seen from the fluid particle, −Σ_w V_w ∇W_iw (no fluid in it); 'fluid', each wall
   * particle's direction towards the fluid it sees, −Σ_f ρ_f W (r_w − r_f), found in the wall
   * extrapolation. The fluid's direction leans wherever a wall particle sees fluid on one side
   * only (a front's tip, a corner) and then brakes fluid that slides along the wall; see
   * VALIDATION_FINDINGS.md for what each gives.
   */
  riemannWallNormal: 'fluid' | 'wall'
  /**
   * Shear of a no-slip wall on the fluid: 'viscous' (default) the pair viscosity (artificial and
   * laminar) with the wall's velocity mirrored, 2 v_w − ṽ_f (Adami et al. 2012, Morris form);
   * 'logLaw' a wall function instead: each fluid particle near the wall takes the wall shear
   * stress ρ u_τ² of the log law u_t/u_τ = ln(y u_τ/ν)/κ + B (κ = 0.41, B = 5.2; u_t/u_τ = y u_τ/ν
   * in the laminar sublayer y+ < 11.06) from its own tangential speed u_t relative to the wall and
   * its distance y to the wall surface, applied as −u_τ² · 2|G| along u_t with G = Σ_w V_w ∇W_iw
   * (2|G| integrates to one per unit of wall area), and the wall's pair viscosity is left out.
   * Free-slip walls are not affected. See VALIDATION_FINDINGS.md.
   */
  wallShear: 'viscous' | 'logLaw'
  /**
   * Free-slip walls in the viscous sums (laminar and artificial): 'none' (default) leaves their
   * pairs out, so a particle near such a wall misses the part of its support behind it (a viscous
   * flow runs too fast beside it: NUMERICS.md, refinement); 'mirror' takes them in with the
   * fluid's extrapolated tangential velocity and the mirrored normal one, v_f + 2((v_w − v_f)·n)n,
   * so that a free-slip wall carries no shear yet fills the support. Under evaluation.
   */
  freeSlipViscosity: 'none' | 'mirror'
  /** Density diffusion: Fourtakas et al. 2019 (hydrostatic-corrected) or Molteni–Colagrossi 2009. */
  densityDiffusion: (typeof DENSITY_DIFFUSION_KINDS)[number]
  /** δ of the density diffusion term. */
  densityDiffusionDelta: number
  /** Monaghan artificial viscosity, laminar (Lo & Shao, material ν), or both. */
  viscosity: (typeof VISCOSITY_KINDS)[number]
  /** α of the artificial viscosity. */
  artificialViscosityAlpha: number
  /** Courant number of the variable time step. */
  cfl: number
  /** c0 ≥ coefficient · √(g·H) and ≥ coefficient · initial speed. */
  soundSpeedCoefficient: number
  /**
   * Neighbour cells per support radius: cells are 2h / n wide and the stencil spans ±n cells.
   * 1 is the classic 2h cell with 27 neighbour cells; 3 (default) scans a volume of (4.67h)³
   * instead of (6h)³ per particle, about 2.1× fewer distance checks, and measured 1.25× faster
   * than 2 and 1.6× faster than 1 here (more cells only add row bookkeeping: 4 is slower).
   */
  cellsPerSupport: 1 | 2 | 3
  /** Threads of the interaction passes (the calling thread is one of them). */
  threads: number
  /** Time step when settings.dynamicTimeStep is off; null: chosen from the CFL rule at the start. */
  fixedTimeStepS: number | null
  /** Start fluid particles with hydrostatic pressure below the top of their part. */
  hydrostaticInitialisation: boolean
  /**
   * Time integration scheme; null follows settings.integrationScheme. An explicit value
   * overrides the setting (describe() reports the integrator in use).
   */
  integrator: Integrator | null
  /**
   * Periodic along y between min and max (a thin slab without side walls: a particle leaving at
   * one side comes back at the other, and neighbours see across). null: not periodic.
   */
  periodicY: { min: number; max: number } | null
  /**
   * Multiphase only: the background pressure p_b (Pa) added to every fluid pair's pressure term
   * (see multiphase.ts). 0 where a free surface is present; a closed box of several fluids may
   * take one to keep the lighter phase out of tension.
   */
  backgroundPressure: number
  /**
   * Multiphase only: the reference each fluid particle's pressure term is taken from (see
   * multiphase.ts). 'localMinimum' (default): −Σ V_j (p_i + p_j − 2 p_ref)/ρ_i ∇W, p_ref the
   * minimum p over i and its neighbours (walls included) weighted from 1 where the pressure level
   * is high against its variation over the support to 0 near a free surface, so the kernel's
   * zeroth-order error carries the local pressure variation instead of the pressure level, which
   * made the lattice resist shear (NUMERICS.md, Rayleigh–Taylor); 'none': the plain
   * −Σ V_j (p_i + p_j + 2p_b)/ρ_i ∇W.
   */
  pressureReference: 'none' | 'localMinimum'
}

export const DEFAULT_SOLVER_OPTIONS: SolverOptions = {
  kernel: 'wendland',
  smoothingLengthFactor: 1.5,
  boundary: null,
  riemannWallNormal: 'wall',
  wallShear: 'viscous',
  freeSlipViscosity: 'none',
  densityDiffusion: 'fourtakas',
  densityDiffusionDelta: 0.1,
  viscosity: 'artificial+laminar',
  artificialViscosityAlpha: 0.01,
  cfl: 0.2,
  soundSpeedCoefficient: 10,
  cellsPerSupport: 3,
  threads: 1,
  fixedTimeStepS: null,
  hydrostaticInitialisation: false,
  integrator: null,
  periodicY: null,
  backgroundPressure: 0,
  pressureReference: 'localMinimum',
}

/** Options with defaults applied, checked. */
export function resolveOptions(options: Partial<SolverOptions> | undefined): SolverOptions {
  const resolved = { ...DEFAULT_SOLVER_OPTIONS, ...options }
  if (!(resolved.smoothingLengthFactor >= 1 && resolved.smoothingLengthFactor <= 3))
    throw new SolverSetupError('smoothingLengthFactor must be between 1 and 3.')
  if (!(resolved.cfl > 0 && resolved.cfl <= 1)) throw new SolverSetupError('cfl must be in (0, 1].')
  if (![1, 2, 3].includes(resolved.cellsPerSupport))
    throw new SolverSetupError('cellsPerSupport must be 1, 2 or 3.')
  if (!Number.isInteger(resolved.threads) || resolved.threads < 1)
    throw new SolverSetupError('threads must be a positive integer.')
  const periodic = resolved.periodicY
  if (periodic && !(periodic.max > periodic.min))
    throw new SolverSetupError('periodicY must have max greater than min.')
  return resolved
}
