/**
 * The GPU backend's particles between the host arrays (solver/sph ParticleArrays, float64) and
 * the GPU's state buffers (float32, four lanes per particle; see shaderCommon.ts): the upload,
 * which leaves out what the CPU's sort would delete, and the checkpoint of the kept particles.
 */
import type { Box } from '../sph/grid.ts'
import type { ParticleArrays } from '../sph/particles.ts'
import { PARTICLE_KIND } from '../sph/particles.ts'
import type { CheckpointHeader } from '../sph/checkpoint.ts'
import { allocateCheckpoint } from '../sph/checkpoint.ts'
import type { GpuState } from './snapshot.ts'
import type { GpuBuffers } from './buffers.ts'
import { packTherm, temperatureAt } from './thermal.ts'
import { PHASE_SHIFT } from './shaderCommon.ts'

const FLUID = PARTICLE_KIND.fluid
/** info's deleted flag (DELETED_FLAG of shaderCommon.ts). */
export const DELETED = 4
/** info's flag of an open boundary's buffer particle (OPEN_FLAG of openShaders.ts). */
export const OPEN = 64

/** The state buffers' contents of the kept particles, and what was left out. */
export interface PackedParticles {
  posm: Float32Array<ArrayBuffer>
  velr: Float32Array<ArrayBuffer>
  info: Uint32Array<ArrayBuffer>
  /** Rest positions (x, y, z, 0): moving walls are placed from them. */
  ref: Float32Array<ArrayBuffer>
  /** Temperatures and ν (thermal.ts packTherm), or null without the therm buffer. */
  therm: Float32Array<ArrayBuffer> | null
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
 * not finite; fluid outside the calculation domain), in double precision like it. With
 * `referenceT` (the run has the therm buffer) the temperatures as offsets from it, and ν.
 */
export function packParticles(
  a: ParticleArrays,
  n: number,
  box: Box | null,
  referenceT: number | null = null,
): PackedParticles {
  const posm = new Float32Array(4 * n)
  const therm = referenceT === null ? null : new Float32Array(4 * n)
  const thermViews = therm ? { f32: therm, u32: new Uint32Array(therm.buffer) } : null
  const offset = referenceT ?? 0
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
    const flags = kind | (a.noSlip[i]! << 1) | (a.phase[i]! << PHASE_SHIFT)
    info.set([a.particleId[i]!, a.partIndex[i]!, flags, 0], o)
    ref.set([a.refX[i]!, a.refY[i]!, a.refZ[i]!, 0], o)
    if (thermViews) packTherm(a, i, offset, thermViews, o)
    kept++
  }
  return { posm, velr, info, ref, therm, kept, fluid, outside, invalid }
}

/**
 * The checkpoint of the GPU's kept particles (of `count` in its buffers), in the GPU's order: the
 * state read once, in order; the fields the GPU does not carry (and a moving wall's rest position)
 * come with their particle from the host arrays, through `host.indexOfId` (the arrays of the last
 * upload: those fields do not change on the GPU). The header's count is the number kept. With
 * heat conduction (`host.referenceT`) the fluid's temperatures are the GPU's.
 */
export function encodeGpuCheckpoint(
  state: GpuState,
  count: number,
  header: Omit<CheckpointHeader, 'count'>,
  host: {
    arrays: ParticleArrays
    indexOfId: Int32Array
    moving: boolean
    referenceT: number | null
  },
): Uint8Array {
  const { posm, velr, info, therm } = state
  const referenceT = therm ? host.referenceT : null
  const thermBits = therm ? new Uint32Array(therm.buffer, therm.byteOffset, therm.length) : null
  let kept = 0
  for (let i = 0; i < count; i++) if (!(info[4 * i + 2]! & DELETED)) kept++
  const { buffer, floats: f, ints, bytes } = allocateCheckpoint({ count: kept, ...header })
  const a = host.arrays
  let k = 0
  for (let i = 0; i < count; i++) {
    const o = 4 * i
    const flags = info[o + 2]!
    if (flags & DELETED) continue
    const id = info[o]!
    const j = host.indexOfId[id]!
    f.posX[k] = posm[o]!
    f.posY[k] = posm[o + 1]!
    f.posZ[k] = posm[o + 2]!
    f.mass[k] = posm[o + 3]!
    f.velX[k] = velr[o]!
    f.velY[k] = velr[o + 1]!
    f.velZ[k] = velr[o + 2]!
    f.rho[k] = velr[o + 3]!
    f.temp[k] =
      referenceT !== null && (flags & 1) === FLUID
        ? temperatureAt(thermBits!, o, referenceT)
        : a.temp[j]!
    f.hsml[k] = a.hsml[j]!
    // walls at rest: their rest position is the GPU's copy (a CPU restore puts them there)
    const fixed = (flags & 1) === FLUID || !host.moving
    f.refX[k] = fixed ? f.posX[k]! : a.refX[j]!
    f.refY[k] = fixed ? f.posY[k]! : a.refY[j]!
    f.refZ[k] = fixed ? f.posZ[k]! : a.refZ[j]!
    ints.particleId[k] = id
    ints.partIndex[k] = info[o + 1]!
    bytes.kind[k] = flags & 1
    bytes.noSlip[k] = (flags >> 1) & 1
    bytes.phase[k] = (flags >> PHASE_SHIFT) & 7
    k++
  }
  return buffer
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
  if (packed.therm) queue.writeBuffer(b.therm, 0, packed.therm.subarray(0, 4 * kept))
}
