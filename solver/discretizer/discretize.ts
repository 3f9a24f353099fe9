/**
 * discretize(setup): fluid parts filled with particles and rigid parts sampled as wall layers, on
 * one global lattice of spacing settings.particleDiameter, with hydrostatic initial pressure and
 * density, per-part errors and warnings and a quality summary. Pure computation: runs in a
 * worker thread, reads nothing but its input.
 */
import { totalmem } from 'node:os'
import { MATERIAL_MESSAGES, type Material } from '../../domain/materials.ts'
import { PART_MESSAGES, type Part } from '../../domain/parts.ts'
import { checkNumber } from '../../domain/validation.ts'
import type { Vec3 } from '../../domain/vector.ts'
import {
  checkMeshHealth,
  computeBoundingBox,
  computeMeshVolume,
  computeSurfaceArea,
  isBoundingBoxEmpty,
  type BoundingBox,
  type TriangleMesh,
} from '../geometry/mesh.ts'
import type { RunSetup } from '../setup.ts'
import { chooseSpeedOfSound, densityFromPressure } from '../sph/equationOfState.ts'
import { INSIDE_VOTES, computeInsideVotes, estimateThickness } from './inside.ts'
import {
  createSiteTable,
  insertSite,
  type SubGrid,
  countSites,
  estimateSitesOfBox,
  localIndexOf,
  siteCoordinate,
  subGridOfBox,
} from './lattice.ts'
import { placePartGeometry } from './partGeometry.ts'
import {
  DiscretizationCanceledError,
  type Discretization,
  type DiscretizationIssue,
  type DiscretizationIssueCode,
  type DiscretizeOptions,
  type PartDiscretizationSummary,
  type PartRole,
} from './types.ts'
import { findWallCandidates } from './walls.ts'

/** Smoothing length over particle diameter of the solver (solver/sph DEFAULT_SOLVER_OPTIONS). */
export const SMOOTHING_LENGTH_FACTOR = 1.5
/** Wall layers covering the kernel support 2h: ceil(2 · 1.5) = 3. */
export const DEFAULT_WALL_LAYERS = Math.ceil(2 * SMOOTHING_LENGTH_FACTOR)
/**
 * Bytes a particle costs from discretization to a running solver: about 470 in the solver (RK4
 * arrays and cell grid, NUMERICS.md) and 73 in the discretizer's output, rounded up.
 */
export const BYTES_PER_PARTICLE = 600
/** Share of the machine's memory a run may take. */
export const MEMORY_SHARE = 0.5
/** Beyond this many particle diameters from the origin, Float32 outputs lose sub-dp/1000 detail. */
export const FAR_FROM_ORIGIN_DIAMETERS = 10_000
/** A fluid part with fewer particles than this is flagged. */
export const FEW_PARTICLES = 100
/** A closed wall thinner than this many particle diameters is flagged. */
export const THIN_WALL_DIAMETERS = 2
/** The solver's c0 ≥ 10·√(g·H) and ≥ 10·|u0| (solver/sph DEFAULT_SOLVER_OPTIONS). */
const SOUND_SPEED_COEFFICIENT = 10
/** The wet side of a wall is the one with fluid when the other has less than this share of it. */
const DRY_SIDE_SHARE = 0.1

const formatCount = (n: number) => Math.round(n).toLocaleString('en-US')
const formatLength = (m: number) => `${Number(m.toPrecision(4))} m`

/** The most particles this machine's memory allows. */
export function maxParticlesForMemory(memoryBytes = totalmem()): number {
  return Math.floor((memoryBytes * MEMORY_SHARE) / BYTES_PER_PARTICLE)
}

/** The message of a refused particle count. */
export function tooManyParticlesMessage(dp: number, estimate: number, max: number): string {
  return `The particle diameter of ${dp} m would give about ${formatCount(estimate)} particles, more than the ${formatCount(max)} that fit in memory. Increase the particle diameter.`
}

interface PreparedPart {
  part: Part
  role: PartRole
  mesh: TriangleMesh
  box: BoundingBox
  volume: number
  area: number
  watertight: boolean
}

interface FluidFill {
  prepared: PreparedPart
  materialId: number
  grid: SubGrid
  /** 1 where the part has a fluid particle. */
  mask: Uint8Array
  count: number
}

function emptyDiscretization(
  dp: number,
  up: Vec3,
  errors: DiscretizationIssue[],
  warnings: DiscretizationIssue[],
  estimate: number,
  startMs: number,
): Discretization {
  return {
    particleDiameter: dp,
    count: 0,
    fluidCount: 0,
    wallCount: 0,
    positions: new Float64Array(0),
    kinds: new Uint8Array(0),
    partIds: new Int32Array(0),
    materialIds: new Int32Array(0),
    velocities: new Float64Array(0),
    pressures: new Float64Array(0),
    densities: new Float64Array(0),
    wallNormals: new Float32Array(0),
    speedOfSound: 0,
    up,
    errors,
    warnings,
    summary: {
      particleCount: 0,
      fluidCount: 0,
      wallCount: 0,
      parts: [],
      materials: [],
      fluidParticleVolume: 0,
      fluidMeshVolume: 0,
      estimatedParticleCount: estimate,
      durationMs: performance.now() - startMs,
    },
  }
}

function roleOf(part: Part): PartRole | 'openboundary' {
  switch (part.component.type) {
    case 'filling':
    case 'flow':
      return 'fluid'
    case 'rigid':
      return 'wall'
    case 'openboundary':
      return 'openboundary'
    case 'refinement':
      return 'none'
  }
}

function dot(a: Vec3, x: number, y: number, z: number): number {
  return a[0] * x + a[1] * y + a[2] * z
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

/**
 * Fills the fluid parts and samples the rigid parts of `setup` (see types.ts Discretization).
 * Refuses, before allocating particle arrays, a setup whose estimated particle count exceeds the
 * memory-derived limit; then, and for any other error, the arrays are empty.
 */
export function discretize(setup: RunSetup, options: DiscretizeOptions = {}): Discretization {
  const startMs = performance.now()
  const errors: DiscretizationIssue[] = []
  const warnings: DiscretizationIssue[] = []
  const report = (
    list: DiscretizationIssue[],
    code: DiscretizationIssueCode,
    partId: number | null,
    message: string,
  ) => list.push({ code, partId, message })
  const isCanceled = options.isCanceled ?? (() => false)
  const progress = (fraction: number) => {
    if (isCanceled()) throw new DiscretizationCanceledError()
    options.onProgress?.(fraction)
  }

  const { settings } = setup
  const gravity = settings.gravity.map((g) => g ?? 0) as Vec3
  const gravityMagnitude = Math.hypot(...gravity)
  const up: Vec3 =
    gravityMagnitude > 0
      ? (gravity.map((g) => -g / gravityMagnitude + 0) as Vec3) // + 0 turns −0 into 0
      : [0, 0, 1]
  const dpIssues = checkNumber(
    'settings.particleDiameter',
    'Particle diameter',
    settings.particleDiameter,
    {
      min: 0,
      exclusiveMin: true,
    },
  )
  const dp = settings.particleDiameter ?? 0
  if (dpIssues.length > 0) {
    for (const issue of dpIssues) report(errors, 'invalid_settings', null, issue.message)
    return emptyDiscretization(dp, up, errors, warnings, 0, startMs)
  }
  const layers = options.wallLayers ?? DEFAULT_WALL_LAYERS
  const wallThickness = layers * dp
  const maxParticles = options.maxParticles ?? maxParticlesForMemory()
  if (settings.discretizerLegacy)
    report(
      warnings,
      'legacy_discretizer',
      null,
      'The legacy discretizer is not available: the standard discretizer was used.',
    )
  const domain = settings.calcDomainActive
    ? {
        min: settings.calcDomainMin.map((v) => v ?? -Infinity) as Vec3,
        max: settings.calcDomainMax.map((v) => v ?? Infinity) as Vec3,
      }
    : null
  const materials = new Map<number, Material>(setup.materials.map((m) => [m.id, m]))

  // ── parts: geometry, roles, per-part checks ──
  const prepared: PreparedPart[] = []
  for (const part of setup.parts) {
    const role = roleOf(part)
    const label = `Part "${part.name}"`
    if (role === 'none') continue
    if (role === 'openboundary') {
      report(
        warnings,
        'unsupported_component',
        part.id,
        `${label} is an open boundary, which the discretizer does not support yet: it gives no particles.`,
      )
      continue
    }
    const geometry = placePartGeometry(part, setup.meshes)
    if (geometry.kind === 'unsupported') {
      report(
        errors,
        'unsupported_shape',
        part.id,
        `${label}: shapes of type ${geometry.shapeType} are not supported by the discretizer.`,
      )
      continue
    }
    if (geometry.kind === 'empty') {
      // an 'empty' shape gives nothing; a file or box without triangles is a broken part
      const level = part.shape.type === 'empty' ? warnings : errors
      report(level, 'empty_geometry', part.id, `${label}: ${PART_MESSAGES.emptyGeometry}`)
      continue
    }
    const mesh = geometry.mesh
    const box = computeBoundingBox(mesh)
    if (!mesh.positions.every(Number.isFinite)) {
      report(
        errors,
        'invalid_placement',
        part.id,
        `${label}: its translation, rotation or scale is not a valid number, so it cannot be placed.`,
      )
      continue
    }
    if (isBoundingBoxEmpty(box)) {
      report(errors, 'empty_geometry', part.id, `${label}: ${PART_MESSAGES.emptyGeometry}`)
      continue
    }
    if (role === 'fluid' && (part.materialId === null || !materials.has(part.materialId))) {
      report(errors, 'missing_material', part.id, `${label}: ${MATERIAL_MESSAGES.materialRequired}`)
      continue
    }
    const health = checkMeshHealth(mesh)
    const center: Vec3 = [
      (box.min[0] + box.max[0]) / 2,
      (box.min[1] + box.max[1]) / 2,
      (box.min[2] + box.max[2]) / 2,
    ]
    const distance = Math.hypot(...center)
    if (distance > FAR_FROM_ORIGIN_DIAMETERS * dp)
      report(
        warnings,
        'far_from_origin',
        part.id,
        `${label} is ${formatLength(distance)} from the origin (more than ${formatCount(FAR_FROM_ORIGIN_DIAMETERS)} particle diameters): positions lose precision there. Move the geometry closer to the origin.`,
      )
    if (
      domain &&
      [0, 1, 2].some((c) => box.min[c]! < domain.min[c]! || box.max[c]! > domain.max[c]!)
    )
      report(
        warnings,
        'outside_domain',
        part.id,
        `${label} reaches beyond the calculation domain (Deletion Boundary): its particles outside it are deleted when the run starts.`,
      )
    if (
      role === 'fluid' &&
      (part.component.initialDistribution || part.component.initialPreset !== null)
    )
      report(
        warnings,
        'initial_conditions_not_applied',
        part.id,
        `${label}: initial distribution tables and presets are not applied by the discretizer yet; the constant initial velocity and pressure were used.`,
      )
    if (role === 'fluid' && !health.watertight)
      report(
        warnings,
        'holes',
        part.id,
        `${label} is not watertight (${health.holes.length} hole(s), ${health.nonManifold.length} non-manifold edge group(s)): it was filled with a hole-tolerant inside test. Check the particles, or repair the geometry.`,
      )
    prepared.push({
      part,
      role,
      mesh,
      box,
      volume: computeMeshVolume(mesh),
      area: computeSurfaceArea(mesh),
      watertight: health.watertight,
    })
  }

  // ── estimate before allocating anything per site ──
  const heightOf = (part: Part) =>
    part.component.type === 'filling' ? part.component.height : null
  const extentAlongUp = (mesh: TriangleMesh) => {
    let lo = Infinity
    let hi = -Infinity
    const p = mesh.positions
    for (let v = 0; v + 2 < p.length; v += 3) {
      const s = dot(up, p[v]!, p[v + 1]!, p[v + 2]!)
      if (s < lo) lo = s
      if (s > hi) hi = s
    }
    return { lo, hi }
  }
  let estimate = 0
  let wallEstimate = 0
  for (const entry of prepared) {
    if (entry.role === 'fluid') {
      const height = heightOf(entry.part)
      const { lo, hi } = extentAlongUp(entry.mesh)
      const share = height === null || hi <= lo ? 1 : Math.min(1, Math.max(0, height / (hi - lo)))
      estimate += estimateSitesOfBox(entry.box, dp) * share
    } else {
      const walls = (entry.area * 2 * wallThickness) / dp ** 3 + 1
      estimate += walls
      wallEstimate += walls
    }
  }
  if (estimate > maxParticles) {
    report(errors, 'too_many_particles', null, tooManyParticlesMessage(dp, estimate, maxParticles))
    return emptyDiscretization(dp, up, errors, warnings, estimate, startMs)
  }
  if (errors.length > 0) return emptyDiscretization(dp, up, errors, warnings, estimate, startMs)
  progress(0.05)

  // ── fluid: inside test, seed point, fill height, one particle per site across parts ──
  const fills: FluidFill[] = []
  const fluidParts = prepared.filter((entry) => entry.role === 'fluid')
  for (const [n, entry] of fluidParts.entries()) {
    const { part, mesh } = entry
    const label = `Part "${part.name}"`
    const grid = subGridOfBox(entry.box, dp)
    const mask = computeInsideVotes(mesh, grid)
    for (let s = 0; s < mask.length; s++) mask[s] = mask[s]! >= INSIDE_VOTES ? 1 : 0
    const seed = part.seedPoint
    if (seed && seed.every((c) => typeof c === 'number' && Number.isFinite(c))) {
      const [sx, sy, sz] = (seed as number[]).map((c) => Math.round(c / dp - 0.5))
      const start = localIndexOf(grid, sx!, sy!, sz!)
      if (start >= 0 && mask[start] === 1) keepConnected(mask, grid, start)
      else
        report(
          warnings,
          'seed_point_outside',
          part.id,
          `${label}: the seed point is not inside the part's geometry, so the whole part was filled.`,
        )
    }
    const height = heightOf(part)
    const { lo, hi } = extentAlongUp(mesh)
    if (height !== null && height > hi - lo)
      report(
        warnings,
        'fill_height_above_part',
        part.id,
        `${label}: the fill height ${formatLength(height)} is above the part's top (${formatLength(hi - lo)} from its bottom), so the whole part was filled.`,
      )
    if (height !== null && height <= 0)
      report(
        warnings,
        'fill_height_below_part',
        part.id,
        `${label}: the fill height ${formatLength(height)} is at or below the part's bottom, so it holds no fluid.`,
      )
    const level = height === null ? Infinity : lo + height
    const earlier = fills.filter((fill) => gridsOverlap(fill.grid, grid))
    let count = 0
    for (let k = 0; k < grid.nz; k++) {
      const z = siteCoordinate(k + grid.k0, dp)
      for (let j = 0; j < grid.ny; j++) {
        const y = siteCoordinate(j + grid.j0, dp)
        for (let i = 0; i < grid.nx; i++) {
          const s = i + grid.nx * (j + grid.ny * k)
          if (mask[s] !== 1) continue
          const x = siteCoordinate(i + grid.i0, dp)
          let keep = dot(up, x, y, z) < level
          for (const fill of earlier) {
            if (!keep) break
            const other = localIndexOf(fill.grid, i + grid.i0, j + grid.j0, k + grid.k0)
            if (other >= 0 && fill.mask[other] === 1) keep = false
          }
          if (keep) count++
          else mask[s] = 0
        }
      }
    }
    fills.push({ prepared: entry, materialId: part.materialId!, grid, mask, count })
    progress(0.05 + (0.5 * (n + 1)) / fluidParts.length)
  }

  // ── walls: layers on the dry side of each rigid surface; walls displace fluid ──
  let wallSites = new Int32Array(4096) // global i, j, k and part id per wall particle
  let wallDirections = new Float32Array(3072) // unit normal towards the fluid side per wall particle
  let wallCount = 0
  const wallTaken = createSiteTable(Math.min(1 << 22, wallEstimate))
  const wallKeyOf = createSiteKey(
    prepared.filter((e) => e.role === 'wall').map((e) => e.box),
    dp,
    wallThickness + dp,
  )
  const wallSummaries = new Map<number, number>()
  const rigidParts = prepared.filter((entry) => entry.role === 'wall')
  for (const [n, entry] of rigidParts.entries()) {
    const { part, mesh } = entry
    const label = `Part "${part.name}"`
    // a closed mesh with inward normals: behind means inside all the same
    const orientation = entry.watertight && entry.volume < 0 ? -1 : 1
    const candidates = findWallCandidates(mesh, dp, wallThickness, orientation)
    const g = candidates.grid
    const plane = g.nx * g.ny
    let wetFront = 0
    let wetBack = 0
    for (let c = 0; c < candidates.count; c++) {
      const s = candidates.sites[c]!
      const k = Math.floor(s / plane)
      const j = Math.floor((s - k * plane) / g.nx)
      const i = s - k * plane - j * g.nx
      if (!isFluidAt(fills, i + g.i0, j + g.j0, k + g.k0)) continue
      if (candidates.sides[c]! > 0) wetFront++
      else if (candidates.sides[c]! < 0) wetBack++
    }
    const wallInFront = wetBack > 0 && wetFront < DRY_SIDE_SHARE * wetBack
    let count = 0
    for (let c = 0; c < candidates.count; c++) {
      const side = candidates.sides[c]!
      if (wallInFront ? side < 0 : side > 0) continue
      const s = candidates.sites[c]!
      const k = Math.floor(s / plane) + g.k0
      const j = Math.floor((s - (k - g.k0) * plane) / g.nx) + g.j0
      const i = s - (k - g.k0) * plane - (j - g.j0) * g.nx + g.i0
      insertSite(wallTaken, wallKeyOf(i, j, k))
      if (!wallTaken.added) continue
      if (wallCount * 4 + 4 > wallSites.length) {
        const grown = new Int32Array(wallSites.length * 2)
        grown.set(wallSites)
        wallSites = grown
        const grownDirections = new Float32Array(wallDirections.length * 2)
        grownDirections.set(wallDirections)
        wallDirections = grownDirections
      }
      wallSites[wallCount * 4] = i
      wallSites[wallCount * 4 + 1] = j
      wallSites[wallCount * 4 + 2] = k
      wallSites[wallCount * 4 + 3] = part.id
      // on the surface the stored direction is the face normal: point it at the fluid side
      const flip = candidates.distances[c] === 0 && wallInFront ? -1 : 1
      for (let e = 0; e < 3; e++)
        wallDirections[wallCount * 3 + e] = flip * candidates.directions[c * 3 + e]!
      wallCount++
      count++
      clearFluidAt(fills, i, j, k)
    }
    if (entry.watertight && !wallInFront) {
      // a closed solid with its walls inside: no fluid anywhere inside it
      const solidGrid = subGridOfBox(entry.box, dp)
      // only where fluid is: the solid's own box may be far larger than any fill
      for (const fill of fills) {
        const overlap = intersectGrids(fill.grid, solidGrid)
        if (!overlap) continue
        const votes = computeInsideVotes(mesh, overlap)
        for (let s = 0; s < votes.length; s++) {
          if (votes[s]! < INSIDE_VOTES) continue
          const i = (s % overlap.nx) + overlap.i0
          const j = (Math.floor(s / overlap.nx) % overlap.ny) + overlap.j0
          const k = Math.floor(s / (overlap.nx * overlap.ny)) + overlap.k0
          clearFluidAt([fill], i, j, k)
        }
      }
      const thickness = estimateThickness(mesh, solidGrid)
      if (thickness < THIN_WALL_DIAMETERS * dp)
        report(
          warnings,
          'thin_wall',
          part.id,
          `${label} is thinner than two particles (about ${formatLength(thickness)} with a particle diameter of ${formatLength(dp)}): fluid may pass through it. Use a smaller particle diameter or a thicker wall.`,
        )
    }
    wallSummaries.set(part.id, count)
    progress(0.55 + (0.3 * (n + 1)) / rigidParts.length)
  }

  // ── counts, per-part checks on the result ──
  let fluidCount = 0
  for (const fill of fills) {
    fluidCount += fill.count
    if (fill.count < FEW_PARTICLES)
      report(
        warnings,
        'few_particles',
        fill.prepared.part.id,
        `Part "${fill.prepared.part.name}" yields ${fill.count === 0 ? 'no' : `only ${formatCount(fill.count)}`} fluid particle${fill.count === 1 ? '' : 's'} with a particle diameter of ${formatLength(dp)}. Use a smaller particle diameter or check the part's geometry and fill height.`,
      )
  }
  if (fluidCount === 0) {
    report(
      errors,
      'no_fluid',
      null,
      'The setup gives no fluid particles: add a filling or flow part with a material.',
    )
    return emptyDiscretization(dp, up, errors, warnings, estimate, startMs)
  }
  const count = fluidCount + wallCount

  // ── arrays ──
  const positions = new Float64Array(count * 3)
  const kinds = new Uint8Array(count)
  const partIds = new Int32Array(count)
  const materialIds = new Int32Array(count)
  const velocities = new Float64Array(count * 3)
  const pressures = new Float64Array(count)
  const densities = new Float64Array(count)
  const wallNormals = new Float32Array(count * 3)
  wallNormals.set(wallDirections.subarray(0, wallCount * 3), fluidCount * 3)
  let fluidLo = Infinity
  let fluidHi = -Infinity
  let maxSpeed = 0
  let p = 0
  const ranges: { fill: FluidFill; start: number; end: number; top: number }[] = []
  for (const fill of fills) {
    const { grid, mask } = fill
    const component = fill.prepared.part.component
    const [vx, vy, vz] = component.initialVelocity.map((c) => c ?? 0) as Vec3
    maxSpeed = Math.max(maxSpeed, Math.hypot(vx, vy, vz))
    const partId = fill.prepared.part.id
    const start = p
    let top = -Infinity
    for (let k = 0; k < grid.nz; k++) {
      const z = siteCoordinate(k + grid.k0, dp)
      for (let j = 0; j < grid.ny; j++) {
        const y = siteCoordinate(j + grid.j0, dp)
        const row = grid.nx * (j + grid.ny * k)
        for (let i = 0; i < grid.nx; i++) {
          if (mask[row + i] !== 1) continue
          const x = siteCoordinate(i + grid.i0, dp)
          positions[p * 3] = x
          positions[p * 3 + 1] = y
          positions[p * 3 + 2] = z
          partIds[p] = partId
          materialIds[p] = fill.materialId
          velocities[p * 3] = vx
          velocities[p * 3 + 1] = vy
          velocities[p * 3 + 2] = vz
          const s = up[0] * x + up[1] * y + up[2] * z
          if (s > top) top = s
          p++
        }
      }
    }
    if (p > start) {
      ranges.push({ fill, start, end: p, top })
    }
  }
  for (const range of ranges) {
    for (let q = range.start; q < range.end; q++) {
      const s =
        up[0] * positions[q * 3]! + up[1] * positions[q * 3 + 1]! + up[2] * positions[q * 3 + 2]!
      if (s < fluidLo) fluidLo = s
      if (s > fluidHi) fluidHi = s
    }
  }
  for (let w = 0; w < wallCount; w++, p++) {
    positions[p * 3] = siteCoordinate(wallSites[w * 4]!, dp)
    positions[p * 3 + 1] = siteCoordinate(wallSites[w * 4 + 1]!, dp)
    positions[p * 3 + 2] = siteCoordinate(wallSites[w * 4 + 2]!, dp)
    kinds[p] = 1
    partIds[p] = wallSites[w * 4 + 3]!
    materialIds[p] = -1
  }

  // ── hydrostatic pressure below the free surface, density by the inverse Tait law ──
  const fluidHeight = fluidHi > fluidLo ? fluidHi - fluidLo + dp : dp
  const columnSurfaces = computeColumnSurfaces(positions, fluidCount, dp, up)
  let speedOfSound = 0
  for (const range of ranges) {
    const material = materials.get(range.fill.materialId)!
    const tait = {
      referenceDensity: material.density ?? 1000,
      gamma: material.gamma ?? 7,
      speedOfSound: chooseSpeedOfSound({
        materialSpeedOfSound: material.speedOfSound ?? 0,
        gravityMagnitude,
        fluidHeight,
        maxInitialSpeed: maxSpeed,
        coefficient: SOUND_SPEED_COEFFICIENT,
      }),
    }
    speedOfSound = Math.max(speedOfSound, tait.speedOfSound)
    const partSurface = range.top + dp / 2
    const weight = tait.referenceDensity * gravityMagnitude
    const initialPressure = range.fill.prepared.part.component.initialPressure ?? 0
    for (let q = range.start; q < range.end; q++) {
      const s =
        up[0] * positions[q * 3]! + up[1] * positions[q * 3 + 1]! + up[2] * positions[q * 3 + 2]!
      const surface = columnSurfaces ? columnSurfaces[q]! : partSurface
      const pressure = weight * (surface - s) + initialPressure
      pressures[q] = pressure
      densities[q] = densityFromPressure(tait, pressure)
    }
  }
  const wallDensity = materials.get(fills[0]!.materialId)?.density ?? 1000
  for (let i = fluidCount; i < count; i++) densities[i] = wallDensity
  progress(1)

  // ── summary ──
  const dp3 = dp ** 3
  const parts: PartDiscretizationSummary[] = prepared.map((entry) => {
    const fill = fills.find((f) => f.prepared === entry)
    const particleCount = fill ? fill.count : (wallSummaries.get(entry.part.id) ?? 0)
    return {
      partId: entry.part.id,
      name: entry.part.name,
      role: entry.role,
      particleCount,
      materialId: fill ? fill.materialId : null,
      meshVolume: Math.abs(entry.volume),
      particleVolume: particleCount * dp3,
      watertight: entry.watertight,
      wallLayers: entry.role === 'wall' ? layers : 0,
    }
  })
  const materialCounts = new Map<number, number>()
  for (const fill of fills)
    materialCounts.set(fill.materialId, (materialCounts.get(fill.materialId) ?? 0) + fill.count)
  let fluidMeshVolume = 0
  for (const fill of fills) {
    const height = heightOf(fill.prepared.part)
    const { lo, hi } = extentAlongUp(fill.prepared.mesh)
    const share = height === null || hi <= lo ? 1 : Math.min(1, Math.max(0, height / (hi - lo)))
    // exact for prisms along gravity (boxes, cylinders standing up), an estimate otherwise
    fluidMeshVolume += Math.abs(fill.prepared.volume) * share
  }
  return {
    particleDiameter: dp,
    count,
    fluidCount,
    wallCount,
    positions,
    kinds,
    partIds,
    materialIds,
    velocities,
    pressures,
    densities,
    wallNormals,
    speedOfSound,
    up,
    errors,
    warnings,
    summary: {
      particleCount: count,
      fluidCount,
      wallCount,
      parts,
      materials: [...materialCounts].map(([materialId, n]) => ({
        materialId,
        particleCount: n,
        volume: n * dp3,
      })),
      fluidParticleVolume: fluidCount * dp3,
      fluidMeshVolume,
      estimatedParticleCount: estimate,
      durationMs: performance.now() - startMs,
    },
  }
}

/**
 * The free surface above every fluid particle when gravity is along a lattice axis: the top of the
 * unbroken vertical run of fluid sites the particle belongs to, plus dp/2 (the coordinate along
 * `up`). Fluid parts stacked on each other share one surface, while a shallow layer beside a deep
 * column keeps its own. Null when gravity is oblique (then each part's own top is used).
 */
export function computeColumnSurfaces(
  positions: Float64Array,
  fluidCount: number,
  dp: number,
  up: Vec3,
): Float64Array | null {
  const axis = up.findIndex((c) => Math.abs(c) === 1)
  if (axis < 0 || fluidCount === 0) return null
  const direction = up[axis]!
  const b = (axis + 1) % 3
  const c = (axis + 2) % 3
  const heights = new Int32Array(fluidCount)
  const columnsB = new Int32Array(fluidCount)
  const columnsC = new Int32Array(fluidCount)
  let minB = Infinity
  let maxB = -Infinity
  let minC = Infinity
  let maxC = -Infinity
  for (let q = 0; q < fluidCount; q++) {
    const h = direction * Math.round(positions[q * 3 + axis]! / dp - 0.5)
    const ib = Math.round(positions[q * 3 + b]! / dp - 0.5)
    const ic = Math.round(positions[q * 3 + c]! / dp - 0.5)
    heights[q] = h
    columnsB[q] = ib
    columnsC[q] = ic
    if (ib < minB) minB = ib
    if (ib > maxB) maxB = ib
    if (ic < minC) minC = ic
    if (ic > maxC) maxC = ic
  }
  const nb = maxB - minB + 1
  const nc = maxC - minC + 1
  if (nb * nc > 4 * fluidCount + 1024) return null // scattered fluid: not worth a column table
  // counting sort of the particles by column, then each column by height (nearly sorted already)
  const offsets = new Int32Array(nb * nc + 1)
  const columnOf = new Int32Array(fluidCount)
  for (let q = 0; q < fluidCount; q++) {
    const column = columnsB[q]! - minB + nb * (columnsC[q]! - minC)
    columnOf[q] = column
    offsets[column + 1]!++
  }
  for (let k = 0; k < nb * nc; k++) offsets[k + 1]! += offsets[k]!
  const order = new Int32Array(fluidCount)
  const fill = offsets.slice(0, nb * nc)
  for (let q = 0; q < fluidCount; q++) order[fill[columnOf[q]!]!++] = q
  const surfaces = new Float64Array(fluidCount)
  for (let column = 0; column < nb * nc; column++) {
    const start = offsets[column]!
    const end = offsets[column + 1]!
    for (let e = start + 1; e < end; e++) {
      const q = order[e]!
      const h = heights[q]!
      let f = e - 1
      while (f >= start && heights[order[f]!]! > h) {
        order[f + 1] = order[f]!
        f--
      }
      order[f + 1] = q
    }
    // walk down each run from its top site: surface = top site along up + dp/2
    let surface = 0
    for (let e = end - 1; e >= start; e--) {
      const q = order[e]!
      if (e === end - 1 || heights[order[e + 1]!]! !== heights[q]! + 1) {
        // the top site along up: direction · (index + ½) · dp with index = direction · height
        surface = (heights[q]! + direction * 0.5) * dp + dp / 2
      }
      surfaces[q] = surface
    }
  }
  return surfaces
}

function isFluidAt(fills: readonly FluidFill[], i: number, j: number, k: number): boolean {
  for (const fill of fills) {
    const s = localIndexOf(fill.grid, i, j, k)
    if (s >= 0 && fill.mask[s] === 1) return true
  }
  return false
}

function clearFluidAt(fills: readonly FluidFill[], i: number, j: number, k: number): void {
  for (const fill of fills) {
    const s = localIndexOf(fill.grid, i, j, k)
    if (s >= 0 && fill.mask[s] === 1) {
      fill.mask[s] = 0
      fill.count--
      return
    }
  }
}

/** The sites two grids share, or null. */
function intersectGrids(a: SubGrid, b: SubGrid): SubGrid | null {
  const i0 = Math.max(a.i0, b.i0)
  const j0 = Math.max(a.j0, b.j0)
  const k0 = Math.max(a.k0, b.k0)
  const nx = Math.min(a.i0 + a.nx, b.i0 + b.nx) - i0
  const ny = Math.min(a.j0 + a.ny, b.j0 + b.ny) - j0
  const nz = Math.min(a.k0 + a.nz, b.k0 + b.nz) - k0
  return nx > 0 && ny > 0 && nz > 0 ? { dp: a.dp, i0, j0, k0, nx, ny, nz } : null
}

function gridsOverlap(a: SubGrid, b: SubGrid): boolean {
  return (
    countSites(a) > 0 &&
    countSites(b) > 0 &&
    a.i0 < b.i0 + b.nx &&
    b.i0 < a.i0 + a.nx &&
    a.j0 < b.j0 + b.ny &&
    b.j0 < a.j0 + a.ny &&
    a.k0 < b.k0 + b.nz &&
    b.k0 < a.k0 + a.nz
  )
}

/**
 * A numeric key for every lattice site near the given boxes (exact while their grid holds fewer
 * than 2^53 sites).
 */
function createSiteKey(
  boxes: BoundingBox[],
  dp: number,
  margin: number,
): (i: number, j: number, k: number) => number {
  if (boxes.length === 0) return () => 0
  const union: BoundingBox = {
    min: [0, 1, 2].map((c) => Math.min(...boxes.map((b) => b.min[c]!))) as Vec3,
    max: [0, 1, 2].map((c) => Math.max(...boxes.map((b) => b.max[c]!))) as Vec3,
  }
  const grid = subGridOfBox(union, dp, margin)
  const nx = grid.nx + 2
  const ny = grid.ny + 2
  return (i, j, k) => i - grid.i0 + 1 + nx * (j - grid.j0 + 1 + ny * (k - grid.k0 + 1))
}
