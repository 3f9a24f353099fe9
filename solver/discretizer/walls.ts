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
  /** Local index in `grid` of each candidate (a double: a large part's grid passes 2^31 sites). */
  sites: Float64Array
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
export function closestPointOnTriangle(
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

/** Growable per-candidate arrays. */
interface CandidateStore {
  capacity: number
  sites: Float64Array
  distances: Float32Array
  sides: Float32Array
  directions: Float32Array
  triangles: Int32Array
  /** Propagation round in which the candidate was last queued. */
  queued: Int32Array
}

function createStore(capacity: number): CandidateStore {
  return {
    capacity,
    sites: new Float64Array(capacity),
    distances: new Float32Array(capacity),
    sides: new Float32Array(capacity),
    directions: new Float32Array(capacity * 3),
    triangles: new Int32Array(capacity),
    queued: new Int32Array(capacity).fill(-1),
  }
}

function growStore(store: CandidateStore): void {
  const grown = createStore(store.capacity * 2)
  grown.sites.set(store.sites)
  grown.distances.set(store.distances)
  grown.sides.set(store.sides)
  grown.directions.set(store.directions)
  grown.triangles.set(store.triangles)
  grown.queued.set(store.queued)
  Object.assign(store, grown)
}

/**
 * The sites within `thickness` (m, exclusive) of the surface of `mesh`, with distance and side.
 * `orientation` −1 swaps front and back (a closed mesh whose normals point inwards).
 *
 * Seeds are exact: every triangle tests the sites within half a lattice diagonal of it. The band
 * then grows by propagation (a closest-point transform): a site offers its nearest triangle to its
 * 26 neighbours, which keep it when it is nearer than what they have. Each site thus tests a few
 * triangles instead of every triangle within `thickness`, which matters for finely meshed CAD
 * surfaces (a million small triangles).
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
  const triangleCount = Math.floor(t.length / 3)
  // oriented unit normals and the area for sizing the table
  const normals = new Float64Array(triangleCount * 3)
  let area = 0
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
    const nx = uy * vz - uz * vy
    const ny = uz * vx - ux * vz
    const nz = ux * vy - uy * vx
    const length = Math.sqrt(nx * nx + ny * ny + nz * nz)
    area += length / 2
    if (!(length > 0)) continue
    normals[tri * 3] = (nx / length) * orientation
    normals[tri * 3 + 1] = (ny / length) * orientation
    normals[tri * 3 + 2] = (nz / length) * orientation
  }
  const expected = Math.min(1 << 22, (area * 2 * thickness) / dp ** 3)
  const table = createSiteTable(expected)
  const store = createStore(Math.max(1024, Math.ceil(expected)))
  let count = 0
  const tolerance = 1e-6 * dp
  const plane = grid.nx * grid.ny

  /** Offers triangle `tri` to site (i, j, k); returns the slot when it changed, else −1. */
  const offer = (tri: number, i: number, j: number, k: number): number => {
    const x = siteCoordinate(i + grid.i0, dp)
    const y = siteCoordinate(j + grid.j0, dp)
    const z = siteCoordinate(k + grid.k0, dp)
    const nx = normals[tri * 3]!
    const ny = normals[tri * 3 + 1]!
    const nz = normals[tri * 3 + 2]!
    if (nx === 0 && ny === 0 && nz === 0) return -1
    closestPointOnTriangle(
      x,
      y,
      z,
      p,
      t[tri * 3]! * 3,
      t[tri * 3 + 1]! * 3,
      t[tri * 3 + 2]! * 3,
      scratch,
    )
    const dx = x - scratch[0]!
    const dy = y - scratch[1]!
    const dz = z - scratch[2]!
    const distance = Math.sqrt(dx * dx + dy * dy + dz * dz)
    if (distance >= thickness) return -1
    const side = distance > 0 ? (dx * nx + dy * ny + dz * nz) / distance : 0
    const site = i + grid.nx * j + plane * k
    const slot = insertSite(table, site)
    if (table.added) {
      if (count === store.capacity) growStore(store)
      count++
      store.sites[slot] = site
    } else {
      const best = store.distances[slot]!
      if (store.triangles[slot] === tri) return -1
      const nearer = distance < best - tolerance
      const aligned = distance <= best + tolerance && Math.abs(side) > Math.abs(store.sides[slot]!)
      if (!nearer && !aligned) return -1
    }
    store.distances[slot] = distance
    store.sides[slot] = side
    store.triangles[slot] = tri
    writeDirection(store.directions, slot, dx, dy, dz, distance, nx, ny, nz)
    return slot
  }

  // ── seeds: a large triangle tests every site within `thickness` of it (exact, and cheap for
  // it), a small one only those within half a lattice diagonal, which then propagate ──
  let frontier: number[] = []
  const large = new Uint8Array(triangleCount)
  for (let tri = 0; tri < triangleCount; tri++) {
    const a = t[tri * 3]! * 3
    const b = t[tri * 3 + 1]! * 3
    const c = t[tri * 3 + 2]! * 3
    const size = Math.max(
      Math.max(p[a]!, p[b]!, p[c]!) - Math.min(p[a]!, p[b]!, p[c]!),
      Math.max(p[a + 1]!, p[b + 1]!, p[c + 1]!) - Math.min(p[a + 1]!, p[b + 1]!, p[c + 1]!),
      Math.max(p[a + 2]!, p[b + 2]!, p[c + 2]!) - Math.min(p[a + 2]!, p[b + 2]!, p[c + 2]!),
    )
    large[tri] = size >= 2 * thickness ? 1 : 0
    const reach = large[tri] ? thickness : Math.min(thickness, 0.87 * dp)
    const x0 = firstSite(Math.min(p[a]!, p[b]!, p[c]!) - reach, dp, grid.i0)
    const x1 = lastSite(Math.max(p[a]!, p[b]!, p[c]!) + reach, dp, grid.i0, grid.nx)
    const y0 = firstSite(Math.min(p[a + 1]!, p[b + 1]!, p[c + 1]!) - reach, dp, grid.j0)
    const y1 = lastSite(Math.max(p[a + 1]!, p[b + 1]!, p[c + 1]!) + reach, dp, grid.j0, grid.ny)
    const z0 = firstSite(Math.min(p[a + 2]!, p[b + 2]!, p[c + 2]!) - reach, dp, grid.k0)
    const z1 = lastSite(Math.max(p[a + 2]!, p[b + 2]!, p[c + 2]!) + reach, dp, grid.k0, grid.nz)
    const nx = normals[tri * 3]!
    const ny = normals[tri * 3 + 1]!
    const nz = normals[tri * 3 + 2]!
    const offset = nx * p[a]! + ny * p[a + 1]! + nz * p[a + 2]!
    for (let k = z0; k <= z1; k++) {
      const z = siteCoordinate(k + grid.k0, dp)
      for (let j = y0; j <= y1; j++) {
        const y = siteCoordinate(j + grid.j0, dp)
        for (let i = x0; i <= x1; i++) {
          // the plane bounds the slab worth testing
          const planeDistance = nx * siteCoordinate(i + grid.i0, dp) + ny * y + nz * z - offset
          if (planeDistance >= reach || planeDistance <= -reach) continue
          const slot = offer(tri, i, j, k)
          if (slot >= 0 && !large[tri] && store.queued[slot] !== 0) {
            store.queued[slot] = 0
            frontier.push(slot)
          }
        }
      }
    }
  }

  // ── propagation: neighbours take a site's triangle when it is nearer than theirs ──
  for (let round = 1; frontier.length > 0; round++) {
    const next: number[] = []
    for (const slot of frontier) {
      const tri = store.triangles[slot]!
      const site = store.sites[slot]!
      const k = Math.floor(site / plane)
      const j = Math.floor((site - k * plane) / grid.nx)
      const i = site - k * plane - j * grid.nx
      for (let dk = -1; dk <= 1; dk++) {
        const nk = k + dk
        if (nk < 0 || nk >= grid.nz) continue
        for (let dj = -1; dj <= 1; dj++) {
          const nj = j + dj
          if (nj < 0 || nj >= grid.ny) continue
          for (let di = -1; di <= 1; di++) {
            const ni = i + di
            if (ni < 0 || ni >= grid.nx || (di === 0 && dj === 0 && dk === 0)) continue
            const changed = offer(tri, ni, nj, nk)
            if (changed >= 0 && store.queued[changed] !== round) {
              store.queued[changed] = round
              next.push(changed)
            }
          }
        }
      }
    }
    frontier = next
  }

  // ── refinement: where the lattice is coarser than the triangles, a site's nearest triangle may
  // be nobody's among its neighbours: walk the mesh from the one it has to nearer ones ──
  const vertexCount = p.length / 3
  const starts = new Int32Array(vertexCount + 1)
  for (let e = 0; e < triangleCount * 3; e++) starts[t[e]! + 1]!++
  for (let v = 0; v < vertexCount; v++) starts[v + 1]! += starts[v]!
  const incident = new Int32Array(triangleCount * 3)
  const cursor = starts.slice(0, vertexCount)
  for (let e = 0; e < triangleCount * 3; e++) incident[cursor[t[e]!]!++] = Math.floor(e / 3)
  const exactReach = 0.87 * dp
  for (let slot = 0; slot < count; slot++) {
    // seeds are exact, and so are sites a large triangle holds (it tested all of them)
    if (store.distances[slot]! < exactReach || large[store.triangles[slot]!]) continue
    const site = store.sites[slot]!
    const k = Math.floor(site / plane)
    const j = Math.floor((site - k * plane) / grid.nx)
    const i = site - k * plane - j * grid.nx
    for (let steps = 0; steps < 64; steps++) {
      const current = store.triangles[slot]!
      for (let corner = 0; corner < 3; corner++) {
        const v = t[current * 3 + corner]!
        for (let e = starts[v]!; e < starts[v + 1]!; e++) offer(incident[e]!, i, j, k)
      }
      if (store.triangles[slot] === current) break
    }
  }
  return {
    grid,
    count,
    sites: store.sites.subarray(0, count),
    distances: store.distances.subarray(0, count),
    sides: store.sides.subarray(0, count),
    directions: store.directions.subarray(0, count * 3),
  }
}
