/**
 * Refinement zones (spec/setup.md §3 "Refinement"): every particle whose centre lies inside a
 * zone's mesh is split, at the start of a run, into n³ particles of spacing dp/n on a cube
 * stencil filling its own lattice cell (child a, b, c at the parent's centre +
 * ((a + ½)/n − ½, (b + ½)/n − ½, (c + ½)/n − ½)·dp along x, y, z), each with the parent's
 * velocity, pressure, temperature, material and part. The solver gives each the mass ρ (dp/n)³
 * and smoothing length h/n (solver/sph/variableResolution.ts), so the children carry the
 * parent's mass exactly and fill its volume: nothing is lost or doubled at a zone's border,
 * where a cell is either split whole or kept whole. Fluid and wall particles are split alike
 * (a wall inside a zone is as fine as the fluid beside it).
 *
 * The level is the spacing ratio: a zone of level L takes the spacing dp/n with n = round(1/L),
 * so that whole cells split (0.5 → dp/2, 0.3 → dp/3, the default of a new zone, 0.25 → dp/4);
 * levels that give n < 2 (2/3 and above: no refinement) or n > 4 (below 0.223: 125 or more
 * particles per cell) are refused. A particle in several zones takes the finest. Zones are split once, at
 * the start: particles keep their spacing when they flow out of a zone (no merging) and coarse
 * ones flowing in are not split (no dynamic splitting). Zone meshes: cube, sphere and cylinder,
 * placed as the viewport draws them (world = centre + translation + R·(scale ⊙ local), R the
 * Euler angles in degrees, order XYZ); the sphere and cylinder exactly, not their tessellation.
 */
import type { Mesh, Refinement } from '../../domain/meshes.ts'
import type { SolverParticles } from '../sph/config.ts'
import { rotationMatrixFromDegrees } from '../geometry/mesh.ts'

/** The finest split: n = 4, 64 particles per cell. */
export const MAX_REFINEMENT_DIVISIONS = 4

/** The mesh kinds a zone can have (closed shapes with an inside). */
export const REFINEMENT_MESH_KINDS = ['cube', 'sphere', 'cylinder'] as const

/** The divisions n of a level (spacing dp/n), or null when it gives none from 2 to 4. */
export function refinementDivisions(level: number | null): number | null {
  if (level === null || !(level > 0)) return null
  const n = Math.round(1 / level)
  return n >= 2 && n <= MAX_REFINEMENT_DIVISIONS ? n : null
}

/** Why a zone cannot run, named as the setup names it; null when it can. */
export function refinementZoneProblem(
  zone: Pick<Refinement, 'name' | 'level' | 'mesh'>,
): string | null {
  const name = `refinement zone "${zone.name}"`
  if (!(REFINEMENT_MESH_KINDS as readonly string[]).includes(zone.mesh.kind))
    return `${name} (a ${zone.mesh.kind} mesh: zones need a cube, sphere or cylinder)`
  if (refinementDivisions(zone.level) === null)
    return `${name} (level ${zone.level}: the level is the spacing ratio and must round to 1/2, 1/3 or 1/4, from 0.23 to 0.66)`
  return null
}

type Vec3 = [number, number, number]

const num = (value: number | null | undefined, fallback: number) =>
  value === null || value === undefined || !Number.isFinite(value) ? fallback : value

/**
 * A test of whether a world point lies inside a zone mesh (boundary included), or null for a mesh
 * kind without an inside or a definition with missing values.
 */
export function zoneContains(mesh: Mesh): ((x: number, y: number, z: number) => boolean) | null {
  const offset = [0, 1, 2].map((k) => num(mesh.center[k], 0) + num(mesh.translation[k], 0)) as Vec3
  const scale = [0, 1, 2].map((k) => num(mesh.scale[k], 1)) as Vec3
  if (scale.some((s) => s === 0)) return null
  const r = rotationMatrixFromDegrees(mesh.rotation)
  // local = (Rᵀ (p − offset)) / scale
  const local = (x: number, y: number, z: number): Vec3 => {
    const dx = x - offset[0]
    const dy = y - offset[1]
    const dz = z - offset[2]
    return [
      (r[0]! * dx + r[3]! * dy + r[6]! * dz) / scale[0],
      (r[1]! * dx + r[4]! * dy + r[7]! * dz) / scale[1],
      (r[2]! * dx + r[5]! * dy + r[8]! * dz) / scale[2],
    ]
  }
  switch (mesh.kind) {
    case 'cube': {
      const half = [0, 1, 2].map((k) => 0.5 * (mesh.dimensions[k] ?? NaN)) as Vec3
      if (!half.every((v) => v > 0)) return null
      return (x, y, z) => {
        const l = local(x, y, z)
        return Math.abs(l[0]) <= half[0] && Math.abs(l[1]) <= half[1] && Math.abs(l[2]) <= half[2]
      }
    }
    case 'sphere': {
      const radius = mesh.radius
      if (radius === null || !(radius > 0)) return null
      return (x, y, z) => {
        const l = local(x, y, z)
        return l[0] * l[0] + l[1] * l[1] + l[2] * l[2] <= radius * radius
      }
    }
    case 'cylinder': {
      const { radius, height } = mesh
      const axis = [0, 1, 2].map((k) => mesh.axis[k] ?? NaN) as Vec3
      const length = Math.hypot(...axis)
      if (radius === null || height === null || !(radius > 0 && height > 0 && length > 0))
        return null
      const a = axis.map((v) => v / length) as Vec3
      return (x, y, z) => {
        const l = local(x, y, z)
        const along = l[0] * a[0] + l[1] * a[1] + l[2] * a[2]
        const r2 = l[0] * l[0] + l[1] * l[1] + l[2] * l[2] - along * along
        return Math.abs(along) <= 0.5 * height && r2 <= radius * radius
      }
    }
    default:
      return null
  }
}

/** A zone as refineParticles applies it: its divisions n and its inside test. */
export interface ZoneTest {
  divisions: number
  contains: (x: number, y: number, z: number) => boolean
}

/** The tests of the zones that can run (others are the caller's to refuse). */
export function zoneTests(
  zones: readonly Pick<Refinement, 'name' | 'level' | 'mesh'>[],
): ZoneTest[] {
  return zones.flatMap((zone) => {
    const divisions = refinementDivisions(zone.level)
    const contains = zoneContains(zone.mesh)
    return divisions !== null && contains ? [{ divisions, contains }] : []
  })
}

/** Each particle's divisions (the finest zone holding its centre; 1: none), and the totals. */
function splitDivisions(
  positions: ArrayLike<number>,
  n: number,
  tests: readonly ZoneTest[],
): { divisionsOf: Uint8Array; split: number; total: number } {
  const divisionsOf = new Uint8Array(n).fill(1)
  let total = 0
  let split = 0
  for (let i = 0; i < n; i++) {
    const x = positions[3 * i]!
    const y = positions[3 * i + 1]!
    const z = positions[3 * i + 2]!
    for (const test of tests)
      if (test.divisions > divisionsOf[i]! && test.contains(x, y, z))
        divisionsOf[i] = test.divisions
    const d = divisionsOf[i]!
    total += d * d * d
    if (d > 1) split++
  }
  return { divisionsOf, split, total }
}

/**
 * What refineParticles would do to `n` particles at `positions` (xyz), without making them: the
 * particles split and the particles made from them (the discretizer's summary reports it).
 */
export function countRefinement(
  positions: ArrayLike<number>,
  n: number,
  tests: readonly ZoneTest[],
): RefinementReport {
  if (tests.length === 0) return { split: 0, children: 0 }
  const { split, total } = splitDivisions(positions, n, tests)
  return { split, children: total - (n - split) }
}

/** What refineParticles did: the particles split and the particles made from them. */
export interface RefinementReport {
  split: number
  children: number
}

/**
 * The particles of a run with its refinement zones applied (see the module's comment): a new
 * particle set with spacings, or the input itself when no particle lies in a zone. Zones that
 * cannot run (refinementZoneProblem) are the caller's to refuse; here they are skipped.
 * `more` adds zones given by their test (the refinement parts: refinementParts.ts).
 */
export function refineParticles(
  particles: SolverParticles,
  zones: readonly Pick<Refinement, 'name' | 'level' | 'mesh'>[],
  dp: number,
  more: readonly ZoneTest[] = [],
): { particles: SolverParticles; report: RefinementReport } {
  const tests = [...zoneTests(zones), ...more]
  const n = particles.kinds.length
  const { positions } = particles
  const { divisionsOf, split, total } = splitDivisions(positions, n, tests)
  if (split === 0) return { particles, report: { split: 0, children: 0 } }
  const out = {
    positions: new Float64Array(3 * total),
    kinds: new Uint8Array(total),
    partIds: new Int32Array(total),
    spacings: new Float64Array(total),
    materialIds: particles.materialIds ? new Int32Array(total) : undefined,
    velocities: particles.velocities ? new Float64Array(3 * total) : undefined,
    pressures: particles.pressures ? new Float64Array(total) : undefined,
    temperatures: particles.temperatures ? new Float64Array(total) : undefined,
  }
  let k = 0
  for (let i = 0; i < n; i++) {
    const d = divisionsOf[i]!
    const spacing = dp / d
    const x0 = positions[3 * i]! + (0.5 / d - 0.5) * dp
    const y0 = positions[3 * i + 1]! + (0.5 / d - 0.5) * dp
    const z0 = positions[3 * i + 2]! + (0.5 / d - 0.5) * dp
    for (let c = 0; c < d; c++)
      for (let b = 0; b < d; b++)
        for (let a = 0; a < d; a++) {
          out.positions[3 * k] = d === 1 ? positions[3 * i]! : x0 + a * spacing
          out.positions[3 * k + 1] = d === 1 ? positions[3 * i + 1]! : y0 + b * spacing
          out.positions[3 * k + 2] = d === 1 ? positions[3 * i + 2]! : z0 + c * spacing
          out.kinds[k] = particles.kinds[i]!
          out.partIds[k] = particles.partIds[i]!
          out.spacings[k] = spacing
          if (out.materialIds) out.materialIds[k] = particles.materialIds![i]!
          if (out.velocities)
            for (let e = 0; e < 3; e++)
              out.velocities[3 * k + e] = particles.velocities![3 * i + e]!
          if (out.pressures) out.pressures[k] = particles.pressures![i]!
          if (out.temperatures) out.temperatures[k] = particles.temperatures![i]!
          k++
        }
  }
  const refined: SolverParticles = {
    positions: out.positions,
    kinds: out.kinds,
    partIds: out.partIds,
    spacings: out.spacings,
  }
  if (out.materialIds) refined.materialIds = out.materialIds
  if (out.velocities) refined.velocities = out.velocities
  if (out.pressures) refined.pressures = out.pressures
  if (out.temperatures) refined.temperatures = out.temperatures
  return { particles: refined, report: { split, children: total - (n - split) } }
}
