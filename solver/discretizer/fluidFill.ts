/**
 * Fluid parts filled with particles, each on a lattice of its own (frames.ts): anchored on the
 * part's bottom along gravity and fitted to its faces across it, so a box whose size is a whole
 * number of particle diameters is filled exactly wherever it sits. A site holds a particle when it
 * is inside the part (6-ray winding vote, robust to holes and overlaps), below the fill height,
 * around the seed point when one is set, and not claimed by an earlier fluid part. Then the top of
 * the fill is trimmed or completed (volume correction) so that particles × dp³ equals the part's
 * volume below its fill height to one particle, where the size is not a whole number of diameters.
 */
import type { Vec3 } from '../../domain/vector.ts'
import type { TriangleMesh } from '../geometry/mesh.ts'
import {
  collectAxisPlanes,
  coordinateScale,
  fitOrigin,
  latticeAxisOf,
  originThrough,
  shiftMesh,
  type WeightedPlane,
} from './frames.ts'
import { INSIDE_VOTES, castColumns, computeInsideVotes } from './inside.ts'
import { formatLength, report, type IssueLists } from './issues.ts'
import { localIndexOf, siteCoordinate, subGridOfBox, type SubGrid } from './lattice.ts'
import type { PreparedPart } from './prepareParts.ts'
import { computeVolumeBelow } from './volume.ts'
import { correctTop } from './volumeCorrection.ts'

/** The particles of one fluid part: the filled sites of its own lattice. */
export interface FluidFill {
  prepared: PreparedPart
  materialId: number
  /** The part's lattice origin: site (i, j, k) sits at origin + (i + ½, j + ½, k + ½)·dp. */
  origin: Vec3
  /** The part's sites, in its frame. */
  grid: SubGrid
  /** 1 where the part has a fluid particle. */
  mask: Uint8Array
  count: number
  /** Volume of the part below its fill height, m³: what its particles should add up to. */
  geometricVolume: number
  /** Sites the lattice gave inside the part, before the volume correction. */
  latticeCount: number
  /** Particles the volume correction added (> 0) or removed (< 0) at the top of the fill. */
  correction: number
  /** Sites left to earlier fluid parts overlapping this one. */
  takenByFluid: number
  /** Particles walls and solids took (wallSampling.ts). */
  clearedByWalls: number
  /** The seed point restricted the fill to the region around it. */
  seeded: boolean
}

/** What filling needs besides the parts. */
export interface FillContext {
  dp: number
  /** Unit vector against gravity. */
  up: Vec3
  issues: IssueLists
  /** Coordinates of the rigid parts' axis-aligned faces, per axis (frames.ts collectAxisPlanes). */
  wallPlanes: readonly (readonly number[])[]
  /** Called after each part with the share of parts done. */
  onPartDone: (done: number, total: number) => void
}

/** Faces closer than this share of dp count as one plane. */
const PLANE_TOLERANCE = 1e-3

/** Lowest and highest point of the mesh along `up`. */
export function extentAlongUp(mesh: TriangleMesh, up: Vec3): { lo: number; hi: number } {
  let lo = Infinity
  let hi = -Infinity
  const p = mesh.positions
  for (let v = 0; v + 2 < p.length; v += 3) {
    const s = up[0] * p[v]! + up[1] * p[v + 1]! + up[2] * p[v + 2]!
    if (s < lo) lo = s
    if (s > hi) hi = s
  }
  return { lo, hi }
}

/** The fill height of a filling part, null for a part filled whole. */
export function fillHeightOf(entry: PreparedPart): number | null {
  return entry.part.component.type === 'filling' ? entry.part.component.height : null
}

/** A face of a fluid part touching a wall's face weighs this many times its area in the fit. */
const WALL_FACE_WEIGHT = 10

/**
 * The lattice origin of a fluid part: along gravity (a lattice axis) through its bottom, so the
 * lowest layer sits half a diameter above a floor; across it fitted to the part's axis-aligned
 * faces by area, faces lying on a wall's face (`wallPlanes`: coordinates per axis) weighing ten
 * times as much, so the fluid sits half a diameter from the tank wall it touches, and a box away
 * from walls is centred (its sites as far from one face as from the other). Axes without such
 * faces centre the sites in the bounding box.
 */
export function fluidOrigin(
  entry: PreparedPart,
  up: Vec3,
  dp: number,
  wallPlanes: readonly (readonly number[])[] = [[], [], []],
): Vec3 {
  const upAxis = latticeAxisOf(up)
  const origin: Vec3 = [0, 0, 0]
  const scale = coordinateScale(entry.box)
  for (const axis of [0, 1, 2] as const) {
    const min = entry.box.min[axis]
    const max = entry.box.max[axis]
    if (axis === upAxis) {
      origin[axis] = originThrough(up[axis] > 0 ? min : max, dp, scale)
      continue
    }
    const walls = wallPlanes[axis] ?? []
    const planes: WeightedPlane[] = collectAxisPlanes(entry.mesh, axis, PLANE_TOLERANCE * dp).map(
      (plane) => ({
        coordinate: plane.coordinate,
        weight:
          plane.area *
          (walls.some((c) => Math.abs(c - plane.coordinate) <= dp / 4) ? WALL_FACE_WEIGHT : 1),
      }),
    )
    const length = max - min
    origin[axis] =
      planes.length > 0
        ? fitOrigin(planes, dp, scale)
        : originThrough(min + (length - Math.max(1, Math.round(length / dp)) * dp) / 2, dp, scale)
  }
  return origin
}

/** World coordinate of site index `i` of a frame with origin `o`. */
export function siteWorld(i: number, o: number, dp: number): number {
  return o + siteCoordinate(i, dp)
}

/** Local index in fill's grid of the site whose cell holds the point, or −1. */
export function siteIndexNear(fill: FluidFill, x: number, y: number, z: number): number {
  const { grid, origin } = fill
  const dp = grid.dp
  return localIndexOf(
    grid,
    Math.round((x - origin[0]) / dp - 0.5),
    Math.round((y - origin[1]) / dp - 0.5),
    Math.round((z - origin[2]) / dp - 0.5),
  )
}

/** Whether a fluid particle holds the cell of point (x, y, z). */
export function isFluidNear(fills: readonly FluidFill[], x: number, y: number, z: number): boolean {
  for (const fill of fills) {
    const s = siteIndexNear(fill, x, y, z)
    if (s >= 0 && fill.mask[s] === 1) return true
  }
  return false
}

/** Keeps only the sites of `mask` connected (6-neighbours) to `start`. */
function keepConnected(mask: Uint8Array, grid: SubGrid, start: number): void {
  const { nx, ny, nz } = grid
  const queue = new Int32Array(mask.length)
  let head = 0
  let tail = 0
  mask[start] = 2
  queue[tail++] = start
  while (head < tail) {
    const site = queue[head++]!
    const i = site % nx
    const j = Math.floor(site / nx) % ny
    const k = Math.floor(site / (nx * ny))
    const visit = (next: number) => {
      if (mask[next] === 1) {
        mask[next] = 2
        queue[tail++] = next
      }
    }
    if (i > 0) visit(site - 1)
    if (i < nx - 1) visit(site + 1)
    if (j > 0) visit(site - nx)
    if (j < ny - 1) visit(site + nx)
    if (k > 0) visit(site - nx * ny)
    if (k < nz - 1) visit(site + nx * ny)
  }
  for (let s = 0; s < mask.length; s++) mask[s] = mask[s] === 2 ? 1 : 0
}

/** Fills every fluid part (see the module comment), in the setup's order. */
export function fillFluidParts(
  fluidParts: readonly PreparedPart[],
  context: FillContext,
): FluidFill[] {
  const { dp, up, issues } = context
  const upAxis = latticeAxisOf(up)
  const fills: FluidFill[] = []
  for (const [n, entry] of fluidParts.entries()) {
    const { part, mesh } = entry
    const label = `Part "${part.name}"`
    const origin = fluidOrigin(entry, up, dp, context.wallPlanes)
    const local = shiftMesh(mesh, origin)
    const min = entry.box.min.map((v, a) => v - origin[a]!) as Vec3
    const max = entry.box.max.map((v, a) => v - origin[a]!) as Vec3
    // one layer more above the top: room for the volume correction
    if (upAxis !== -1) {
      if (up[upAxis] > 0) max[upAxis] += dp
      else min[upAxis] -= dp
    }
    const grid = subGridOfBox({ min, max }, dp)
    const mask = computeInsideVotes(local, grid)
    for (let s = 0; s < mask.length; s++) mask[s] = mask[s]! >= INSIDE_VOTES ? 1 : 0

    let seeded = false
    const seed = part.seedPoint
    if (seed && seed.every((c) => typeof c === 'number' && Number.isFinite(c))) {
      const [sx, sy, sz] = (seed as number[]).map((c, a) => Math.round((c - origin[a]!) / dp - 0.5))
      const start = localIndexOf(grid, sx!, sy!, sz!)
      if (start >= 0 && mask[start] === 1) {
        keepConnected(mask, grid, start)
        seeded = true
      } else
        report(
          issues.warnings,
          'seed_point_outside',
          part.id,
          `${label}: the seed point is not inside the part's geometry, so the whole part was filled.`,
        )
    }

    const height = fillHeightOf(entry)
    const { lo, hi } = extentAlongUp(mesh, up)
    if (height !== null && height > hi - lo)
      report(
        issues.warnings,
        'fill_height_above_part',
        part.id,
        `${label}: the fill height ${formatLength(height)} is above the part's top (${formatLength(hi - lo)} from its bottom), so the whole part was filled.`,
      )
    if (height !== null && height <= 0)
      report(
        issues.warnings,
        'fill_height_below_part',
        part.id,
        `${label}: the fill height ${formatLength(height)} is at or below the part's bottom, so it holds no fluid.`,
      )
    const level = height === null ? Infinity : lo + height

    // below the fill level
    let count = 0
    for (let k = 0; k < grid.nz; k++) {
      const z = siteWorld(k + grid.k0, origin[2], dp)
      for (let j = 0; j < grid.ny; j++) {
        const y = siteWorld(j + grid.j0, origin[1], dp)
        const row = grid.nx * (j + grid.ny * k)
        for (let i = 0; i < grid.nx; i++) {
          if (mask[row + i] !== 1) continue
          const x = siteWorld(i + grid.i0, origin[0], dp)
          if (up[0] * x + up[1] * y + up[2] * z < level) count++
          else mask[row + i] = 0
        }
      }
    }
    const geometricVolume = computeVolumeBelow(mesh, up, level)
    const latticeCount = count

    // volume correction: only where the part's volume is known and the fill is the whole part
    let correction = 0
    if (upAxis !== -1 && entry.watertight && !seeded && count > 0) {
      const need = Math.round(geometricVolume / dp ** 3) - count
      if (need !== 0) {
        const direction = up[upAxis] > 0 ? 1 : -1
        correction = correctTop(
          {
            axis: upAxis,
            direction,
            grid,
            crossings: castColumns(local, grid, upAxis),
            levelHeight: level - direction * origin[upAxis],
          },
          mask,
          need,
        )
        count += correction
      }
    }

    // sites earlier fluid parts hold stay theirs
    let takenByFluid = 0
    const earlier = fills.filter((fill) => boxesOverlap(fill, grid, origin))
    if (earlier.length > 0)
      for (let s = 0; s < mask.length; s++) {
        if (mask[s] !== 1) continue
        const i = s % grid.nx
        const j = Math.floor(s / grid.nx) % grid.ny
        const k = Math.floor(s / (grid.nx * grid.ny))
        const x = siteWorld(i + grid.i0, origin[0], dp)
        const y = siteWorld(j + grid.j0, origin[1], dp)
        const z = siteWorld(k + grid.k0, origin[2], dp)
        if (!isFluidNear(earlier, x, y, z)) continue
        mask[s] = 0
        count--
        takenByFluid++
      }

    fills.push({
      prepared: entry,
      materialId: part.materialId!,
      origin,
      grid,
      mask,
      count,
      geometricVolume,
      latticeCount,
      correction,
      takenByFluid,
      clearedByWalls: 0,
      seeded,
    })
    context.onPartDone(n + 1, fluidParts.length)
  }
  return fills
}

/** The world box of a fill's grid (its sites' cells). */
export function fillBox(fill: Pick<FluidFill, 'grid' | 'origin'>): { min: Vec3; max: Vec3 } {
  const { grid, origin } = fill
  const dp = grid.dp
  return {
    min: [origin[0] + grid.i0 * dp, origin[1] + grid.j0 * dp, origin[2] + grid.k0 * dp],
    max: [
      origin[0] + (grid.i0 + grid.nx) * dp,
      origin[1] + (grid.j0 + grid.ny) * dp,
      origin[2] + (grid.k0 + grid.nz) * dp,
    ],
  }
}

function boxesOverlap(fill: FluidFill, grid: SubGrid, origin: Vec3): boolean {
  const a = fillBox(fill)
  const b = fillBox({ grid, origin })
  return [0, 1, 2].every((c) => a.min[c]! < b.max[c]! && b.min[c]! < a.max[c]!)
}
