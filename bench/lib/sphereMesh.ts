/**
 * A closed, welded UV sphere of about `triangles` triangles (the shape a tessellated CAD part or a
 * fine STL has: many small triangles, no holes), built once per run outside every timed part.
 */
import type { TriangleMesh } from '../../domain/meshFile.ts'

/**
 * A unit-radius sphere around `centre` with `2 × segments × (rings − 1)` triangles, where
 * segments = 2 × rings is chosen so the count is at least `triangles`.
 */
export function buildSphereMesh(
  triangles: number,
  centre: readonly [number, number, number] = [0, 0, 0],
  radiusM = 1,
): TriangleMesh {
  const rings = Math.max(3, Math.ceil(Math.sqrt(triangles / 4)) + 1)
  const segments = 2 * rings
  // Poles once each, the rings between them with `segments` vertices each.
  const vertexCount = 2 + (rings - 1) * segments
  const positions = new Float32Array(vertexCount * 3)
  const put = (vertex: number, x: number, y: number, z: number) => {
    positions[vertex * 3] = centre[0] + radiusM * x
    positions[vertex * 3 + 1] = centre[1] + radiusM * y
    positions[vertex * 3 + 2] = centre[2] + radiusM * z
  }
  put(0, 0, 0, 1)
  put(vertexCount - 1, 0, 0, -1)
  for (let ring = 1; ring < rings; ring++) {
    const polar = (Math.PI * ring) / rings
    for (let segment = 0; segment < segments; segment++) {
      const azimuth = (2 * Math.PI * segment) / segments
      put(
        1 + (ring - 1) * segments + segment,
        Math.sin(polar) * Math.cos(azimuth),
        Math.sin(polar) * Math.sin(azimuth),
        Math.cos(polar),
      )
    }
  }
  const at = (ring: number, segment: number) => 1 + (ring - 1) * segments + (segment % segments)
  const indices = new Uint32Array(2 * segments * (rings - 1) * 3)
  let next = 0
  const triangle = (a: number, b: number, c: number) => {
    indices[next++] = a
    indices[next++] = b
    indices[next++] = c
  }
  for (let segment = 0; segment < segments; segment++) {
    // Counter-clockwise seen from outside.
    triangle(0, at(1, segment), at(1, segment + 1))
    triangle(vertexCount - 1, at(rings - 1, segment + 1), at(rings - 1, segment))
    for (let ring = 1; ring < rings - 1; ring++) {
      const a = at(ring, segment)
      const b = at(ring + 1, segment)
      const c = at(ring + 1, segment + 1)
      const d = at(ring, segment + 1)
      triangle(a, b, c)
      triangle(a, c, d)
    }
  }
  return { positions, indices: indices.subarray(0, next) }
}
