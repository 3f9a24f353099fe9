/**
 * The volume correction of a fluid fill: the top of the fill is trimmed or completed, column by
 * column, so that particles × dp³ equals the part's volume below its fill height to one particle
 * where the part's size along gravity is not a whole number of particle diameters. Columns whose top
 * cell lies least inside the part lose their top particle first; columns whose next cell lies most
 * inside it (below the fill level and the part's surface) gain one first; ties spread evenly over
 * the surface (R2 sequence), so a partial top layer is uniform.
 */
import type { ColumnCrossings } from './inside.ts'
import { siteCoordinate, type SubGrid } from './lattice.ts'

/** Layers the volume correction may trim from the top of a fill. */
const MAX_TRIMMED_LAYERS = 3
/** The R2 sequence's constants: columns taken in this order spread evenly over the surface. */
const SPREAD_B = 0.7548776662466927
const SPREAD_C = 0.5698402909980532

/** The frame's sites along one lattice axis, as the volume correction walks them. */
export interface ColumnWalk {
  axis: 0 | 1 | 2
  /** +1 when up is +axis, −1 when it is −axis. */
  direction: 1 | -1
  grid: SubGrid
  crossings: ColumnCrossings
  /** Fill level as a height along up in the frame (Infinity: none). */
  levelHeight: number
}

/** The height along up of the surface above a site of column q at height h (level included). */
function ceilingAbove(walk: ColumnWalk, q: number, h: number): number {
  const { crossings, direction } = walk
  let ceiling = walk.levelHeight
  for (let e = crossings.offsets[q]!; e < crossings.offsets[q + 1]!; e++) {
    const height = direction * crossings.coordinates[e]!
    if (height > h && height < ceiling) ceiling = height
  }
  return ceiling
}

/**
 * Trims (need < 0) or completes (need > 0) the top of a fill by |need| particles: removed from
 * the column tops whose cells lie least inside the part, added on top of the columns whose next
 * cell lies most inside it (below the fill level and the part's surface); ties spread evenly.
 * Returns the particles added (> 0) or removed (< 0).
 */
export function correctTop(walk: ColumnWalk, mask: Uint8Array, need: number): number {
  const { axis, direction, grid } = walk
  const dp = grid.dp
  const b = ((axis + 1) % 3) as 0 | 1 | 2
  const c = ((axis + 2) % 3) as 0 | 1 | 2
  const sizes = [grid.nx, grid.ny, grid.nz]
  const strides = [1, grid.nx, grid.nx * grid.ny]
  const origins = [grid.i0, grid.j0, grid.k0]
  const na = sizes[axis]!
  const nb = sizes[b]!
  const nc = sizes[c]!
  const heightOf = (s: number) => direction * siteCoordinate(s + origins[axis]!, dp)
  let done = 0
  const passes = need < 0 ? MAX_TRIMMED_LAYERS : 1
  for (let pass = 0; pass < passes && done !== need; pass++) {
    const candidates: { site: number; score: number; spread: number }[] = []
    for (let qc = 0; qc < nc; qc++)
      for (let qb = 0; qb < nb; qb++) {
        const base = qb * strides[b]! + qc * strides[c]!
        // the top filled site of the column (walking down from the top)
        let top = -1
        for (let step = 0; step < na; step++) {
          const s = direction > 0 ? na - 1 - step : step
          if (mask[base + s * strides[axis]!] === 1) {
            top = s
            break
          }
        }
        if (top < 0) continue
        const h = heightOf(top)
        const ceiling = ceilingAbove(walk, qb + nb * qc, h)
        const spread = (qb * SPREAD_B + qc * SPREAD_C) % 1
        if (need < 0) {
          // the share of the top site's cell inside the part
          const inside = Math.min(1, Math.max(0, (ceiling - (h - dp / 2)) / dp))
          candidates.push({ site: base + top * strides[axis]!, score: inside, spread })
        } else {
          const next = top + direction
          if (next < 0 || next >= na) continue
          const inside = Math.min(1, Math.max(0, (ceiling - (h + dp / 2)) / dp))
          if (inside <= 0) continue
          candidates.push({ site: base + next * strides[axis]!, score: -inside, spread })
        }
      }
    // the least inside first (removal) or the most inside first (addition), then spread
    candidates.sort((x, y) => x.score - y.score || x.spread - y.spread)
    const take = Math.min(Math.abs(need - done), candidates.length)
    for (let n = 0; n < take; n++) mask[candidates[n]!.site] = need < 0 ? 0 : 1
    done += need < 0 ? -take : take
    if (take === 0) break
  }
  return done
}
