/**
 * The GPU backend's particles between the host arrays (solver/sph ParticleArrays, float64) and
 * the GPU's state buffers (float32, four lanes per particle; see shaderCommon.ts): the upload,
 * which leaves out what the CPU's sort would delete, and the download of the kept particles.
 */
import type { Box } from '../sph/grid.ts'
import type { ParticleArrays } from '../sph/particles.ts'
import {
  PARTICLE_KIND,
  PERSISTENT_BYTE_FIELDS,
  PERSISTENT_FLOAT_FIELDS,
  PERSISTENT_INT_FIELDS,
} from '../sph/particles.ts'
import type { GpuState } from './snapshot.ts'
import type { GpuBuffers } from './buffers.ts'

const FLUID = PARTICLE_KIND.fluid
/** info's deleted flag (DELETED_FLAG of shaderCommon.ts). */
export const DELETED = 4

/** The state buffers' contents of the kept particles, and what was left out. */
export interface PackedParticles {
  posm: Float32Array<ArrayBuffer>
  velr: Float32Array<ArrayBuffer>
  info: Uint32Array<ArrayBuffer>
  /** Rest positions (x, y, z, 0): moving walls are placed from them. */
  ref: Float32Array<ArrayBuffer>
  kept: number
  fluid: number
  /** Fluid outside the deletion box, left out. */
  outside: number
  /** Particles with a coordinate that is not finite, left out. */
  invalid: number
}

/**
 * Particles [0, n) of the host arrays (any order) packed for the GPU. What the CPU's sort would
 * delete now is left out and counted, as its first sort does (grid.ts CellSorter: a coordinate
 * not finite; fluid outside the calculation domain), in double precision like it.
 */
export function packParticles(a: ParticleArrays, n: number, box: Box | null): PackedParticles {
  const posm = new Float32Array(4 * n)
  const velr = new Float32Array(4 * n)
  const info = new Uint32Array(4 * n)
  const ref = new Float32Array(4 * n)
  let kept = 0
  let fluid = 0
  let outside = 0
  let invalid = 0
  for (let i = 0; i < n; i++) {
    const x = a.posX[i]!
    const y = a.posY[i]!
    const z = a.posZ[i]!
    if (!(Number.isFinite(x) && Number.isFinite(y) && Number.isFinite(z))) {
      invalid++
      continue
    }
    const kind = a.kind[i]!
    if (
      kind === FLUID &&
      box !== null &&
      (x < box.min[0] ||
        x > box.max[0] ||
        y < box.min[1] ||
        y > box.max[1] ||
        z < box.min[2] ||
        z > box.max[2])
    ) {
      outside++
      continue
    }
    if (kind === FLUID) fluid++
    const o = 4 * kept
    posm.set([x, y, z, a.mass[i]!], o)
    velr.set([a.velX[i]!, a.velY[i]!, a.velZ[i]!, a.rho[i]!], o)
    info.set([a.particleId[i]!, a.partIndex[i]!, kind | (a.noSlip[i]! << 1), 0], o)
    ref.set([a.refX[i]!, a.refY[i]!, a.refZ[i]!, 0], o)
    kept++
  }
  return { posm, velr, info, ref, kept, fluid, outside, invalid }
}

/**
 * The GPU's kept particles (of `count` in its buffers) into the host arrays, in the GPU's order;
 * the fields the GPU does not carry (and a moving wall's rest position) come with their particle
 * from the host arrays' `host.count` particles, found through `host.indexOfId`. Answers the new
 * host count and index.
 */
export function unpackParticles(
  state: GpuState,
  count: number,
  a: ParticleArrays,
  host: { count: number; indexOfId: Int32Array; moving: boolean },
): { count: number; indexOfId: Int32Array } {
  const { posm, velr, info } = state
  const before = host.count
  const float = PERSISTENT_FLOAT_FIELDS.map((field) => a[field].slice(0, before))
  const int = PERSISTENT_INT_FIELDS.map((field) => a[field].slice(0, before))
  const byte = PERSISTENT_BYTE_FIELDS.map((field) => a[field].slice(0, before))
  const oldOf = host.indexOfId
  const index = new Int32Array(oldOf.length).fill(-1)
  let k = 0
  for (let i = 0; i < count; i++) {
    const o = 4 * i
    const flags = info[o + 2]!
    if (flags & DELETED) continue
    const id = info[o]!
    const j = oldOf[id]!
    PERSISTENT_FLOAT_FIELDS.forEach((field, f) => (a[field][k] = float[f]![j]!))
    PERSISTENT_INT_FIELDS.forEach((field, f) => (a[field][k] = int[f]![j]!))
    PERSISTENT_BYTE_FIELDS.forEach((field, f) => (a[field][k] = byte[f]![j]!))
    a.posX[k] = posm[o]!
    a.posY[k] = posm[o + 1]!
    a.posZ[k] = posm[o + 2]!
    a.mass[k] = posm[o + 3]!
    a.velX[k] = velr[o]!
    a.velY[k] = velr[o + 1]!
    a.velZ[k] = velr[o + 2]!
    a.rho[k] = velr[o + 3]!
    a.particleId[k] = id
    a.partIndex[k] = info[o + 1]!
    a.kind[k] = flags & 1
    a.noSlip[k] = (flags >> 1) & 1
    // walls at rest: their rest position is the GPU's copy (a CPU restore puts them there)
    if ((flags & 1) === FLUID || !host.moving) {
      a.refX[k] = a.posX[k]!
      a.refY[k] = a.posY[k]!
      a.refZ[k] = a.posZ[k]!
    }
    index[id] = k
    k++
  }
  return { count: k, indexOfId: index }
}

/** The kept particles of `packed` into the GPU's state buffers, the deletion counters reset. */
export function writePacked(
  queue: GPUQueue,
  b: GpuBuffers,
  packed: PackedParticles,
  moving: boolean,
): void {
  const kept = packed.kept
  queue.writeBuffer(b.posm, 0, packed.posm.subarray(0, 4 * kept))
  queue.writeBuffer(b.velr, 0, packed.velr.subarray(0, 4 * kept))
  queue.writeBuffer(b.info, 0, packed.info.subarray(0, 4 * kept))
  queue.writeBuffer(b.deleted, 0, new Uint32Array(4))
  if (moving) queue.writeBuffer(b.ref, 0, packed.ref.subarray(0, 4 * kept))
}
