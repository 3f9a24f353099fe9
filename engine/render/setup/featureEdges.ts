/**
 * The feature edges of a setup mesh, drawn over a translucent surface so it reads as a
 * see-through shell (its far edges show through its near faces): its sharp edges and its open
 * borders. The data worker's meshes are split at sharp edges (engine/data/setupGeometry.ts: a
 * vertex becomes one copy per group of faces meeting at more than CREASE_ANGLE_DEG), so an edge
 * used by exactly two triangles, by vertex index, is a smooth one; every other edge is a sharp
 * edge (each side of it holds its own copies), a border or a non-manifold edge.
 */
import { forEachEdgeUse, pairSegments } from '../../data/setupGeometry.ts'

/** Meshes with more triangles than this get no feature edges (bounds the render worker's work). */
export const MAX_FEATURE_EDGE_TRIANGLES = 500_000

/**
 * Segments (two xyz points each, the mesh's coordinates) of the edges not shared by exactly two
 * triangles: empty above MAX_FEATURE_EDGE_TRIANGLES. A sharp edge comes once from each side.
 */
export function computeFeatureEdges(positions: Float32Array, indices: Uint32Array): Float32Array {
  if (indices.length / 3 > MAX_FEATURE_EDGE_TRIANGLES) return new Float32Array(0)
  const pairs: number[] = []
  forEachEdgeUse(Math.floor(positions.length / 3), indices, (low, high, uses) => {
    if (uses !== 2) pairs.push(low, high)
  })
  return pairSegments(positions, pairs)
}
