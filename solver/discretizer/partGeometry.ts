/**
 * The placed mesh of a part: 'plane' is a unit square in the xy plane (normal +z), 'stl_cube' a
 * box of its dimensions centred at the origin, 'stl' the stored mesh of the part; each then
 * scaled, rotated and translated by the shape (geometry/mesh.ts transformMesh).
 */
import type { Part } from '../../domain/parts.ts'
import type { Vec3 } from '../../domain/vector.ts'
import {
  buildBoxMesh,
  buildPlaneMesh,
  countTriangles,
  transformMesh,
  type TriangleMesh,
} from '../geometry/mesh.ts'

/** A part's mesh in world coordinates, or why there is none. */
export type PlacedGeometry =
  | { kind: 'mesh'; mesh: TriangleMesh }
  | { kind: 'empty' }
  | { kind: 'unsupported'; shapeType: string }

/** The part's geometry placed in the world; `meshes` holds the stored meshes of 'stl' parts. */
export function placePartGeometry(
  part: Pick<Part, 'id' | 'shape'>,
  meshes: Record<number, TriangleMesh>,
): PlacedGeometry {
  const shape = part.shape
  let local: TriangleMesh | undefined
  switch (shape.type) {
    case 'empty':
      return { kind: 'empty' }
    case 'pointcloud':
      return { kind: 'unsupported', shapeType: shape.type }
    case 'plane':
      local = buildPlaneMesh()
      break
    case 'stl_cube': {
      const dimensions = shape.dimensions
      if (dimensions.some((d) => d === null || !(d > 0))) return { kind: 'empty' }
      local = buildBoxMesh(dimensions as Vec3)
      break
    }
    case 'stl':
      local = meshes[part.id]
      break
  }
  if (!local || countTriangles(local) === 0) return { kind: 'empty' }
  return { kind: 'mesh', mesh: transformMesh(local, shape) }
}
