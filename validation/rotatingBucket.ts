/**
 * The rotating system (settings.rotatingSystem, issue 16 item 5) against the analytic paraboloid
 * of a liquid in solid-body rotation, z(r) = z0 + Ω²r²/(2g), in a cylindrical bucket of radius R
 * turning about its axis (z, gravity −z), computed in the frame that turns with it:
 * - held: the fluid starts at rest in that frame inside the paraboloid, with its hydrostatic
 *   pressure ρ g (z_s(r) − z), and must stay there (the largest speed, relative to ΩR, and the
 *   surface);
 * - spin-up: the fluid starts flat at depth H0 and at rest in the frame (a bucket that turned
 *   with the fluid inside kept still by a lid, released at t = 0); it sloshes and settles to the
 *   paraboloid with z0 = H0 − Ω²R²/(4g) (volume kept).
 * The figure is the curvature b of the least-squares fit z = a + b r² of the free surface (the
 * kernel-sum wave gauge of common.ts, on rings of radii up to R − 2h) against Ω²/(2g), and the
 * surface's rms departure from the exact paraboloid relative to the rise Ω²R²/(2g). Solid-body
 * rotation solves the Navier–Stokes equations for any viscosity, so the case takes a laminar ν
 * of 5e-3 m²/s to damp the sloshing in a second rather than a minute; the answer does not
 * depend on it.
 */
import type { SolverConfig, SolverMaterial } from '../solver/sph/config.ts'
import { kernelFactors } from '../solver/sph/kernels.ts'
import { PARTICLE_KIND } from '../solver/sph/particles.ts'
import type { SolverSnapshot } from '../solver/sph/solverTypes.ts'
import type { CaseOverrides, ValidationMetric } from './common.ts'
import { GRAVITY, metric, reported, settingsFor, waterLevel, withSolver } from './common.ts'

const CASE = 'rotating bucket (paraboloid)'
export const BUCKET_FLUID_PART = 1
export const BUCKET_WALL_PART = 2

/** Water with a laminar ν that damps the sloshing quickly (the steady answer does not see ν). */
export const BUCKET_WATER: SolverMaterial = {
  id: 1,
  density: 1000,
  gamma: 7,
  speedOfSound: 1,
  kinematicViscosity: 5e-3,
}

export interface BucketGeometry {
  /** Inner radius R, m. */
  radius: number
  /** Depth H0 of the flat start (the spin-up), m. */
  depth: number
  /** Angular velocity Ω, rad/s. */
  omega: number
  /** Particles across the radius (dp = R / n). */
  particlesAcross: number
  /** 'flat': the spin-up's start; 'paraboloid': solid-body rotation held. */
  start: 'flat' | 'paraboloid'
}

/** The bucket of the case: R 0.1 m, start 0.08 m deep, Ω such that the rim rises by 0.04 m. */
export const BUCKET: Omit<BucketGeometry, 'particlesAcross' | 'start'> = {
  radius: 0.1,
  depth: 0.08,
  omega: Math.sqrt((2 * GRAVITY * 0.04) / 0.01),
}

/** The paraboloid's height at radius r (z0 from the volume of the flat start). */
export function paraboloidHeight(g: BucketGeometry, r: number): number {
  const w2 = g.omega * g.omega
  return g.depth - (w2 * g.radius * g.radius) / (4 * GRAVITY) + (w2 * r * r) / (2 * GRAVITY)
}

/**
 * The particles of the bucket on a lattice of spacing dp = R/n centred on the axis: fluid inside
 * radius R below the start's surface, walls (3 layers) in the ring R ≤ r < R + 3dp up to the rim's
 * height plus a margin, and the floor below z = 0. Fluid pressures are hydrostatic below the
 * start's surface.
 */
export function buildBucket(g: BucketGeometry): SolverConfig['particles'] {
  const dp = g.radius / g.particlesAcross
  const layers = 3
  const outer = g.radius + layers * dp
  const top = paraboloidHeight(g, g.radius) + 4 * dp
  const half = Math.ceil(outer / dp)
  const positions: number[] = []
  const kinds: number[] = []
  const partIds: number[] = []
  const pressures: number[] = []
  for (let k = -layers; (k + 0.5) * dp < top; k++) {
    const z = (k + 0.5) * dp
    for (let j = -half; j < half; j++) {
      const y = (j + 0.5) * dp
      for (let i = -half; i < half; i++) {
        const x = (i + 0.5) * dp
        const r = Math.hypot(x, y)
        if (r >= outer) continue
        if (k < 0 || r >= g.radius) {
          positions.push(x, y, z)
          kinds.push(PARTICLE_KIND.wall)
          partIds.push(BUCKET_WALL_PART)
          pressures.push(0)
          continue
        }
        const surface = g.start === 'flat' ? g.depth : paraboloidHeight(g, r)
        if (z >= surface) continue
        positions.push(x, y, z)
        kinds.push(PARTICLE_KIND.fluid)
        partIds.push(BUCKET_FLUID_PART)
        pressures.push(BUCKET_WATER.density * GRAVITY * (surface - z))
      }
    }
  }
  return {
    positions: Float64Array.from(positions),
    kinds: Uint8Array.from(kinds),
    partIds: Int32Array.from(partIds),
    pressures: Float64Array.from(pressures),
  }
}

/** The solver config of a bucket: the default settings with the rotating system on. */
export function bucketConfig(g: BucketGeometry, overrides: CaseOverrides = {}): SolverConfig {
  const dp = g.radius / g.particlesAcross
  return {
    settings: settingsFor(dp, {
      rotatingSystem: true,
      rotationVelocity: g.omega,
      rotationAxis: [0, 0, 1],
      rotationCenter: [0, 0, 0],
      ...overrides.settings,
    }),
    materials: [BUCKET_WATER],
    particles: buildBucket(g),
    parts: [{ id: BUCKET_WALL_PART, wallCondition: 'no_slip' }],
    options: { ...overrides.solverOptions },
  }
}

/** The free surface sampled on rings (radius, height) and the fit z = a + b r². */
export function surfaceProfile(
  snapshot: SolverSnapshot,
  g: BucketGeometry,
  kernel: { h: number; alpha: number },
): { points: [number, number][]; a: number; b: number } {
  const points: [number, number][] = []
  const dp = g.radius / g.particlesAcross
  const rMax = g.radius - 2 * kernel.h
  for (let r = 0; r <= rMax + 1e-12; r += dp) {
    const count = r === 0 ? 1 : Math.max(8, Math.round((2 * Math.PI * r) / dp))
    for (let m = 0; m < count; m++) {
      const angle = (2 * Math.PI * m) / count
      const z = waterLevel(snapshot, r * Math.cos(angle), r * Math.sin(angle), kernel)
      if (Number.isFinite(z)) points.push([r, z])
    }
  }
  // least squares in s = r²
  const n = points.length
  const ms = points.reduce((sum, [r]) => sum + r * r, 0) / n
  const mz = points.reduce((sum, [, z]) => sum + z, 0) / n
  let sxy = 0
  let sxx = 0
  for (const [r, z] of points) {
    sxy += (r * r - ms) * (z - mz)
    sxx += (r * r - ms) * (r * r - ms)
  }
  const b = sxy / sxx
  return { points, a: mz - b * ms, b }
}

/** The largest fluid speed and the fluid's angular momentum about the axis (z), per unit mass. */
export function fluidMotion(snapshot: SolverSnapshot): { maxSpeed: number; angular: number } {
  let maxSpeed = 0
  let angular = 0
  let mass = 0
  const p = snapshot.positions
  const v = snapshot.velocities
  for (let i = 0; i < snapshot.count; i++) {
    if (snapshot.kind[i] !== PARTICLE_KIND.fluid) continue
    maxSpeed = Math.max(maxSpeed, Math.hypot(v[3 * i]!, v[3 * i + 1]!, v[3 * i + 2]!))
    const m = snapshot.mass[i]!
    angular += m * (p[3 * i]! * v[3 * i + 1]! - p[3 * i + 1]! * v[3 * i]!)
    mass += m
  }
  return { maxSpeed, angular: angular / mass }
}

export interface BucketCaseOptions extends CaseOverrides {
  particlesAcross: number
  /** Simulated time of the spin-up, s (default 1.2). */
  endS?: number
  /** Simulated time of the held rotation, s (default 0.5). */
  heldS?: number
  threads?: number
  /** Curvature error that passes (fraction). */
  tolerance?: number
}

/** Runs both set-ups at one resolution. */
export async function runRotatingBucketCase(
  options: BucketCaseOptions,
): Promise<ValidationMetric[]> {
  const n = options.particlesAcross
  const tolerance = options.tolerance ?? 0.05
  const exactB = (BUCKET.omega * BUCKET.omega) / (2 * GRAVITY)
  const rise = exactB * BUCKET.radius * BUCKET.radius
  const overrides: CaseOverrides = {
    settings: options.settings ?? {},
    solverOptions: { threads: options.threads ?? 1, ...options.solverOptions },
  }
  const metrics: ValidationMetric[] = []
  for (const start of ['paraboloid', 'flat'] as const) {
    const g: BucketGeometry = { ...BUCKET, particlesAcross: n, start }
    const config = bucketConfig(g, overrides)
    const endS = start === 'flat' ? (options.endS ?? 1.2) : (options.heldS ?? 0.3)
    const result = await withSolver(config, async (solver) => {
      await solver.runUntil(endS)
      const snapshot = await solver.snapshot()
      const k = solver.describe().constants
      const kernel = { h: k.h, alpha: kernelFactors('wendland', k.h, 3).alpha }
      const profile = surfaceProfile(snapshot, g, kernel)
      let sq = 0
      for (const [r, z] of profile.points) sq += (z - paraboloidHeight(g, r)) ** 2
      return {
        curvature: profile.b / exactB - 1,
        rms: Math.sqrt(sq / profile.points.length) / rise,
        motion: fluidMotion(snapshot),
      }
    })
    const label = start === 'flat' ? `spin-up from flat, ${endS} s` : `held, ${endS} s`
    metrics.push(
      metric(CASE, `${label}, ${n} across R: curvature of the surface / (Ω²/2g) − 1`, result.curvature, tolerance),
      reported(CASE, `${label}, ${n} across R: rms |z − z_exact| / rise Ω²R²/(2g)`, result.rms),
      start === 'paraboloid'
        ? metric(
            CASE,
            `${label}, ${n} across R: largest fluid speed / ΩR`,
            result.motion.maxSpeed / (BUCKET.omega * BUCKET.radius),
            tolerance,
          )
        : reported(
            CASE,
            `${label}, ${n} across R: largest fluid speed / ΩR`,
            result.motion.maxSpeed / (BUCKET.omega * BUCKET.radius),
          ),
    )
  }
  return metrics
}
