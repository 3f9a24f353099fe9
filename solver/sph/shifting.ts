/**
 * Particle shifting after a step, run on a cell range so that threads can share it.
 */
import { KERNEL_CODE } from './config.ts'
import type { ParticleArrays } from './particles.ts'
import { PACK_STRIDE, PARTICLE_KIND } from './particles.ts'
import type { InteractionContext } from './stencil.ts'
import { fillStencilRows } from './stencil.ts'

// Imported constants copied into module bindings: inside hot loops an imported binding may be a
// getter (test runners rewrite imports into module objects).
const STRIDE = PACK_STRIDE

/** Free-surface thresholds of the shifting on ∇·r (3 inside the fluid, in 3D). */
export const SHIFT_NEAR_SURFACE_DIVERGENCE = 2.9
export const SHIFT_SPLASH_DIVERGENCE = 1.5
/** Tensile-instability term 1 + R (W/W(dp))ⁿ of the shifting (Sun et al. 2017: R = 0.2, n = 4). */
export const SHIFT_R = 0.2
/** Largest shift per step, in particle diameters. */
export const SHIFT_MAX_DP = 0.1

/**
 * Particle shifting on the fluid particles of a cell range, after a step, from the positions and
 * volumes in the neighbour records (computePressures ran on the new positions):
 *   δr_i = −scale · Σ_j V_j (1 + R (W_ij/W(dp))⁴) ∇W_ij,   scale = 4 h U_max dt
 * (Sun et al. 2017's −CFL·Ma·(2h)² with the step's own Courant number dt c0/h and Ma = U_max/c0).
 * ∇·r = −Σ V_j r_ij·∇W_ij tells the free surface apart and n = −Σ V_j ∇W_ij / |…| is its normal:
 * near the surface (∇·r < 2.75) sun17 keeps the tangential part of δr; lyu21 also keeps an
 * inward normal part (δr·n < 0, it fills voids behind the surface, never pushes particles out)
 * and does not shift splashes (∇·r < 1.5). |δr| ≤ 0.1 dp. Writes posX..posZ of its own particles
 * only; reads the records, so threads can share it.
 */
export function shiftParticles(
  ctx: InteractionContext,
  cellBegin: number,
  cellEnd: number,
  scale: number,
): void {
  const { packed, kind, posX, posY, posZ } = ctx.arrays
  const cellStart = ctx.grid.cellStart
  const rowBegin = ctx.rowBegin
  const rowEnd = ctx.rowEnd
  const rowShiftY = ctx.rowShiftY
  const k = ctx.constants
  const support2 = k.support2
  const invH = 1 / k.h
  const alpha = k.kernelAlpha
  const gradFactor = k.kernelGradFactor
  const wendland = k.kernelCode === KERNEL_CODE.wendland
  const invWdp = 1 / k.kernelAtDp
  const lyu = k.shiftingCode === 2
  const maxShift = SHIFT_MAX_DP * k.particleDiameter
  const maxShift2 = maxShift * maxShift
  const FLUID = PARTICLE_KIND.fluid
  const MIN_R2 = 1e-24 * support2
  for (let c = cellBegin; c < cellEnd; c++) {
    const pBegin = cellStart[c]!
    const pEnd = cellStart[c + 1]!
    if (pBegin === pEnd) continue
    let rows = -1
    for (let i = pBegin; i < pEnd; i++) {
      if (kind[i] !== FLUID) continue
      if (rows < 0) rows = fillStencilRows(ctx, c, false)
      const oi = i * STRIDE
      const xi = packed[oi]!
      const yi = packed[oi + 1]!
      const zi = packed[oi + 2]!
      let gx = 0
      let gy = 0
      let gz = 0
      let sx = 0
      let sy = 0
      let sz = 0
      let divergence = 0
      for (let r = 0; r < rows; r++) {
        const jEnd = rowEnd[r]!
        const yr = yi - rowShiftY[r]!
        for (let j = rowBegin[r]!; j < jEnd; j++) {
          const o = j * STRIDE
          const dx = xi - packed[o]!
          const dy = yr - packed[o + 1]!
          const dz = zi - packed[o + 2]!
          const r2 = dx * dx + dy * dy + dz * dz
          if (r2 >= support2 || r2 < MIN_R2) continue
          const q = Math.sqrt(r2) * invH
          let w: number
          let f: number
          if (wendland) {
            const t = 1 - 0.5 * q
            const t3 = t * t * t
            w = alpha * t3 * t * (2 * q + 1)
            f = gradFactor * t3
          } else if (q < 1) {
            w = alpha * (1 - 1.5 * q * q + 0.75 * q * q * q)
            f = gradFactor * (-3 + 2.25 * q)
          } else {
            const t = 2 - q
            w = alpha * 0.25 * t * t * t
            f = (gradFactor * (-0.75 * t * t)) / q
          }
          const volume = packed[o + 7]!
          const vf = (volume < 0 ? -volume : volume) * f
          gx += vf * dx
          gy += vf * dy
          gz += vf * dz
          const ratio = w * invWdp
          const r4 = ratio * ratio * ratio * ratio
          const tensile = vf * (1 + SHIFT_R * r4)
          sx += tensile * dx
          sy += tensile * dy
          sz += tensile * dz
          divergence -= vf * r2
        }
      }
      if (lyu && divergence < SHIFT_SPLASH_DIVERGENCE) continue
      let ddx = -scale * sx
      let ddy = -scale * sy
      let ddz = -scale * sz
      if (divergence < SHIFT_NEAR_SURFACE_DIVERGENCE) {
        const g = Math.sqrt(gx * gx + gy * gy + gz * gz)
        if (g > 0) {
          const nx = -gx / g
          const ny = -gy / g
          const nz = -gz / g
          const normal = ddx * nx + ddy * ny + ddz * nz
          // sun17 removes the normal part; lyu21 keeps it when it points into the fluid
          const removed = lyu && normal < 0 ? 0 : normal
          ddx -= removed * nx
          ddy -= removed * ny
          ddz -= removed * nz
        }
      }
      const d2 = ddx * ddx + ddy * ddy + ddz * ddz
      if (d2 > maxShift2) {
        const s = maxShift / Math.sqrt(d2)
        ddx *= s
        ddy *= s
        ddz *= s
      }
      posX[i] = posX[i]! + ddx
      posY[i] = posY[i]! + ddy
      posZ[i] = posZ[i]! + ddz
    }
  }
}

/** The largest squared speed of a fluid particle (shifting's scale). */
export function maxFluidSpeed2(arrays: ParticleArrays, count: number): number {
  const { velX, velY, velZ, kind } = arrays
  const fluid = PARTICLE_KIND.fluid
  let max2 = 0
  for (let i = 0; i < count; i++) {
    if (kind[i] !== fluid) continue
    const v2 = velX[i]! * velX[i]! + velY[i]! * velY[i]! + velZ[i]! * velZ[i]!
    if (v2 > max2) max2 = v2
  }
  return max2
}
