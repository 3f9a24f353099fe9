import type { Kysely } from 'kysely'
import { defaultMaterialProperties } from '../../domain/materials.ts'
import { defaultAppearance, defaultComponent, type Part } from '../../domain/parts.ts'
import { defaultSettings, type SimulationSettings } from '../../domain/settings.ts'
import type { Vec3 } from '../../domain/vector.ts'
import { buildBoxMesh, computeShapeInfo, transformMesh } from '../../solver/geometry/mesh.ts'
import type { Database } from '../db/schema.ts'

/*
 * The setup of the seeded 'Dam break' demo: a water column of width a and height 2a (Martin & Moyce
 * 1952) at the left end of a closed tank, collapsing under gravity. Sizes sit in one constant so the
 * solver side can tune the run time (about a minute on 2 cores) without touching the seed.
 */

/** Sizes in m, s, m/s. */
export const DEMO_DAM_BREAK = {
  /** Column width a (x) and height 2a (z). */
  columnWidth: 0.2,
  columnHeight: 0.4,
  /** Depth of tank and column (y): a slab, so the flow is nearly two-dimensional. */
  depth: 0.1,
  /** Tank length 4a: the surge front reaches the far wall at about T = t·√(2g/a) ≈ 3. */
  tankLength: 0.8,
  tankHeight: 0.5,
  /**
   * 10 × 20 × 5 = 1,000 fluid and about 8,000 wall particles. Measured here: at 0.007 m (23,142
   * fluid + 70,620 wall particles) a step takes about 0.5 s on 2 idle cores and the time step is
   * 1.4e-4 s, i.e. about an hour for 1 s; cost per simulated second scales with N·c/dp, so
   * 0.02 m with c = 25 m/s is about 100× cheaper: roughly a minute.
   */
  particleDiameter: 0.02,
  endTime: 1,
  outputTimeInterval: 0.02,
  /**
   * Weakly compressible: about 7 × the largest flow speed √(2g·2a) ≈ 2.8 m/s, and the solver's own
   * floor 10√(g·2a) ≈ 19.8 m/s. Measured (solver/run, 2 threads, 1,000 fluid + 10,686 wall
   * particles, default settings): 65 s for the 1 s run at 20 m/s, 85 s at 25 m/s.
   */
  speedOfSound: 20,
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
 * the rigid tank and the water column filled to its height.
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
      name: 'Water column',
      component: { ...defaultComponent('filling'), height: d.columnHeight },
      shape: boxShape([0, 0, 0], [d.columnWidth, d.depth, d.columnHeight]),
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
