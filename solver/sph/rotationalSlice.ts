/**
 * The geometry of a rotational periodic slice (periodicRotation.ts): the rotation by the slice
 * angle, which points lie in the slice, distances to its cut faces, and the wrap of particles that
 * left it through one face back through the other.
 */
import type { SliceFrame } from '../../domain/periodic.ts'
import type { ParticleArrays } from './particles.ts'
import { PARTICLE_KIND } from './particles.ts'

const FLUID = PARTICLE_KIND.fluid

/** The slice a run holds (domain/periodic.ts sliceFrame of the periodic boundary). */
export type RotationalSlice = SliceFrame

/** A 3×3 rotation, row-major. */
export type Matrix = Float64Array

/** Rotation by `theta` about the unit axis (Rodrigues). */
export function rotationMatrix(axis: readonly number[], theta: number): Matrix {
  const [x, y, z] = axis as [number, number, number]
  const c = Math.cos(theta)
  const s = Math.sin(theta)
  const t = 1 - c
  return Float64Array.from([
    t * x * x + c,
    t * x * y - s * z,
    t * x * z + s * y,
    t * x * y + s * z,
    t * y * y + c,
    t * y * z - s * x,
    t * x * z - s * y,
    t * y * z + s * x,
    t * z * z + c,
  ])
}

/** The number of slices in a full turn (360° / angle, rounded). */
export function sliceCount(slice: RotationalSlice): number {
  return Math.max(1, Math.round((2 * Math.PI) / slice.angle))
}

/**
 * The angle of a point about the axis from the slice's bisector, in [−π, π), and its distance
 * from the axis.
 */
export function angleFromBisector(
  slice: RotationalSlice,
  x: number,
  y: number,
  z: number,
): { psi: number; radius: number } {
  const rx = x - slice.center[0]
  const ry = y - slice.center[1]
  const rz = z - slice.center[2]
  const u = rx * slice.e1[0] + ry * slice.e1[1] + rz * slice.e1[2]
  const w = rx * slice.e2[0] + ry * slice.e2[1] + rz * slice.e2[2]
  let psi = Math.atan2(w, u) - slice.start - 0.5 * slice.angle
  psi -= 2 * Math.PI * Math.floor((psi + Math.PI) / (2 * Math.PI))
  return { psi, radius: Math.hypot(u, w) }
}

/** True when a point lies in the slice [start, start + angle) (the axis counts as inside). */
export function insideSlice(slice: RotationalSlice, x: number, y: number, z: number): boolean {
  const { psi, radius } = angleFromBisector(slice, x, y, z)
  if (radius === 0) return true
  // a point on the far face belongs to the next slice (rounding must not keep both faces)
  const half = 0.5 * slice.angle
  return psi >= -half - 1e-12 && psi < half - 1e-9
}

/** Distance from a point at (psi, radius) to the slice's wedge (0 inside it). */
export function distanceToWedge(half: number, psi: number, radius: number): number {
  const outside = Math.abs(psi) - half
  if (outside <= 0) return 0
  return outside >= 0.5 * Math.PI ? radius : radius * Math.sin(outside)
}

/** Distance from a point inside the wedge to its boundary (the cut faces). */
export function distanceToFaces(half: number, psi: number, radius: number): number {
  const inside = half - Math.abs(psi)
  return inside >= 0.5 * Math.PI ? radius : radius * Math.sin(Math.max(inside, 0))
}

/** Turns particle i's position (about the centre), velocity and wall fields by matrix m. */
export function turnParticle(a: ParticleArrays, i: number, m: Matrix, c: readonly number[]): void {
  const x = a.posX[i]! - c[0]!
  const y = a.posY[i]! - c[1]!
  const z = a.posZ[i]! - c[2]!
  a.posX[i] = c[0]! + m[0]! * x + m[1]! * y + m[2]! * z
  a.posY[i] = c[1]! + m[3]! * x + m[4]! * y + m[5]! * z
  a.posZ[i] = c[2]! + m[6]! * x + m[7]! * y + m[8]! * z
  const vx = a.velX[i]!
  const vy = a.velY[i]!
  const vz = a.velZ[i]!
  a.velX[i] = m[0]! * vx + m[1]! * vy + m[2]! * vz
  a.velY[i] = m[3]! * vx + m[4]! * vy + m[5]! * vz
  a.velZ[i] = m[6]! * vx + m[7]! * vy + m[8]! * vz
}

/**
 * Brings every fluid particle of [0, count) that left the slice back into it, turned by whole
 * slice angles (positions and velocities); returns how many were turned.
 */
export function wrapIntoSlice(a: ParticleArrays, count: number, slice: RotationalSlice): number {
  const half = 0.5 * slice.angle
  let wrapped = 0
  for (let i = 0; i < count; i++) {
    if (a.kind[i] !== FLUID) continue
    const { psi, radius } = angleFromBisector(slice, a.posX[i]!, a.posY[i]!, a.posZ[i]!)
    if (radius === 0 || (psi >= -half && psi < half)) continue
    const turns = Math.floor((psi + half) / slice.angle)
    turnParticle(a, i, rotationMatrix(slice.axis, -turns * slice.angle), slice.center)
    wrapped++
  }
  return wrapped
}
