/**
 * Viscosity models of a material (spec: viscosityKind constant, temperature, shear_rate): the
 * kinematic viscosity of each fluid particle from the material's table, over a cell range so that
 * threads can share it. The force pass then takes the pair viscosity as the harmonic mean
 * 2 ν_i ν_j/(ν_i + ν_j) (see NUMERICS.md, 'Heat conduction and viscosity models').
 */
import { KERNEL_CODE } from './config.ts'
import { PACK_STRIDE, PARTICLE_KIND } from './particles.ts'
import type { InteractionContext } from './stencil.ts'
import { fillStencilRows } from './stencil.ts'

// imported constants as module bindings: test runners turn imports into getters, slow in loops
const STRIDE = PACK_STRIDE
const FLUID = PARTICLE_KIND.fluid

/** SphConstants.viscosityModel: one ν, ν(T) from a table, ν(γ̇) from a table. */
export const VISCOSITY_MODEL = { constant: 0, temperature: 1, shearRate: 2 } as const

/** A viscosity table: abscissae (temperature K or shear rate 1/s) ascending, ν in m²/s. */
export interface ViscosityTable {
  x: number[]
  nu: number[]
}

/**
 * Checks and orders a table's rows (x ascending, no repeated x, finite values, ν > 0, at least 2
 * rows); returns the problem as a message, or the ordered table.
 */
export function orderViscosityTable(
  rows: readonly { x: number; nu: number }[],
): ViscosityTable | string {
  if (rows.length < 2) return 'needs at least 2 rows'
  const sorted = [...rows].sort((a, b) => a.x - b.x)
  for (let i = 0; i < sorted.length; i++) {
    const row = sorted[i]!
    if (!Number.isFinite(row.x) || !Number.isFinite(row.nu))
      return 'has a value that is not a number'
    if (!(row.nu > 0)) return 'has a viscosity that is not greater than 0'
    if (i > 0 && row.x === sorted[i - 1]!.x) return `repeats the value ${row.x}`
  }
  return { x: sorted.map((row) => row.x), nu: sorted.map((row) => row.nu) }
}

/**
 * ν at x: linear between the table's rows, the end rows' values beyond them (a table says
 * nothing outside its range; extrapolating a steep table could give ν ≤ 0).
 */
export function interpolateViscosity(
  x: readonly number[],
  nu: readonly number[],
  at: number,
): number {
  const n = x.length
  if (!(at > x[0]!)) return nu[0]!
  if (at >= x[n - 1]!) return nu[n - 1]!
  // bisection: tables have up to 100 rows
  let lo = 0
  let hi = n - 1
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1
    if (x[mid]! <= at) lo = mid
    else hi = mid
  }
  const x0 = x[lo]!
  const t = (at - x0) / (x[hi]! - x0)
  return nu[lo]! + t * (nu[hi]! - nu[lo]!)
}

/** The largest ν of a table: with values held beyond its ends, no particle's ν exceeds it. */
export function maxTableViscosity(table: ViscosityTable): number {
  return Math.max(...table.nu)
}

/**
 * The kinematic viscosity of the fluid particles of a cell range into visc: ν(T_i) from the
 * temperature table, or ν(γ̇_i) from the shear-rate table with the strain-rate magnitude
 * γ̇ = √(2 D:D), D = (L + Lᵀ)/2, L_ab = Σ_j V_j (v_j − v_i)_a (∇_i W_ij)_b over fluid and no-slip
 * wall neighbours (a no-slip wall with its mirrored velocity 2 v_w − ṽ_f of the wall pass; a
 * free-slip wall adds nothing: the fluid may slide along it). Needs the pressures and walls
 * passes (neighbour records, walls' viscous velocities).
 */
export function computeViscosities(
  ctx: InteractionContext,
  cellBegin: number,
  cellEnd: number,
): void {
  const { packed, kind, visc, temp, noSlip, viscVX, viscVY, viscVZ } = ctx.arrays
  const cellStart = ctx.grid.cellStart
  const rowBegin = ctx.rowBegin
  const rowEnd = ctx.rowEnd
  const rowShiftY = ctx.rowShiftY
  const k = ctx.constants
  const tableX = k.heat.viscosityTableX
  const tableNu = k.heat.viscosityTableNu
  const byTemperature = k.heat.viscosityModel === VISCOSITY_MODEL.temperature
  const support2 = k.support2
  const invH = 1 / k.h
  const gradFactor = k.kernelGradFactor
  const wendland = k.kernelCode === KERNEL_CODE.wendland
  const MIN_R2 = 1e-24 * support2
  for (let c = cellBegin; c < cellEnd; c++) {
    const pBegin = cellStart[c]!
    const pEnd = cellStart[c + 1]!
    if (pBegin === pEnd) continue
    let rows = -1
    for (let i = pBegin; i < pEnd; i++) {
      if (kind[i] !== FLUID) continue
      if (byTemperature) {
        visc[i] = interpolateViscosity(tableX, tableNu, temp[i]!)
        continue
      }
      if (rows < 0) rows = fillStencilRows(ctx, c, false)
      const oi = i * STRIDE
      const xi = packed[oi]!
      const yi = packed[oi + 1]!
      const zi = packed[oi + 2]!
      const vxi = packed[oi + 3]!
      const vyi = packed[oi + 4]!
      const vzi = packed[oi + 5]!
      let lxx = 0
      let lxy = 0
      let lxz = 0
      let lyx = 0
      let lyy = 0
      let lyz = 0
      let lzx = 0
      let lzy = 0
      let lzz = 0
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
          let vj = packed[o + 7]!
          let ux: number
          let uy: number
          let uz: number
          if (vj > 0) {
            ux = packed[o + 3]! - vxi
            uy = packed[o + 4]! - vyi
            uz = packed[o + 5]! - vzi
          } else {
            if (noSlip[j] === 0) continue
            vj = -vj
            ux = viscVX[j]! - vxi
            uy = viscVY[j]! - vyi
            uz = viscVZ[j]! - vzi
          }
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
          const w = vj * f
          const gx = w * dx
          const gy = w * dy
          const gz = w * dz
          lxx += ux * gx
          lxy += ux * gy
          lxz += ux * gz
          lyx += uy * gx
          lyy += uy * gy
          lyz += uy * gz
          lzx += uz * gx
          lzy += uz * gy
          lzz += uz * gz
        }
      }
      // 2 D:D = 2 (Dxx² + Dyy² + Dzz²) + 4 (Dxy² + Dxz² + Dyz²), D_ab = (L_ab + L_ba)/2
      const dxy = 0.5 * (lxy + lyx)
      const dxz = 0.5 * (lxz + lzx)
      const dyz = 0.5 * (lyz + lzy)
      const rate = Math.sqrt(
        2 * (lxx * lxx + lyy * lyy + lzz * lzz) + 4 * (dxy * dxy + dxz * dxz + dyz * dyz),
      )
      visc[i] = interpolateViscosity(tableX, tableNu, rate)
    }
  }
}
