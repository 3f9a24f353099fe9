/**
 * The sites of a rotational periodic slice (slice.ts). A 90° slice keeps the whole geometry's
 * sites inside it: the lattice maps onto itself turned by 90°, so the slice's N copies are the
 * whole's particles. At other angles the cut lattice's N copies are not: near the axis a ring of
 * width dp holds none of its share or half as much again (VALIDATION_FINDINGS.md 'Rotating sector
 * at 120°, 60° and 30°'), and the fluid there starts far from rest. So within CORE_RADIUS of the
 * axis the fluid is filled afresh with rings that the slice's rotation maps onto itself: each ring
 * holds a multiple of N = 360°/angle sites in the whole turn and an area of dp² per site (the
 * whole's mass ring by ring), alternate rings staggered by half a site, in layers dp apart along
 * the axis from the lowest particle. A ring site is fluid when the lattice cell (a cube of dp) of
 * a fluid particle of the whole holds it, and takes that particle's state; walls, and the fluid
 * beyond the core, are the lattice's sites in the slice (ringing the walls too left gaps that
 * the fluid ran through).
 */
import type { RotationalSlice } from '../sph/rotationalSlice.ts'
import {
  angleFromBisector,
  distanceToWedge,
  insideSlice,
  sliceCount,
} from '../sph/rotationalSlice.ts'

const FLUID = 0

/** The slice's sites and, for each, the whole's particle it takes its kind and state from. */
export interface SliceSites {
  positions: Float64Array
  source: Int32Array
}

/** The fluid is ringed out to this many dp from the axis (to the ring that reaches it). */
export const CORE_RADIUS = 4

/** A lattice cell may be this much larger than dp (walls stretch up to 5 % to fit their faces). */
const CELL_SLACK = 1.05

/** True when the slice angle is a quarter turn (the lattice maps onto itself). */
function quarterTurn(slice: RotationalSlice): boolean {
  return Math.abs(slice.angle - 0.5 * Math.PI) < 1e-9
}

/**
 * The sites of the slice for the whole geometry's particles (positions xyz, kinds with 0 for
 * fluid, spacing dp): fluid sites first, in the order of the whole's fluid, then walls.
 */
export function sliceSites(
  slice: RotationalSlice,
  positions: ArrayLike<number>,
  kinds: ArrayLike<number>,
  dp: number,
): SliceSites {
  const count = kinds.length
  const core = quarterTurn(slice)
    ? { positions: [], source: [], radius: 0 }
    : fluidCore(slice, positions, kinds, dp)
  const sites: number[] = core.positions
  const source: number[] = core.source
  for (let i = 0; i < count; i++) {
    const x = positions[3 * i]!
    const y = positions[3 * i + 1]!
    const z = positions[3 * i + 2]!
    if (!insideSlice(slice, x, y, z)) continue
    if (kinds[i] === FLUID && angleFromBisector(slice, x, y, z).radius < core.radius) continue
    sites.push(x, y, z)
    source.push(i)
  }
  return { positions: Float64Array.from(sites), source: Int32Array.from(source) }
}

/** The fluid's rings about the axis out to CORE_RADIUS (see the module comment). */
function fluidCore(
  slice: RotationalSlice,
  positions: ArrayLike<number>,
  kinds: ArrayLike<number>,
  dp: number,
): { positions: number[]; source: number[]; radius: number } {
  const { center: c, axis, e1, e2 } = slice
  const half = 0.5 * slice.angle
  const cellHalf = 0.5 * CELL_SLACK * dp
  const grid = new Map<string, number[]>()
  const cell = (x: number) => Math.floor(x / dp)
  const key = (ix: number, iy: number, iz: number) => `${ix},${iy},${iz}`
  let lowest = Infinity
  let highest = -Infinity
  for (let i = 0; i < kinds.length; i++) {
    const x = positions[3 * i]!
    const y = positions[3 * i + 1]!
    const z = positions[3 * i + 2]!
    const { psi, radius } = angleFromBisector(slice, x, y, z)
    if (radius > (CORE_RADIUS + 3) * dp || distanceToWedge(half, psi, radius) > 2 * dp) continue
    // the layers are the fluid's (a part's lattice is its own)
    if (kinds[i] === FLUID) {
      const along = (x - c[0]) * axis[0] + (y - c[1]) * axis[1] + (z - c[2]) * axis[2]
      lowest = Math.min(lowest, along)
      highest = Math.max(highest, along)
    }
    const k = key(cell(x), cell(y), cell(z))
    const list = grid.get(k)
    if (list) list.push(i)
    else grid.set(k, [i])
  }
  /** The particle whose lattice cell holds the point (the nearest if cells overlap), or −1. */
  const owner = (x: number, y: number, z: number): number => {
    let best = -1
    let bestDistance = Infinity
    const [ix, iy, iz] = [cell(x), cell(y), cell(z)]
    for (let dx = -1; dx <= 1; dx++)
      for (let dy = -1; dy <= 1; dy++)
        for (let dz = -1; dz <= 1; dz++)
          for (const i of grid.get(key(ix + dx, iy + dy, iz + dz)) ?? []) {
            const ux = Math.abs(positions[3 * i]! - x)
            const uy = Math.abs(positions[3 * i + 1]! - y)
            const uz = Math.abs(positions[3 * i + 2]! - z)
            if (Math.max(ux, uy, uz) > cellHalf) continue
            const d = ux * ux + uy * uy + uz * uz
            if (d < bestDistance) {
              bestDistance = d
              best = i
            }
          }
    return best
  }
  const sites: number[] = []
  const source: number[] = []
  const rings = coreRings(slice, dp)
  for (const [ring, { radius, perSlice }] of rings.entries()) {
    const shift = ring % 2 === 0 ? 0.5 : 0
    for (let m = 0; m < perSlice; m++) {
      const theta = slice.start + (slice.angle * (m + shift)) / perSlice
      const u = radius * Math.cos(theta)
      const w = radius * Math.sin(theta)
      for (let k = 0; lowest + k * dp <= highest + 1e-9 * dp; k++) {
        const along = lowest + k * dp
        const x = c[0] + along * axis[0] + u * e1[0] + w * e2[0]
        const y = c[1] + along * axis[1] + u * e1[1] + w * e2[1]
        const z = c[2] + along * axis[2] + u * e1[2] + w * e2[2]
        const i = owner(x, y, z)
        if (i < 0 || kinds[i] !== FLUID) continue
        sites.push(x, y, z)
        source.push(i)
      }
    }
  }
  return { positions: sites, source, radius: rings.at(-1)!.outer }
}

/** A ring of the core: its sites' radius, its band (inner, outer) and its sites per slice. */
export interface CoreRing {
  radius: number
  inner: number
  outer: number
  perSlice: number
}

/**
 * The rings of the core out to CORE_RADIUS dp: bands about dp wide whose area is dp² per site,
 * N = 360°/angle times the sites of one slice; the sites at the radius halving the band's area.
 */
export function coreRings(slice: RotationalSlice, dp: number): CoreRing[] {
  const n = sliceCount(slice)
  const area = dp * dp
  const rings: CoreRing[] = []
  let inner2 = 0
  while (Math.sqrt(inner2) < CORE_RADIUS * dp) {
    const outer = Math.sqrt(inner2) + dp
    const perSlice = Math.max(1, Math.round((Math.PI * (outer * outer - inner2)) / area / n))
    const outer2 = inner2 + (perSlice * n * area) / Math.PI
    rings.push({
      radius: Math.sqrt(0.5 * (inner2 + outer2)),
      inner: Math.sqrt(inner2),
      outer: Math.sqrt(outer2),
      perSlice,
    })
    inner2 = outer2
  }
  return rings
}
