/**
 * Pointcloud parts (spec/setup.md §3 shape.type pointcloud): a flow or filling part whose fluid
 * particles are another simulation's output, read by the server (RunSetup.pointClouds). Each
 * reference particle becomes one particle at its position (turned and moved by the part's
 * rotation and translation) with its velocity (turned alike), and its pressure and density where
 * the output holds them. The run's particle diameter is the reference simulation's.
 */
import { MATERIAL_MESSAGES } from '../../domain/materials.ts'
import type { Part } from '../../domain/parts.ts'
import type { Vec3 } from '../../domain/vector.ts'
import { rotationMatrixFromDegrees } from '../geometry/mesh.ts'
import type { ReferencePointCloud, RunSetup } from '../setup.ts'
import { formatLength, report, type IssueLists } from './issues.ts'
import type { DiscretizationSummary, PartDiscretizationSummary } from './types.ts'

/** The particles of one pointcloud part, placed in the world. */
export interface PlacedCloud {
  part: Part
  materialId: number
  count: number
  /** m, 3 per particle. */
  positions: Float64Array
  /** m/s, 3 per particle. */
  velocities: Float64Array
  /** Pa from the output; null: derived from the hydrostatic state. */
  pressures: Float32Array | null
  /** kg/m³ from the output; null: derived from the pressure. */
  densities: Float32Array | null
}

/** Pointclouds are loaded for flow and filling parts only. */
export function pointcloudRoleMessage(name: string): string {
  return `Part "${name}": point clouds are loaded for flow and filling parts only.`
}

/** A reference output that was not handed to the discretizer. */
export function missingCloudMessage(name: string): string {
  return `Part "${name}": the particles of its reference simulation's output could not be read. Choose a simulation and an output that it has written.`
}

/** The part's splitting ratio above 1, which the discretizer does not implement. */
export function splittingRatioMessage(name: string, ratio: number): string {
  return `Part "${name}": a splitting ratio of ${ratio} is not supported yet; use 1 (each particle of the reference output becomes one particle).`
}

/** The particle diameter of pointcloud parts, or null without any; mixed diameters are reported. */
export function referenceDiameter(setup: RunSetup, issues: IssueLists): number | null {
  let diameter: number | null = null
  for (const part of setup.parts) {
    if (part.shape.type !== 'pointcloud') continue
    const cloud = setup.pointClouds?.[part.id]
    if (!cloud) continue
    if (diameter === null) diameter = cloud.particleDiameter
    else if (Math.abs(cloud.particleDiameter - diameter) > 1e-9 * diameter)
      report(
        issues.errors,
        'invalid_settings',
        part.id,
        `Part "${part.name}": its reference simulation has a particle diameter of ${formatLength(cloud.particleDiameter)}, another pointcloud part's has ${formatLength(diameter)}. Pointcloud parts of one setup must come from simulations with the same particle diameter.`,
      )
  }
  return diameter
}

function place(
  part: Part,
  cloud: ReferencePointCloud,
): Pick<PlacedCloud, 'positions' | 'velocities'> {
  const r = rotationMatrixFromDegrees(part.shape.rotation)
  const [tx, ty, tz] = part.shape.translation.map((c) => c ?? 0) as Vec3
  const n = cloud.count
  const positions = new Float64Array(n * 3)
  const velocities = new Float64Array(n * 3)
  const p = cloud.positions
  const v = cloud.velocities
  for (let i = 0; i < n; i++) {
    const x = p[i * 3]!
    const y = p[i * 3 + 1]!
    const z = p[i * 3 + 2]!
    positions[i * 3] = r[0]! * x + r[1]! * y + r[2]! * z + tx
    positions[i * 3 + 1] = r[3]! * x + r[4]! * y + r[5]! * z + ty
    positions[i * 3 + 2] = r[6]! * x + r[7]! * y + r[8]! * z + tz
    if (!v) continue
    const a = v[i * 3]!
    const b = v[i * 3 + 1]!
    const c = v[i * 3 + 2]!
    velocities[i * 3] = r[0]! * a + r[1]! * b + r[2]! * c
    velocities[i * 3 + 1] = r[3]! * a + r[4]! * b + r[5]! * c
    velocities[i * 3 + 2] = r[6]! * a + r[7]! * b + r[8]! * c
  }
  return { positions, velocities }
}

/**
 * The pointcloud parts of `setup` with their particles placed; parts that cannot be loaded are
 * reported as errors (a rigid, open-boundary or refinement part, no material, no particles, a
 * splitting ratio above 1).
 */
export function placeReferenceClouds(setup: RunSetup, issues: IssueLists): PlacedCloud[] {
  const materialIds = new Set(setup.materials.map((m) => m.id))
  const placed: PlacedCloud[] = []
  for (const part of setup.parts) {
    const shape = part.shape
    if (shape.type !== 'pointcloud') continue
    const type = part.component.type
    if (type !== 'flow' && type !== 'filling') {
      report(issues.errors, 'unsupported_shape', part.id, pointcloudRoleMessage(part.name))
      continue
    }
    if (part.materialId === null || !materialIds.has(part.materialId)) {
      report(
        issues.errors,
        'missing_material',
        part.id,
        `Part "${part.name}": ${MATERIAL_MESSAGES.materialRequired}`,
      )
      continue
    }
    const ratio = shape.splittingRatio ?? 1
    if (ratio !== 1) {
      report(issues.errors, 'unsupported_shape', part.id, splittingRatioMessage(part.name, ratio))
      continue
    }
    const cloud = setup.pointClouds?.[part.id]
    if (!cloud || cloud.count === 0) {
      report(issues.errors, 'empty_geometry', part.id, missingCloudMessage(part.name))
      continue
    }
    if (shape.scale.some((s) => s !== null && s !== 1))
      report(
        issues.warnings,
        'invalid_placement',
        part.id,
        `Part "${part.name}": a point cloud is not scaled (its particles keep the reference's spacing); only its rotation and translation were applied.`,
      )
    placed.push({
      part,
      materialId: part.materialId,
      count: cloud.count,
      ...place(part, cloud),
      pressures: cloud.pressures,
      densities: cloud.densities,
    })
  }
  return placed
}

/** The summary with the pointcloud parts' particles added (a fluid entry per part). */
export function addCloudsToSummary(
  summary: DiscretizationSummary,
  clouds: readonly PlacedCloud[],
  dp: number,
): DiscretizationSummary {
  if (clouds.length === 0) return summary
  const dp3 = dp ** 3
  const parts: PartDiscretizationSummary[] = clouds.map((cloud) => ({
    partId: cloud.part.id,
    name: cloud.part.name,
    role: 'fluid',
    particleCount: cloud.count,
    materialId: cloud.materialId,
    meshVolume: 0,
    particleVolume: cloud.count * dp3,
    geometricVolume: null,
    volumeDifference: null,
    volumeCorrection: 0,
    latticeOrigin: [0, 0, 0],
    latticeSpacing: [dp, dp, dp],
    faceMisfit: null,
    watertight: false,
    wallLayers: 0,
  }))
  const materials = summary.materials.map((m) => ({ ...m }))
  for (const cloud of clouds) {
    const entry = materials.find((m) => m.materialId === cloud.materialId)
    if (entry) {
      entry.particleCount += cloud.count
      entry.volume += cloud.count * dp3
    } else
      materials.push({
        materialId: cloud.materialId,
        particleCount: cloud.count,
        volume: cloud.count * dp3,
      })
  }
  const added = clouds.reduce((sum, cloud) => sum + cloud.count, 0)
  return {
    ...summary,
    particleCount: summary.particleCount + added,
    fluidCount: summary.fluidCount + added,
    parts: [...summary.parts, ...parts],
    materials,
    fluidParticleVolume: summary.fluidParticleVolume + added * dp3,
  }
}
