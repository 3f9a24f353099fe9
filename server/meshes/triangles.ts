import type { Mesh } from '../../domain/meshes.ts'
import type { LooseVec3 } from '../../domain/vector.ts'

/*
 * Triangles of the generated mesh kinds, in world coordinates. Every shape is built around the
 * origin in its own frame, then placed: world = center + translation + R · (scale ⊙ local), with R
 * the Euler rotation in degrees applied as three.js order 'XYZ' (R = Rx · Ry · Rz), the order the
 * viewport uses. Planar shapes lie across their normal, width along the frame's first axis (x for
 * the normal z, then height or length along y); a plane is offset by `height` along its normal, a
 * rectangle turned by `angle` degrees about it; a cylinder runs along its axis, centred.
 */

type Vec3 = [number, number, number]

/** The internal error text of spec/setup.md §8 for a definition that yields no geometry. */
export const MESH_GEOMETRY_ERROR = 'Could not get geometry from mesh definition'

/** Kinds that have a surface (triangles) without an uploaded file. */
export const SURFACE_MESH_KINDS = [
  'rectangle',
  'cube',
  'cylinder',
  'circle',
  'plane',
  'sphere',
] as const satisfies readonly Mesh['kind'][]

function finite(value: number | null | undefined): number {
  if (value === null || value === undefined || !Number.isFinite(value))
    throw new Error(MESH_GEOMETRY_ERROR)
  return value
}

function vector(value: LooseVec3): Vec3 {
  return [finite(value[0]), finite(value[1]), finite(value[2])]
}

function normalize(value: Vec3): Vec3 {
  const length = Math.hypot(value[0], value[1], value[2])
  if (!(length > 0)) throw new Error(MESH_GEOMETRY_ERROR)
  return [value[0] / length, value[1] / length, value[2] / length]
}

function cross(a: Vec3, b: Vec3): Vec3 {
  return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}

/** Two unit vectors that complete `normal` to a right-handed orthonormal frame (u × v = n). */
function basisAround(normal: Vec3): { u: Vec3; v: Vec3; n: Vec3 } {
  const n = normalize(normal)
  // y as the helper puts u along x for the usual normal z (width along x, height along y)
  const helper: Vec3 = Math.abs(n[1]) < 0.9 ? [0, 1, 0] : [0, 0, 1]
  const u = normalize(cross(helper, n))
  const v = cross(n, u)
  return { u, v, n }
}

/** Row-major 3 × 3 rotation matrix of Euler angles in degrees, three.js order 'XYZ'. */
export function rotationMatrix(rotationDeg: Vec3): number[] {
  const [a, b, c] = rotationDeg.map((deg) => (deg * Math.PI) / 180) as Vec3
  const [ca, sa, cb, sb, cc, sc] = [
    Math.cos(a),
    Math.sin(a),
    Math.cos(b),
    Math.sin(b),
    Math.cos(c),
    Math.sin(c),
  ]
  return [
    cb * cc,
    -cb * sc,
    sb,
    ca * sc + sa * sb * cc,
    ca * cc - sa * sb * sc,
    -sa * cb,
    sa * sc - ca * sb * cc,
    sa * cc + ca * sb * sc,
    ca * cb,
  ]
}

/** Triangles of a shape in its own frame, 9 numbers (three corners) per triangle. */
function localTriangles(mesh: Mesh): number[] {
  const out: number[] = []
  const push = (...corners: Vec3[]) => {
    for (const corner of corners) out.push(corner[0], corner[1], corner[2])
  }
  const at = (frame: { u: Vec3; v: Vec3; n: Vec3 }, a: number, b: number, c: number): Vec3 => [
    frame.u[0] * a + frame.v[0] * b + frame.n[0] * c,
    frame.u[1] * a + frame.v[1] * b + frame.n[1] * c,
    frame.u[2] * a + frame.v[2] * b + frame.n[2] * c,
  ]
  const quad = (frame: { u: Vec3; v: Vec3; n: Vec3 }, halfU: number, halfV: number, c = 0) => {
    const p = (a: number, b: number) => at(frame, a, b, c)
    push(p(-halfU, -halfV), p(halfU, -halfV), p(halfU, halfV))
    push(p(-halfU, -halfV), p(halfU, halfV), p(-halfU, halfV))
  }
  switch (mesh.kind) {
    case 'point':
    case 'complex':
      throw new Error(MESH_GEOMETRY_ERROR)
    case 'plane': {
      const frame = basisAround(vector(mesh.normal))
      quad(frame, finite(mesh.width) / 2, finite(mesh.length) / 2, finite(mesh.height))
      break
    }
    case 'rectangle': {
      const base = basisAround(vector(mesh.normal))
      const angle = (finite(mesh.angle) * Math.PI) / 180
      const turn = (a: Vec3, b: Vec3, cos: number, sin: number): Vec3 => [
        a[0] * cos + b[0] * sin,
        a[1] * cos + b[1] * sin,
        a[2] * cos + b[2] * sin,
      ]
      const frame = {
        u: turn(base.u, base.v, Math.cos(angle), Math.sin(angle)),
        v: turn(base.v, base.u, Math.cos(angle), -Math.sin(angle)),
        n: base.n,
      }
      quad(frame, finite(mesh.width) / 2, finite(mesh.height) / 2)
      break
    }
    case 'circle': {
      const frame = basisAround(vector(mesh.normal))
      const radius = finite(mesh.radius)
      const segments = Math.max(3, Math.round(finite(mesh.circleResolution)))
      for (let i = 0; i < segments; i++) {
        const a0 = (2 * Math.PI * i) / segments
        const a1 = (2 * Math.PI * (i + 1)) / segments
        push(
          at(frame, 0, 0, 0),
          at(frame, radius * Math.cos(a0), radius * Math.sin(a0), 0),
          at(frame, radius * Math.cos(a1), radius * Math.sin(a1), 0),
        )
      }
      break
    }
    case 'cube': {
      const [dx, dy, dz] = vector(mesh.dimensions).map((d) => d / 2) as Vec3
      const faces: { frame: { u: Vec3; v: Vec3; n: Vec3 }; hu: number; hv: number; c: number }[] = [
        { frame: { u: [0, 1, 0], v: [0, 0, 1], n: [1, 0, 0] }, hu: dy, hv: dz, c: dx },
        { frame: { u: [0, 0, 1], v: [0, 1, 0], n: [-1, 0, 0] }, hu: dz, hv: dy, c: dx },
        { frame: { u: [0, 0, 1], v: [1, 0, 0], n: [0, 1, 0] }, hu: dz, hv: dx, c: dy },
        { frame: { u: [1, 0, 0], v: [0, 0, 1], n: [0, -1, 0] }, hu: dx, hv: dz, c: dy },
        { frame: { u: [1, 0, 0], v: [0, 1, 0], n: [0, 0, 1] }, hu: dx, hv: dy, c: dz },
        { frame: { u: [0, 1, 0], v: [1, 0, 0], n: [0, 0, -1] }, hu: dy, hv: dx, c: dz },
      ]
      for (const face of faces) quad(face.frame, face.hu, face.hv, face.c)
      break
    }
    case 'sphere': {
      const radius = finite(mesh.radius)
      const rings = Math.max(2, Math.round(finite(mesh.sphereResolution)))
      const sectors = 2 * rings
      const point = (ring: number, sector: number): Vec3 => {
        const polar = (Math.PI * ring) / rings
        const azimuth = (2 * Math.PI * sector) / sectors
        return [
          radius * Math.sin(polar) * Math.cos(azimuth),
          radius * Math.sin(polar) * Math.sin(azimuth),
          radius * Math.cos(polar),
        ]
      }
      for (let ring = 0; ring < rings; ring++)
        for (let sector = 0; sector < sectors; sector++) {
          const a = point(ring, sector)
          const b = point(ring + 1, sector)
          const c = point(ring + 1, sector + 1)
          const d = point(ring, sector + 1)
          if (ring > 0) push(a, b, d)
          if (ring < rings - 1) push(d, b, c)
        }
      break
    }
    case 'cylinder': {
      const frame = basisAround(vector(mesh.axis))
      const radius = finite(mesh.radius)
      const half = finite(mesh.height) / 2
      const segments = Math.max(3, Math.round(finite(mesh.cylinderResolution)))
      for (let i = 0; i < segments; i++) {
        const a0 = (2 * Math.PI * i) / segments
        const a1 = (2 * Math.PI * (i + 1)) / segments
        const rim = (angle: number, c: number) =>
          at(frame, radius * Math.cos(angle), radius * Math.sin(angle), c)
        push(rim(a0, -half), rim(a1, -half), rim(a1, half))
        push(rim(a0, -half), rim(a1, half), rim(a0, half))
        push(at(frame, 0, 0, half), rim(a0, half), rim(a1, half))
        push(at(frame, 0, 0, -half), rim(a1, -half), rim(a0, -half))
      }
      break
    }
  }
  return out
}

/**
 * The mesh's triangles in world coordinates, 9 numbers per triangle. Throws
 * MESH_GEOMETRY_ERROR for a point, a complex mesh or a definition with missing values.
 */
export function buildMeshTriangles(mesh: Mesh): Float64Array {
  const local = localTriangles(mesh)
  const scale = vector(mesh.scale)
  const offset = vector(mesh.center).map((c, i) => c + finite(mesh.translation[i])) as Vec3
  const r = rotationMatrix(vector(mesh.rotation))
  const out = new Float64Array(local.length)
  for (let i = 0; i < local.length; i += 3) {
    const x = local[i]! * scale[0]
    const y = local[i + 1]! * scale[1]
    const z = local[i + 2]! * scale[2]
    out[i] = offset[0] + r[0]! * x + r[1]! * y + r[2]! * z
    out[i + 1] = offset[1] + r[3]! * x + r[4]! * y + r[5]! * z
    out[i + 2] = offset[2] + r[6]! * x + r[7]! * y + r[8]! * z
  }
  return out
}

/** The number of triangles of a generated mesh; 0 for a point, null when it cannot be built. */
export function countMeshTriangles(mesh: Mesh): number | null {
  if (mesh.kind === 'point') return 0
  try {
    return buildMeshTriangles(mesh).length / 9
  } catch {
    return null
  }
}

/** Centroids of the mesh's triangles, 3 numbers per triangle (where a surface sensor samples). */
export function computeTriangleCentroids(mesh: Mesh): Float64Array {
  const triangles = buildMeshTriangles(mesh)
  const count = triangles.length / 9
  const out = new Float64Array(count * 3)
  for (let t = 0; t < count; t++)
    for (let axis = 0; axis < 3; axis++)
      out[3 * t + axis] =
        (triangles[9 * t + axis]! + triangles[9 * t + 3 + axis]! + triangles[9 * t + 6 + axis]!) / 3
  return out
}
