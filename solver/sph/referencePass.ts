/**
 * A plain reference loop over the force pass's pairs (benchmarks: how close the force loop is to
 * the cost of visiting the neighbours at all), on a cell range like the force pass.
 */
import { PACK_STRIDE, PARTICLE_KIND } from './particles.ts'
import type { InteractionContext } from './stencil.ts'
import { fillStencilRows, STAT, STAT_STRIDE } from './stencil.ts'

// Imported constants copied into module bindings: inside hot loops an imported binding may be a
// getter (test runners rewrite imports into module objects).
const STRIDE = PACK_STRIDE

/**
 * A plain reference loop over the same pairs as computeForces with a trivial kernel (it sums r²),
 * to measure how close the force loop is to the cost of visiting the neighbours at all.
 */
export function runReferencePass(
  ctx: InteractionContext,
  cellBegin: number,
  cellEnd: number,
  slot: number,
): void {
  const { packed, kind, accX } = ctx.arrays
  const cellStart = ctx.grid.cellStart
  const rowBegin = ctx.rowBegin
  const rowEnd = ctx.rowEnd
  const rowShiftY = ctx.rowShiftY
  const k = ctx.constants
  const support2 = k.support2
  const MIN_R2 = 1e-24 * support2
  const FLUID = PARTICLE_KIND.fluid
  const stats = ctx.stats
  const base = slot * STAT_STRIDE
  let interactions = 0
  let checksum = 0
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
      let sum = 0
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
          interactions++
          sum += r2
        }
      }
      accX[i] = sum
      checksum += sum
    }
  }
  stats[base + STAT.interactions] = interactions
  stats[base + STAT.checksum] = checksum
}
