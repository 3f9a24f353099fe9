/**
 * Snapshots: the particle state copied out of the sorted solver arrays, ordered by particle id.
 */
import type { ParticleArrays } from './particles.ts'
import { PARTICLE_KIND } from './particles.ts'
import type { SolverSnapshot } from './solverTypes.ts'

// imported constants as module bindings: test runners turn imports into getters, slow in loops
const FLUID = PARTICLE_KIND.fluid

/** A snapshot's kind of an open boundary's buffer particle (fluid 0 and wall 1 as PARTICLE_KIND). */
export const OPEN_BOUNDARY_KIND = 2

/**
 * Copies particles [0, count) of sorted arrays (pressures already computed) into a snapshot
 * ordered by particle id; partIds maps the solver's part index to the part id, materialIds a fluid
 * particle's phase to its material id (one entry without multiphase).
 */
export function buildSnapshot(
  a: ParticleArrays,
  n: number,
  at: {
    timeS: number
    step: number
    partIds: readonly number[]
    materialIds: readonly number[]
    /** Open boundaries: true for the part index of a buffer (its particles get OPEN_BOUNDARY_KIND). */
    isBufferPart?: (partIndex: number) => boolean
    /** A rotational periodic boundary: true for the images' part index (left out). */
    isImagePart?: (partIndex: number) => boolean
  },
  count: number = n,
): SolverSnapshot {
  // ids are unique and below the capacity: order by id through an index table
  const indexOfId = new Int32Array(a.capacity).fill(-1)
  for (let i = 0; i < count; i++)
    if (!at.isImagePart?.(a.partIndex[i]!)) indexOfId[a.particleId[i]!] = i
  const order = new Int32Array(n)
  let next = 0
  for (let id = 0; id < a.capacity; id++) if (indexOfId[id]! >= 0) order[next++] = indexOfId[id]!
  const snapshot: SolverSnapshot = {
    timeS: at.timeS,
    step: at.step,
    count: n,
    particleIds: new Int32Array(n),
    positions: new Float64Array(3 * n),
    velocities: new Float64Array(3 * n),
    pressure: new Float64Array(n),
    density: new Float64Array(n),
    mass: new Float64Array(n),
    kind: new Uint8Array(n),
    partId: new Int32Array(n),
    materialId: new Int32Array(n),
  }
  for (let s = 0; s < n; s++) {
    const i = order[s]!
    snapshot.particleIds[s] = a.particleId[i]!
    snapshot.positions[3 * s] = a.posX[i]!
    snapshot.positions[3 * s + 1] = a.posY[i]!
    snapshot.positions[3 * s + 2] = a.posZ[i]!
    snapshot.velocities[3 * s] = a.velX[i]!
    snapshot.velocities[3 * s + 1] = a.velY[i]!
    snapshot.velocities[3 * s + 2] = a.velZ[i]!
    snapshot.pressure[s] = a.press[i]!
    snapshot.density[s] = a.rho[i]!
    snapshot.mass[s] = a.mass[i]!
    const kind = a.kind[i]!
    snapshot.kind[s] =
      kind === FLUID && at.isBufferPart?.(a.partIndex[i]!) ? OPEN_BOUNDARY_KIND : kind
    snapshot.partId[s] = at.partIds[a.partIndex[i]!]!
    snapshot.materialId[s] = kind === FLUID ? at.materialIds[a.phase[i]!]! : -1
  }
  return snapshot
}
