/**
 * Indexed triangle meshes in metres: bounding box, signed volume, surface area, watertightness
 * (holes and non-manifold edges as MeshDefect), the part transform and the shape facts of
 * domain/parts.ts ShapeInfo.
 */
import type { ShapeInfo } from '../../domain/parts.ts'
import type { LooseVec3, Vec3 } from '../../domain/vector.ts'

/** An indexed triangle mesh. Triangles are counter-clockwise seen from outside (outward normals). */
export interface TriangleMesh {
  /** x, y, z per vertex, metres. */
  positions: Float32Array
  /** Three vertex indices per triangle. */
  indices: Uint32Array
}

/** An axis-aligned box. */
export interface BoundingBox {
  min: Vec3
  max: Vec3
}

/** A hole (boundary loop) or a non-manifold edge group; size is the extent to zoom to. */
export interface MeshDefect {
  center: Vec3
  size: number
}

/** The watertightness of a mesh. */
export interface MeshHealth {
  /** Every edge is shared by exactly two triangles. */
  watertight: boolean
  /** Connected groups of edges used by one triangle only. */
  holes: MeshDefect[]
  /** Connected groups of edges used by three or more triangles. */
  nonManifold: MeshDefect[]
  /** Edges used by one triangle. */
  boundaryEdgeCount: number
  /** Edges used by three or more triangles. */
  nonManifoldEdgeCount: number
}

/** How a part places its geometry (domain/parts.ts shape: translation, rotation in degrees, scale). */
export interface PartPlacement {
  translation: LooseVec3
  /** Degrees about x, y, z. */
  rotation: LooseVec3
  scale: LooseVec3
  flipNormals: boolean
}

/** Number of triangles of a mesh. */
export function countTriangles(mesh: TriangleMesh): number {
  return Math.floor(mesh.indices.length / 3)
}

/** The bounding box of the vertices; an empty mesh gives min = +∞ and max = −∞. */
export function computeBoundingBox(mesh: TriangleMesh): BoundingBox {
  const p = mesh.positions
  let minX = Infinity
  let minY = Infinity
  let minZ = Infinity
  let maxX = -Infinity
  let maxY = -Infinity
  let maxZ = -Infinity
  for (let i = 0; i + 2 < p.length; i += 3) {
    const x = p[i]!
    const y = p[i + 1]!
    const z = p[i + 2]!
    if (x < minX) minX = x
    if (x > maxX) maxX = x
    if (y < minY) minY = y
    if (y > maxY) maxY = y
    if (z < minZ) minZ = z
    if (z > maxZ) maxZ = z
  }
  return { min: [minX, minY, minZ], max: [maxX, maxY, maxZ] }
}

/** True when the box holds at least one point. */
export function isBoundingBoxEmpty(box: BoundingBox): boolean {
  return !(box.min[0] <= box.max[0] && box.min[1] <= box.max[1] && box.min[2] <= box.max[2])
}

/**
 * Signed volume in m³ by the divergence theorem (sum of signed tetrahedra to the origin):
 * positive for a closed mesh with outward normals, negative when its normals point inwards.
 * Meaningless for an open mesh.
 */
export function computeMeshVolume(mesh: TriangleMesh): number {
  const p = mesh.positions
  const t = mesh.indices
  let sum = 0
  for (let i = 0; i + 2 < t.length; i += 3) {
    const a = t[i]! * 3
    const b = t[i + 1]! * 3
    const c = t[i + 2]! * 3
    const ax = p[a]!
    const ay = p[a + 1]!
    const az = p[a + 2]!
    const bx = p[b]!
    const by = p[b + 1]!
    const bz = p[b + 2]!
    const cx = p[c]!
    const cy = p[c + 1]!
    const cz = p[c + 2]!
    sum += ax * (by * cz - bz * cy) - ay * (bx * cz - bz * cx) + az * (bx * cy - by * cx)
  }
  return sum / 6
}

/** Total triangle area in m². */
export function computeSurfaceArea(mesh: TriangleMesh): number {
  const p = mesh.positions
  const t = mesh.indices
  let sum = 0
  for (let i = 0; i + 2 < t.length; i += 3) {
    const a = t[i]! * 3
    const b = t[i + 1]! * 3
    const c = t[i + 2]! * 3
    const ux = p[b]! - p[a]!
    const uy = p[b + 1]! - p[a + 1]!
    const uz = p[b + 2]! - p[a + 2]!
    const vx = p[c]! - p[a]!
    const vy = p[c + 1]! - p[a + 1]!
    const vz = p[c + 2]! - p[a + 2]!
    sum += Math.hypot(uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx) / 2
  }
  return sum
}

function findRoot(parent: Int32Array, i: number): number {
  let root = i
  while (parent[root]! !== root) root = parent[root]!
  while (parent[i]! !== root) {
    const next = parent[i]!
    parent[i] = root
    i = next
  }
  return root
}

/** Groups edges (pairs of vertex indices) into connected defects with a centre and extent. */
function groupEdges(mesh: TriangleMesh, edges: number[]): MeshDefect[] {
  if (edges.length === 0) return []
  const vertexCount = mesh.positions.length / 3
  const local = new Map<number, number>()
  for (const v of edges) if (!local.has(v)) local.set(v, local.size)
  const parent = Int32Array.from({ length: local.size }, (_, i) => i)
  for (let e = 0; e + 1 < edges.length; e += 2) {
    const a = findRoot(parent, local.get(edges[e]!)!)
    const b = findRoot(parent, local.get(edges[e + 1]!)!)
    if (a !== b) parent[a] = b
  }
  const boxes = new Map<number, BoundingBox>()
  for (const [vertex, index] of local) {
    if (vertex >= vertexCount) continue
    const root = findRoot(parent, index)
    const p = mesh.positions
    const x = p[vertex * 3]!
    const y = p[vertex * 3 + 1]!
    const z = p[vertex * 3 + 2]!
    const box = boxes.get(root)
    if (!box) {
      boxes.set(root, { min: [x, y, z], max: [x, y, z] })
      continue
    }
    box.min = [Math.min(box.min[0], x), Math.min(box.min[1], y), Math.min(box.min[2], z)]
    box.max = [Math.max(box.max[0], x), Math.max(box.max[1], y), Math.max(box.max[2], z)]
  }
  return [...boxes.values()].map((box) => ({
    center: [
      (box.min[0] + box.max[0]) / 2,
      (box.min[1] + box.max[1]) / 2,
      (box.min[2] + box.max[2]) / 2,
    ],
    size: Math.hypot(box.max[0] - box.min[0], box.max[1] - box.min[1], box.max[2] - box.min[2]),
  }))
}

/**
 * Watertightness: every edge shared by exactly two triangles. Edges are counted on vertex indices,
 * so the mesh must be welded (parseStl welds). Boundary edges are grouped into holes, edges with
 * three or more triangles into non-manifold defects.
 */
export function checkMeshHealth(mesh: TriangleMesh): MeshHealth {
  const t = mesh.indices
  const vertexCount = mesh.positions.length / 3
  const triangleCount = countTriangles(mesh)
  // Keys lo·n + hi are exact in a double up to 2^53; a sorted typed array counts them fast.
  const keys = new Float64Array(triangleCount * 3)
  let k = 0
  for (let i = 0; i < triangleCount; i++) {
    for (let e = 0; e < 3; e++) {
      const a = t[i * 3 + e]!
      const b = t[i * 3 + ((e + 1) % 3)]!
      if (a === b) continue
      keys[k++] = a < b ? a * vertexCount + b : b * vertexCount + a
    }
  }
  const sorted = keys.subarray(0, k).sort()
  const boundary: number[] = []
  const nonManifold: number[] = []
  let boundaryEdgeCount = 0
  let nonManifoldEdgeCount = 0
  for (let i = 0; i < sorted.length;) {
    let j = i + 1
    while (j < sorted.length && sorted[j] === sorted[i]) j++
    const uses = j - i
    if (uses !== 2) {
      const key = sorted[i]!
      const lo = Math.floor(key / vertexCount)
      const hi = key - lo * vertexCount
      if (uses === 1) {
        boundaryEdgeCount++
        boundary.push(lo, hi)
      } else {
        nonManifoldEdgeCount++
        nonManifold.push(lo, hi)
      }
    }
    i = j
  }
  return {
    watertight: boundaryEdgeCount === 0 && nonManifoldEdgeCount === 0,
    holes: groupEdges(mesh, boundary),
    nonManifold: groupEdges(mesh, nonManifold),
    boundaryEdgeCount,
    nonManifoldEdgeCount,
  }
}

/**
 * The rotation matrix (row-major 3×3) of Euler angles in degrees about x, y, z, in three.js'
 * default 'XYZ' order (R = Rx·Ry·Rz), so the viewport and the discretizer place parts alike.
 */
export function rotationMatrixFromDegrees(rotation: LooseVec3): number[] {
  const [ax, ay, az] = rotation.map((d) => ((d ?? 0) * Math.PI) / 180) as Vec3
  const a = Math.cos(ax)
  const b = Math.sin(ax)
  const c = Math.cos(ay)
  const d = Math.sin(ay)
  const e = Math.cos(az)
  const f = Math.sin(az)
  const ae = a * e
  const af = a * f
  const be = b * e
  const bf = b * f
  return [c * e, -c * f, d, af + be * d, ae - bf * d, -b * c, bf - ae * d, be + af * d, a * c]
}

/**
 * The mesh placed by a part's shape: x' = R·(S·x) + translation (scale first, then the rotation,
 * then the translation, as a three.js Object3D). Empty components take 0 (translation, rotation)
 * or 1 (scale). Winding is reversed for flipNormals and for a mirroring scale, so normals keep
 * pointing outwards. Returns a new mesh.
 */
export function transformMesh(mesh: TriangleMesh, placement: PartPlacement): TriangleMesh {
  const r = rotationMatrixFromDegrees(placement.rotation)
  const [sx, sy, sz] = placement.scale.map((s) => s ?? 1) as Vec3
  const [tx, ty, tz] = placement.translation.map((s) => s ?? 0) as Vec3
  const p = mesh.positions
  const out = new Float32Array(p.length)
  for (let i = 0; i + 2 < p.length; i += 3) {
    const x = p[i]! * sx
    const y = p[i + 1]! * sy
    const z = p[i + 2]! * sz
    out[i] = r[0]! * x + r[1]! * y + r[2]! * z + tx
    out[i + 1] = r[3]! * x + r[4]! * y + r[5]! * z + ty
    out[i + 2] = r[6]! * x + r[7]! * y + r[8]! * z + tz
  }
  const mirrored = sx * sy * sz < 0
  const indices = Uint32Array.from(mesh.indices)
  if (mirrored !== placement.flipNormals) {
    for (let i = 0; i + 2 < indices.length; i += 3) {
      const b = indices[i + 1]!
      indices[i + 1] = indices[i + 2]!
      indices[i + 2] = b
    }
  }
  return { positions: out, indices }
}

/** Unit normal of triangle `i`, or null for a degenerate one. */
export function computeTriangleNormal(mesh: TriangleMesh, i: number): Vec3 | null {
  const p = mesh.positions
  const a = mesh.indices[i * 3]! * 3
  const b = mesh.indices[i * 3 + 1]! * 3
  const c = mesh.indices[i * 3 + 2]! * 3
  const ux = p[b]! - p[a]!
  const uy = p[b + 1]! - p[a + 1]!
  const uz = p[b + 2]! - p[a + 2]!
  const vx = p[c]! - p[a]!
  const vy = p[c + 1]! - p[a + 1]!
  const vz = p[c + 2]! - p[a + 2]!
  const nx = uy * vz - uz * vy
  const ny = uz * vx - ux * vz
  const nz = ux * vy - uy * vx
  const length = Math.hypot(nx, ny, nz)
  return length > 0 ? [nx / length, ny / length, nz / length] : null
}

/**
 * The geometry facts of PUT /parts/{id}/shape_info: centre of the bounding box, planarity and the
 * common normal of a planar mesh, triangle count, holes, non-manifold edges, area and box.
 */
export function computeShapeInfo(mesh: TriangleMesh): ShapeInfo {
  const box = computeBoundingBox(mesh)
  const empty = isBoundingBoxEmpty(box)
  const boundingBox = empty ? { min: [0, 0, 0] as Vec3, max: [0, 0, 0] as Vec3 } : box
  const health = checkMeshHealth(mesh)
  let normal: Vec3 | null = null
  let isPlanar = countTriangles(mesh) > 0
  const p = mesh.positions
  for (let i = 0; i < countTriangles(mesh) && isPlanar; i++) {
    const n = computeTriangleNormal(mesh, i)
    if (!n) continue
    if (!normal) {
      normal = n
      continue
    }
    const a = mesh.indices[i * 3]! * 3
    const first = mesh.indices[0]! * 3
    const offset =
      (p[a]! - p[first]!) * normal[0] +
      (p[a + 1]! - p[first + 1]!) * normal[1] +
      (p[a + 2]! - p[first + 2]!) * normal[2]
    const diagonal = Math.hypot(
      boundingBox.max[0] - boundingBox.min[0],
      boundingBox.max[1] - boundingBox.min[1],
      boundingBox.max[2] - boundingBox.min[2],
    )
    const aligned = n[0] * normal[0] + n[1] * normal[1] + n[2] * normal[2]
    if (aligned < 1 - 1e-6 || Math.abs(offset) > 1e-6 * diagonal) isPlanar = false
  }
  if (!normal) isPlanar = false
  return {
    center: [
      (boundingBox.min[0] + boundingBox.max[0]) / 2,
      (boundingBox.min[1] + boundingBox.max[1]) / 2,
      (boundingBox.min[2] + boundingBox.max[2]) / 2,
    ],
    normal: isPlanar ? normal : null,
    isPlanar,
    nbrOfTriangles: countTriangles(mesh),
    holes: health.holes,
    nonManifold: health.nonManifold,
    surfaceArea: computeSurfaceArea(mesh),
    boundingBox,
  }
}

/** An axis-aligned box of `dimensions` centred at the origin, 12 triangles, outward normals. */
export function buildBoxMesh(dimensions: Vec3): TriangleMesh {
  const [hx, hy, hz] = dimensions.map((d) => d / 2) as Vec3
  const positions = new Float32Array(24)
  for (let i = 0; i < 8; i++) {
    positions[i * 3] = i & 1 ? hx : -hx
    positions[i * 3 + 1] = i & 2 ? hy : -hy
    positions[i * 3 + 2] = i & 4 ? hz : -hz
  }
  // prettier-ignore
  const indices = Uint32Array.from([
    0, 2, 1, 1, 2, 3, // z−
    4, 5, 6, 5, 7, 6, // z+
    0, 1, 4, 1, 5, 4, // y−
    2, 6, 3, 3, 6, 7, // y+
    0, 4, 2, 2, 4, 6, // x−
    1, 3, 5, 3, 7, 5, // x+
  ])
  return { positions, indices }
}

/** A unit square in the xy plane centred at the origin, normal +z (the 'plane' shape). */
export function buildPlaneMesh(): TriangleMesh {
  return {
    positions: Float32Array.from([-0.5, -0.5, 0, 0.5, -0.5, 0, 0.5, 0.5, 0, -0.5, 0.5, 0]),
    indices: Uint32Array.from([0, 1, 2, 0, 2, 3]),
  }
}
