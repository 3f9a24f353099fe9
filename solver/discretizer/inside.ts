/**
 * Inside test on lattice sites, robust to open and overlapping meshes: the mesh is scan-converted
 * along the lattice columns of each axis (every column line meets the surface at sorted crossings
 * with the sign of the normal), and each site gets one vote per ray (+ and − along x, y and z)
 * whose winding number is non-zero. A closed mesh gives 6 votes inside and 0 outside; a hole only
 * spoils the rays that pass through it, and overlapping shells add up instead of cancelling.
 * A site exactly on a projected edge or vertex is given to exactly one of the triangles sharing
 * it (a top-left rule on edges evaluated in a canonical vertex order), so closed meshes count
 * every crossing once.
 */
import type { TriangleMesh } from '../geometry/mesh.ts'
import { type SubGrid, siteCoordinate } from './lattice.ts'

/** Sorted surface crossings of every column of a sub-grid along one axis. */
export interface ColumnCrossings {
  axis: 0 | 1 | 2
  /** Columns are indexed b + nb·c over the two other axes (b = axis + 1, c = axis + 2, mod 3). */
  columnCount: number
  /** Crossings of column q are coordinates[offsets[q] … offsets[q + 1] − 1], ascending. */
  offsets: Int32Array
  coordinates: Float64Array
  /** +1 where the surface normal points along +axis, −1 against it. */
  signs: Int8Array
}

const AXIS_SIZE = ['nx', 'ny', 'nz'] as const
const AXIS_ORIGIN = ['i0', 'j0', 'k0'] as const

/** Votes a site needs (of 6) to count as inside. */
export const INSIDE_VOTES = 4

/**
 * Scan-converts `mesh` along `axis` over the columns of `grid`: for every column centre inside a
 * triangle's projection, the coordinate where the column line meets the triangle.
 */
export function castColumns(mesh: TriangleMesh, grid: SubGrid, axis: 0 | 1 | 2): ColumnCrossings {
  const b = ((axis + 1) % 3) as 0 | 1 | 2
  const c = ((axis + 2) % 3) as 0 | 1 | 2
  const nb = grid[AXIS_SIZE[b]]
  const nc = grid[AXIS_SIZE[c]]
  const b0 = grid[AXIS_ORIGIN[b]]
  const c0 = grid[AXIS_ORIGIN[c]]
  const dp = grid.dp
  const columnCount = nb * nc
  const p = mesh.positions
  const t = mesh.indices
  let columns: number[] = []
  let coordinates: number[] = []
  let signs: number[] = []
  const triangleCount = Math.floor(t.length / 3)
  for (let tri = 0; tri < triangleCount; tri++) {
    const ia = t[tri * 3]!
    const ib = t[tri * 3 + 1]!
    const ic = t[tri * 3 + 2]!
    const ab = p[ia * 3 + b]!
    const ac = p[ia * 3 + c]!
    const bb = p[ib * 3 + b]!
    const bc = p[ib * 3 + c]!
    const cb = p[ic * 3 + b]!
    const cc = p[ic * 3 + c]!
    const area = (bb - ab) * (cc - ac) - (bc - ac) * (cb - ab)
    if (area === 0) continue
    const sign = area > 0 ? 1 : -1
    // normal component along the axis: the projected area; the plane gives the crossing coordinate
    const ux = p[ib * 3]! - p[ia * 3]!
    const uy = p[ib * 3 + 1]! - p[ia * 3 + 1]!
    const uz = p[ib * 3 + 2]! - p[ia * 3 + 2]!
    const vx = p[ic * 3]! - p[ia * 3]!
    const vy = p[ic * 3 + 1]! - p[ia * 3 + 1]!
    const vz = p[ic * 3 + 2]! - p[ia * 3 + 2]!
    const n = [uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx]
    const na = n[axis]!
    const nbComponent = n[b]!
    const ncComponent = n[c]!
    const aa = p[ia * 3 + axis]!
    const minB = Math.max(0, Math.ceil(Math.min(ab, bb, cb) / dp - 0.5) - b0)
    const maxB = Math.min(nb - 1, Math.floor(Math.max(ab, bb, cb) / dp - 0.5) - b0)
    const minC = Math.max(0, Math.ceil(Math.min(ac, bc, cc) / dp - 0.5) - c0)
    const maxC = Math.min(nc - 1, Math.floor(Math.max(ac, bc, cc) / dp - 0.5) - c0)
    for (let qc = minC; qc <= maxC; qc++) {
      const pc = siteCoordinate(qc + c0, dp)
      for (let qb = minB; qb <= maxB; qb++) {
        const pb = siteCoordinate(qb + b0, dp)
        if (
          !coversEdge(ia, ab, ac, ib, bb, bc, pb, pc, sign) ||
          !coversEdge(ib, bb, bc, ic, cb, cc, pb, pc, sign) ||
          !coversEdge(ic, cb, cc, ia, ab, ac, pb, pc, sign)
        )
          continue
        columns.push(qb + nb * qc)
        coordinates.push(aa - (nbComponent * (pb - ab) + ncComponent * (pc - ac)) / na)
        signs.push(na > 0 ? 1 : -1)
      }
    }
  }
  // counting sort by column, then each column by coordinate (columns hold a handful of crossings)
  const offsets = new Int32Array(columnCount + 1)
  for (const q of columns) offsets[q + 1]!++
  for (let q = 0; q < columnCount; q++) offsets[q + 1]! += offsets[q]!
  const fill = offsets.slice(0, columnCount)
  const sortedCoordinates = new Float64Array(columns.length)
  const sortedSigns = new Int8Array(columns.length)
  for (let e = 0; e < columns.length; e++) {
    const slot = fill[columns[e]!]!++
    sortedCoordinates[slot] = coordinates[e]!
    sortedSigns[slot] = signs[e]!
  }
  columns = coordinates = signs = []
  for (let q = 0; q < columnCount; q++) {
    for (let e = offsets[q]! + 1; e < offsets[q + 1]!; e++) {
      const value = sortedCoordinates[e]!
      const s = sortedSigns[e]!
      let f = e - 1
      while (f >= offsets[q]! && sortedCoordinates[f]! > value) {
        sortedCoordinates[f + 1] = sortedCoordinates[f]!
        sortedSigns[f + 1] = sortedSigns[f]!
        f--
      }
      sortedCoordinates[f + 1] = value
      sortedSigns[f + 1] = s
    }
  }
  return {
    axis,
    columnCount,
    offsets,
    coordinates: sortedCoordinates,
    signs: sortedSigns,
  }
}

/**
 * Whether point (pb, pc) is on the inner side of the directed edge u → v of a triangle whose
 * projected orientation is `sign`, with points on the edge owned by one side only. The edge
 * function is evaluated from the lower vertex index, so two triangles sharing the edge compute
 * exactly opposite values.
 */
function coversEdge(
  iu: number,
  ub: number,
  uc: number,
  iv: number,
  vb: number,
  vc: number,
  pb: number,
  pc: number,
  sign: number,
): boolean {
  const e =
    iu < iv
      ? (vb - ub) * (pc - uc) - (vc - uc) * (pb - ub)
      : -((ub - vb) * (pc - vc) - (uc - vc) * (pb - vb))
  const inner = e * sign
  if (inner > 0) return true
  if (inner < 0) return false
  // on the edge: owned when the edge, in counter-clockwise order, points down (or right if flat)
  const db = (vb - ub) * sign
  const dc = (vc - uc) * sign
  return dc < 0 || (dc === 0 && db > 0)
}

/**
 * Adds to `votes` (one entry per site of `grid`) the rays along `axis` with a non-zero winding
 * number: the ray towards +axis and the ray towards −axis of every site.
 */
export function addInsideVotes(crossings: ColumnCrossings, grid: SubGrid, votes: Uint8Array): void {
  const axis = crossings.axis
  const b = ((axis + 1) % 3) as 0 | 1 | 2
  const c = ((axis + 2) % 3) as 0 | 1 | 2
  const sizes = [grid.nx, grid.ny, grid.nz]
  const strides = [1, grid.nx, grid.nx * grid.ny]
  const na = sizes[axis]!
  const nb = sizes[b]!
  const a0 = grid[AXIS_ORIGIN[axis]]
  const strideA = strides[axis]!
  const strideB = strides[b]!
  const strideC = strides[c]!
  const { offsets, coordinates, signs } = crossings
  for (let q = 0; q < crossings.columnCount; q++) {
    const start = offsets[q]!
    const end = offsets[q + 1]!
    if (start === end) continue
    let total = 0
    for (let e = start; e < end; e++) total += signs[e]!
    const qb = q % nb
    const qc = (q - qb) / nb
    const base = qb * strideB + qc * strideC
    let e = start
    let below = 0
    for (let s = 0; s < na; s++) {
      const coordinate = siteCoordinate(s + a0, grid.dp)
      while (e < end && coordinates[e]! < coordinate) below += signs[e++]!
      // ray towards +axis: Σ signs above; towards −axis: −Σ signs below
      const site = base + s * strideA
      votes[site] = votes[site]! + (total - below !== 0 ? 1 : 0) + (below !== 0 ? 1 : 0)
    }
  }
}

/** Votes (0 … 6) of every site of `grid`; a site is inside with INSIDE_VOTES or more. */
export function computeInsideVotes(mesh: TriangleMesh, grid: SubGrid): Uint8Array {
  const votes = new Uint8Array(grid.nx * grid.ny * grid.nz)
  for (const axis of [0, 1, 2] as const) addInsideVotes(castColumns(mesh, grid, axis), grid, votes)
  return votes
}

/**
 * Typical thickness of a closed mesh: per axis the median length of the column intervals with a
 * non-zero winding number, the smallest over the axes (a plate of thickness t gives t along its
 * normal axis). Infinity when no column meets the mesh.
 */
export function estimateThickness(mesh: TriangleMesh, grid: SubGrid): number {
  let thickness = Infinity
  for (const axis of [0, 1, 2] as const) {
    const crossings = castColumns(mesh, grid, axis)
    const lengths: number[] = []
    for (let q = 0; q < crossings.columnCount; q++) {
      let winding = 0
      let enter = 0
      for (let e = crossings.offsets[q]!; e < crossings.offsets[q + 1]!; e++) {
        const before = winding
        winding -= crossings.signs[e]!
        if (before === 0 && winding !== 0) enter = crossings.coordinates[e]!
        if (before !== 0 && winding === 0) lengths.push(crossings.coordinates[e]! - enter)
      }
    }
    if (lengths.length === 0) continue
    lengths.sort((x, y) => x - y)
    thickness = Math.min(thickness, lengths[Math.floor(lengths.length / 2)]!)
  }
  return thickness
}
