/**
 * The buffer particles of open-boundary parts (solver/sph/openBoundary.ts). An open boundary's
 * geometry is a planar surface (a 'plane' shape, or a flat mesh): its area-weighted centroid and
 * normal define the boundary plane. The fluid lies on one side of it (the side with more fluid
 * sites within 3 dp of the face); the buffer, OPEN_BOUNDARY_LAYERS lattice layers deep, on the
 * other. The layers continue the nearest fluid site's lattice across the plane (spacing dp along
 * the normal and across it), keep the sites whose projection falls on the face, and leave out
 * sites within 3/4 dp of a wall particle. openBoundaryPlane finds the same plane again for the run
 * (solver/run/runConfig.ts): halfway between the front buffer layer and the first fluid layer.
 */
import type { Part } from '../../domain/parts.ts'
import type { Vec3 } from '../../domain/vector.ts'
import type { TriangleMesh } from '../geometry/mesh.ts'
import type { RunSetup } from '../setup.ts'
import type { FluidFill } from './fluidFill.ts'
import { siteWorld } from './fluidFill.ts'
import { report, type IssueLists } from './issues.ts'
import { placePartGeometry } from './partGeometry.ts'

/** Buffer depth in particle diameters: at least the support 2h = 3 dp (h = 1.5 dp). */
export const OPEN_BOUNDARY_LAYERS = 4

/** The buffer particles of every open-boundary part, fluid kind, in part order. */
export interface OpenBoundaryBuffers {
  count: number
  positions: Float64Array
  velocities: Float64Array
  partIds: Int32Array
  materialIds: Int32Array
  /** Per part: its first particle, count, material and the pressure its particles start at. */
  ranges: { start: number; end: number; materialId: number; pressure: number }[]
}

/** A planar face: centroid, unit normal (the mesh's own orientation), triangles. */
interface Face {
  centroid: Vec3
  normal: Vec3
  mesh: TriangleMesh
}

/** The face of a placed mesh, or a message when it is not planar. */
export function planarFace(mesh: TriangleMesh): Face | string {
  const p = mesh.positions
  const idx = mesh.indices
  const sum: Vec3 = [0, 0, 0]
  const centroid: Vec3 = [0, 0, 0]
  let area = 0
  const triangles = idx.length / 3
  const vertex = (t: number, c: number): Vec3 => {
    const v = idx[3 * t + c]!
    return [p[3 * v]!, p[3 * v + 1]!, p[3 * v + 2]!]
  }
  for (let t = 0; t < triangles; t++) {
    const [a, b, c] = [vertex(t, 0), vertex(t, 1), vertex(t, 2)]
    const u = [b[0] - a[0], b[1] - a[1], b[2] - a[2]]
    const w = [c[0] - a[0], c[1] - a[1], c[2] - a[2]]
    const n: Vec3 = [
      u[1]! * w[2]! - u[2]! * w[1]!,
      u[2]! * w[0]! - u[0]! * w[2]!,
      u[0]! * w[1]! - u[1]! * w[0]!,
    ]
    const twice = Math.hypot(...n)
    area += twice / 2
    for (let k = 0; k < 3; k++) {
      sum[k] = sum[k]! + n[k]! / 2
      centroid[k] = centroid[k]! + ((a[k]! + b[k]! + c[k]!) / 3) * (twice / 2)
    }
  }
  const length = Math.hypot(...sum)
  if (!(area > 0) || length < 0.999 * area) return 'must be a flat surface (one plane)'
  return {
    centroid: centroid.map((v) => v / area) as Vec3,
    normal: sum.map((v) => v / length) as Vec3,
    mesh,
  }
}

function tangentsOf(n: Vec3): [Vec3, Vec3] {
  const helper: Vec3 = Math.abs(n[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0]
  const t1: Vec3 = [
    helper[1] * n[2] - helper[2] * n[1],
    helper[2] * n[0] - helper[0] * n[2],
    helper[0] * n[1] - helper[1] * n[0],
  ]
  const l = Math.hypot(...t1)
  const u: Vec3 = [t1[0] / l, t1[1] / l, t1[2] / l]
  return [u, [n[1] * u[2] - n[2] * u[1], n[2] * u[0] - n[0] * u[2], n[0] * u[1] - n[1] * u[0]]]
}

/** Projects points onto the face's plane coordinates and tells whether they fall on the face. */
function faceTest(face: Face, t1: Vec3, t2: Vec3, tolerance: number) {
  const p = face.mesh.positions
  const idx = face.mesh.indices
  const tris: number[] = []
  for (let t = 0; t < idx.length / 3; t++)
    for (let c = 0; c < 3; c++) {
      const v = idx[3 * t + c]!
      const r: Vec3 = [
        p[3 * v]! - face.centroid[0],
        p[3 * v + 1]! - face.centroid[1],
        p[3 * v + 2]! - face.centroid[2],
      ]
      tris.push(dot(r, t1), dot(r, t2))
    }
  return (u: number, w: number): boolean => {
    for (let t = 0; t < tris.length; t += 6) {
      const [ax, ay, bx, by, cx, cy] = tris.slice(t, t + 6) as [
        number,
        number,
        number,
        number,
        number,
        number,
      ]
      const d1 = (u - bx) * (ay - by) - (ax - bx) * (w - by)
      const d2 = (u - cx) * (by - cy) - (bx - cx) * (w - cy)
      const d3 = (u - ax) * (cy - ay) - (cx - ax) * (w - ay)
      const scale = Math.abs((bx - ax) * (cy - ay) - (cx - ax) * (by - ay))
      const tol = tolerance * Math.sqrt(scale)
      if ((d1 >= -tol && d2 >= -tol && d3 >= -tol) || (d1 <= tol && d2 <= tol && d3 <= tol))
        return true
    }
    return false
  }
}

function dot(a: Readonly<Vec3>, b: Readonly<Vec3>): number {
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/** Every fluid site's position, fill by fill. */
function fluidSites(fills: readonly FluidFill[], dp: number): Float64Array {
  const out: number[] = []
  for (const { grid, mask, origin } of fills)
    for (let k = 0; k < grid.nz; k++)
      for (let j = 0; j < grid.ny; j++)
        for (let i = 0; i < grid.nx; i++)
          if (mask[i + grid.nx * (j + grid.ny * k)] === 1)
            out.push(
              siteWorld(i + grid.i0, origin[0], dp),
              siteWorld(j + grid.j0, origin[1], dp),
              siteWorld(k + grid.k0, origin[2], dp),
            )
  return Float64Array.from(out)
}

/**
 * The buffers of the setup's open-boundary parts, beside the fluid of `fills` and clear of the
 * wall particles `walls` (x, y, z each); problems go to `issues` (the part then gives none).
 */
export function sampleOpenBoundaries(
  setup: Pick<RunSetup, 'parts' | 'meshes'>,
  fills: readonly FluidFill[],
  walls: Float64Array,
  { dp, issues }: { dp: number; issues: IssueLists },
): OpenBoundaryBuffers {
  const positions: number[] = []
  const velocities: number[] = []
  const partIds: number[] = []
  const materialIds: number[] = []
  const ranges: OpenBoundaryBuffers['ranges'] = []
  const parts = setup.parts.filter((part) => part.component.type === 'openboundary')
  const fluid = parts.length > 0 ? fluidSites(fills, dp) : new Float64Array(0)
  const wallCell = new Map<string, number[]>()
  const key = (x: number, y: number, z: number) =>
    `${Math.floor(x / dp)},${Math.floor(y / dp)},${Math.floor(z / dp)}`
  if (parts.length > 0)
    for (let q = 0; q < walls.length; q += 3) {
      const k = key(walls[q]!, walls[q + 1]!, walls[q + 2]!)
      const list = wallCell.get(k)
      if (list) list.push(q)
      else wallCell.set(k, [q])
    }
  const nearWall = (x: number, y: number, z: number) => {
    const [cx, cy, cz] = [Math.floor(x / dp), Math.floor(y / dp), Math.floor(z / dp)]
    for (let a = -1; a <= 1; a++)
      for (let b = -1; b <= 1; b++)
        for (let c = -1; c <= 1; c++)
          for (const q of wallCell.get(`${cx + a},${cy + b},${cz + c}`) ?? []) {
            const d = Math.hypot(walls[q]! - x, walls[q + 1]! - y, walls[q + 2]! - z)
            if (d < 0.75 * dp) return true
          }
    return false
  }
  for (const part of parts) {
    const c = part.component
    if (c.type !== 'openboundary') continue
    const label = `Part "${part.name}"`
    const placed = placePartGeometry(part, setup.meshes)
    if (placed.kind !== 'mesh') {
      report(
        issues.errors,
        'empty_geometry',
        part.id,
        `${label}: the open boundary needs a flat surface.`,
      )
      continue
    }
    const face = planarFace(placed.mesh)
    if (typeof face === 'string') {
      report(issues.errors, 'unsupported_shape', part.id, `${label}: an open boundary ${face}.`)
      continue
    }
    const [t1, t2] = tangentsOf(face.normal)
    const onFace = faceTest(face, t1, t2, 1e-9)
    // the fluid beside the face, on either side
    let front = 0
    let behind = 0
    let nearest = -1
    let nearestS = Infinity
    for (let q = 0; q < fluid.length; q += 3) {
      const r: Vec3 = [
        fluid[q]! - face.centroid[0],
        fluid[q + 1]! - face.centroid[1],
        fluid[q + 2]! - face.centroid[2],
      ]
      const s = dot(r, face.normal)
      if (Math.abs(s) > 3 * dp || !onFace(dot(r, t1), dot(r, t2))) continue
      if (s > 0) front++
      else behind++
      if (Math.abs(s) < Math.abs(nearestS)) {
        nearest = q
        nearestS = s
      }
    }
    if (nearest < 0) {
      report(
        issues.errors,
        'no_fluid',
        part.id,
        `${label}: no fluid lies beside the open boundary (within 3 particle diameters of it).`,
      )
      continue
    }
    const sign = front >= behind ? 1 : -1
    const n: Vec3 = [sign * face.normal[0], sign * face.normal[1], sign * face.normal[2]]
    // the nearest fluid site on the fluid's side anchors the lattice
    let anchor = nearest
    let anchorS = Infinity
    for (let q = 0; q < fluid.length; q += 3) {
      const r: Vec3 = [
        fluid[q]! - face.centroid[0],
        fluid[q + 1]! - face.centroid[1],
        fluid[q + 2]! - face.centroid[2],
      ]
      const s = dot(r, n)
      if (s < 0 || s > 3 * dp || !onFace(dot(r, t1), dot(r, t2))) continue
      if (s < anchorS) {
        anchorS = s
        anchor = q
      }
    }
    const a: Vec3 = [fluid[anchor]!, fluid[anchor + 1]!, fluid[anchor + 2]!]
    const ra: Vec3 = [a[0] - face.centroid[0], a[1] - face.centroid[1], a[2] - face.centroid[2]]
    const u0 = dot(ra, t1)
    const w0 = dot(ra, t2)
    const s0 = dot(ra, n)
    // the face's extent in plane coordinates
    let uMin = Infinity
    let uMax = -Infinity
    let wMin = Infinity
    let wMax = -Infinity
    const p = face.mesh.positions
    for (let v = 0; v < p.length; v += 3) {
      const r: Vec3 = [
        p[v]! - face.centroid[0],
        p[v + 1]! - face.centroid[1],
        p[v + 2]! - face.centroid[2],
      ]
      uMin = Math.min(uMin, dot(r, t1))
      uMax = Math.max(uMax, dot(r, t1))
      wMin = Math.min(wMin, dot(r, t2))
      wMax = Math.max(wMax, dot(r, t2))
    }
    const materialId = part.materialId ?? fills[0]?.materialId ?? -1
    const inflow = c.ioDirection === 'inflow'
    const speed = inflow && c.ioProfileKind === 'constant' ? (c.ioVelocity ?? 0) : 0
    const start = positions.length / 3
    for (let a1 = Math.ceil((uMin - u0) / dp); u0 + a1 * dp <= uMax; a1++)
      for (let a2 = Math.ceil((wMin - w0) / dp); w0 + a2 * dp <= wMax; a2++) {
        const u = u0 + a1 * dp
        const w = w0 + a2 * dp
        if (!onFace(u, w)) continue
        for (let layer = 1; layer <= OPEN_BOUNDARY_LAYERS; layer++) {
          const s = s0 - layer * dp
          const x = face.centroid[0] + u * t1[0] + w * t2[0] + s * n[0]
          const y = face.centroid[1] + u * t1[1] + w * t2[1] + s * n[1]
          const z = face.centroid[2] + u * t1[2] + w * t2[2] + s * n[2]
          if (nearWall(x, y, z)) continue
          positions.push(x, y, z)
          velocities.push(speed * n[0], speed * n[1], speed * n[2])
          partIds.push(part.id)
          materialIds.push(materialId)
        }
      }
    const end = positions.length / 3
    const pressure = !inflow && c.ioProfileKind === 'constant' ? (c.ioPressure ?? 0) : 0
    if (end > start) ranges.push({ start, end, materialId, pressure })
  }
  return {
    count: positions.length / 3,
    positions: Float64Array.from(positions),
    velocities: Float64Array.from(velocities),
    partIds: Int32Array.from(partIds),
    materialIds: Int32Array.from(materialIds),
    ranges,
  }
}

/**
 * The boundary plane of an open-boundary part for the run: its unit normal into the fluid (away
 * from its buffer particles) and a point of the plane halfway between the front buffer layer and
 * the fluid; null when the part has no buffer particles or no flat geometry.
 */
export function openBoundaryPlane(
  part: Pick<Part, 'id' | 'shape'>,
  meshes: RunSetup['meshes'],
  buffer: { positions: ArrayLike<number>; indices: readonly number[] },
  dp: number,
): { origin: Vec3; normal: Vec3 } | null {
  const placed = placePartGeometry(part, meshes)
  if (placed.kind !== 'mesh' || buffer.indices.length === 0) return null
  const face = planarFace(placed.mesh)
  if (typeof face === 'string') return null
  const pos = buffer.positions
  const s = buffer.indices.map(
    (i) =>
      (pos[3 * i]! - face.centroid[0]) * face.normal[0] +
      (pos[3 * i + 1]! - face.centroid[1]) * face.normal[1] +
      (pos[3 * i + 2]! - face.centroid[2]) * face.normal[2],
  )
  const mean = s.reduce((x, y) => x + y, 0) / s.length
  const sign = mean > 0 ? -1 : 1
  const normal: Vec3 = [sign * face.normal[0], sign * face.normal[1], sign * face.normal[2]]
  // the front layer: the largest distance along the inward normal
  const front = Math.max(...s.map((v) => sign * v))
  const shift = front + dp / 2
  return {
    origin: [
      face.centroid[0] + shift * normal[0],
      face.centroid[1] + shift * normal[1],
      face.centroid[2] + shift * normal[2],
    ],
    normal,
  }
}
