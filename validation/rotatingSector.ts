/**
 * The rotational periodic boundary (issue 16 item 7): the spinning bucket of rotatingBucket.ts
 * (R 0.1 m, Ω 8.86 rad/s, the rotating system about the axis z) run as one slice of `sliceAngle`
 * about its axis, the particles of the whole bucket cut to the slice and its fluid near the axis
 * ringed (as the discretizer does, solver/discretizer/sliceFill.ts) and the rest seen through the
 * cut faces (periodicRotation.ts).
 * The same two starts as the bucket (held: at rest in the frame inside the paraboloid; spin-up:
 * flat 0.08 m deep) and the same figures: the curvature b of the fit z = a + b r² of the free
 * surface against Ω²/(2g), read by the kernel-sum gauge on the slice unfolded to the full turn
 * (its N copies turned by k·angle: the gauge near a cut face sees both sides), and the angular
 * momentum about the axis per unit mass in the inertial frame, Σ m (r × (u + Ω × r))_z / Σ m,
 * against the paraboloid's Ω ∫ r² h 2πr dr / ∫ h 2πr dr (h = z0 + b r² over r < R). The full
 * bucket's curvature at the same resolution is NUMERICS.md's 'Rotating system' table (2026-11-27).
 */
import { sliceFrame } from '../domain/periodic.ts'
import type { SolverConfig } from '../solver/sph/config.ts'
import { kernelFactors } from '../solver/sph/kernels.ts'
import { PARTICLE_KIND } from '../solver/sph/particles.ts'
import type { RotationalSlice } from '../solver/sph/rotationalSlice.ts'
import { rotationMatrix, sliceCount } from '../solver/sph/rotationalSlice.ts'
import { sliceSites } from '../solver/discretizer/sliceFill.ts'
import type { SolverSnapshot } from '../solver/sph/solverTypes.ts'
import type { CaseOverrides, ValidationMetric } from './common.ts'
import { GRAVITY, metric, reported, withSolver } from './common.ts'
import type { BucketGeometry } from './rotatingBucket.ts'
import { BUCKET, bucketConfig, paraboloidHeight, surfaceProfile } from './rotatingBucket.ts'

const CASE = 'rotating sector (periodic boundary)'

/** The full bucket's curvature error (NUMERICS.md 'Rotating system', 2026-11-27), by start and n. */
const FULL_BUCKET_CURVATURE: Record<string, number> = {
  'paraboloid 8': -0.0011,
  'paraboloid 10': 0.0039,
  'flat 8': 0.0048,
  'flat 10': 0.0022,
}

/** The bucket's slice of `sliceAngle` degrees about its axis (z through the origin). */
export function bucketSlice(sliceAngle: number): RotationalSlice {
  return sliceFrame({
    center: [0, 0, 0],
    axis: [0, 0, 1],
    sliceRotation: 0,
    sliceAngle,
  })!
}

/** A config's particles cut to the slice (sliceSites), run with the rotational periodic boundary. */
export function sliceConfig(config: SolverConfig, slice: RotationalSlice): SolverConfig {
  const p = config.particles
  const sites = sliceSites(slice, p.positions, p.kinds, config.settings.particleDiameter!)
  const keep = Array.from(sites.source)
  const pick = (values: ArrayLike<number> | undefined, stride: number) =>
    values && Float64Array.from(keep.flatMap((i) => Array.from({ length: stride }, (_, c) => values[stride * i + c]!)))
  return {
    ...config,
    particles: {
      positions: sites.positions,
      kinds: Uint8Array.from(keep.map((i) => p.kinds[i]!)),
      partIds: Int32Array.from(keep.map((i) => p.partIds[i]!)),
      ...(p.pressures ? { pressures: pick(p.pressures, 1)! } : {}),
    },
    rotationalPeriodic: slice,
  }
}

/** The slice's snapshot repeated N times round the axis (positions turned; what the gauge reads). */
export function unfoldSnapshot(s: SolverSnapshot, slice: RotationalSlice): SolverSnapshot {
  const n = sliceCount(slice)
  const count = n * s.count
  const positions = new Float64Array(3 * count)
  const c = slice.center
  for (let k = 0; k < n; k++) {
    const m = rotationMatrix(slice.axis, k * slice.angle)
    for (let i = 0; i < s.count; i++) {
      const x = s.positions[3 * i]! - c[0]
      const y = s.positions[3 * i + 1]! - c[1]
      const z = s.positions[3 * i + 2]! - c[2]
      const q = 3 * (k * s.count + i)
      positions[q] = c[0] + m[0]! * x + m[1]! * y + m[2]! * z
      positions[q + 1] = c[1] + m[3]! * x + m[4]! * y + m[5]! * z
      positions[q + 2] = c[2] + m[6]! * x + m[7]! * y + m[8]! * z
    }
  }
  const repeat = <T extends Float64Array | Uint8Array | Int32Array>(v: T, make: (n: number) => T) => {
    const out = make(count)
    for (let k = 0; k < n; k++) out.set(v, k * s.count)
    return out
  }
  return {
    ...s,
    count,
    positions,
    velocities: new Float64Array(3 * count),
    particleIds: repeat(s.particleIds, (k) => new Int32Array(k)),
    pressure: repeat(s.pressure, (k) => new Float64Array(k)),
    density: repeat(s.density, (k) => new Float64Array(k)),
    mass: repeat(s.mass, (k) => new Float64Array(k)),
    kind: repeat(s.kind, (k) => new Uint8Array(k)),
    partId: repeat(s.partId, (k) => new Int32Array(k)),
    materialId: repeat(s.materialId, (k) => new Int32Array(k)),
  }
}

/** Angular momentum about z per unit mass in the inertial frame (frame velocity + Ω × r). */
export function inertialAngularMomentum(s: SolverSnapshot, omega: number): number {
  let angular = 0
  let mass = 0
  for (let i = 0; i < s.count; i++) {
    if (s.kind[i] !== PARTICLE_KIND.fluid) continue
    const x = s.positions[3 * i]!
    const y = s.positions[3 * i + 1]!
    const m = s.mass[i]!
    angular += m * (x * s.velocities[3 * i + 1]! - y * s.velocities[3 * i]! + omega * (x * x + y * y))
    mass += m
  }
  return angular / mass
}

/** The paraboloid's angular momentum per unit mass: Ω ∫ r³ h dr / ∫ r h dr, h = z0 + b r². */
export function paraboloidAngularMomentum(g: BucketGeometry): number {
  const b = (g.omega * g.omega) / (2 * GRAVITY)
  const z0 = paraboloidHeight(g, 0)
  const R = g.radius
  return (g.omega * (z0 * R ** 4 / 4 + b * R ** 6 / 6)) / (z0 * R ** 2 / 2 + b * R ** 4 / 4)
}

export interface SectorCaseOptions extends CaseOverrides {
  particlesAcross: number
  /** Slice angle, degrees (default 90). */
  sliceAngle?: number
  endS?: number
  heldS?: number
  threads?: number
  tolerance?: number
}

/** Runs both starts of the sector at one resolution. */
export async function runRotatingSectorCase(
  options: SectorCaseOptions,
): Promise<ValidationMetric[]> {
  const n = options.particlesAcross
  const angle = options.sliceAngle ?? 90
  const tolerance = options.tolerance ?? 0.05
  const exactB = (BUCKET.omega * BUCKET.omega) / (2 * GRAVITY)
  const rise = exactB * BUCKET.radius * BUCKET.radius
  const overrides: CaseOverrides = {
    settings: options.settings ?? {},
    solverOptions: { threads: options.threads ?? 1, ...options.solverOptions },
  }
  const slice = bucketSlice(angle)
  const metrics: ValidationMetric[] = []
  for (const start of ['paraboloid', 'flat'] as const) {
    const g: BucketGeometry = { ...BUCKET, particlesAcross: n, start }
    const config = sliceConfig(bucketConfig(g, overrides), slice)
    const endS = start === 'flat' ? (options.endS ?? 1.2) : (options.heldS ?? 0.3)
    const result = await withSolver(config, async (solver) => {
      await solver.runUntil(endS)
      const snapshot = await solver.snapshot()
      const k = solver.describe().constants
      const kernel = { h: k.h, alpha: kernelFactors('wendland', k.h, 3).alpha }
      const profile = surfaceProfile(unfoldSnapshot(snapshot, slice), g, kernel)
      let sq = 0
      for (const [r, z] of profile.points) sq += (z - paraboloidHeight(g, r)) ** 2
      let maxSpeed = 0
      for (let i = 0; i < snapshot.count; i++)
        if (snapshot.kind[i] === PARTICLE_KIND.fluid)
          maxSpeed = Math.max(maxSpeed, Math.hypot(...snapshot.velocities.subarray(3 * i, 3 * i + 3)))
      return {
        curvature: profile.b / exactB - 1,
        rms: Math.sqrt(sq / profile.points.length) / rise,
        angular: inertialAngularMomentum(snapshot, g.omega) / paraboloidAngularMomentum(g) - 1,
        maxSpeed,
        particles: config.particles.kinds.length,
      }
    })
    const label = `${angle}° slice, ${start === 'flat' ? `spin-up from flat, ${endS} s` : `held, ${endS} s`}, ${n} across R`
    const full = FULL_BUCKET_CURVATURE[`${start} ${n}`]
    metrics.push(
      metric(CASE, `${label}: curvature of the surface / (Ω²/2g) − 1`, result.curvature, tolerance),
      metric(
        CASE,
        `${label}: angular momentum per unit mass / the paraboloid's − 1`,
        result.angular,
        tolerance,
      ),
      reported(CASE, `${label}: rms |z − z_exact| / rise Ω²R²/(2g)`, result.rms),
      reported(CASE, `${label}: largest fluid speed / ΩR`, result.maxSpeed / (BUCKET.omega * BUCKET.radius)),
      reported(CASE, `${label}: particles of the slice`, result.particles),
      ...(full === undefined
        ? []
        : [
            reported(
              CASE,
              `${label}: curvature error minus the full bucket's (NUMERICS.md, ${(100 * full).toFixed(2)} %)`,
              result.curvature - full,
            ),
          ]),
    )
  }
  return metrics
}
