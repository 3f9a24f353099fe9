import type { Kysely } from 'kysely'
import { DEFAULT_SPEED_OF_SOUND, defaultMaterialProperties } from '../../domain/materials.ts'
import { defaultAppearance, defaultComponent, type Part } from '../../domain/parts.ts'
import { defaultSettings, type SimulationSettings } from '../../domain/settings.ts'
import type { Vec3 } from '../../domain/vector.ts'
import { buildBoxMesh, computeShapeInfo, transformMesh } from '../../solver/geometry/mesh.ts'
import type { RunSetup } from '../../solver/setup.ts'
import type { Database } from '../db/schema.ts'

/*
 * The setup of the seeded 'Dam break' demo: a three-dimensional dam break hitting an obstacle, in
 * the manner of SPHERIC Test 2 (Kleefsman et al. 2005, J. Comput. Phys. 206: a water column across
 * a closed tank whose surge hits a box on the floor), sized for a run of about two minutes on 2
 * cores: a low, wide column, 14 particles deep. The column collapses, the surge hits the box at
 * about t = 0.09 s (t·√(g/H) = 0.75), runs up its face, over its top and around it by the end at
 * 0.14 s. Steps to a given picture go with the distance the surge travels in particle spacings
 * (dt ∝ h/c0 and c0 ∝ √(gH) like the surge's speed), so the box stands 6 spacings from the
 * column: with the box 16 spacings away (0.56 m) the surge reached it at 0.16 s and the run of
 * 0.2 s (433 steps) took 193 s on 2 idle cores; the picture at its end is this run's at 0.14 s
 * (measured at dp 2 cm: 17–21 particles at the box's face, the surge 0.071–0.073 m up its 0.06 m,
 * 16–18 past it), in about 300 steps. Sizes sit in one constant so the solver side can tune the
 * run time without touching the seed.
 */

/** Sizes in m, s, m/s. */
export const DEMO_DAM_BREAK = {
  /** Water column: length (x), the tank's whole width (y) and height (z). */
  columnLength: 0.4,
  columnHeight: 0.14,
  /** Tank width (y), which the column spans. */
  depth: 0.38,
  tankLength: 1,
  tankHeight: 0.28,
  /** The obstacle: a box on the floor, centred across the tank, 0.06 m after the column. */
  obstacleMin: [0.46, 0.13, 0] as const,
  obstacleSize: [0.06, 0.12, 0.06] as const,
  /**
   * 40 × 38 × 14 = 21,280 fluid particles (every size above is a whole number of 2 cm cells, so
   * coarser copies of the demo at 2 cm fill exactly too: 2,660 fluid particles).
   */
  particleDiameter: 0.01,
  /** About 300 steps of the dual-step RK4 at c0 = 11.7 m/s. */
  endTime: 0.14,
  outputTimeInterval: 0.01,
  /**
   * The material's speed of sound: the default floor, so the solver's own rule 10·√(g·H) =
   * 11.7 m/s chooses c0 (solver/sph/NUMERICS.md, 'Speed of sound').
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

/** The demo's water (material 0): the default properties, density 1000 kg/m³. */
export function demoMaterialProperties() {
  return {
    ...defaultMaterialProperties(0),
    name: 'Water',
    density: 1000,
    speedOfSound: DEMO_DAM_BREAK.speedOfSound,
  }
}

/** One part of the demo as it is stored (the tank, the obstacle, the water column). */
export interface DemoPart {
  name: string
  component: Part['component']
  shape: Part['shape']
  materialId: number | null
  appearance: ReturnType<typeof defaultAppearance>
}

/** A rigid part's component with free-slip walls. */
function slipWall(): Part['component'] {
  const component = defaultComponent('rigid')
  return component.type === 'rigid' ? { ...component, velocityKind: 'slip' } : component
}

/** A filling part's component filled to `height`. */
function filling(height: number): Part['component'] {
  const component = defaultComponent('filling')
  return component.type === 'filling' ? { ...component, height } : component
}

/** The demo's parts: the rigid tank, the obstacle and the water column filled to its height. */
export function demoParts(): DemoPart[] {
  const d = DEMO_DAM_BREAK
  return [
    {
      name: 'Tank',
      component: slipWall(),
      shape: boxShape([0, 0, 0], [d.tankLength, d.depth, d.tankHeight]),
      materialId: null,
      appearance: { ...defaultAppearance(4), opacity: 0.3, translucent: true },
    },
    {
      name: 'Obstacle',
      component: slipWall(),
      shape: boxShape([...d.obstacleMin], [...d.obstacleSize]),
      materialId: null,
      appearance: defaultAppearance(2),
    },
    {
      name: 'Water column',
      component: filling(d.columnHeight),
      shape: boxShape([0, 0, 0], [d.columnLength, d.depth, d.columnHeight]),
      materialId: 0,
      appearance: defaultAppearance(0),
    },
  ]
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
  await db
    .insertInto('materials')
    .values({
      simulation_id: simulation.id,
      material_id: 0,
      properties: JSON.stringify(demoMaterialProperties()),
      created_at: nowIso,
    })
    .execute()
  for (const part of demoParts())
    await db
      .insertInto('parts')
      .values({
        simulation_id: simulation.id,
        organization_id: simulation.organizationId,
        created_by: simulation.creatorId,
        name: part.name,
        kind: part.component.type,
        material_id: part.materialId,
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

/**
 * The demo's setup as the server hands it to a job (solver/setup.ts RunSetup), for runs outside
 * the server (bench/solver/demoRun.ts, the demo's tests); `overrides` change its settings.
 */
export function demoRunSetup(
  overrides: Partial<Pick<SimulationSettings, 'endTime' | 'particleDiameter'>> = {},
): RunSetup {
  const now = new Date(0).toISOString()
  const settings = damBreakSettings()
  const parts: Part[] = demoParts().map((part, k) => ({
    id: k + 1,
    simulationId: 1,
    name: part.name,
    kind: part.component.type,
    createdAt: now,
    updatedAt: now,
    createdBy: null,
    organizationId: null,
    seedPoint: null,
    materialId: part.materialId,
    component: part.component,
    appearance: { ...part.appearance, createdAt: now, updatedAt: now },
    shape: part.shape,
    hasWarnings: false,
    warnings: [],
    meshUrl: null,
    meshHash: null,
    pointcloudUrl: null,
    pointcloudCount: null,
  }))
  return {
    simulationId: 1,
    settings: { ...settings, ...overrides },
    materials: [{ id: 0, simulationId: 1, ...demoMaterialProperties(), createdAt: now }],
    parts,
    movements: [],
    meshes: {},
    sensors: [],
  }
}
