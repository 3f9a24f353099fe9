/**
 * The volume of a closed mesh below a plane, exactly: the divergence theorem with the apex of every
 * tetrahedron on the plane, so the cap the plane cuts off contributes nothing and only the parts of
 * the triangles below it count. A box, a prism or any closed polyhedron gets its true volume; a
 * tessellated cylinder or sphere the volume of its tessellation.
 */
import type { Vec3 } from '../../domain/vector.ts'
import type { TriangleMesh } from '../geometry/mesh.ts'

/**
 * |volume| of the part of `mesh` where up·x < level (m³). `level` Infinity gives the whole volume.
 * Meant for closed meshes; an open one gives the volume its triangles enclose with the plane.
 */
export function computeVolumeBelow(mesh: TriangleMesh, up: Vec3, level: number): number {
  const p = mesh.positions
  const t = mesh.indices
  // apex: the point of the plane nearest the mesh's first vertex keeps the numbers small
  const first: Vec3 = [p[0] ?? 0, p[1] ?? 0, p[2] ?? 0]
  const along = Number.isFinite(level)
    ? up[0] * first[0] + up[1] * first[1] + up[2] * first[2] - level
    : 0
  const apex: Vec3 = [first[0] - along * up[0], first[1] - along * up[1], first[2] - along * up[2]]
  let sum = 0
  const polygon: number[] = []
  const heights = [0, 0, 0]
  for (let tri = 0; tri * 3 + 2 < t.length; tri++) {
    polygon.length = 0
    for (let corner = 0; corner < 3; corner++) {
      const v = t[tri * 3 + corner]! * 3
      heights[corner] = Number.isFinite(level)
        ? up[0] * p[v]! + up[1] * p[v + 1]! + up[2] * p[v + 2]! - level
        : -1
    }
    // Sutherland–Hodgman against the half-space below the level, relative to the apex
    for (let corner = 0; corner < 3; corner++) {
      const next = (corner + 1) % 3
      const a = t[tri * 3 + corner]! * 3
      const b = t[tri * 3 + next]! * 3
      const ha = heights[corner]!
      const hb = heights[next]!
      if (ha < 0) polygon.push(p[a]! - apex[0], p[a + 1]! - apex[1], p[a + 2]! - apex[2])
      if (ha < 0 !== hb < 0) {
        const s = ha / (ha - hb)
        polygon.push(
          p[a]! + s * (p[b]! - p[a]!) - apex[0],
          p[a + 1]! + s * (p[b + 1]! - p[a + 1]!) - apex[1],
          p[a + 2]! + s * (p[b + 2]! - p[a + 2]!) - apex[2],
        )
      }
    }
    // fan of the clipped polygon: each triangle with the apex is a signed tetrahedron
    for (let k = 3; k + 5 < polygon.length; k += 3) {
      const ax = polygon[0]!
      const ay = polygon[1]!
      const az = polygon[2]!
      const bx = polygon[k]!
      const by = polygon[k + 1]!
      const bz = polygon[k + 2]!
      const cx = polygon[k + 3]!
      const cy = polygon[k + 4]!
      const cz = polygon[k + 5]!
      sum += ax * (by * cz - bz * cy) + ay * (bz * cx - bx * cz) + az * (bx * cy - by * cx)
    }
  }
  return Math.abs(sum / 6)
}
