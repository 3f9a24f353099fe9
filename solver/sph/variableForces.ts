/**
 * The force pass of a run with variable resolution (refinement zones, refinement.ts): the pass of
 * forces.ts with each particle's own smoothing length h_i (hsml) and per pair the symmetric
 * kernel W(r, h_ij), h_ij = (h_i + h_j)/2, so ∇_i W_ij = −∇_j W_ji. Uniform runs keep forces.ts
 * (bit-identical, and as fast: no per-pair h there). Not here (refused with refinement,
 * variableResolution.ts): dynamic boundary particles and the log-law wall function.
 */
import { KERNEL_CODE } from './config.ts'
import { PACK_STRIDE, PARTICLE_KIND } from './particles.ts'
import type { InteractionContext } from './stencil.ts'
import { fillStencilRows, STAT_STRIDE, storeAcceleration, writeStats } from './stencil.ts'

// Imported constants copied into module bindings: inside hot loops an imported binding may be a
// getter (test runners rewrite imports into module objects).
const STRIDE = PACK_STRIDE

/**
 * The kernel's gradient factor F (∇W = F r) at distance rr for a pair's smoothing length hij:
 * the factor at h (gradFactor, config.ts) scaled by (h/hij)⁵ (3D), the shape taken at rr/hij.
 */
export function pairGradFactor(
  rr: number,
  hij: number,
  h: number,
  gradFactor: number,
  wendland: boolean,
): number {
  const invHij = 1 / hij
  const s = h * invHij
  const s2 = s * s
  const gf = gradFactor * s2 * s2 * s
  if (wendland) {
    const t = 1 - 0.5 * rr * invHij
    return gf * t * t * t
  }
  const q = rr * invHij
  if (q < 1) return gf * (-3 + 2.25 * q)
  const t = 2 - q
  return (gf * (-0.75 * t * t)) / q
}

/**
 * Momentum and continuity for the fluid particles of a cell range, as computeForces (forces.ts)
 * with per pair h_ij = (h_i + h_j)/2: the kernel gradient F(r, h_ij) = F_h(r h/h_ij) (h/h_ij)⁵,
 * η² = 0.01 h_ij², μ_ij = h_ij v·r/(r² + η²) and the density diffusion's 2δ h_ij c0. With
 * V_j = m_j/ρ_j:
 *   a_i = −Σ V_j (p_i + p_j)/ρ_i ∇W_ij + Σ α c0 μ_ij (V_i + V_j)/2 · w_ij ∇W_ij
 *         + ν Σ (V_i + V_j) w_ij (r·∇W_ij)/(r²+η²) u_ij + g,   w_ij = 2 m_j/(m_i + m_j)
 *   dρ_i/dt = ρ_i Σ V_j v_ij·∇W_ij + 2δ c0 Σ h_ij V_j (p_j − p_i + ρ_i g·r_ij)/c_i² (−r·∇W)/(r²+η²)
 * The pressure term conserves momentum for any masses (m_i V_j/ρ_i = V_i V_j); the weight w_ij
 * makes the viscous pair terms do so too (m_i w_ij (V_i + V_j) is symmetric) and is 1 for equal
 * masses, where every term is the one of forces.ts.
 *
 * Across a level interface the laminar sum L_i = Σ K_ij (v_j − v_i), K_ij = −ν w_ij (V_i + V_j)
 * (r·∇W_ij)/(r²+η²), is not a Laplacian: with h_ij larger towards the coarse side its first moment
 * M_i = Σ K_ij r_ij (r_ij = r_i − r_j) is not zero, so L_i ≈ −M_i·∇v + ν∇²v, an error that grows as
 * 1/dp (a Poiseuille channel's fine row next to the interface lost a third of its drive; see
 * REFINEMENT_FINDINGS.md). A particle with a neighbour of another spacing adds M_i·∇v_i,
 * ∇v_i = −B_i⁻¹ Σ V_j F_ij (v_i − v_j) ⊗ r_ij with B_i = −Σ V_j F_ij r_ij ⊗ r_ij (exact for a linear
 * field), over the pairs of its laminar sum, and scales the sum by 3/tr B_i (B_i = I for a full
 * kernel; its error is the sum's second-moment error). That is not a pair term: momentum is kept to
 * the interface's truncation error, not to round-off; particles whose neighbours share one spacing
 * never take it.
 */
export function computeVariableForces(
  ctx: InteractionContext,
  cellBegin: number,
  cellEnd: number,
  slot: number,
): void {
  const a = ctx.arrays
  const { packed, rho, kind, noSlip, viscVX, viscVY, viscVZ, drho } = a
  const { normalX, normalY, normalZ, hsml, mass } = a
  const cellStart = ctx.grid.cellStart
  const rowBegin = ctx.rowBegin
  const rowEnd = ctx.rowEnd
  const rowShiftY = ctx.rowShiftY
  const k = ctx.constants
  const freeSlipMirror = k.freeSlipMirror
  const h = k.h
  const gradFactor = k.kernelGradFactor
  const wendland = k.kernelCode === KERNEL_CODE.wendland
  const [gx, gy, gz] = k.gravity
  const quarterAlphaC0 = 0.25 * k.alpha * k.speedOfSound
  const nu = k.nu
  // 2δ c0 per unit of h (the pair's h_ij multiplies it)
  const diffusionPerH = k.diffusionCoefficient / h
  const [kx, ky, kz] = k.hydrostaticDensityGradient
  const hydrostatic = kx !== 0 || ky !== 0 || kz !== 0
  const hx = hydrostatic ? gx : 0
  const hy = hydrostatic ? gy : 0
  const hz = hydrostatic ? gz : 0
  const stiffness = k.stiffness
  const gamma = k.gamma
  const riemann = k.riemannWall === 1
  const riemannGeometric = k.riemannWall === 2
  const c0 = k.speedOfSound
  const FLUID = PARTICLE_KIND.fluid
  const MIN_R2 = 1e-24 * k.support2
  const stats = ctx.stats
  const base = slot * STAT_STRIDE
  let interactions = 0
  let maxAcceleration2 = 0
  let maxViscous = 0
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
      const vxi = packed[oi + 3]!
      const vyi = packed[oi + 4]!
      const vzi = packed[oi + 5]!
      const pi = packed[oi + 6]!
      const rhoi = rho[i]!
      const hi = hsml[i]!
      const mi = mass[i]!
      const invRhoi = 1 / rhoi
      const vi = packed[oi + 7]!
      const invC2i = rhoi / (gamma * (pi + stiffness))
      let ax = 0
      let ay = 0
      let az = 0
      let lx = 0
      let ly = 0
      let lz = 0
      let arp = 0
      let diff = 0
      let wgx = 0
      let wgy = 0
      let wgz = 0
      let wsum = 0
      let wvx = 0
      let wvy = 0
      let wvz = 0
      // the laminar sum's first moment, and the moments of the velocity gradient (see above)
      let mixed = false
      let mx = 0
      let my = 0
      let mz = 0
      let bxx = 0
      let bxy = 0
      let bxz = 0
      let byy = 0
      let byz = 0
      let bzz = 0
      let gxx = 0
      let gxy = 0
      let gxz = 0
      let gyx = 0
      let gyy = 0
      let gyz = 0
      let gzx = 0
      let gzy = 0
      let gzz = 0
      for (let r = 0; r < rows; r++) {
        const jEnd = rowEnd[r]!
        const yr = yi - rowShiftY[r]!
        for (let j = rowBegin[r]!; j < jEnd; j++) {
          const o = j * STRIDE
          const dx = xi - packed[o]!
          const dy = yr - packed[o + 1]!
          const dz = zi - packed[o + 2]!
          const r2 = dx * dx + dy * dy + dz * dz
          const hj = hsml[j]!
          const hij = 0.5 * (hi + hj)
          if (r2 >= 4 * hij * hij || r2 < MIN_R2) continue
          interactions++
          const f = pairGradFactor(Math.sqrt(r2), hij, h, gradFactor, wendland)
          const dvx = vxi - packed[o + 3]!
          const dvy = vyi - packed[o + 4]!
          const dvz = vzi - packed[o + 5]!
          let pj = packed[o + 6]!
          let vj = packed[o + 7]!
          const invR2 = 1 / (r2 + 0.01 * hij * hij)
          const fr = f * r2 * invR2
          let ux = dvx
          let uy = dvy
          let uz = dvz
          let viscous = 1
          if (vj > 0) {
            diff += hij * vj * (pj - pi + rhoi * (hx * dx + hy * dy + hz * dz)) * fr
          } else {
            vj = -vj
            if (riemann) {
              const approach = -(dvx * normalX[j]! + dvy * normalY[j]! + dvz * normalZ[j]!)
              if (approach > 0) {
                const beta = 6 * approach < c0 ? 6 * approach : c0
                pj += 2 * rhoi * beta * approach
              }
            } else if (riemannGeometric) {
              const wf = vj * f
              wgx += wf * dx
              wgy += wf * dy
              wgz += wf * dz
              wsum += wf
              wvx += wf * packed[o + 3]!
              wvy += wf * packed[o + 4]!
              wvz += wf * packed[o + 5]!
            }
            // a wall pushes, never pulls (see forces.ts)
            if (pi + pj < 0) pj = -pi
            if (noSlip[j] === 0 && !freeSlipMirror) viscous = 0
            else {
              ux = vxi - viscVX[j]!
              uy = vyi - viscVY[j]!
              uz = vzi - viscVZ[j]!
            }
          }
          arp += f * vj * (dvx * dx + dvy * dy + dvz * dz)
          const vdotr = (ux * dx + uy * dy + uz * dz) * viscous
          const mu = hij * vdotr * invR2
          const muAbs = Math.abs(mu)
          const mj = mass[j]!
          const sumV = ((vi + vj) * 2 * mj) / (mi + mj)
          const coef = -(pi + pj) * invRhoi * vj + quarterAlphaC0 * (mu - muAbs) * sumV
          const lam = nu * sumV * fr * viscous
          lx += lam * ux
          ly += lam * uy
          lz += lam * uz
          if (viscous === 1) {
            if (hj !== hi) mixed = true
            const m = lam
            mx -= m * dx
            my -= m * dy
            mz -= m * dz
            const b = -vj * fr
            bxx += b * dx * dx
            bxy += b * dx * dy
            bxz += b * dx * dz
            byy += b * dy * dy
            byz += b * dy * dz
            bzz += b * dz * dz
            gxx -= b * ux * dx
            gxy -= b * ux * dy
            gxz -= b * ux * dz
            gyx -= b * uy * dx
            gyy -= b * uy * dy
            gyz -= b * uy * dz
            gzx -= b * uz * dx
            gzy -= b * uz * dy
            gzz -= b * uz * dz
          }
          if (muAbs > maxViscous) maxViscous = muAbs
          const cf = coef * f
          ax += cf * dx
          ay += cf * dy
          az += cf * dz
        }
      }
      if (wsum !== 0) {
        // the Riemann problem along the wall's kernel gradient at i (see forces.ts)
        const g = Math.sqrt(wgx * wgx + wgy * wgy + wgz * wgz)
        if (g > 0) {
          const iw = 1 / wsum
          const approach =
            ((vxi - wvx * iw) * wgx + (vyi - wvy * iw) * wgy + (vzi - wvz * iw) * wgz) / g
          if (approach > 0) {
            const beta = 6 * approach < c0 ? 6 * approach : c0
            const sb = -2 * beta * approach
            ax += sb * wgx
            ay += sb * wgy
            az += sb * wgz
          }
        }
      }
      if (mixed) {
        // + M·∇v = −(B⁻¹M)·g per velocity component (B symmetric); B is singular only for a
        // particle without neighbours in some direction, which keeps the plain sum
        const c00 = byy * bzz - byz * byz
        const c01 = bxz * byz - bxy * bzz
        const c02 = bxy * byz - bxz * byy
        const det = bxx * c00 + bxy * c01 + bxz * c02
        if (det > 1e-12 * (bxx + byy + bzz) ** 3) {
          const c11 = bxx * bzz - bxz * bxz
          const c12 = bxy * bxz - bxx * byz
          const c22 = bxx * byy - bxy * bxy
          const wx = (c00 * mx + c01 * my + c02 * mz) / det
          const wy = (c01 * mx + c11 * my + c12 * mz) / det
          const wz = (c02 * mx + c12 * my + c22 * mz) / det
          lx -= wx * gxx + wy * gxy + wz * gxz
          ly -= wx * gyx + wy * gyy + wz * gyz
          lz -= wx * gzx + wy * gzy + wz * gzz
          // B is the identity for a full kernel: 3/tr B undoes the interface's second-moment
          // error (tr B 2.7–3.3 there), kept within [0.75, 1.5] where the kernel is cut short
          let norm = 3 / (bxx + byy + bzz)
          if (norm < 0.75) norm = 0.75
          else if (norm > 1.5) norm = 1.5
          lx *= norm
          ly *= norm
          lz *= norm
        }
      }
      const a2 = storeAcceleration(a, i, null, ax + lx + gx, ay + ly + gy, az + lz + gz)
      drho[i] = rhoi * arp - diffusionPerH * invC2i * diff
      if (a2 > maxAcceleration2) maxAcceleration2 = a2
    }
  }
  writeStats(stats, base, maxAcceleration2, maxViscous, interactions)
}
