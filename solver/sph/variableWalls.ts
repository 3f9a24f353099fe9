/**
 * The wall extrapolation and the particle shifting of a run with variable resolution (refinement
 * zones): the passes of walls.ts and shifting.ts with each particle's smoothing length h_i
 * (hsml); the shifting takes per pair the symmetric kernel W(r, h_ij), h_ij = (h_i + h_j)/2, the
 * extrapolation the wall's own (see extrapolateVariableWalls). Uniform runs keep those passes
 * (bit-identical, no per-pair h).
 */
import { KERNEL_CODE } from './config.ts'
import { GRID_PARAM } from './grid.ts'
import { PACK_STRIDE, PARTICLE_KIND } from './particles.ts'
import {
  SHIFT_MAX_DP,
  SHIFT_NEAR_SURFACE_DIVERGENCE,
  SHIFT_R,
  SHIFT_SPLASH_DIVERGENCE,
} from './shifting.ts'
import type { InteractionContext } from './stencil.ts'
import { fillStencilRows } from './stencil.ts'
import { setWallViscousVelocity } from './walls.ts'
import { pairGradFactor } from './variableForces.ts'

// Imported constants copied into module bindings: inside hot loops an imported binding may be a
// getter (test runners rewrite imports into module objects).
const STRIDE = PACK_STRIDE
const TENSILE_R = SHIFT_R
const MAX_DP = SHIFT_MAX_DP
const NEAR_SURFACE = SHIFT_NEAR_SURFACE_DIVERGENCE
const SPLASH = SHIFT_SPLASH_DIVERGENCE

/**
 * The generalized wall's extrapolation (extrapolateWalls, walls.ts) with variable resolution: an
 * average at the wall particle's place, so its own kernel W(r, h_w) weighted by each fluid
 * particle's mass (∝ its volume: eight children of a split cell count as their parent). The pair
 * kernel h_ij = (h_w + h_f)/2 reached further into coarse fluid than into fine and counted each
 * particle alike, which moved the average towards the coarse side: next to a level interface a
 * free-slip side wall's mirrored velocity was that of faster fluid (REFINEMENT_FINDINGS.md). A
 * wall particle with no fluid within its own support (a refined wall beside coarse fluid) takes
 * the pair kernel instead, so that it still holds the fluid that sees it. A mirrored free-slip
 * wall (freeSlipViscosity 'mirror') mirrors the fluid's velocity averaged with the laminar pair
 * coefficients instead (mirrorWeight), so that it exerts no tangential force.
 */
export function extrapolateVariableWalls(
  ctx: InteractionContext,
  cellBegin: number,
  cellEnd: number,
): void {
  const a = ctx.arrays
  const { posX, posY, posZ, velX, velY, velZ, rho, press, invRho, kind, accX, accY, accZ, packed } =
    a
  const { viscVX, viscVY, viscVZ, normalX, normalY, normalZ, mass, hsml } = a
  const cellStart = ctx.grid.cellStart
  const rowBegin = ctx.rowBegin
  const rowEnd = ctx.rowEnd
  const rowShiftY = ctx.rowShiftY
  const k = ctx.constants
  const riemann = k.riemannWall === 1
  const freeSlipMirror = k.freeSlipMirror
  const noSlip = a.noSlip
  const h = k.h
  const alpha = k.kernelAlpha
  const gradFactor = k.kernelGradFactor
  const wendland = k.kernelCode === KERNEL_CODE.wendland
  const [gx, gy, gz] = k.gravity
  const rho0 = k.referenceDensity
  const invRho0 = 1 / rho0
  const invStiffness = 1 / k.stiffness
  const invGamma = 1 / k.gamma
  const densityMin = k.densityMin
  const densityMax = k.densityMax
  const FLUID = PARTICLE_KIND.fluid
  const dryGeneration = ctx.grid.dryGeneration
  const generation = ctx.grid.params[GRID_PARAM.generation]!
  for (let c = cellBegin; c < cellEnd; c++) {
    const pBegin = cellStart[c]!
    const pEnd = cellStart[c + 1]!
    // no fluid around: its walls were set to p = 0, ρ0 in this sort's first pass
    if (pBegin === pEnd || dryGeneration[c] === generation) continue
    let rows = -1
    for (let i = pBegin; i < pEnd; i++) {
      if (kind[i] === FLUID) continue
      if (rows < 0) {
        rows = fillStencilRows(ctx, c, true)
        if (rows === 0) dryGeneration[c] = generation
      }
      const xi = posX[i]!
      const yi = posY[i]!
      const zi = posZ[i]!
      const hi = hsml[i]!
      const mi = mass[i]!
      const vi = mi * invRho0
      // a mirrored free-slip wall: the fluid's velocity weighted by the laminar pair terms' own
      // coefficients (see mirrorWeight), so that the wall exerts no net tangential force
      const mirror = freeSlipMirror && noSlip[i] === 0
      let sumF = 0
      let sumFx = 0
      let sumFy = 0
      let sumFz = 0
      let sumW = 0
      let sumP = 0
      let sumRx = 0
      let sumRy = 0
      let sumRz = 0
      let sumVx = 0
      let sumVy = 0
      let sumVz = 0
      // pass 0: the wall's own kernel; pass 1 (no fluid within it): the pair kernel
      for (let pass = 0; pass < 2 && sumW === 0; pass++) {
        for (let r = 0; r < rows; r++) {
          const jEnd = rowEnd[r]!
          const yr = yi - rowShiftY[r]!
          for (let j = rowBegin[r]!; j < jEnd; j++) {
            const o = j * STRIDE
            // fluid records have 1/ρ > 0; wall records (being rewritten in this pass) stay < 0
            if (!(packed[o + 7]! > 0)) continue
            const dx = xi - packed[o]!
            const dy = yr - packed[o + 1]!
            const dz = zi - packed[o + 2]!
            const r2 = dx * dx + dy * dy + dz * dz
            const hij = 0.5 * (hi + hsml[j]!)
            if (mirror && pass === 0 && r2 < 4 * hij * hij) {
              const fw = mirrorWeight(
                r2,
                hij,
                h,
                gradFactor,
                wendland,
                mass[j]!,
                packed[o + 7]!,
                mi,
                vi,
              )
              sumF += fw
              sumFx += fw * packed[o + 3]!
              sumFy += fw * packed[o + 4]!
              sumFz += fw * packed[o + 5]!
            }
            const hk = pass === 0 ? hi : hij
            if (r2 >= 4 * hk * hk) continue
            const q = Math.sqrt(r2) / hk
            const s = h / hk
            const ak = alpha * s * s * s * mass[j]!
            let w: number
            if (wendland) {
              const t = 1 - 0.5 * q
              const t2 = t * t
              w = ak * t2 * t2 * (2 * q + 1)
            } else if (q < 1) {
              w = ak * (1 - 1.5 * q * q + 0.75 * q * q * q)
            } else {
              const t = 2 - q
              w = ak * 0.25 * t * t * t
            }
            sumW += w
            sumP += packed[o + 6]! * w
            const rw = rho[j]! * w
            sumRx += rw * dx
            sumRy += rw * dy
            sumRz += rw * dz
            sumVx += packed[o + 3]! * w
            sumVy += packed[o + 4]! * w
            sumVz += packed[o + 5]! * w
          }
        }
      }
      if (sumW > 0) {
        const invW = 1 / sumW
        let p =
          (sumP + (gx - accX[i]!) * sumRx + (gy - accY[i]!) * sumRy + (gz - accZ[i]!) * sumRz) *
          invW
        // never below zero, so that a wall cannot pull fluid in (DualSPHysics keeps its boundary
        // density at or above ρ0 for the same reason)
        if (p < 0) p = 0
        const ratio = p * invStiffness + 1
        let density = rho0 * Math.pow(ratio, invGamma)
        if (density < densityMin) density = densityMin
        else if (density > densityMax) density = densityMax
        press[i] = p
        rho[i] = density
        invRho[i] = 1 / density
        const invF = sumF > 0 ? 1 / sumF : 0
        setWallViscousVelocity(
          a,
          i,
          freeSlipMirror && noSlip[i] === 0,
          sumF > 0 ? sumFx * invF : sumVx * invW,
          sumF > 0 ? sumFy * invF : sumVy * invW,
          sumF > 0 ? sumFz * invF : sumVz * invW,
          sumRx,
          sumRy,
          sumRz,
        )
        if (riemann) {
          // Σ ρ_f W (r_w − r_f) points from the fluid into the wall: its opposite is the normal
          const length = Math.sqrt(sumRx * sumRx + sumRy * sumRy + sumRz * sumRz)
          const inv = length > 0 ? -1 / length : 0
          normalX[i] = sumRx * inv
          normalY[i] = sumRy * inv
          normalZ[i] = sumRz * inv
        }
      } else {
        press[i] = 0
        rho[i] = rho0
        invRho[i] = 1 / rho0
        viscVX[i] = velX[i]!
        viscVY[i] = velY[i]!
        viscVZ[i] = velZ[i]!
        if (riemann) normalX[i] = normalY[i] = normalZ[i] = 0
      }
      const o = i * STRIDE
      packed[o + 6] = press[i]!
      // the wall's volume in the pair terms is its lattice cell, m/ρ0: the wall does not compress
      packed[o + 7] = -mass[i]! * invRho0
    }
  }
}

/**
 * The weight of fluid particle j (mass m_j, volume V_j, at distance² r2) in a mirrored free-slip
 * wall particle's velocity: the laminar pair coefficient of variableForces.ts as it acts on j,
 * m_j w (V_j + V_w) |F(r, h_ij)| r²/(r² + η²), w = 2 m_w/(m_j + m_w). The viscous force the wall
 * exerts, Σ_j m_j λ_j (v_j − v_w), is then zero in the tangential directions, as a symmetry
 * plane's is: a Shepard average with the wall's own kernel smoothed the fluid's velocity over a
 * support other than the pairs' (the coarse side of a level interface), and a mirrored side wall
 * next to the interface dragged the fluid (REFINEMENT_FINDINGS.md, 'The remainder').
 */
function mirrorWeight(
  r2: number,
  hij: number,
  h: number,
  gradFactor: number,
  wendland: boolean,
  mj: number,
  vj: number,
  mw: number,
  vw: number,
): number {
  const f = pairGradFactor(Math.sqrt(r2), hij, h, gradFactor, wendland)
  const fr = (f * r2) / (r2 + 0.01 * hij * hij)
  return (-mj * (vj + vw) * 2 * mw * fr) / (mj + mw)
}

/**
 * Particle shifting (shiftParticles, shifting.ts) with variable resolution: per pair the kernel
 * W(r, h_ij), h_ij = (h_i + h_j)/2, and W(dp) at the pair's spacing (dp h_ij/h); the scale and the
 * largest shift of particle i are those of its own spacing (× h_i/h). shiftParticles reads:
 *   δr_i = −scale · Σ_j V_j (1 + R (W_ij/W(dp))⁴) ∇W_ij,   scale = 4 h U_max dt
 * (Sun et al. 2017's −CFL·Ma·(2h)² with the step's own Courant number dt c0/h and Ma = U_max/c0).
 * ∇·r = −Σ V_j r_ij·∇W_ij tells the free surface apart and n = −Σ V_j ∇W_ij / |…| is its normal:
 * near the surface (∇·r < 2.75) sun17 keeps the tangential part of δr; lyu21 also keeps an
 * inward normal part (δr·n < 0, it fills voids behind the surface, never pushes particles out)
 * and does not shift splashes (∇·r < 1.5). |δr| ≤ 0.1 dp. Writes posX..posZ of its own particles
 * only; reads the records, so threads can share it.
 */
export function shiftVariableParticles(
  ctx: InteractionContext,
  cellBegin: number,
  cellEnd: number,
  scale: number,
): void {
  const { packed, kind, posX, posY, posZ, hsml } = ctx.arrays
  const cellStart = ctx.grid.cellStart
  const rowBegin = ctx.rowBegin
  const rowEnd = ctx.rowEnd
  const rowShiftY = ctx.rowShiftY
  const k = ctx.constants
  const support2 = k.support2
  const h = k.h
  const alpha = k.kernelAlpha
  const gradFactor = k.kernelGradFactor
  const wendland = k.kernelCode === KERNEL_CODE.wendland
  const invWdp = 1 / k.kernelAtDp
  const lyu = k.shiftingCode === 2
  const maxShift = MAX_DP * k.particleDiameter
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
      const hi = hsml[i]!
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
          const hij = 0.5 * (hi + hsml[j]!)
          if (r2 >= 4 * hij * hij || r2 < MIN_R2) continue
          const q = Math.sqrt(r2) / hij
          const s = h / hij
          const s3 = s * s * s
          // W and F at h_ij against W(dp) of h: the ratio W_ij/W(dp_ij) takes s³ off w
          const gf = gradFactor * s3 * s * s
          let w: number
          let f: number
          if (wendland) {
            const t = 1 - 0.5 * q
            const t3 = t * t * t
            w = alpha * t3 * t * (2 * q + 1)
            f = gf * t3
          } else if (q < 1) {
            w = alpha * (1 - 1.5 * q * q + 0.75 * q * q * q)
            f = gf * (-3 + 2.25 * q)
          } else {
            const t = 2 - q
            w = alpha * 0.25 * t * t * t
            f = (gf * (-0.75 * t * t)) / q
          }
          const volume = packed[o + 7]!
          const vf = (volume < 0 ? -volume : volume) * f
          gx += vf * dx
          gy += vf * dy
          gz += vf * dz
          const ratio = w * invWdp
          const r4 = ratio * ratio * ratio * ratio
          const tensile = vf * (1 + TENSILE_R * r4)
          sx += tensile * dx
          sy += tensile * dy
          sz += tensile * dz
          divergence -= vf * r2
        }
      }
      if (lyu && divergence < SPLASH) continue
      const own = hi / h
      let ddx = -scale * own * sx
      let ddy = -scale * own * sy
      let ddz = -scale * own * sz
      if (divergence < NEAR_SURFACE) {
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
      if (d2 > maxShift2 * own * own) {
        const s = (maxShift * own) / Math.sqrt(d2)
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
