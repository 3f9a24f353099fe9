/**
 * Lattice frames: every part is sampled on a lattice of spacing dp of its own, shifted by an origin
 * o (each component in [−dp/2, dp/2]): site (i, j, k) of the part sits at o + (i + ½, j + ½, k + ½)·dp.
 * The origin is chosen so that the part's axis-aligned faces lie on the planes midway between
 * sites (o + k·dp), where the solver expects a surface: half a spacing from the fluid beside it and
 * half a spacing from the wall particles behind it. One global lattice (o = 0) snapped every part to
 * it instead, which moved a face by up to dp/2 and changed a fluid's volume by as much.
 */
import type { Vec3 } from '../../domain/vector.ts'
import type { TriangleMesh } from '../geometry/mesh.ts'

/** Faces of a mesh in one plane x_axis = coordinate. */
export interface AxisPlane {
  axis: 0 | 1 | 2
  coordinate: number
  /** Area of the faces in the plane, m². */
  area: number
  /** Their triangles (indices into the mesh). */
  triangles: number[]
}

/** A plane to fit and how much it matters. */
export interface WeightedPlane {
  coordinate: number
  weight: number
}

/** Sine of the largest angle between a face normal and an axis for the face to count as aligned. */
const ALIGNED_SINE = 1e-6

/**
 * The axis-aligned faces of `mesh` along `axis` (normal ±axis), grouped by plane. Coordinates closer
 * than `tolerance` fall in one plane.
 */
export function collectAxisPlanes(
  mesh: TriangleMesh,
  axis: 0 | 1 | 2,
  tolerance: number,
): AxisPlane[] {
  const p = mesh.positions
  const t = mesh.indices
  const found: AxisPlane[] = []
  const b = (axis + 1) % 3
  const c = (axis + 2) % 3
  for (let tri = 0; tri * 3 + 2 < t.length; tri++) {
    const ia = t[tri * 3]! * 3
    const ib = t[tri * 3 + 1]! * 3
    const ic = t[tri * 3 + 2]! * 3
    const u = [p[ib]! - p[ia]!, p[ib + 1]! - p[ia + 1]!, p[ib + 2]! - p[ia + 2]!]
    const v = [p[ic]! - p[ia]!, p[ic + 1]! - p[ia + 1]!, p[ic + 2]! - p[ia + 2]!]
    const n = [
      u[1]! * v[2]! - u[2]! * v[1]!,
      u[2]! * v[0]! - u[0]! * v[2]!,
      u[0]! * v[1]! - u[1]! * v[0]!,
    ]
    const length = Math.hypot(n[0]!, n[1]!, n[2]!)
    if (!(length > 0)) continue
    if (Math.hypot(n[b]!, n[c]!) > ALIGNED_SINE * length) continue
    const coordinate = (p[ia + axis]! + p[ib + axis]! + p[ic + axis]!) / 3
    let plane = found.find((f) => Math.abs(f.coordinate - coordinate) <= tolerance)
    if (!plane) found.push((plane = { axis, coordinate, area: 0, triangles: [] }))
    plane.area += length / 2
    plane.triangles.push(tri)
  }
  return found
}

/** Distance from `coordinate` to the nearest plane o + k·dp. */
export function distanceToMidplane(coordinate: number, origin: number, dp: number): number {
  const r = (coordinate - origin) / dp
  return Math.abs(r - Math.round(r)) * dp
}

/** Relative precision of a mesh coordinate (Float32). */
const FLOAT32_EPSILON = 2 ** -23

/**
 * The origin in [−dp/2, dp/2] that puts the plane at `coordinate` midway between sites. Within
 * the Float32 rounding of coordinates of magnitude `scale` (m) of 0 it is 0: a face at 0.1 m
 * stored as 0.100000001 m keeps the global lattice of a 0.02 m diameter.
 */
export function originThrough(
  coordinate: number,
  dp: number,
  scale = Math.abs(coordinate),
): number {
  const origin = coordinate - dp * Math.round(coordinate / dp)
  return Math.abs(origin) <= Math.max(1e-9 * dp, 4 * FLOAT32_EPSILON * scale) ? 0 : origin
}

/** The magnitude of a box's coordinates, for originThrough's rounding tolerance. */
export function coordinateScale(box: { min: readonly number[]; max: readonly number[] }): number {
  return Math.max(...box.min.map(Math.abs), ...box.max.map(Math.abs))
}

/**
 * The lattice origin along one axis that puts the planes closest to midway between sites: the
 * least weighted sum of squared distances, over the origins through each plane and halfway between
 * two (the optimum of two planes). Ties keep the first candidate, so heavier planes (listed first)
 * win them. No plane: 0 (the global lattice). `scale`: as originThrough's.
 */
export function fitOrigin(planes: readonly WeightedPlane[], dp: number, scale = 0): number {
  const ranked = [...planes].filter((p) => p.weight > 0).sort((a, b) => b.weight - a.weight)
  // the heaviest planes decide; beyond a few dozen the pairs only cost time
  const used = ranked.slice(0, 32)
  if (used.length === 0) return 0
  const through = (c: number) => originThrough(c, dp, Math.max(scale, Math.abs(c)))
  const candidates: number[] = used.map((p) => through(p.coordinate))
  for (let a = 0; a < used.length; a++)
    for (let b = a + 1; b < used.length; b++) {
      const mid = (used[a]!.coordinate + used[b]!.coordinate) / 2
      candidates.push(through(mid), through(mid + dp / 2))
    }
  let best = candidates[0]!
  let bestCost = Infinity
  for (const origin of candidates) {
    let cost = 0
    for (const plane of used)
      cost += plane.weight * distanceToMidplane(plane.coordinate, origin, dp) ** 2
    // a relative margin keeps the order of candidates deciding exact ties despite rounding
    if (cost < bestCost * (1 - 1e-9) - 1e-30) {
      best = origin
      bestCost = cost
    }
  }
  return best
}

/** The mesh moved by −origin: in the frame where the part's sites are at (i + ½)·dp. */
export function shiftMesh(mesh: TriangleMesh, origin: Vec3): TriangleMesh {
  if (origin[0] === 0 && origin[1] === 0 && origin[2] === 0) return mesh
  const positions = new Float32Array(mesh.positions.length)
  for (let v = 0; v + 2 < positions.length; v += 3) {
    positions[v] = mesh.positions[v]! - origin[0]
    positions[v + 1] = mesh.positions[v + 1]! - origin[1]
    positions[v + 2] = mesh.positions[v + 2]! - origin[2]
  }
  return { positions, indices: mesh.indices }
}

/** Index of the lattice axis `up` points along (±1 in it), or −1 when it is oblique. */
export function latticeAxisOf(up: Vec3): -1 | 0 | 1 | 2 {
  const axis = up.findIndex((c) => Math.abs(c) === 1)
  return axis < 0 ? -1 : (axis as 0 | 1 | 2)
}

/** A part's lattice: site (i, j, k) at origin + (i + ½, j + ½, k + ½) · spacing, per axis. */
export interface LatticeFrame {
  origin: Vec3
  /** Spacing per axis, m: the particle diameter, or within MAX_WALL_STRETCH of it for walls. */
  spacing: Vec3
}

/**
 * How far a wall lattice's spacing may differ from the particle diameter so that two faces of a
 * part both lie midway between sites (an obstacle 4.025 diameters wide gets 1.006 dp): a wall
 * particle's mass stays ρ0·dp³, so its layer is that much denser or sparser, which the wall
 * pressure hardly feels, while a face moved by half a diameter changes the geometry.
 */
export const MAX_WALL_STRETCH = 0.05

function fitCost(planes: readonly WeightedPlane[], origin: number, spacing: number): number {
  let cost = 0
  for (const plane of planes)
    cost += plane.weight * distanceToMidplane(plane.coordinate, origin, spacing) ** 2
  return cost
}

/**
 * Origin and spacing of a wall lattice along one axis: fitOrigin's at spacing dp, unless a spacing
 * within MAX_WALL_STRETCH of dp that puts two of the heaviest planes exactly midway between sites
 * fits the planes better. `scale`: as originThrough's.
 */
export function fitAxis(
  planes: readonly WeightedPlane[],
  dp: number,
  scale = 0,
): { origin: number; spacing: number } {
  let best = { origin: fitOrigin(planes, dp, scale), spacing: dp }
  let bestCost = fitCost(planes, best.origin, dp)
  const used = [...planes]
    .filter((p) => p.weight > 0)
    .sort((a, b) => b.weight - a.weight)
    .slice(0, 8)
  for (let a = 0; a < used.length; a++)
    for (let b = a + 1; b < used.length; b++) {
      const distance = Math.abs(used[a]!.coordinate - used[b]!.coordinate)
      const count = Math.round(distance / dp)
      if (count < 2) continue
      const spacing = distance / count
      if (Math.abs(spacing / dp - 1) > MAX_WALL_STRETCH || Math.abs(spacing - dp) < 1e-9 * dp)
        continue
      const origin = originThrough(
        used[a]!.coordinate,
        spacing,
        Math.max(scale, Math.abs(used[a]!.coordinate)),
      )
      const cost = fitCost(planes, origin, spacing)
      if (cost < bestCost * (1 - 1e-6) - 1e-30 * dp * dp) {
        best = { origin, spacing }
        bestCost = cost
      }
    }
  return best
}

/** The mesh in the frame of `frame`: (x − origin) · dp / spacing per axis. */
export function meshInFrame(mesh: TriangleMesh, frame: LatticeFrame, dp: number): TriangleMesh {
  const { origin, spacing } = frame
  if (spacing.every((s) => s === dp)) return shiftMesh(mesh, origin)
  const factor = spacing.map((s) => dp / s)
  const positions = new Float32Array(mesh.positions.length)
  for (let v = 0; v + 2 < positions.length; v += 3)
    for (let a = 0; a < 3; a++)
      positions[v + a] = (mesh.positions[v + a]! - origin[a]!) * factor[a]!
  return { positions, indices: mesh.indices }
}
