/**
 * Wall particles at a time t: each part's particles at their rest position moved by the part's
 * geometry transform, with the velocity and acceleration of its motion from central differences
 * of the velocity transforms at t − ε, t, t + ε (see motion.ts). Parts at rest are put back at
 * rest with zero velocity and acceleration.
 */
import type { RigidTransform } from './motion.ts'
import { MOTION_DIFFERENCE_S } from './motion.ts'
import type { ParticleArrays } from './particles.ts'
import { PARTICLE_KIND } from './particles.ts'

// imported constants as module bindings: test runners turn imports into getters, slow in loops
const FLUID = PARTICLE_KIND.fluid

/**
 * Places the wall particles of a sorted particle range [0, count). transforms[p] holds part p's
 * geometry transform and its velocity transforms at t − ε, t and t + ε; partMoving[p] is 0 for a
 * part at rest.
 */
export function placeWalls(
  arrays: ParticleArrays,
  count: number,
  transforms: readonly RigidTransform[][],
  partMoving: Uint8Array,
): void {
  const eps = MOTION_DIFFERENCE_S
  const a = arrays
  const {
    posX,
    posY,
    posZ,
    refX,
    refY,
    refZ,
    velX,
    velY,
    velZ,
    accX,
    accY,
    accZ,
    kind,
    partIndex,
  } = a
  const { viscVX, viscVY, viscVZ } = a
  const inv2eps = 1 / (2 * eps)
  const invEps2 = 1 / (eps * eps)
  for (let i = 0; i < count; i++) {
    if (kind[i] === FLUID) continue
    const p = partIndex[i]!
    if (partMoving[p] === 0) {
      posX[i] = refX[i]!
      posY[i] = refY[i]!
      posZ[i] = refZ[i]!
      velX[i] = velY[i] = velZ[i] = 0
      accX[i] = accY[i] = accZ[i] = 0
      viscVX[i] = viscVY[i] = viscVZ[i] = 0
      continue
    }
    const [geometry, before, now, after] = transforms[p]!
    const x0 = refX[i]!
    const y0 = refY[i]!
    const z0 = refZ[i]!
    const g = geometry!.matrix
    const og = geometry!.offset
    posX[i] = g[0]! * x0 + g[1]! * y0 + g[2]! * z0 + og[0]!
    posY[i] = g[3]! * x0 + g[4]! * y0 + g[5]! * z0 + og[1]!
    posZ[i] = g[6]! * x0 + g[7]! * y0 + g[8]! * z0 + og[2]!
    const m = now!.matrix
    const o = now!.offset
    const mb = before!.matrix
    const ob = before!.offset
    const ma = after!.matrix
    const oa = after!.offset
    const x = m[0]! * x0 + m[1]! * y0 + m[2]! * z0 + o[0]!
    const y = m[3]! * x0 + m[4]! * y0 + m[5]! * z0 + o[1]!
    const z = m[6]! * x0 + m[7]! * y0 + m[8]! * z0 + o[2]!
    const xb = mb[0]! * x0 + mb[1]! * y0 + mb[2]! * z0 + ob[0]!
    const yb = mb[3]! * x0 + mb[4]! * y0 + mb[5]! * z0 + ob[1]!
    const zb = mb[6]! * x0 + mb[7]! * y0 + mb[8]! * z0 + ob[2]!
    const xa = ma[0]! * x0 + ma[1]! * y0 + ma[2]! * z0 + oa[0]!
    const ya = ma[3]! * x0 + ma[4]! * y0 + ma[5]! * z0 + oa[1]!
    const za = ma[6]! * x0 + ma[7]! * y0 + ma[8]! * z0 + oa[2]!
    velX[i] = viscVX[i] = (xa - xb) * inv2eps
    velY[i] = viscVY[i] = (ya - yb) * inv2eps
    velZ[i] = viscVZ[i] = (za - zb) * inv2eps
    accX[i] = (xa - 2 * x + xb) * invEps2
    accY[i] = (ya - 2 * y + yb) * invEps2
    accZ[i] = (za - 2 * z + zb) * invEps2
  }
}
