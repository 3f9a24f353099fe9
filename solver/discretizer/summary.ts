/**
 * The quality summary of a discretization, and the warnings on its result: a fluid part whose
 * particles hold a volume more than 1 % off its own (particles × dp³ against the part's volume below
 * its fill height), and a fluid part with almost no particles.
 */
import { FLUID_VOLUME_WARNING_RATIO } from '../../domain/discretization.ts'
import type { Vec3 } from '../../domain/vector.ts'
import type { FluidFill } from './fluidFill.ts'
import { fillHeightOf } from './fluidFill.ts'
import {
  formatCount,
  formatLength,
  formatPercent,
  formatVolume,
  report,
  type IssueLists,
} from './issues.ts'
import type { PreparedPart } from './prepareParts.ts'
import type {
  DiscretizationSummary,
  MaterialDiscretizationSummary,
  PartDiscretizationSummary,
} from './types.ts'
import type { WallPartSummary } from './wallSampling.ts'

/** A fluid part with fewer particles than this is flagged. */
export const FEW_PARTICLES = 100
/** A fluid part whose particle volume is further than this share off its own volume is flagged. */
export const VOLUME_WARNING_RATIO = FLUID_VOLUME_WARNING_RATIO
/** A cause of a volume difference is named when it accounts for this share of the volume. */
const CAUSE_RATIO = 0.005

/**
 * The volume a fill should hold (m³), or null when it is not known: an open mesh (its volume is
 * not defined) or a fill restricted to the region around a seed point.
 */
export function knownVolumeOf(fill: FluidFill): number | null {
  return fill.prepared.watertight && !fill.seeded ? fill.geometricVolume : null
}

/** The warning of a fill whose particles hold a volume off its own, or null. */
export function fluidVolumeMessage(fill: FluidFill, dp: number): string | null {
  const volume = knownVolumeOf(fill)
  if (volume === null || !(volume > 0) || fill.count === 0) return null
  const particleVolume = fill.count * dp ** 3
  const difference = (particleVolume - volume) / volume
  if (Math.abs(difference) <= VOLUME_WARNING_RATIO) return null
  const part = fill.prepared.part
  const below = fillHeightOf(fill.prepared) === null ? '' : ' below its fill height'
  let text = `Part "${part.name}": its ${formatCount(fill.count)} particles hold ${formatVolume(particleVolume)} (particles × diameter³ at ${formatLength(dp)}), ${formatPercent(Math.abs(difference))} ${difference < 0 ? 'less' : 'more'} than its volume of ${formatVolume(volume)}${below}.`
  const displaced = ((fill.clearedByWalls + fill.takenByFluid) * dp ** 3) / volume
  if (displaced >= CAUSE_RATIO)
    text += ` Walls, solids or other fluid parts overlapping it take ${formatPercent(displaced)} of it.`
  const lattice = ((fill.latticeCount + fill.correction) * dp ** 3 - volume) / volume
  if (Math.abs(lattice) >= CAUSE_RATIO)
    text += ` Its size is not a whole number of particle diameters and its top could not be evened out: a smaller particle diameter reduces the difference.`
  return text
}

/** Warnings about the fills' results: few particles, a volume off the part's own. */
export function reportFillResults(
  fills: readonly FluidFill[],
  dp: number,
  issues: IssueLists,
): void {
  for (const fill of fills) {
    const part = fill.prepared.part
    if (fill.count < FEW_PARTICLES)
      report(
        issues.warnings,
        'few_particles',
        part.id,
        `Part "${part.name}" yields ${fill.count === 0 ? 'no' : `only ${formatCount(fill.count)}`} fluid particle${fill.count === 1 ? '' : 's'} with a particle diameter of ${formatLength(dp)}. Use a smaller particle diameter or check the part's geometry and fill height.`,
      )
    const volume = fluidVolumeMessage(fill, dp)
    if (volume !== null) report(issues.warnings, 'fluid_volume', part.id, volume)
  }
}

/** The summary of a finished discretization (types.ts DiscretizationSummary). */
export function summarize(input: {
  prepared: readonly PreparedPart[]
  fills: readonly FluidFill[]
  walls: ReadonlyMap<number, WallPartSummary>
  layers: number
  dp: number
  estimate: number
  durationMs: number
}): DiscretizationSummary {
  const { fills, dp } = input
  const dp3 = dp ** 3
  const parts: PartDiscretizationSummary[] = input.prepared.map((entry) => {
    const fill = fills.find((f) => f.prepared === entry)
    const wall = input.walls.get(entry.part.id)
    const particleCount = fill ? fill.count : (wall?.count ?? 0)
    const geometricVolume = fill ? knownVolumeOf(fill) : null
    const particleVolume = particleCount * dp3
    const origin: Vec3 = fill?.origin ?? wall?.origin ?? [0, 0, 0]
    return {
      partId: entry.part.id,
      name: entry.part.name,
      role: entry.role,
      particleCount,
      materialId: fill ? fill.materialId : null,
      meshVolume: Math.abs(entry.volume),
      particleVolume,
      geometricVolume,
      volumeDifference:
        geometricVolume !== null && geometricVolume > 0
          ? (particleVolume - geometricVolume) / geometricVolume
          : null,
      volumeCorrection: fill ? fill.correction : 0,
      latticeOrigin: origin,
      latticeSpacing: wall?.spacing ?? [dp, dp, dp],
      faceMisfit: wall ? wall.faceMisfit : null,
      watertight: entry.watertight,
      wallLayers: entry.role === 'wall' ? input.layers : 0,
    }
  })
  const materialCounts = new Map<number, number>()
  for (const fill of fills)
    materialCounts.set(fill.materialId, (materialCounts.get(fill.materialId) ?? 0) + fill.count)
  const materials: MaterialDiscretizationSummary[] = [...materialCounts].map(([materialId, n]) => ({
    materialId,
    particleCount: n,
    volume: n * dp3,
  }))
  const fluidCount = fills.reduce((sum, fill) => sum + fill.count, 0)
  const wallCount = [...input.walls.values()].reduce((sum, wall) => sum + wall.count, 0)
  return {
    particleCount: fluidCount + wallCount,
    fluidCount,
    wallCount,
    parts,
    materials,
    fluidParticleVolume: fluidCount * dp3,
    fluidMeshVolume: fills.reduce((sum, fill) => sum + fill.geometricVolume, 0),
    estimatedParticleCount: input.estimate,
    durationMs: input.durationMs,
  }
}

/**
 * The summary with each open boundary's buffer particles (openBoundaries.ts) as a part of role
 * 'open_boundary': counted in the total and in openBoundaryCount, not in the fluid's count and
 * volume (the fluid parts' own), so that the setup view draws them and the summary lists them.
 */
export function addOpenBoundariesToSummary(
  summary: DiscretizationSummary,
  buffers: { partIds: Int32Array; count: number },
  parts: readonly { id: number; name: string }[],
  dp: number,
): DiscretizationSummary {
  if (buffers.count === 0) return summary
  const counts = new Map<number, number>()
  for (let i = 0; i < buffers.count; i++)
    counts.set(buffers.partIds[i]!, (counts.get(buffers.partIds[i]!) ?? 0) + 1)
  const entries: PartDiscretizationSummary[] = [...counts].map(([partId, count]) => ({
    partId,
    name: parts.find((part) => part.id === partId)?.name ?? `Part ${partId}`,
    role: 'open_boundary',
    particleCount: count,
    materialId: null,
    meshVolume: 0,
    particleVolume: count * dp ** 3,
    geometricVolume: null,
    volumeDifference: null,
    volumeCorrection: 0,
    latticeOrigin: [0, 0, 0],
    latticeSpacing: [dp, dp, dp],
    faceMisfit: null,
    watertight: false,
    wallLayers: 0,
  }))
  return {
    ...summary,
    particleCount: summary.particleCount + buffers.count,
    openBoundaryCount: (summary.openBoundaryCount ?? 0) + buffers.count,
    parts: [...summary.parts, ...entries],
  }
}

/**
 * The summary with the refinement the run applies at its start (refinement.ts: each particle in a
 * zone becomes n³): `split` particles become `children`, so the total the run holds is
 * particleCount − split + children.
 */
export function addRefinementToSummary(
  summary: DiscretizationSummary,
  report: { split: number; children: number },
): DiscretizationSummary {
  if (report.split === 0) return summary
  return {
    ...summary,
    particleCount: summary.particleCount - report.split + report.children,
    refinement: { split: report.split, children: report.children },
  }
}
