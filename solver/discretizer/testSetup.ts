/** Setups for the discretizer's tests: parts, materials and settings with test-friendly defaults. */
import { createDefaultMaterial } from '../../domain/materials.ts'
import {
  PART_WITHOUT_FILES,
  defaultAppearance,
  defaultComponent,
  type Component,
  type Part,
  type Shape,
} from '../../domain/parts.ts'
import { defaultSettings, type SimulationSettings } from '../../domain/settings.ts'
import type { Vec3 } from '../../domain/vector.ts'
import type { TriangleMesh } from '../geometry/mesh.ts'
import type { RunSetup } from '../setup.ts'

const placement = {
  translation: [0, 0, 0] as Vec3,
  scale: [1, 1, 1] as Vec3,
  rotation: [0, 0, 0] as Vec3,
  flipNormals: false,
  info: null,
}

/** An axis-aligned box shape from `min` to `max`. */
export function boxShape(min: Vec3, max: Vec3, rotation: Vec3 = [0, 0, 0]): Shape {
  return {
    type: 'stl_cube',
    ...placement,
    rotation,
    dimensions: [max[0] - min[0], max[1] - min[1], max[2] - min[2]],
    translation: [(min[0] + max[0]) / 2, (min[1] + max[1]) / 2, (min[2] + max[2]) / 2],
  }
}

/** An 'stl' shape whose mesh is setup.meshes[part id]. */
export function stlShape(): Shape {
  return {
    type: 'stl',
    ...placement,
    resolution: 1,
    fileId: 1,
    fileName: 'a.stl',
    fileExtension: 'stl',
  }
}

/** A plane shape: a square of `size` at height z, normal +z. */
export function planeShape(size: number, z: number): Shape {
  return { type: 'plane', ...placement, scale: [size, size, 1], translation: [0, 0, z] }
}

/** A part with the defaults of its component type. */
export function makePart(
  id: number,
  type: Component['type'],
  shape: Shape,
  overrides: Partial<Part> = {},
): Part {
  return {
    id,
    simulationId: 1,
    name: `Part ${id}`,
    kind: 'test',
    createdAt: '',
    updatedAt: '',
    createdBy: null,
    organizationId: null,
    seedPoint: null,
    materialId: type === 'rigid' ? null : 0,
    component: defaultComponent(type),
    appearance: defaultAppearance(id),
    shape,
    hasWarnings: false,
    warnings: [],
    ...PART_WITHOUT_FILES,
    ...overrides,
  }
}

/** A filling part with a fill height. */
export function fillingPart(id: number, shape: Shape, height: number | null): Part {
  return makePart(id, 'filling', shape, {
    component: { ...defaultComponent('filling'), height } as Component,
  })
}

/** A setup with water (material 0) and the given parts. */
export function makeSetup(
  parts: Part[],
  dp: number,
  meshes: Record<number, TriangleMesh> = {},
  settings: Partial<SimulationSettings> = {},
): RunSetup {
  return {
    simulationId: 1,
    settings: { ...defaultSettings(), particleDiameter: dp, ...settings },
    materials: [createDefaultMaterial(0, 1, '')],
    parts,
    movements: [],
    meshes,
  }
}
