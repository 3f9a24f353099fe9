/**
 * Refinement parts (spec/setup.md §3: a part of component.type 'refinement', whose geometry is a
 * refinement zone): they refine like the Refinement objects (refinement.ts), every particle whose
 * centre lies inside the part's placed mesh splitting into n³ at the start of a run. A part has no
 * level of its own, so it takes the level a new zone starts with (DEFAULT_REFINEMENT_LEVEL, 0.3:
 * spacing dp/3). The inside of a mesh is only defined when it is closed: a part whose mesh has
 * holes or non-manifold edges, or no triangles, is refused with its name (refinementPartProblem).
 *
 * The inside test counts, along each axis, the signed crossings of the mesh on the ray from the
 * point (+1 where the outward normal points along the ray, −1 against it); a point is inside when
 * the winding number is non-zero on at least two of the three rays, so a point whose ray grazes an
 * edge or vertex (counted twice or not at all) is still decided by the other two. Triangles are
 * bucketed per axis on a grid over the mesh's bounding box, so a test costs the triangles of one
 * bucket.
 */
import { DEFAULT_REFINEMENT_LEVEL } from '../../domain/meshes.ts'
import type { Part } from '../../domain/parts.ts'
import {
  checkMeshHealth,
  computeBoundingBox,
  countTriangles,
  type TriangleMesh,
} from '../geometry/mesh.ts'
import { placePartGeometry } from './partGeometry.ts'
import type { RunSetup } from '../setup.ts'
import { refinementDivisions, zoneTests, type ZoneTest } from './refinement.ts'

/** Largest bucket grid per axis (buckets² per projection). */
const MAX_BUCKETS = 128

interface AxisBuckets {
  axis: 0 | 1 | 2
  /** Lower corner and bucket size in the two other axes (b = axis + 1, c = axis + 2, mod 3). */
  b0: number
  c0: number
  size: number
  nb: number
  nc: number
  /** Triangles of bucket q: triangles[offsets[q] … offsets[q + 1] − 1]. */
  offsets: Int32Array
  triangles: Int32Array
}

function bucketTriangles(mesh: TriangleMesh, axis: 0 | 1 | 2): AxisBuckets {
  const b = ((axis + 1) % 3) as 0 | 1 | 2
  const c = ((axis + 2) % 3) as 0 | 1 | 2
  const box = computeBoundingBox(mesh)
  const count = countTriangles(mesh)
  const span = Math.max(box.max[b] - box.min[b], box.max[c] - box.min[c], 1e-12)
  const per = Math.max(1, Math.min(MAX_BUCKETS, Math.ceil(Math.sqrt(count))))
  const size = span / per
  const nb = Math.max(1, Math.ceil((box.max[b] - box.min[b]) / size) + 1)
  const nc = Math.max(1, Math.ceil((box.max[c] - box.min[c]) / size) + 1)
  const p = mesh.positions
  const t = mesh.indices
  const range = (tri: number) => {
    let loB = Infinity
    let hiB = -Infinity
    let loC = Infinity
    let hiC = -Infinity
    for (let e = 0; e < 3; e++) {
      const v = t[tri * 3 + e]!
      loB = Math.min(loB, p[v * 3 + b]!)
      hiB = Math.max(hiB, p[v * 3 + b]!)
      loC = Math.min(loC, p[v * 3 + c]!)
      hiC = Math.max(hiC, p[v * 3 + c]!)
    }
    const clamp = (v: number, n: number) => Math.min(n - 1, Math.max(0, v))
    return [
      clamp(Math.floor((loB - box.min[b]) / size), nb),
      clamp(Math.floor((hiB - box.min[b]) / size), nb),
      clamp(Math.floor((loC - box.min[c]) / size), nc),
      clamp(Math.floor((hiC - box.min[c]) / size), nc),
    ] as const
  }
  const counts = new Int32Array(nb * nc + 1)
  for (let tri = 0; tri < count; tri++) {
    const [i0, i1, j0, j1] = range(tri)
    for (let j = j0; j <= j1; j++) for (let i = i0; i <= i1; i++) counts[i + nb * j + 1]!++
  }
  for (let q = 0; q < nb * nc; q++) counts[q + 1]! += counts[q]!
  const offsets = counts.slice()
  const fill = counts.slice()
  const triangles = new Int32Array(offsets[nb * nc]!)
  for (let tri = 0; tri < count; tri++) {
    const [i0, i1, j0, j1] = range(tri)
    for (let j = j0; j <= j1; j++)
      for (let i = i0; i <= i1; i++) triangles[fill[i + nb * j]!++] = tri
  }
  return { axis, b0: box.min[b], c0: box.min[c], size, nb, nc, offsets, triangles }
}

/** The winding number of the ray from (x, y, z) along +axis. */
function windingAlong(mesh: TriangleMesh, buckets: AxisBuckets, point: readonly number[]): number {
  const { axis } = buckets
  const b = (axis + 1) % 3
  const c = (axis + 2) % 3
  const pb = point[b]!
  const pc = point[c]!
  const i = Math.floor((pb - buckets.b0) / buckets.size)
  const j = Math.floor((pc - buckets.c0) / buckets.size)
  if (i < 0 || j < 0 || i >= buckets.nb || j >= buckets.nc) return 0
  const q = i + buckets.nb * j
  const p = mesh.positions
  const t = mesh.indices
  let winding = 0
  for (let k = buckets.offsets[q]!; k < buckets.offsets[q + 1]!; k++) {
    const tri = buckets.triangles[k]!
    const v0 = t[tri * 3]! * 3
    const v1 = t[tri * 3 + 1]! * 3
    const v2 = t[tri * 3 + 2]! * 3
    // signed areas of the point against each projected edge (b, c plane)
    const e0 = (p[v1 + b]! - pb) * (p[v2 + c]! - pc) - (p[v2 + b]! - pb) * (p[v1 + c]! - pc)
    const e1 = (p[v2 + b]! - pb) * (p[v0 + c]! - pc) - (p[v0 + b]! - pb) * (p[v2 + c]! - pc)
    const e2 = (p[v0 + b]! - pb) * (p[v1 + c]! - pc) - (p[v1 + b]! - pb) * (p[v0 + c]! - pc)
    const area = e0 + e1 + e2
    if (area === 0) continue // edge-on to the ray
    const inside = area > 0 ? e0 >= 0 && e1 >= 0 && e2 >= 0 : e0 <= 0 && e1 <= 0 && e2 <= 0
    if (!inside) continue
    // where the ray meets the triangle's plane (barycentric weights e/area)
    const hit = (e0 * p[v0 + axis]! + e1 * p[v1 + axis]! + e2 * p[v2 + axis]!) / area
    // the projected area's sign is the sign of the normal's component along the axis
    if (hit > point[axis]!) winding += area > 0 ? 1 : -1
  }
  return winding
}

/**
 * The inside test of a closed triangle mesh (see the module's comment); a point outside its
 * bounding box is outside.
 */
export function meshContains(mesh: TriangleMesh): (x: number, y: number, z: number) => boolean {
  const box = computeBoundingBox(mesh)
  const axes = ([0, 1, 2] as const).map((axis) => bucketTriangles(mesh, axis))
  return (x, y, z) => {
    if (x < box.min[0] || y < box.min[1] || z < box.min[2]) return false
    if (x > box.max[0] || y > box.max[1] || z > box.max[2]) return false
    const point = [x, y, z]
    let votes = 0
    for (const buckets of axes) if (windingAlong(mesh, buckets, point) !== 0) votes++
    return votes >= 2
  }
}

type RefinementPart = Pick<Part, 'id' | 'name' | 'component' | 'shape'>

/** The placed closed mesh of a refinement part, or why it cannot refine (named as the setup names it). */
function refinementPartMesh(
  part: RefinementPart,
  meshes: Record<number, TriangleMesh>,
): TriangleMesh | string {
  const name = `refinement part "${part.name}"`
  const geometry = placePartGeometry(part, meshes)
  if (geometry.kind === 'unsupported')
    return `${name} (a ${geometry.shapeType} shape has no inside to refine)`
  if (geometry.kind === 'empty') return `${name} (its geometry has no triangles)`
  if (!geometry.mesh.positions.every(Number.isFinite))
    return `${name} (its translation, rotation or scale is not a valid number)`
  const health = checkMeshHealth(geometry.mesh)
  if (!health.watertight)
    return `${name} (its mesh is open: ${health.holes.length} hole(s), ${health.nonManifold.length} non-manifold edge group(s); a refinement part needs a closed mesh)`
  return geometry.mesh
}

/** Why a refinement part cannot run; null when it can (and for parts of other types). */
export function refinementPartProblem(
  part: RefinementPart,
  meshes: Record<number, TriangleMesh>,
): string | null {
  if (part.component.type !== 'refinement') return null
  const mesh = refinementPartMesh(part, meshes)
  return typeof mesh === 'string' ? mesh : null
}

/** The zone tests of the setup's refinement parts that can run, at the default level. */
export function refinementPartZones(
  parts: readonly RefinementPart[],
  meshes: Record<number, TriangleMesh>,
): ZoneTest[] {
  const divisions = refinementDivisions(DEFAULT_REFINEMENT_LEVEL)!
  return parts.flatMap((part) => {
    if (part.component.type !== 'refinement') return []
    const mesh = refinementPartMesh(part, meshes)
    return typeof mesh === 'string' ? [] : [{ divisions, contains: meshContains(mesh) }]
  })
}

/** Every refinement of a setup that can run: its zones, then its refinement parts. */
export function setupRefinementTests(
  setup: Pick<RunSetup, 'refinements' | 'parts' | 'meshes'>,
): ZoneTest[] {
  return [...zoneTests(setup.refinements ?? []), ...refinementPartZones(setup.parts, setup.meshes)]
}
