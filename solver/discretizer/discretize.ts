/**
 * discretize(setup): fluid parts filled with particles (fluidFill.ts) and rigid parts sampled as
 * wall layers (wallSampling.ts), each part on a lattice of spacing settings.particleDiameter fitted
 * to its own faces (frames.ts), with hydrostatic initial pressure and density (hydrostatic.ts),
 * per-part errors and warnings and a quality summary (summary.ts). Pure computation: runs in a
 * worker thread, reads nothing but its input.
 */
import { totalmem } from 'node:os'
import type { Material } from '../../domain/materials.ts'
import { checkNumber } from '../../domain/validation.ts'
import type { Vec3 } from '../../domain/vector.ts'
import type { RunSetup } from '../setup.ts'
import { collectAxisPlanes } from './frames.ts'
import { extentAlongUp, fillFluidParts, fillHeightOf, siteWorld } from './fluidFill.ts'
import { setGivenState, setHydrostaticState, type FluidRange } from './hydrostatic.ts'
import { applyInitialDistribution, resolveInitialDistribution } from './initialDistribution.ts'
import { formatCount, report, type IssueLists } from './issues.ts'
import { estimateSitesOfBox } from './lattice.ts'
import { prepareParts } from './prepareParts.ts'
import { addCloudsToSummary, placeReferenceClouds, referenceDiameter } from './referenceClouds.ts'
import {
  addOpenBoundariesToSummary,
  addRefinementToSummary,
  reportFillResults,
  summarize,
} from './summary.ts'
import { countRefinement } from './refinement.ts'
import { setupRefinementTests } from './refinementParts.ts'
import {
  DiscretizationCanceledError,
  type Discretization,
  type DiscretizeOptions,
} from './types.ts'
import { sampleWalls } from './wallSampling.ts'
import { sampleOpenBoundaries } from './openBoundaries.ts'
import { cutToSlice } from './slice.ts'
import { emptyDiscretization } from './empty.ts'

export { FAR_FROM_ORIGIN_DIAMETERS } from './prepareParts.ts'
export { computeColumnSurfaces } from './hydrostatic.ts'
export { FEW_PARTICLES, VOLUME_WARNING_RATIO } from './summary.ts'
export { THIN_WALL_DIAMETERS } from './wallSampling.ts'

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

/** The most particles this machine's memory allows. */
export function maxParticlesForMemory(memoryBytes = totalmem()): number {
  return Math.floor((memoryBytes * MEMORY_SHARE) / BYTES_PER_PARTICLE)
}

/** The message of a refused particle count. */
export function tooManyParticlesMessage(dp: number, estimate: number, max: number): string {
  return `The particle diameter of ${dp} m would give about ${formatCount(estimate)} particles, more than the ${formatCount(max)} that fit in memory. Increase the particle diameter.`
}

/**
 * Fills the fluid parts and samples the rigid parts of `setup` (see types.ts Discretization).
 * Refuses, before allocating particle arrays, a setup whose estimated particle count exceeds the
 * memory-derived limit; then, and for any other error, the arrays are empty.
 */
export function discretize(setup: RunSetup, options: DiscretizeOptions = {}): Discretization {
  const startMs = performance.now()
  const issues: IssueLists = { errors: [], warnings: [] }
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
  // with a pointcloud part, the particle diameter is its reference simulation's
  const cloudDp = referenceDiameter(setup, issues)
  if (
    cloudDp !== null &&
    settings.particleDiameter !== null &&
    Math.abs(settings.particleDiameter - cloudDp) > 1e-9 * cloudDp
  )
    report(
      issues.warnings,
      'invalid_settings',
      null,
      `The particle diameter of the pointcloud parts' reference simulation (${cloudDp} m) was used, not the setting's ${settings.particleDiameter} m.`,
    )
  const dpIssues = checkNumber(
    'settings.particleDiameter',
    'Particle diameter',
    cloudDp ?? settings.particleDiameter,
    { min: 0, exclusiveMin: true },
  )
  const dp = cloudDp ?? settings.particleDiameter ?? 0
  if (dpIssues.length > 0) {
    for (const issue of dpIssues) report(issues.errors, 'invalid_settings', null, issue.message)
    return emptyDiscretization(dp, up, issues, 0, startMs)
  }
  const layers = options.wallLayers ?? DEFAULT_WALL_LAYERS
  const maxParticles = options.maxParticles ?? maxParticlesForMemory()
  if (settings.discretizerLegacy)
    report(
      issues.warnings,
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
  const prepared = prepareParts(setup, dp, domain, issues)
  const clouds = placeReferenceClouds(setup, issues)
  const distributions = new Map(
    prepared
      .filter((entry) => entry.role === 'fluid')
      .map((entry) => [entry.part.id, resolveInitialDistribution(entry.part, setup, issues)]),
  )

  // ── estimate before allocating anything per site ──
  let estimate = 0
  for (const entry of prepared) {
    if (entry.role === 'fluid') {
      const height = fillHeightOf(entry)
      const { lo, hi } = extentAlongUp(entry.mesh, up)
      const share = height === null || hi <= lo ? 1 : Math.min(1, Math.max(0, height / (hi - lo)))
      estimate += estimateSitesOfBox(entry.box, dp) * share
    } else estimate += (entry.area * 2 * layers * dp) / dp ** 3 + 1
  }
  for (const cloud of clouds) estimate += cloud.count
  if (estimate > maxParticles) {
    report(
      issues.errors,
      'too_many_particles',
      null,
      tooManyParticlesMessage(dp, estimate, maxParticles),
    )
    return emptyDiscretization(dp, up, issues, estimate, startMs)
  }
  if (issues.errors.length > 0) return emptyDiscretization(dp, up, issues, estimate, startMs)
  progress(0.05)

  // ── fluid, then walls, which displace fluid ──
  const rigidParts = prepared.filter((entry) => entry.role === 'wall')
  const wallPlanes = ([0, 1, 2] as const).map((axis) =>
    rigidParts.flatMap((entry) =>
      collectAxisPlanes(entry.mesh, axis, 1e-3 * dp).map((plane) => plane.coordinate),
    ),
  )
  const fills = fillFluidParts(
    prepared.filter((entry) => entry.role === 'fluid'),
    {
      dp,
      up,
      issues,
      wallPlanes,
      onPartDone: (done, total) => progress(0.05 + (0.5 * done) / total),
    },
  )
  const { walls, parts: wallParts } = sampleWalls(rigidParts, fills, {
    dp,
    layers,
    issues,
    onPartDone: (done, total) => progress(0.55 + (0.3 * done) / total),
  })
  reportFillResults(fills, dp, issues)
  const buffers = sampleOpenBoundaries(setup, fills, walls.positions, { dp, issues })
  const fluidCount =
    fills.reduce((sum, fill) => sum + fill.count, 0) +
    clouds.reduce((sum, cloud) => sum + cloud.count, 0) +
    buffers.count
  if (fluidCount === buffers.count) {
    report(
      issues.errors,
      'no_fluid',
      null,
      'The setup gives no fluid particles: add a filling or flow part with a material.',
    )
    return emptyDiscretization(dp, up, issues, estimate, startMs)
  }
  const wallCount = walls.count
  const count = fluidCount + wallCount

  // ── arrays: fluid part by part, then walls ──
  const positions = new Float64Array(count * 3)
  const kinds = new Uint8Array(count)
  const partIds = new Int32Array(count)
  const materialIds = new Int32Array(count)
  const velocities = new Float64Array(count * 3)
  const pressures = new Float64Array(count)
  const densities = new Float64Array(count)
  const wallNormals = new Float32Array(count * 3)
  let maxSpeed = 0
  let p = 0
  const ranges: FluidRange[] = []
  const tablePressures: { start: number; values: Float64Array; materialId: number }[] = []
  for (const fill of fills) {
    const { grid, mask, origin } = fill
    const component = fill.prepared.part.component
    const [vx, vy, vz] = component.initialVelocity.map((c) => c ?? 0) as Vec3
    maxSpeed = Math.max(maxSpeed, Math.hypot(vx, vy, vz))
    const partId = fill.prepared.part.id
    const start = p
    let top = -Infinity
    for (let k = 0; k < grid.nz; k++) {
      const z = siteWorld(k + grid.k0, origin[2], dp)
      for (let j = 0; j < grid.ny; j++) {
        const y = siteWorld(j + grid.j0, origin[1], dp)
        const row = grid.nx * (j + grid.ny * k)
        for (let i = 0; i < grid.nx; i++) {
          if (mask[row + i] !== 1) continue
          const x = siteWorld(i + grid.i0, origin[0], dp)
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
    if (p > start)
      ranges.push({
        start,
        end: p,
        top,
        materialId: fill.materialId,
        initialPressure: component.initialPressure ?? 0,
      })
    const distribution = distributions.get(partId)
    if (distribution) {
      const values = applyInitialDistribution(distribution, positions, velocities, start, p)
      if (values) tablePressures.push({ start, values, materialId: fill.materialId })
      for (let q = start; q < p; q++)
        maxSpeed = Math.max(
          maxSpeed,
          Math.hypot(velocities[q * 3]!, velocities[q * 3 + 1]!, velocities[q * 3 + 2]!),
        )
    }
  }
  const cloudStarts: number[] = []
  for (const cloud of clouds) {
    const start = p
    cloudStarts.push(start)
    positions.set(cloud.positions, start * 3)
    velocities.set(cloud.velocities, start * 3)
    partIds.fill(cloud.part.id, start, start + cloud.count)
    materialIds.fill(cloud.materialId, start, start + cloud.count)
    let top = -Infinity
    for (let q = start; q < start + cloud.count; q++) {
      const s =
        up[0] * positions[q * 3]! + up[1] * positions[q * 3 + 1]! + up[2] * positions[q * 3 + 2]!
      if (s > top) top = s
      maxSpeed = Math.max(
        maxSpeed,
        Math.hypot(velocities[q * 3]!, velocities[q * 3 + 1]!, velocities[q * 3 + 2]!),
      )
    }
    p += cloud.count
    ranges.push({ start, end: p, top, materialId: cloud.materialId, initialPressure: 0 })
  }
  // open boundaries' buffers: each a range of its own (its pressure at rest: the outlet's)
  positions.set(buffers.positions, p * 3)
  velocities.set(buffers.velocities, p * 3)
  partIds.set(buffers.partIds, p)
  materialIds.set(buffers.materialIds, p)
  for (const range of buffers.ranges) {
    let top = -Infinity
    for (let q = p + range.start; q < p + range.end; q++)
      top = Math.max(
        top,
        up[0] * positions[q * 3]! + up[1] * positions[q * 3 + 1]! + up[2] * positions[q * 3 + 2]!,
      )
    const { materialId, pressure } = range
    ranges.push({
      start: p + range.start,
      end: p + range.end,
      top,
      materialId,
      initialPressure: pressure,
    })
  }
  p += buffers.count
  positions.set(walls.positions, fluidCount * 3)
  partIds.set(walls.partIds, fluidCount)
  wallNormals.set(walls.normals, fluidCount * 3)
  kinds.fill(1, fluidCount)
  materialIds.fill(-1, fluidCount)

  // ── hydrostatic pressure below the free surface, density by the inverse Tait law ──
  const speedOfSound = setHydrostaticState({
    positions,
    pressures,
    densities,
    fluidCount,
    ranges,
    materials,
    up,
    dp,
    gravityMagnitude,
    maxSpeed,
  })
  // the table's pressures and the reference output's pressures and densities replace the
  // hydrostatic state where they are given
  setGivenState({
    pressures,
    densities,
    materials,
    speedOfSound,
    tables: tablePressures,
    clouds: clouds.map((cloud, i) => ({ cloud, start: cloudStarts[i]! })),
  })
  const firstMaterialId = fills[0]?.materialId ?? clouds[0]!.materialId
  const wallDensity = materials.get(firstMaterialId)?.density ?? 1000
  densities.fill(wallDensity, fluidCount)
  progress(1)

  // a rotational periodic boundary: the run holds its slice only (slice.ts)
  return cutToSlice(
    {
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
      errors: issues.errors,
      warnings: issues.warnings,
      // the run splits the particles in refinement zones at its start (refinement.ts)
      summary: addRefinementToSummary(
        addOpenBoundariesToSummary(
          addCloudsToSummary(
            summarize({
              prepared,
              fills,
              walls: wallParts,
              layers,
              dp,
              estimate,
              durationMs: performance.now() - startMs,
            }),
            clouds,
            dp,
          ),
          buffers,
          setup.parts,
          dp,
        ),
        countRefinement(positions, count, setupRefinementTests(setup)),
      ),
    },
    setup.periodics?.[0],
  )
}
