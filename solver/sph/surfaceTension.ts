/**
 * Surface tension between two fluids (settings.surfaceTension with multiphase, two materials):
 * the continuum surface force (CSF) of Brackbill, Kothe & Zemach (1992) in the SPH form of Morris
 * (2000), with the curvature normalised as Adami, Hu & Adams (2010) do it.
 *
 * The colour function C is 0 in the first phase and 1 in the second. This pass (before the force
 * pass, on the end state of the pressures pass) computes at each fluid particle
 *   ∇C_i = Σ_j V_j (C_j − C_i) ∇W_ij        (fluid neighbours only)
 * which is zero away from the interface, points into the second phase, and integrates to the jump
 * of C (1) across it: |∇C| is the interface's delta function. Its unit normal n̂ = ∇C/|∇C| is kept
 * where |∇C| > 0.01/h (Morris' filter against unreliable directions at the edge of the band).
 * The force pass (computeMultiphaseForces) then adds a_i = σ κ_i ∇C_i/ρ_i with
 *   κ_i = −∇·n̂ = 2 Σ_j V_j (n̂_i − n̂_j)·∇W_ij / Σ_j V_j |r_t|² |∇W_ij|/|r_ij|
 * over neighbours with a normal, r_t = r_ij − (n̂_i·r_ij) n̂_i the part of r_ij in i's tangent
 * plane. n̂ varies only along the interface (∇n̂ lies in the tangent plane), so the sum picks up
 * only the tangential second moment of the neighbours, and the denominator is that moment for
 * the 2 tangent directions: right in the thin band of particles that have a normal, which cuts
 * the support short across the interface but not along it. Adami et al. (2010, eq. 20) normalise
 * by Σ V_j |r||∇W| / 3, the moment over all 3 directions, so the missing normal direction made
 * κ 5–7 % too large (a lattice cylinder: κR 1.051–1.067 at R = 6–12 dp, against 1.005–1.022
 * here; NUMERICS.md). For a drop of the second fluid of radius R, κ = (d − 1)/R along the inward
 * normal: the pressure inside exceeds the outside by σκ (Laplace).
 *
 * Walls carry no colour: the wall is neutral, a contact angle of 90°; other contact angles are
 * refused at start (support.ts).
 *
 * Why CSF: with two fluids the pressure jump σκ is what the spec's example (water/air, σ = 0.072)
 * asks for; CSF gets it from σ directly, with no calibration. Pairwise (inter-particle) forces
 * (Tartakovsky & Meakin 2005, Akinci et al. 2013) need their strength fitted to σ for a given
 * kernel and resolution, so σ from the settings would not be σ in the flow.
 */
import { KERNEL_CODE } from './config.ts'
import { PACK_STRIDE, PARTICLE_KIND } from './particles.ts'
import type { InteractionContext } from './stencil.ts'
import { fillStencilRows } from './stencil.ts'

const STRIDE = PACK_STRIDE

/** The normal is kept where |∇C| exceeds this times 1/h (Morris 2000). */
export const COLOUR_GRADIENT_THRESHOLD = 0.01

/**
 * The colour gradient of the fluid particles of a cell range: colourNorm = |∇C| and colourX..Z
 * its unit vector, or all 0 below the threshold. Reads the neighbour records (volumes) of the
 * pressures pass; each particle writes only its own entries.
 */
export function computeColourGradients(
  ctx: InteractionContext,
  cellBegin: number,
  cellEnd: number,
): void {
  const a = ctx.arrays
  const { packed, kind, phase, colourX, colourY, colourZ, colourNorm } = a
  const cellStart = ctx.grid.cellStart
  const rowBegin = ctx.rowBegin
  const rowEnd = ctx.rowEnd
  const rowShiftY = ctx.rowShiftY
  const k = ctx.constants
  const support2 = k.support2
  const invH = 1 / k.h
  const gradFactor = k.kernelGradFactor
  const wendland = k.kernelCode === KERNEL_CODE.wendland
  const threshold = COLOUR_GRADIENT_THRESHOLD * invH
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
      const ci = phase[i] === 1 ? 1 : 0
      let gx = 0
      let gy = 0
      let gz = 0
      for (let r = 0; r < rows; r++) {
        const jEnd = rowEnd[r]!
        const yr = yi - rowShiftY[r]!
        for (let j = rowBegin[r]!; j < jEnd; j++) {
          const o = j * STRIDE
          const vj = packed[o + 7]!
          if (!(vj > 0)) continue
          const dc = (phase[j] === 1 ? 1 : 0) - ci
          if (dc === 0) continue
          const dx = xi - packed[o]!
          const dy = yr - packed[o + 1]!
          const dz = zi - packed[o + 2]!
          const r2 = dx * dx + dy * dy + dz * dz
          if (r2 >= support2 || r2 < MIN_R2) continue
          const rr = Math.sqrt(r2)
          let f: number
          if (wendland) {
            const t = 1 - 0.5 * rr * invH
            f = gradFactor * t * t * t
          } else {
            const q = rr * invH
            if (q < 1) f = gradFactor * (-3 + 2.25 * q)
            else {
              const t = 2 - q
              f = (gradFactor * (-0.75 * t * t)) / q
            }
          }
          const s = vj * dc * f
          gx += s * dx
          gy += s * dy
          gz += s * dz
        }
      }
      const norm = Math.sqrt(gx * gx + gy * gy + gz * gz)
      if (norm > threshold) {
        const inv = 1 / norm
        colourX[i] = gx * inv
        colourY[i] = gy * inv
        colourZ[i] = gz * inv
        colourNorm[i] = norm
      } else {
        colourX[i] = colourY[i] = colourZ[i] = colourNorm[i] = 0
      }
    }
  }
}
