import type { Kysely } from 'kysely'
import { DEFAULT_SPEED_OF_SOUND, defaultMaterialProperties } from '../../domain/materials.ts'
import { defaultAppearance, defaultComponent, type Part } from '../../domain/parts.ts'
import { defaultSettings, type SimulationSettings } from '../../domain/settings.ts'
import type { Vec3 } from '../../domain/vector.ts'
import { buildBoxMesh, computeShapeInfo, transformMesh } from '../../solver/geometry/mesh.ts'
import type { Database } from '../db/schema.ts'

/*
 * The setup of the seeded 'Dam break' demo: a three-dimensional dam break hitting an obstacle, after
 * SPHERIC Test 2 (Kleefsman et al. 2005, J. Comput. Phys. 206; a 3.22 × 1 × 1 m tank, a water
 * column 1.228 m long and 0.55 m high across the tank's width, a 0.161 × 0.403 × 0.161 m box on
 * the floor), scaled to about a third (0.31) and mirrored so the water starts at the origin:
 * the column collapses, its surge hits the box at about t = 0.2 s, runs up its face, wraps around
 * it and reaches the far wall. Sizes sit in one constant so the solver side can tune the run time
 * (about two minutes on 2 cores) without touching the seed.
 */

/** Sizes in m, s, m/s. */
export const DEMO_DAM_BREAK = {
  /** Water column: length (x), the tank's whole width (y) and height (z). */
  columnLength: 0.38,
  columnHeight: 0.18,
  /** Tank width (y), which the column spans. */
  depth: 0.3,
  tankLength: 1,
  tankHeight: 0.3,
  /** The obstacle: a box on the floor, centred across the tank, 0.2 m before the far wall. */
  obstacleMin: [0.74, 0.09, 0] as const,
  obstacleSize: [0.06, 0.12, 0.06] as const,
  /**
   * 38 × 30 × 18 = 20,520 fluid particles (every size above is a whole number of 2 cm cells, so
   * coarser copies of the demo at 2 cm fill exactly too: 2,565 fluid particles).
   */
  particleDiameter: 0.01,
  endTime: 0.5,
  outputTimeInterval: 0.01,
  /**
   * The material's speed of sound: the default floor, so the solver's own rule 10·√(g·H) =
   * 13.3 m/s chooses c0 (solver/sph/NUMERICS.md, 'Speed of sound').
   */
  speedOfSound: DEFAULT_SPEED_OF_SOUND,
  /** Margin of the deletion boundary around the tank. */
  domainMargin: 0.05,
} as const

/** The demo's settings: resolution, times and a deletion boundary just around the tank. */
export function damBreakSettings(): SimulationSettings {
  const d = DEMO_DAM_BREAK
  return {
    ...defaultSettings(),
    particleDiameter: d.particleDiameter,
    endTime: d.endTime,
    outputTimeInterval: d.outputTimeInterval,
    calcDomainActive: true,
    calcDomainMin: [-d.domainMargin, -d.domainMargin, -d.domainMargin],
    calcDomainMax: [
      d.tankLength + d.domainMargin,
      d.depth + d.domainMargin,
      d.tankHeight + d.domainMargin,
    ],
  }
}

/** A box part spanning [min, min + dimensions] (stl_cube meshes are centred on the origin). */
function boxShape(min: Vec3, dimensions: Vec3): Part['shape'] {
  const translation: Vec3 = [
    min[0] + dimensions[0] / 2,
    min[1] + dimensions[1] / 2,
    min[2] + dimensions[2] / 2,
  ]
  const placement = {
    translation,
    scale: [1, 1, 1] as Vec3,
    rotation: [0, 0, 0] as Vec3,
    flipNormals: false,
  }
  return {
    type: 'stl_cube',
    dimensions,
    ...placement,
    info: computeShapeInfo(transformMesh(buildBoxMesh(dimensions), placement)),
  }
}

/**
 * Writes the demo setup of a fresh simulation (created with damBreakSettings()): water (material 0),
 * the rigid tank, the obstacle and the water column filled to its height.
 */
export async function seedDamBreakSetup(
  db: Kysely<Database>,
  simulation: { id: number; organizationId: number; creatorId: number },
  nowIso: string,
): Promise<void> {
  const d = DEMO_DAM_BREAK
  await db
    .insertInto('materials')
    .values({
      simulation_id: simulation.id,
      material_id: 0,
      properties: JSON.stringify({
        ...defaultMaterialProperties(0),
        name: 'Water',
        density: 1000,
        speedOfSound: d.speedOfSound,
      }),
      created_at: nowIso,
    })
    .execute()
  const parts = [
    {
      name: 'Tank',
      component: { ...defaultComponent('rigid'), velocityKind: 'slip' },
      shape: boxShape([0, 0, 0], [d.tankLength, d.depth, d.tankHeight]),
      material_id: null,
      appearance: { ...defaultAppearance(4), opacity: 0.3, translucent: true },
    },
    {
      name: 'Obstacle',
      component: { ...defaultComponent('rigid'), velocityKind: 'slip' },
      shape: boxShape([...d.obstacleMin], [...d.obstacleSize]),
      material_id: null,
      appearance: defaultAppearance(2),
    },
    {
      name: 'Water column',
      component: { ...defaultComponent('filling'), height: d.columnHeight },
      shape: boxShape([0, 0, 0], [d.columnLength, d.depth, d.columnHeight]),
      material_id: 0,
      appearance: defaultAppearance(0),
    },
  ]
  for (const part of parts)
    await db
      .insertInto('parts')
      .values({
        simulation_id: simulation.id,
        organization_id: simulation.organizationId,
        created_by: simulation.creatorId,
        name: part.name,
        kind: part.component.type,
        material_id: part.material_id,
        seed_point: null,
        component: JSON.stringify(part.component),
        shape: JSON.stringify(part.shape),
        appearance: JSON.stringify(part.appearance),
        warnings: '[]',
        created_at: nowIso,
        updated_at: nowIso,
      })
      .execute()
}
