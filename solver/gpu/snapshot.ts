/**
 * Snapshots of the GPU backend: its state buffers, copied back in cell order, the particles kept
 * (not deleted) ordered by particle id like the CPU's snapshot.
 */
import type { SphConstants } from '../sph/config.ts'
import { PARTICLE_KIND } from '../sph/particles.ts'
import type { SolverSnapshot } from '../sph/solverTypes.ts'
import { DELETED } from './hostState.ts'

const FLUID = PARTICLE_KIND.fluid

/** The GPU's state buffers, four lanes per particle (see shaderCommon.ts). */
export interface GpuState {
  posm: Float32Array
  velr: Float32Array
  info: Uint32Array
  rec0: Float32Array
}

/**
 * The snapshot of the kept ones of `count` particles in the buffers (ids below `capacity`):
 * fluid pressure from the density (Tait, in double precision like the CPU's snapshot), walls' the
 * last extrapolation's.
 */
export function buildGpuSnapshot(
  state: GpuState,
  count: number,
  k: SphConstants,
  at: {
    timeS: number
    step: number
    partIds: readonly number[]
    materialId: number
    capacity: number
  },
): SolverSnapshot {
  const { posm, velr, info, rec0 } = state
  // ids are unique and below the capacity: order by id through an index table
  const indexOfId = new Int32Array(Math.max(at.capacity, 1)).fill(-1)
  for (let i = 0; i < count; i++) if (!(info[4 * i + 2]! & DELETED)) indexOfId[info[4 * i]!] = i
  const order: number[] = []
  for (let id = 0; id < indexOfId.length; id++) if (indexOfId[id]! >= 0) order.push(indexOfId[id]!)
  const n = order.length
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
    const o = 4 * order[s]!
    const kind = info[o + 2]! & 1
    const rho = velr[o + 3]!
    snapshot.particleIds[s] = info[o]!
    snapshot.positions.set(posm.subarray(o, o + 3), 3 * s)
    snapshot.velocities.set(velr.subarray(o, o + 3), 3 * s)
    snapshot.pressure[s] =
      kind === FLUID ? k.stiffness * ((rho / k.referenceDensity) ** k.gamma - 1) : rec0[o + 3]!
    snapshot.density[s] = rho
    snapshot.mass[s] = posm[o + 3]!
    snapshot.kind[s] = kind
    snapshot.partId[s] = at.partIds[info[o + 1]!]!
    snapshot.materialId[s] = kind === FLUID ? at.materialId : -1
  }
  return snapshot
}
