/**
 * Wall sampling: the lattice sites within `layers` spacings of a rigid part's surface, each with
 * its distance and on which side of the surface it lies. The side of a site is that of the
 * triangle nearest to it; where several are equally near (edges, corners) the one whose normal
 * is best aligned with the direction to the site decides.
 */
import type { TriangleMesh } from '../geometry/mesh.ts'
import { computeBoundingBox } from '../geometry/mesh.ts'
import {
  createSiteTable,
  insertSite,
  type SubGrid,
  siteCoordinate,
  subGridOfBox,
} from './lattice.ts'

/** Lattice sites near a surface. */
export interface WallCandidates {
  /** The sites' block: the surface's bounding box grown by the wall thickness. */
  grid: SubGrid
  count: number
  /** Local index in `grid` of each candidate. */
  sites: Int32Array
  /** Distance to the surface, m. */
  distances: Float32Array
  /**
   * Cosine between the nearest triangle's normal and the direction to the site: > 0 in front of
   * the surface, < 0 behind it, 0 on it.
   */
  sides: Float32Array
  /**
   * Unit vector per candidate (3 each): from the site towards its nearest surface point, or the
   * nearest triangle's (oriented) normal for a site on the surface.
   */
  directions: Float32Array
}

const scratch = new Float64Array(3)

/** Closest point of triangle abc to p (Ericson, Real-Time Collision Detection 5.1.5) into out. */
function closestPointOnTriangle(
  px: number,
  py: number,
  pz: number,
  p: Float32Array,
  a: number,
  b: number,
  c: number,
  out: Float64Array,
): void {
  const ax = p[a]!
  const ay = p[a + 1]!
  const az = p[a + 2]!
  const abx = p[b]! - ax
  const aby = p[b + 1]! - ay
  const abz = p[b + 2]! - az
  const acx = p[c]! - ax
  const acy = p[c + 1]! - ay
  const acz = p[c + 2]! - az
  const apx = px - ax
  const apy = py - ay
  const apz = pz - az
  const d1 = abx * apx + aby * apy + abz * apz
  const d2 = acx * apx + acy * apy + acz * apz
  if (d1 <= 0 && d2 <= 0) {
    out[0] = ax
    out[1] = ay
    out[2] = az
    return
  }
  const bpx = px - p[b]!
  const bpy = py - p[b + 1]!
  const bpz = pz - p[b + 2]!
  const d3 = abx * bpx + aby * bpy + abz * bpz
  const d4 = acx * bpx + acy * bpy + acz * bpz
  if (d3 >= 0 && d4 <= d3) {
    out[0] = p[b]!
    out[1] = p[b + 1]!
    out[2] = p[b + 2]!
    return
  }
  const vc = d1 * d4 - d3 * d2
  if (vc <= 0 && d1 >= 0 && d3 <= 0) {
    const v = d1 / (d1 - d3)
    out[0] = ax + v * abx
    out[1] = ay + v * aby
    out[2] = az + v * abz
    return
  }
  const cpx = px - p[c]!
  const cpy = py - p[c + 1]!
  const cpz = pz - p[c + 2]!
  const d5 = abx * cpx + aby * cpy + abz * cpz
  const d6 = acx * cpx + acy * cpy + acz * cpz
  if (d6 >= 0 && d5 <= d6) {
    out[0] = p[c]!
    out[1] = p[c + 1]!
    out[2] = p[c + 2]!
    return
  }
  const vb = d5 * d2 - d1 * d6
  if (vb <= 0 && d2 >= 0 && d6 <= 0) {
    const w = d2 / (d2 - d6)
    out[0] = ax + w * acx
    out[1] = ay + w * acy
    out[2] = az + w * acz
    return
  }
  const va = d3 * d6 - d5 * d4
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) {
    const w = (d4 - d3) / (d4 - d3 + (d5 - d6))
    out[0] = p[b]! + w * (p[c]! - p[b]!)
    out[1] = p[b + 1]! + w * (p[c + 1]! - p[b + 1]!)
    out[2] = p[b + 2]! + w * (p[c + 2]! - p[b + 2]!)
    return
  }
  const denom = 1 / (va + vb + vc)
  const v = vb * denom
  const w = vc * denom
  out[0] = ax + abx * v + acx * w
  out[1] = ay + aby * v + acy * w
  out[2] = az + abz * v + acz * w
}

function writeDirection(
  out: Float32Array,
  slot: number,
  dx: number,
  dy: number,
  dz: number,
  distance: number,
  nx: number,
  ny: number,
  nz: number,
): void {
  if (distance > 0) {
    out[slot * 3] = -dx / distance
    out[slot * 3 + 1] = -dy / distance
    out[slot * 3 + 2] = -dz / distance
  } else {
    out[slot * 3] = nx
    out[slot * 3 + 1] = ny
    out[slot * 3 + 2] = nz
  }
}

function firstSite(lo: number, dp: number, origin: number): number {
  return Math.max(0, Math.ceil(lo / dp - 0.5) - origin)
}

function lastSite(hi: number, dp: number, origin: number, size: number): number {
  return Math.min(size - 1, Math.floor(hi / dp - 0.5) - origin)
}

/**
 * The sites within `thickness` (m, exclusive) of the surface of `mesh`, with distance and side.
 * `orientation` −1 swaps front and back (a closed mesh whose normals point inwards).
 */
export function findWallCandidates(
  mesh: TriangleMesh,
  dp: number,
  thickness: number,
  orientation: 1 | -1 = 1,
): WallCandidates {
  const grid = subGridOfBox(computeBoundingBox(mesh), dp, thickness)
  const p = mesh.positions
  const t = mesh.indices
  // about two candidate layers per side of every triangle, a few times over at edges
  let area = 0
  for (let tri = 0; tri * 3 + 2 < t.length; tri++) {
    const a = t[tri * 3]! * 3
    const b = t[tri * 3 + 1]! * 3
    const c = t[tri * 3 + 2]! * 3
    const ux = p[b]! - p[a]!
    const uy = p[b + 1]! - p[a + 1]!
    const uz = p[b + 2]! - p[a + 2]!
    const vx = p[c]! - p[a]!
    const vy = p[c + 1]! - p[a + 1]!
    const vz = p[c + 2]! - p[a + 2]!
    area += Math.hypot(uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx) / 2
  }
  const table = createSiteTable(Math.min(1 << 22, (area * 2 * thickness) / dp ** 3))
  let capacity = 1024
  let sites = new Int32Array(capacity)
  let distances = new Float32Array(capacity)
  let sides = new Float32Array(capacity)
  let directions = new Float32Array(capacity * 3)
  let count = 0
  const tolerance = 1e-6 * dp
  const triangleCount = Math.floor(t.length / 3)
  for (let tri = 0; tri < triangleCount; tri++) {
    const a = t[tri * 3]! * 3
    const b = t[tri * 3 + 1]! * 3
    const c = t[tri * 3 + 2]! * 3
    const ux = p[b]! - p[a]!
    const uy = p[b + 1]! - p[a + 1]!
    const uz = p[b + 2]! - p[a + 2]!
    const vx = p[c]! - p[a]!
    const vy = p[c + 1]! - p[a + 1]!
    const vz = p[c + 2]! - p[a + 2]!
    let nx = uy * vz - uz * vy
    let ny = uz * vx - ux * vz
    let nz = ux * vy - uy * vx
    const length = Math.hypot(nx, ny, nz)
    if (!(length > 0)) continue
    nx = (nx / length) * orientation
    ny = (ny / length) * orientation
    nz = (nz / length) * orientation
    const x0 = firstSite(Math.min(p[a]!, p[b]!, p[c]!) - thickness, dp, grid.i0)
    const x1 = lastSite(Math.max(p[a]!, p[b]!, p[c]!) + thickness, dp, grid.i0, grid.nx)
    const y0 = firstSite(Math.min(p[a + 1]!, p[b + 1]!, p[c + 1]!) - thickness, dp, grid.j0)
    const y1 = lastSite(Math.max(p[a + 1]!, p[b + 1]!, p[c + 1]!) + thickness, dp, grid.j0, grid.ny)
    const z0 = firstSite(Math.min(p[a + 2]!, p[b + 2]!, p[c + 2]!) - thickness, dp, grid.k0)
    const z1 = lastSite(Math.max(p[a + 2]!, p[b + 2]!, p[c + 2]!) + thickness, dp, grid.k0, grid.nz)
    // a plane bounds the slab of sites worth testing: skip rows farther than `thickness` from it
    const offset = nx * p[a]! + ny * p[a + 1]! + nz * p[a + 2]!
    for (let k = z0; k <= z1; k++) {
      const z = siteCoordinate(k + grid.k0, dp)
      for (let j = y0; j <= y1; j++) {
        const y = siteCoordinate(j + grid.j0, dp)
        for (let i = x0; i <= x1; i++) {
          const x = siteCoordinate(i + grid.i0, dp)
          const planeDistance = nx * x + ny * y + nz * z - offset
          if (planeDistance >= thickness || planeDistance <= -thickness) continue
          closestPointOnTriangle(x, y, z, p, a, b, c, scratch)
          const dx = x - scratch[0]!
          const dy = y - scratch[1]!
          const dz = z - scratch[2]!
          const distance = Math.sqrt(dx * dx + dy * dy + dz * dz)
          if (distance >= thickness) continue
          const side = distance > 0 ? (dx * nx + dy * ny + dz * nz) / distance : 0
          const site = i + grid.nx * (j + grid.ny * k)
          const slot = insertSite(table, site)
          if (table.added) {
            if (count === capacity) {
              capacity *= 2
              const grownSites = new Int32Array(capacity)
              grownSites.set(sites)
              sites = grownSites
              const grownDistances = new Float32Array(capacity)
              grownDistances.set(distances)
              distances = grownDistances
              const grownSides = new Float32Array(capacity)
              grownSides.set(sides)
              sides = grownSides
              const grownDirections = new Float32Array(capacity * 3)
              grownDirections.set(directions)
              directions = grownDirections
            }
            sites[count] = site
            distances[count] = distance
            sides[count] = side
            writeDirection(directions, count, dx, dy, dz, distance, nx, ny, nz)
            count++
            continue
          }
          const best = distances[slot]!
          if (
            distance < best - tolerance ||
            (distance <= best + tolerance && Math.abs(side) > Math.abs(sides[slot]!))
          ) {
            distances[slot] = Math.min(distance, best)
            sides[slot] = side
            writeDirection(directions, slot, dx, dy, dz, distance, nx, ny, nz)
          }
        }
      }
    }
  }
  return {
    grid,
    count,
    sites: sites.subarray(0, count),
    distances: distances.subarray(0, count),
    sides: sides.subarray(0, count),
    directions: directions.subarray(0, count * 3),
  }
}
