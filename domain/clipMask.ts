/**
 * Volume clip masks (spec/results.md §3 "Masks per volume clip", §4 "Output loading"): which
 * particles lie inside a clip's mesh. The mesh's shape is built around the origin and placed like
 * a three.js Object3D: world = R·(S·local) + center + translation, R the Euler angles in degrees
 * about x, y, z in 'XYZ' order (the order solver/geometry and the viewport use).
 */
import type { Mesh, MeshKind } from './meshes.ts'

/** Mesh kinds a volume clip can be computed for. */
export const CLIP_MASK_KINDS = [
  'cube',
  'sphere',
  'cylinder',
  'plane',
] as const satisfies readonly MeshKind[]

/** Thrown when a mask cannot be computed (unsupported kind, degenerate placement or size). */
export class ClipMaskError extends Error {
  override name = 'ClipMaskError'
}

type Vec3 = [number, number, number]

function component(value: number | null | undefined, fallback: number): number {
  return value === null || value === undefined || !Number.isFinite(value) ? fallback : value
}

function vector(values: readonly (number | null)[] | undefined, fallback: number): Vec3 {
  return [0, 1, 2].map((i) => component(values?.[i], fallback)) as Vec3
}

/** Row-major R = Rx·Ry·Rz of Euler angles in degrees (three.js 'XYZ'). */
function rotationMatrix(degrees: Vec3): number[] {
  const [ax, ay, az] = degrees.map((d) => (d * Math.PI) / 180) as Vec3
  const a = Math.cos(ax)
  const b = Math.sin(ax)
  const c = Math.cos(ay)
  const d = Math.sin(ay)
  const e = Math.cos(az)
  const f = Math.sin(az)
  return [
    c * e,
    -c * f,
    d,
    a * f + b * e * d,
    a * e - b * f * d,
    -b * c,
    b * f - a * e * d,
    b * e + a * f * d,
    a * c,
  ]
}

function positive(value: number | null | undefined, name: string): number {
  if (value === null || value === undefined || !Number.isFinite(value) || value <= 0)
    throw new ClipMaskError(`The clip's ${name} must be a positive number.`)
  return value
}

function unit(values: readonly (number | null)[] | undefined, name: string): Vec3 {
  const v = vector(values, 0)
  const length = Math.hypot(v[0], v[1], v[2])
  if (!(length > 0)) throw new ClipMaskError(`The clip's ${name} must not be zero.`)
  return [v[0] / length, v[1] / length, v[2] / length]
}

/** Inside test in the shape's local frame (before scale, rotation and placement). */
function localInsideTest(mesh: Mesh): (x: number, y: number, z: number) => boolean {
  switch (mesh.kind) {
    case 'cube': {
      const [dx, dy, dz] = vector(mesh.dimensions, NaN)
      const hx = positive(dx, 'width') / 2
      const hy = positive(dy, 'depth') / 2
      const hz = positive(dz, 'height') / 2
      return (x, y, z) => Math.abs(x) <= hx && Math.abs(y) <= hy && Math.abs(z) <= hz
    }
    case 'sphere': {
      const r = positive(mesh.radius, 'radius')
      const r2 = r * r
      return (x, y, z) => x * x + y * y + z * z <= r2
    }
    case 'cylinder': {
      const r = positive(mesh.radius, 'radius')
      const half = positive(mesh.height, 'height') / 2
      const [ax, ay, az] = unit(mesh.axis, 'axis')
      const r2 = r * r
      return (x, y, z) => {
        const t = x * ax + y * ay + z * az
        if (Math.abs(t) > half) return false
        const px = x - t * ax
        const py = y - t * ay
        const pz = z - t * az
        return px * px + py * py + pz * pz <= r2
      }
    }
    case 'plane': {
      // A half-space: the side the normal points to, beyond the offset `height` along it.
      const [nx, ny, nz] = unit(mesh.normal, 'normal')
      const offset = component(mesh.height, 0)
      return (x, y, z) => x * nx + y * ny + z * nz >= offset
    }
    default:
      throw new ClipMaskError(
        `A volume clip of kind ${mesh.kind} cannot be computed; use ${CLIP_MASK_KINDS.join(', ')}.`,
      )
  }
}

/**
 * Writes 1 into `out[i]` for each particle (x[i], y[i], z[i]) inside the clip's mesh (outside when
 * `inverted`), 0 otherwise, and returns how many are 1. A plane clips to the half-space on its
 * normal side (flipNormals turns it round). Throws {@link ClipMaskError} for other mesh kinds, a
 * zero scale or a non-positive size.
 */
export function computeClipMask(
  mesh: Mesh,
  inverted: boolean,
  x: Float32Array,
  y: Float32Array,
  z: Float32Array,
  out: Uint8Array,
): number {
  const n = x.length
  if (y.length !== n || z.length !== n || out.length < n)
    throw new ClipMaskError('Positions and mask must have one entry per particle.')
  const inside = localInsideTest(mesh)
  const [sx, sy, sz] = vector(mesh.scale, 1)
  if (sx === 0 || sy === 0 || sz === 0)
    throw new ClipMaskError("The clip's scale must not be zero.")
  const r = rotationMatrix(vector(mesh.rotation, 0))
  const center = vector(mesh.center, 0)
  const translation = vector(mesh.translation, 0)
  const ox = center[0] + translation[0]
  const oy = center[1] + translation[1]
  const oz = center[2] + translation[2]
  const flip = mesh.kind === 'plane' && mesh.flipNormals
  const keep = inverted !== flip
  let count = 0
  for (let i = 0; i < n; i++) {
    const wx = x[i]! - ox
    const wy = y[i]! - oy
    const wz = z[i]! - oz
    // local = S⁻¹ · Rᵀ · (world − origin)
    const lx = (r[0]! * wx + r[3]! * wy + r[6]! * wz) / sx
    const ly = (r[1]! * wx + r[4]! * wy + r[7]! * wz) / sy
    const lz = (r[2]! * wx + r[5]! * wy + r[8]! * wz) / sz
    const value = inside(lx, ly, lz) !== keep ? 1 : 0
    out[i] = value
    count += value
  }
  return count
}
