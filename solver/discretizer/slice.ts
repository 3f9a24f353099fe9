/**
 * A rotational periodic boundary (solver/sph/periodicRotation.ts): the run holds one slice of the
 * setup, so the particles of the whole geometry (fluid and walls) are cut to the slice
 * [sliceRotation, sliceRotation + sliceAngle) about its axis, the fluid near the axis filled
 * afresh with rings the slice's rotation maps onto itself unless the slice is a quarter turn
 * (sliceFill.ts); the solver sees the rest through the cut faces. The quality summary's parts
 * stay those of the whole geometry (their volumes are the parts'); its particle counts are the
 * slice's.
 */
import type { PeriodicBoundary } from '../../domain/periodic.ts'
import { sliceFrame } from '../../domain/periodic.ts'
import { sliceSites } from './sliceFill.ts'
import type { Discretization } from './types.ts'

/** The discretization cut to the periodic boundary's slice (unchanged without one). */
export function cutToSlice(
  d: Discretization,
  periodic: Pick<PeriodicBoundary, 'center' | 'axis' | 'sliceRotation' | 'sliceAngle'> | undefined,
): Discretization {
  const slice = periodic ? sliceFrame(periodic) : null
  if (slice === null || d.count === 0) return d
  const sites = sliceSites(slice, d.positions, d.kinds, d.particleDiameter)
  const keep = sites.source
  const n = keep.length
  const three = <T extends Float64Array | Float32Array>(from: T, to: T): T => {
    keep.forEach((i, q) => to.set(from.subarray(3 * i, 3 * i + 3), 3 * q))
    return to
  }
  const one = <T extends Float64Array | Int32Array | Uint8Array>(from: T, to: T): T => {
    keep.forEach((i, q) => (to[q] = from[i]!))
    return to
  }
  const kinds = one(d.kinds, new Uint8Array(n))
  const fluidCount = kinds.reduce((sum, kind) => sum + (kind === 0 ? 1 : 0), 0)
  return {
    ...d,
    count: n,
    fluidCount,
    wallCount: n - fluidCount,
    positions: sites.positions,
    kinds,
    partIds: one(d.partIds, new Int32Array(n)),
    materialIds: one(d.materialIds, new Int32Array(n)),
    velocities: three(d.velocities, new Float64Array(3 * n)),
    pressures: one(d.pressures, new Float64Array(n)),
    densities: one(d.densities, new Float64Array(n)),
    wallNormals: three(d.wallNormals, new Float32Array(3 * n)),
    summary: { ...d.summary, particleCount: n, fluidCount, wallCount: n - fluidCount },
  }
}
