/**
 * What the discretizer produces: particles ready for the SPH solver (the fields of
 * solver/sph SolverParticles, so a Discretization can be passed as `particles` directly),
 * per-part errors and warnings, and a quality summary.
 */
import type { DiscretizationMessage } from '../../domain/discretization.ts'
import type { Vec3 } from '../../domain/vector.ts'

/** Why the discretizer flags a part or the setup. */
export const DISCRETIZATION_ISSUE_CODES = [
  'empty_geometry',
  'invalid_placement',
  'missing_material',
  'unsupported_shape',
  'unsupported_component',
  'holes',
  'far_from_origin',
  'thin_wall',
  'few_particles',
  'no_fluid',
  'fill_height_above_part',
  'fill_height_below_part',
  'seed_point_outside',
  'too_many_particles',
  'invalid_settings',
  'outside_domain',
  'initial_conditions_not_applied',
  'legacy_discretizer',
  'fluid_volume',
] as const
/** One issue code. */
export type DiscretizationIssueCode = (typeof DISCRETIZATION_ISSUE_CODES)[number]

/** An error or warning of a discretization, tied to a part when it concerns one. */
export interface DiscretizationIssue {
  code: DiscretizationIssueCode
  /** The part it concerns, or null for the whole setup. */
  partId: number | null
  /** Shown to the user as is. */
  message: string
}

/** What a part became. */
export const PART_ROLES = ['fluid', 'wall', 'open_boundary', 'none'] as const
export type PartRole = (typeof PART_ROLES)[number]

/** The quality summary of one part. */
export interface PartDiscretizationSummary {
  partId: number
  name: string
  role: PartRole
  particleCount: number
  /** Material of a fluid part, else null. */
  materialId: number | null
  /** |signed volume| of the placed mesh in m³ (meaningful for closed meshes), 0 for planes. */
  meshVolume: number
  /** particleCount · dp³, m³. */
  particleVolume: number
  /**
   * Fluid parts: the part's volume below its fill height (exact for closed meshes: boxes and any
   * polyhedron; a tessellated curve's tessellation), m³. Null for walls, open meshes and fills
   * restricted to a seed point's region, whose volume is not known.
   */
  geometricVolume: number | null
  /** (particleVolume − geometricVolume) / geometricVolume; null where geometricVolume is. */
  volumeDifference: number | null
  /** Particles the volume correction added (> 0) or removed (< 0) at the top of a fluid. */
  volumeCorrection: number
  /** The part's lattice: its sites sit at latticeOrigin + (i + ½, j + ½, k + ½)·latticeSpacing, m. */
  latticeOrigin: Vec3
  /** dp on every axis for fluid; a wall's within frames.ts MAX_WALL_STRETCH of it. */
  latticeSpacing: Vec3
  /**
   * Walls: the largest distance of a face with fluid beside it from the plane midway between its
   * wall layer and the fluid, m (0: every such face is where the solver sees it); null for fluid
   * parts and walls without an axis-aligned face beside fluid.
   */
  faceMisfit: number | null
  /** Every edge shared by exactly two triangles. */
  watertight: boolean
  /** Wall layers sampled (walls), 0 for fluid parts. */
  wallLayers: number
}

/** Fluid particles and volume per material. */
export interface MaterialDiscretizationSummary {
  materialId: number
  particleCount: number
  /** particleCount · dp³, m³ (·1000 gives litres). */
  volume: number
}

/** The quality summary of a discretization. */
export interface DiscretizationSummary {
  particleCount: number
  fluidCount: number
  wallCount: number
  /** The open boundaries' buffer particles (fluid kind), counted in particleCount, not fluidCount. */
  openBoundaryCount?: number
  /**
   * The refinement zones' split at the run's start (refinement.ts): `split` particles become
   * `children`, counted so in particleCount (not in fluidCount, wallCount or the parts').
   */
  refinement?: { split: number; children: number }
  parts: PartDiscretizationSummary[]
  materials: MaterialDiscretizationSummary[]
  /** Fluid volume from particles vs the fluid parts' volumes below their fill height, m³. */
  fluidParticleVolume: number
  fluidMeshVolume: number
  /** The particle count estimated before allocating (bounding volumes / dp³). */
  estimatedParticleCount: number
  /** Wall-clock time of the discretization, ms. */
  durationMs: number
}

/**
 * Particles of a setup. N particles: xyz arrays of length 3N and per-particle arrays of length N,
 * fluid particles first, then walls. Every part's particles sit on a lattice of its own,
 * origin + (i + ½, j + ½, k + ½)·dp (frames.ts: its faces midway between sites); where parts meet,
 * a site another part holds is left to it. When `errors` is not empty the arrays are empty
 * (nothing was allocated for a refused setup).
 */
export interface Discretization {
  particleDiameter: number
  count: number
  fluidCount: number
  wallCount: number
  /** Metres, Float64 as the solver computes. */
  positions: Float64Array
  /** PARTICLE_KIND of solver/sph: 0 fluid, 1 wall. */
  kinds: Uint8Array
  partIds: Int32Array
  /** Material id of fluid particles, −1 for walls. */
  materialIds: Int32Array
  /** m/s: the component's initial velocity for fluid, 0 for walls. */
  velocities: Float64Array
  /**
   * Initial pressure in Pa: hydrostatic ρ0·|g|·depth below the part's free surface plus the
   * component's initial pressure for fluid, 0 for walls. The solver derives density from it.
   */
  pressures: Float64Array
  /** Initial density in kg/m³ from the pressure by the inverse Tait equation (walls ρ0). */
  densities: Float64Array
  /**
   * Wall particles: unit vector towards the wall's fluid side (from the particle to its nearest
   * surface point, so corners get rounded normals); zero for fluid. For Adami-type walls and
   * Riemann wall treatments that want the geometry's normal rather than an extrapolated one.
   */
  wallNormals: Float32Array
  /** The speed of sound used for the inverse Tait equation (as the solver chooses it), m/s. */
  speedOfSound: number
  /** Unit vector against gravity (+z when gravity is zero): depth is measured along it. */
  up: Vec3
  errors: DiscretizationIssue[]
  warnings: DiscretizationIssue[]
  summary: DiscretizationSummary
}

/** Options of discretize beyond the setup. */
export interface DiscretizeOptions {
  /**
   * Most particles allowed; default derived from memory (total memory / 2 over the bytes a
   * particle needs in the discretizer and the solver).
   */
  maxParticles?: number
  /** Wall layers; default ceil(2h / dp) with h = 1.5 dp (the kernel support): 3. */
  wallLayers?: number
  /** Reported as the discretization proceeds, 0 … 1. */
  onProgress?: (fraction: number) => void
  /**
   * Polled between parts and phases; true stops the discretization with a
   * DiscretizationCanceledError (e.g. a flag in a SharedArrayBuffer the job's owner sets).
   */
  isCanceled?: () => boolean
}

/** Thrown by discretize when options.isCanceled() turned true. */
export class DiscretizationCanceledError extends Error {
  override name = 'DiscretizationCanceledError'
  constructor() {
    super('The discretization was canceled.')
  }
}

/** The domain's discretization messages (API records) from discretizer issues. */
export function toDiscretizationMessages(
  issues: readonly DiscretizationIssue[],
): DiscretizationMessage[] {
  return issues.map((issue) => ({ description: issue.message, partId: issue.partId }))
}

/** The warnings of one part as stored on it (domain/parts.ts PartWarning: errorCode, message). */
export function partWarningsOf(
  issues: readonly DiscretizationIssue[],
  partId: number,
): { errorCode: string; message: string }[] {
  return issues
    .filter((issue) => issue.partId === partId)
    .map((issue) => ({ errorCode: issue.code, message: issue.message }))
}
