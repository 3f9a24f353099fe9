/**
 * The lattice of a rigid part (frames.ts) and the world geometry of its wall candidates: where a
 * candidate site is, the normal it carries, and boxes between the world and the part's frame.
 */
import type { Vec3 } from '../../domain/vector.ts'
import type { BoundingBox } from '../geometry/mesh.ts'
import {
  collectAxisPlanes,
  coordinateScale,
  distanceToMidplane,
  fitAxis,
  type AxisPlane,
  type LatticeFrame,
} from './frames.ts'
import { isFluidNear, siteWorld, type FluidFill } from './fluidFill.ts'
import type { SubGrid } from './lattice.ts'
import type { PreparedPart } from './prepareParts.ts'
import type { WallCandidates } from './walls.ts'

/** A face with fluid beside it weighs this many times its area in the fit of the lattice. */
const WET_FACE_WEIGHT = 10
/** Faces closer than this share of dp count as one plane. */
const PLANE_TOLERANCE = 1e-3
/** Points a plane's wetness is sampled at, at most. */
const MAX_WET_SAMPLES = 4096

/** Share of sample points on the plane's faces with fluid within a diameter on either side. */
function wetShare(plane: AxisPlane, entry: PreparedPart, fills: readonly FluidFill[], dp: number) {
  if (fills.length === 0) return 0
  const p = entry.mesh.positions
  const t = entry.mesh.indices
  const stride = Math.max(1, Math.ceil((plane.triangles.length * 16) / MAX_WET_SAMPLES))
  let wet = 0
  let total = 0
  const point = [0, 0, 0]
  for (let n = 0; n < plane.triangles.length; n += stride) {
    const tri = plane.triangles[n]!
    const a = t[tri * 3]! * 3
    const b = t[tri * 3 + 1]! * 3
    const c = t[tri * 3 + 2]! * 3
    const edge = Math.max(
      Math.hypot(p[b]! - p[a]!, p[b + 1]! - p[a + 1]!, p[b + 2]! - p[a + 2]!),
      Math.hypot(p[c]! - p[a]!, p[c + 1]! - p[a + 1]!, p[c + 2]! - p[a + 2]!),
    )
    const m = Math.min(4, Math.max(1, Math.ceil(edge / dp)))
    for (let u = 0; u < m; u++)
      for (let v = 0; v + u < m; v++) {
        const s = (u + 1 / 3) / m
        const r = (v + 1 / 3) / m
        for (let e = 0; e < 3; e++)
          point[e] = p[a + e]! + s * (p[b + e]! - p[a + e]!) + r * (p[c + e]! - p[a + e]!)
        total++
        for (const sign of [1, -1]) {
          point[plane.axis]! += sign * dp
          const near = isFluidNear(fills, point[0]!, point[1]!, point[2]!)
          point[plane.axis]! -= sign * dp
          if (near) {
            wet++
            break
          }
        }
      }
  }
  return total > 0 ? wet / total : 0
}

/**
 * The lattice of a rigid part (frames.ts fitAxis per axis, faces with fluid beside them weighing
 * WET_FACE_WEIGHT times their area) and how far its faces are from where its walls put them: the
 * largest distance over the faces with fluid beside them, or over all its axis-aligned faces when
 * none has (an obstacle the fluid has not reached yet); null without axis-aligned faces.
 */
export function wallFrame(
  entry: PreparedPart,
  fills: readonly FluidFill[],
  dp: number,
): { frame: LatticeFrame; faceMisfit: number | null } {
  const frame: LatticeFrame = { origin: [0, 0, 0], spacing: [dp, dp, dp] }
  let wetMisfit: number | null = null
  let anyMisfit: number | null = null
  for (const axis of [0, 1, 2] as const) {
    const planes = collectAxisPlanes(entry.mesh, axis, PLANE_TOLERANCE * dp).map((plane) => ({
      plane,
      wet: wetShare(plane, entry, fills, dp),
    }))
    const fit = fitAxis(
      planes.map(({ plane, wet }) => ({
        coordinate: plane.coordinate,
        weight: plane.area * (1 + (WET_FACE_WEIGHT - 1) * wet),
      })),
      dp,
      coordinateScale(entry.box),
    )
    frame.origin[axis] = fit.origin
    frame.spacing[axis] = fit.spacing
    for (const { plane, wet } of planes) {
      const misfit = distanceToMidplane(plane.coordinate, fit.origin, fit.spacing)
      anyMisfit = Math.max(anyMisfit ?? 0, misfit)
      if (wet > 0) wetMisfit = Math.max(wetMisfit ?? 0, misfit)
    }
  }
  return { frame, faceMisfit: wetMisfit ?? anyMisfit }
}

/** World position of candidate c into `out`. */
export function candidatePosition(
  candidates: WallCandidates,
  frame: LatticeFrame,
  c: number,
  out: number[],
): void {
  const g = candidates.grid
  const plane = g.nx * g.ny
  const s = candidates.sites[c]!
  const k = Math.floor(s / plane)
  const j = Math.floor((s - k * plane) / g.nx)
  const i = s - k * plane - j * g.nx
  out[0] = siteWorld(i + g.i0, frame.origin[0], frame.spacing[0])
  out[1] = siteWorld(j + g.j0, frame.origin[1], frame.spacing[1])
  out[2] = siteWorld(k + g.k0, frame.origin[2], frame.spacing[2])
}

/**
 * Candidate c's unit vector in world coordinates into `out`: its stored direction (in the frame)
 * times `sign`, as a normal of the world's geometry (divided by the frame's stretch per axis).
 */
export function worldNormal(
  candidates: WallCandidates,
  frame: LatticeFrame,
  c: number,
  sign: number,
  out: number[],
): void {
  const dp = candidates.grid.dp
  let length = 0
  for (let e = 0; e < 3; e++) {
    out[e] = (sign * candidates.directions[c * 3 + e]! * dp) / frame.spacing[e]!
    length += out[e]! * out[e]!
  }
  length = Math.sqrt(length)
  for (let e = 0; e < 3; e++) out[e] = length > 0 ? out[e]! / length : 0
}

/** The world box of a frame's sub-grid. */
export function worldBoxOf(grid: SubGrid, frame: LatticeFrame): BoundingBox {
  const starts = [grid.i0, grid.j0, grid.k0]
  const sizes = [grid.nx, grid.ny, grid.nz]
  return {
    min: [0, 1, 2].map((a) => frame.origin[a]! + starts[a]! * frame.spacing[a]!) as Vec3,
    max: [0, 1, 2].map(
      (a) => frame.origin[a]! + (starts[a]! + sizes[a]!) * frame.spacing[a]!,
    ) as Vec3,
  }
}

/** A world box in a frame's coordinates (where sites are at (i + ½)·dp). */
export function boxInFrame(box: BoundingBox, frame: LatticeFrame, dp: number): BoundingBox {
  return {
    min: box.min.map((v, a) => ((v - frame.origin[a]!) * dp) / frame.spacing[a]!) as Vec3,
    max: box.max.map((v, a) => ((v - frame.origin[a]!) * dp) / frame.spacing[a]!) as Vec3,
  }
}
