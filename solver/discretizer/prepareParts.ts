/**
 * The parts of a setup as the discretizer sees them: each part's role (fluid, wall), its placed
 * mesh, bounding box, volume, area and watertightness, with the per-part checks that need no
 * particles (geometry, placement, material, distance from the origin, calculation domain, holes).
 */
import { MATERIAL_MESSAGES, type Material } from '../../domain/materials.ts'
import { PART_MESSAGES, type Part } from '../../domain/parts.ts'
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
import { formatCount, formatLength, report, type IssueLists } from './issues.ts'
import { placePartGeometry } from './partGeometry.ts'
import type { PartRole } from './types.ts'

/** Beyond this many particle diameters from the origin, Float32 outputs lose sub-dp/1000 detail. */
export const FAR_FROM_ORIGIN_DIAMETERS = 10_000

/** A part with particles to come: its placed mesh and what the discretizer needs of it. */
export interface PreparedPart {
  part: Part
  role: Exclude<PartRole, 'none'>
  mesh: TriangleMesh
  box: BoundingBox
  /** Signed volume of the placed mesh, m³ (negative for inward normals). */
  volume: number
  area: number
  watertight: boolean
}

/** The calculation domain when active (a deletion boundary), else null. */
export interface CalculationDomain {
  min: Vec3
  max: Vec3
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

/**
 * The fluid and rigid parts of `setup` with their geometry, in the setup's order; parts that
 * cannot be discretized are reported (errors) or skipped with a warning.
 */
export function prepareParts(
  setup: RunSetup,
  dp: number,
  domain: CalculationDomain | null,
  issues: IssueLists,
): PreparedPart[] {
  const materials = new Map<number, Material>(setup.materials.map((m) => [m.id, m]))
  const prepared: PreparedPart[] = []
  for (const part of setup.parts) {
    const role = roleOf(part)
    const label = `Part "${part.name}"`
    if (role === 'none') continue
    // pointcloud parts take their particles from another simulation (referenceClouds.ts)
    if (part.shape.type === 'pointcloud') continue
    // open boundaries give buffer particles beside the fluid (openBoundaries.ts)
    if (role === 'openboundary') continue
    const geometry = placePartGeometry(part, setup.meshes)
    if (geometry.kind === 'unsupported') {
      report(
        issues.errors,
        'unsupported_shape',
        part.id,
        `${label}: shapes of type ${geometry.shapeType} are not supported by the discretizer.`,
      )
      continue
    }
    if (geometry.kind === 'empty') {
      // an 'empty' shape gives nothing; a file or box without triangles is a broken part
      const level = part.shape.type === 'empty' ? issues.warnings : issues.errors
      report(level, 'empty_geometry', part.id, `${label}: ${PART_MESSAGES.emptyGeometry}`)
      continue
    }
    const mesh = geometry.mesh
    const box = computeBoundingBox(mesh)
    if (!mesh.positions.every(Number.isFinite)) {
      report(
        issues.errors,
        'invalid_placement',
        part.id,
        `${label}: its translation, rotation or scale is not a valid number, so it cannot be placed.`,
      )
      continue
    }
    if (isBoundingBoxEmpty(box)) {
      report(issues.errors, 'empty_geometry', part.id, `${label}: ${PART_MESSAGES.emptyGeometry}`)
      continue
    }
    if (role === 'fluid' && (part.materialId === null || !materials.has(part.materialId))) {
      report(
        issues.errors,
        'missing_material',
        part.id,
        `${label}: ${MATERIAL_MESSAGES.materialRequired}`,
      )
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
        issues.warnings,
        'far_from_origin',
        part.id,
        `${label} is ${formatLength(distance)} from the origin (more than ${formatCount(FAR_FROM_ORIGIN_DIAMETERS)} particle diameters): positions lose precision there. Move the geometry closer to the origin.`,
      )
    if (
      domain &&
      [0, 1, 2].some((c) => box.min[c]! < domain.min[c]! || box.max[c]! > domain.max[c]!)
    )
      report(
        issues.warnings,
        'outside_domain',
        part.id,
        `${label} reaches beyond the calculation domain (Deletion Boundary): its particles outside it are deleted when the run starts.`,
      )
    if (role === 'fluid' && part.component.initialPreset !== null)
      report(
        issues.warnings,
        'initial_conditions_not_applied',
        part.id,
        `${label}: initial presets are not applied by the discretizer yet; the constant initial velocity and pressure were used.`,
      )
    if (role === 'fluid' && !health.watertight)
      report(
        issues.warnings,
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
  return prepared
}
