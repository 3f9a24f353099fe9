/**
 * Rigid parts sampled as wall layers on lattices of their own (frames.ts), fitted to the part's
 * axis-aligned faces, those touching fluid counting ten times their area: a face lies midway
 * between its first wall layer and the fluid beside it, where the solver expects the surface,
 * instead of wherever the global lattice happened to put it. The layers go on the dry side of each
 * surface (the side with less fluid), a closed solid with fluid around it is walled from within;
 * walls displace fluid: fluid behind a wall surface, within a quarter diameter in front of it, or
 * inside a closed solid is removed. A site within half a diameter of an earlier part's wall
 * particle is left to that part.
 */
import type { Vec3 } from '../../domain/vector.ts'
import type { BoundingBox } from '../geometry/mesh.ts'
import { meshInFrame, type LatticeFrame } from './frames.ts'
import { fillBox, isFluidNear, siteWorld, type FluidFill } from './fluidFill.ts'
import { INSIDE_VOTES, computeInsideVotes, estimateThickness } from './inside.ts'
import { formatLength, report, type IssueLists } from './issues.ts'
import {
  createSiteTable,
  findSite,
  insertSite,
  localIndexOf,
  subGridOfBox,
  type SubGrid,
} from './lattice.ts'
import type { PreparedPart } from './prepareParts.ts'
import { boxInFrame, candidatePosition, wallFrame, worldBoxOf, worldNormal } from './wallFrame.ts'
import { findWallCandidates, type WallCandidates } from './walls.ts'
import { WallCells, WallStore } from './wallStore.ts'

/** A closed wall thinner than this many particle diameters is flagged. */
export const THIN_WALL_DIAMETERS = 2
/** The wet side of a wall is the one with fluid when the other has less than this share of it. */
const DRY_SIDE_SHARE = 0.1
/** Fluid nearer than this share of dp in front of a wall surface is removed. */
const FLUID_CLEARANCE = 0.25

/** The wall particles of all rigid parts, in world coordinates. */
export interface WallParticles {
  count: number
  /** xyz per particle (3 × count). */
  positions: Float64Array
  partIds: Int32Array
  /** Unit vector towards the fluid side per particle (3 × count). */
  normals: Float32Array
}

/** What one rigid part became. */
export interface WallPartSummary {
  count: number
  /** The part's lattice: sites at origin + (i + ½, j + ½, k + ½) · spacing. */
  origin: Vec3
  spacing: Vec3
  /**
   * The largest distance of a face with fluid beside it from the plane midway between its wall
   * layer and the fluid (m): 0 when every such face sits where the solver sees it; null when the
   * part has no axis-aligned face with fluid beside it.
   */
  faceMisfit: number | null
}

/** What sampling the walls needs besides the parts and the fluid. */
export interface WallContext {
  dp: number
  layers: number
  issues: IssueLists
  /** Called after each part with the share of parts done. */
  onPartDone: (done: number, total: number) => void
}

/** Index ranges of a fill's grid whose sites lie in the world box. */
function rangeIn(fill: FluidFill, box: BoundingBox): SubGrid | null {
  const { grid, origin } = fill
  const dp = grid.dp
  const lo = (a: number, i0: number) =>
    Math.max(0, Math.ceil((box.min[a]! - origin[a]!) / dp - 0.5) - i0)
  const hi = (a: number, i0: number, n: number) =>
    Math.min(n - 1, Math.floor((box.max[a]! - origin[a]!) / dp - 0.5) - i0)
  const i0 = lo(0, grid.i0)
  const j0 = lo(1, grid.j0)
  const k0 = lo(2, grid.k0)
  const nx = hi(0, grid.i0, grid.nx) - i0 + 1
  const ny = hi(1, grid.j0, grid.ny) - j0 + 1
  const nz = hi(2, grid.k0, grid.nz) - k0 + 1
  return nx > 0 && ny > 0 && nz > 0 ? { dp, i0, j0, k0, nx, ny, nz } : null
}

/**
 * Removes fluid of `fills` that a rigid part displaces: behind its surface or within a quarter
 * diameter in front of it (within the wall band), and inside it when it is a closed solid walled
 * from within (`solid` given: its mesh and box in the frame).
 */
function displaceFluid(
  fills: readonly FluidFill[],
  candidates: WallCandidates,
  frame: LatticeFrame,
  isWallSide: (c: number) => boolean,
  flip: number,
  solid: { mesh: PreparedPart['mesh']; box: BoundingBox } | null,
): void {
  const g = candidates.grid
  const dp = g.dp
  const { origin, spacing } = frame
  const table = createSiteTable(candidates.count)
  for (let c = 0; c < candidates.count; c++) insertSite(table, candidates.sites[c]!)
  const band = worldBoxOf(g, frame)
  const { distances } = candidates
  const site = [0, 0, 0]
  const normal = [0, 0, 0]
  const nearest = [0, 0, 0]
  for (const fill of fills) {
    const range = rangeIn(fill, band)
    if (!range) continue
    const { grid } = fill
    // inside votes of the solid over the fill's part of it, in the solid's frame
    let votes: Uint8Array | null = null
    let voteGrid: SubGrid | null = null
    if (solid) {
      voteGrid = intersectGrids(
        subGridOfBox(solid.box, dp),
        subGridOfBox(boxInFrame(fillBox(fill), frame, dp), dp),
      )
      if (voteGrid) votes = computeInsideVotes(solid.mesh, voteGrid)
    }
    for (let k = range.k0; k < range.k0 + range.nz; k++) {
      const z = siteWorld(k + grid.k0, fill.origin[2], dp)
      for (let j = range.j0; j < range.j0 + range.ny; j++) {
        const y = siteWorld(j + grid.j0, fill.origin[1], dp)
        for (let i = range.i0; i < range.i0 + range.nx; i++) {
          const s = i + grid.nx * (j + grid.ny * k)
          if (fill.mask[s] !== 1) continue
          const x = siteWorld(i + grid.i0, fill.origin[0], dp)
          const wi = Math.round((x - origin[0]) / spacing[0] - 0.5)
          const wj = Math.round((y - origin[1]) / spacing[1] - 0.5)
          const wk = Math.round((z - origin[2]) / spacing[2] - 0.5)
          const local = localIndexOf(g, wi, wj, wk)
          const c = local >= 0 ? findSite(table, local) : -1
          let remove = false
          if (c >= 0) {
            // the candidate's nearest surface point and the normal towards the fluid side there
            candidatePosition(candidates, frame, c, site)
            const distance = distances[c]!
            for (let e = 0; e < 3; e++)
              nearest[e] =
                site[e]! + (candidates.directions[c * 3 + e]! * distance * spacing[e]!) / dp
            worldNormal(
              candidates,
              frame,
              c,
              isWallSide(c) ? (distance === 0 ? flip : 1) : -1,
              normal,
            )
            const along =
              (x - nearest[0]!) * normal[0]! +
              (y - nearest[1]!) * normal[1]! +
              (z - nearest[2]!) * normal[2]!
            remove = along < FLUID_CLEARANCE * dp
          } else if (votes && voteGrid) {
            const v = localIndexOf(voteGrid, wi, wj, wk)
            remove = v >= 0 && votes[v]! >= INSIDE_VOTES
          }
          if (!remove) continue
          fill.mask[s] = 0
          fill.count--
          fill.clearedByWalls++
        }
      }
    }
  }
}

/** The sites two grids share, or null. */
export function intersectGrids(a: SubGrid, b: SubGrid): SubGrid | null {
  const i0 = Math.max(a.i0, b.i0)
  const j0 = Math.max(a.j0, b.j0)
  const k0 = Math.max(a.k0, b.k0)
  const nx = Math.min(a.i0 + a.nx, b.i0 + b.nx) - i0
  const ny = Math.min(a.j0 + a.ny, b.j0 + b.ny) - j0
  const nz = Math.min(a.k0 + a.nz, b.k0 + b.nz) - k0
  return nx > 0 && ny > 0 && nz > 0 ? { dp: a.dp, i0, j0, k0, nx, ny, nz } : null
}

/**
 * Samples the rigid parts (see the module comment), displacing the fluid of `fills` (their masks,
 * counts and clearedByWalls change). Returns the wall particles and a summary per part id.
 */
export function sampleWalls(
  rigidParts: readonly PreparedPart[],
  fills: readonly FluidFill[],
  context: WallContext,
): { walls: WallParticles; parts: Map<number, WallPartSummary> } {
  const { dp, issues } = context
  const thickness = context.layers * dp
  const store = new WallStore()
  const cells = new WallCells(dp)
  const parts = new Map<number, WallPartSummary>()
  const bands: BoundingBox[] = []
  const position = [0, 0, 0]
  const normal = [0, 0, 0]
  for (const [n, entry] of rigidParts.entries()) {
    const { part } = entry
    const label = `Part "${part.name}"`
    const { frame, faceMisfit } = wallFrame(entry, fills, dp)
    const mesh = meshInFrame(entry.mesh, frame, dp)
    // a closed mesh with inward normals: behind means inside all the same
    const orientation = entry.watertight && entry.volume < 0 ? -1 : 1
    const candidates = findWallCandidates(mesh, dp, thickness, orientation)
    let wetFront = 0
    let wetBack = 0
    for (let c = 0; c < candidates.count; c++) {
      candidatePosition(candidates, frame, c, position)
      if (!isFluidNear(fills, position[0]!, position[1]!, position[2]!)) continue
      if (candidates.sides[c]! > 0) wetFront++
      else if (candidates.sides[c]! < 0) wetBack++
    }
    const wallInFront = wetBack > 0 && wetFront < DRY_SIDE_SHARE * wetBack
    const flip = wallInFront ? -1 : 1
    const isWallSide = (c: number) =>
      wallInFront ? candidates.sides[c]! >= 0 : candidates.sides[c]! <= 0
    const localBox = boxInFrame(entry.box, frame, dp)
    const closedInside = entry.watertight && !wallInFront
    displaceFluid(
      fills,
      candidates,
      frame,
      isWallSide,
      flip,
      closedInside ? { mesh, box: localBox } : null,
    )

    const band = worldBoxOf(candidates.grid, frame)
    const nearEarlier = bands.some((other) =>
      [0, 1, 2].every((a) => other.min[a]! < band.max[a]! && band.min[a]! < other.max[a]!),
    )
    bands.push(band)
    let count = 0
    for (let c = 0; c < candidates.count; c++) {
      if (!isWallSide(c)) continue
      candidatePosition(candidates, frame, c, position)
      const [x, y, z] = position as [number, number, number]
      if (nearEarlier && cells.isTaken(store, x, y, z, part.id)) continue
      // on the surface the stored direction is the face normal: point it at the fluid side
      worldNormal(candidates, frame, c, candidates.distances[c] === 0 ? flip : 1, normal)
      store.push(x, y, z, part.id, normal[0]!, normal[1]!, normal[2]!)
      cells.add(store, store.count - 1)
      count++
    }
    if (closedInside) {
      const thicknessEstimate = estimateThickness(mesh, subGridOfBox(localBox, dp))
      if (thicknessEstimate < THIN_WALL_DIAMETERS * dp)
        report(
          issues.warnings,
          'thin_wall',
          part.id,
          `${label} is thinner than two particles (about ${formatLength(thicknessEstimate)} with a particle diameter of ${formatLength(dp)}): fluid may pass through it. Use a smaller particle diameter or a thicker wall.`,
        )
    }
    parts.set(part.id, { count, origin: frame.origin, spacing: frame.spacing, faceMisfit })
    context.onPartDone(n + 1, rigidParts.length)
  }
  return {
    walls: {
      count: store.count,
      positions: store.positions.subarray(0, store.count * 3),
      partIds: store.partIds.subarray(0, store.count),
      normals: store.normals.subarray(0, store.count * 3),
    },
    parts,
  }
}
