/**
 * What the solver knows of one open boundary (openBoundary.ts): its plane, buffer depth and
 * imposed profile; the reserve of particles the inlets need; the profile's value at a time.
 */
import type { Vec3 } from '../../domain/vector.ts'

/** One open boundary as the solver runs it (runConfig.ts builds it from the part). */
export interface SolverOpenBoundary {
  /** The open-boundary part; its buffer particles carry this part id. */
  partId: number
  direction: 'inflow' | 'outflow'
  /** A point of the boundary plane, m. */
  origin: Vec3
  /** Unit normal of the plane, into the fluid. */
  normal: Vec3
  /** Depth of the buffer behind the plane, m (layers × dp, at least the support 2h). */
  thickness: number
  /**
   * Imposed values over time, rows ascending in time (one row: constant), linearly interpolated
   * and held beyond the ends: inflow velocity (m/s, a vector), outflow pressure (Pa).
   */
  profile: { timesS: number[]; velocities: Vec3[]; pressures: number[] }
}

/** Mass that crossed the open boundaries since the run started (or was restored), kg. */
export interface OpenBoundaryReport {
  /** Mass of buffer particles turned fluid at inlets (less fluid pushed back into them). */
  inflowMass: number
  /** Mass of fluid particles turned buffer at outlets (less buffer particles turned back). */
  outflowMass: number
  /** Buffer particles now. */
  bufferCount: number
}

/** Particles to reserve beyond the initial ones: what the inlets bring in over `endTimeS`. */
export function openBoundaryReserve(
  zones: readonly SolverOpenBoundary[],
  bufferCounts: readonly number[],
  dp: number,
  endTimeS: number,
): number {
  let reserve = 0
  zones.forEach((zone, z) => {
    if (zone.direction !== 'inflow') return
    const speed = Math.max(...zone.profile.velocities.map((v) => Math.abs(dot(v, zone.normal))))
    const perLayer = (bufferCounts[z]! * dp) / zone.thickness
    reserve += Math.ceil(perLayer * ((speed * endTimeS) / dp + 2))
  })
  return reserve
}

export function dot(a: Readonly<Vec3>, b: Readonly<Vec3>): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/** Two unit vectors orthogonal to n and to each other. */
export function tangents(n: Readonly<Vec3>): [Vec3, Vec3] {
  const helper: Vec3 = Math.abs(n[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0]
  const t1: Vec3 = [
    helper[1] * n[2] - helper[2] * n[1],
    helper[2] * n[0] - helper[0] * n[2],
    helper[0] * n[1] - helper[1] * n[0],
  ]
  const l = Math.hypot(...t1)
  t1[0] /= l
  t1[1] /= l
  t1[2] /= l
  const t2: Vec3 = [
    n[1] * t1[2] - n[2] * t1[1],
    n[2] * t1[0] - n[0] * t1[2],
    n[0] * t1[1] - n[1] * t1[0],
  ]
  return [t1, t2]
}

/** The imposed velocity and pressure of a profile at time t (linear, held beyond the ends). */
export function interpolateProfile(
  profile: SolverOpenBoundary['profile'],
  t: number,
): { velocity: Vec3; pressure: number } {
  const { timesS, velocities, pressures } = profile
  const last = timesS.length - 1
  if (last <= 0 || t <= timesS[0]!)
    return { velocity: [...velocities[0]!], pressure: pressures[0]! }
  if (t >= timesS[last]!) return { velocity: [...velocities[last]!], pressure: pressures[last]! }
  let k = 1
  while (timesS[k]! < t) k++
  const f = (t - timesS[k - 1]!) / (timesS[k]! - timesS[k - 1]!)
  const v0 = velocities[k - 1]!
  const v1 = velocities[k]!
  return {
    velocity: [
      v0[0] + f * (v1[0] - v0[0]),
      v0[1] + f * (v1[1] - v0[1]),
      v0[2] + f * (v1[2] - v0[2]),
    ],
    pressure: pressures[k - 1]! + f * (pressures[k]! - pressures[k - 1]!),
  }
}
