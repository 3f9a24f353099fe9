/**
 * Ghost-node extrapolation of the open boundaries (openBoundary.ts), after Tafuni et al. 2018
 * ("A versatile algorithm for the treatment of open boundary conditions in Smoothed particle
 * hydrodynamics GPU models", CMAME 342): a buffer particle at x_b, a distance |s| behind the
 * boundary plane, takes the fluid's values at its mirror image x_g = x_b + 2|s| n inside the
 * fluid, continued to x_b with the gradient found there (first order):
 *
 *   f(x_b) = f(x_g) + ∇f(x_g) · (x_b − x_g),
 *
 * with f and ∇f from the first-order consistent (corrected) SPH interpolation of Liu & Liu 2006,
 * the 4 × 4 system Σ_j V_j [W, ∂W] ⊗ [1, x_j − x_g] · (f, ∇f) = Σ_j f_j V_j [W, ∂W] over the
 * fluid particles within 2h of x_g. Where the system is ill-conditioned (|det| < 1e-3 of its
 * scaled form: few fluid neighbours) the Shepard value f(x_g) is taken, as in the paper.
 */
import { KERNEL_CODE } from './config.ts'
import type { SphConstants } from './config.ts'
import type { GridView } from './grid.ts'
import { cellOfPoint, GRID_PARAM } from './grid.ts'
import type { ParticleArrays } from './particles.ts'
import { PARTICLE_KIND } from './particles.ts'

const FLUID = PARTICLE_KIND.fluid

/** The quantities extrapolated: density and the three velocity components. */
export const GHOST_VALUES = 4

/**
 * Extrapolates ρ, vx, vy, vz from the fluid (particles of kind fluid whose part index is not
 * marked in `bufferPart`) at the ghost node `(gx, gy, gz)` to the point `(bx, by, bz)`; writes
 * them into `out` (ρ, vx, vy, vz) and returns the number of fluid neighbours (0: nothing written).
 */
export function extrapolateGhost(
  a: ParticleArrays,
  grid: GridView,
  k: SphConstants,
  bufferPart: Uint8Array,
  ghost: readonly [number, number, number],
  target: readonly [number, number, number],
  out: Float64Array,
): number {
  const { posX, posY, posZ, velX, velY, velZ, rho, kind, mass, partIndex } = a
  const p = grid.params
  const nx = p[GRID_PARAM.nx]!
  const ny = p[GRID_PARAM.ny]!
  const nz = p[GRID_PARAM.nz]!
  const period = p[GRID_PARAM.periodY]!
  const reach = p[GRID_PARAM.reach]!
  const reachY = p[GRID_PARAM.reachY]!
  const [x, y, z] = ghost
  const { cx, cy, cz, y: yp } = cellOfPoint(p, ghost)
  const h = k.h
  const invH = 1 / h
  const alpha = k.kernelAlpha
  const wendland = k.kernelCode === KERNEL_CODE.wendland
  // the system, scaled: distances in h, gradients times h (row-major 4 × 4, 4 right-hand sides)
  const m = new Float64Array(16)
  const rhs = new Float64Array(16)
  let neighbours = 0
  const x0 = Math.max(cx - reach, 0)
  const x1 = Math.min(cx + reach, nx - 1)
  for (let zz = Math.max(cz - reach, 0); zz <= Math.min(cz + reach, nz - 1); zz++) {
    const y0 = period > 0 ? cy - reachY : Math.max(cy - reach, 0)
    const y1 = period > 0 ? cy + reachY : Math.min(cy + reach, ny - 1)
    for (let yy = y0; yy <= y1; yy++) {
      const row = period > 0 ? ((yy % ny) + ny) % ny : yy
      const shift = period > 0 ? ((yy - row) / ny) * period : 0
      const base = nx * (row + ny * zz)
      const begin = grid.cellStart[base + x0]!
      const end = grid.cellStart[base + x1 + 1]!
      for (let j = begin; j < end; j++) {
        if (kind[j] !== FLUID || bufferPart[partIndex[j]!] === 1) continue
        // x_j − x_g in units of h
        const dx = (posX[j]! - x) * invH
        const dy = (posY[j]! + shift - yp) * invH
        const dz = (posZ[j]! - z) * invH
        const q2 = dx * dx + dy * dy + dz * dz
        if (q2 >= 4) continue
        const q = Math.sqrt(q2)
        let w: number
        let dwdq: number
        if (wendland) {
          const t = 1 - 0.5 * q
          w = alpha * t * t * t * t * (2 * q + 1)
          dwdq = -5 * alpha * q * t * t * t
        } else if (q < 1) {
          w = alpha * (1 - 1.5 * q * q + 0.75 * q * q * q)
          dwdq = alpha * (-3 * q + 2.25 * q * q)
        } else {
          const t = 2 - q
          w = alpha * 0.25 * t * t * t
          dwdq = -0.75 * alpha * t * t
        }
        neighbours++
        const volume = mass[j]! / rho[j]!
        // ∂W/∂x_g (times h) = −dW/dq (x_j − x_g)/(q h) · h
        const g = q > 0 ? (-dwdq / q) * volume : 0
        const weights = [w * volume, g * dx, g * dy, g * dz]
        const values = [rho[j]!, velX[j]!, velY[j]!, velZ[j]!]
        for (let r = 0; r < 4; r++) {
          const wr = weights[r]!
          m[4 * r] = m[4 * r]! + wr
          m[4 * r + 1] = m[4 * r + 1]! + wr * dx
          m[4 * r + 2] = m[4 * r + 2]! + wr * dy
          m[4 * r + 3] = m[4 * r + 3]! + wr * dz
          for (let c = 0; c < 4; c++) rhs[4 * r + c] = rhs[4 * r + c]! + wr * values[c]!
        }
      }
    }
  }
  if (neighbours === 0 || !(m[0]! > 0)) return 0
  const d = [(target[0] - x) * invH, (target[1] - y) * invH, (target[2] - z) * invH] as const
  if (solveFirstOrder(m, rhs)) {
    // rhs now holds, per quantity c, (f, h∂xf, h∂yf, h∂zf) in column c
    for (let c = 0; c < 4; c++)
      out[c] = rhs[c]! + rhs[4 + c]! * d[0] + rhs[8 + c]! * d[1] + rhs[12 + c]! * d[2]
  } else {
    // Shepard: the first row of the system
    for (let c = 0; c < 4; c++) out[c] = rhs[c]! / m[0]!
  }
  return neighbours
}

/**
 * Solves m · X = rhs (4 × 4, four right-hand sides as columns of rhs) in place by Gaussian
 * elimination with partial pivoting; false (rhs unspecified) when |det| of m, its rows scaled by
 * their diagonal-free magnitude m[0], falls below 1e-3.
 */
function solveFirstOrder(m: Float64Array, rhs: Float64Array): boolean {
  const scale = m[0]!
  let det = 1
  for (let col = 0; col < 4; col++) {
    let pivot = col
    for (let r = col + 1; r < 4; r++)
      if (Math.abs(m[4 * r + col]!) > Math.abs(m[4 * pivot + col]!)) pivot = r
    if (pivot !== col) {
      det = -det
      for (let c = 0; c < 4; c++) {
        let t = m[4 * col + c]!
        m[4 * col + c] = m[4 * pivot + c]!
        m[4 * pivot + c] = t
        t = rhs[4 * col + c]!
        rhs[4 * col + c] = rhs[4 * pivot + c]!
        rhs[4 * pivot + c] = t
      }
    }
    const diag = m[4 * col + col]!
    det *= diag / scale
    if (diag === 0) return false
    for (let r = col + 1; r < 4; r++) {
      const f = m[4 * r + col]! / diag
      if (f === 0) continue
      for (let c = col; c < 4; c++) m[4 * r + c] = m[4 * r + c]! - f * m[4 * col + c]!
      for (let c = 0; c < 4; c++) rhs[4 * r + c] = rhs[4 * r + c]! - f * rhs[4 * col + c]!
    }
  }
  if (!(Math.abs(det) >= 1e-3)) return false
  for (let col = 3; col >= 0; col--) {
    const diag = m[4 * col + col]!
    for (let c = 0; c < 4; c++) {
      let sum = rhs[4 * col + c]!
      for (let k = col + 1; k < 4; k++) sum -= m[4 * col + k]! * rhs[4 * k + c]!
      rhs[4 * col + c] = sum / diag
    }
  }
  return true
}
