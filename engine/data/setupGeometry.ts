/**
 * Setup meshes made ready to draw and pick, in a data worker: normals that are smooth across
 * gentle bends and flat at sharp edges (a vertex is split where its faces meet at more than
 * CREASE_ANGLE_DEG), a smooth normal per vertex for the selection outline, bounds, the picking
 * hierarchy (engine/data/bvh.ts) and the mesh-health segments: edges used by one triangle (holes)
 * and by three or more (non-manifold), spec/setup.md §2 "Mesh-health mode".
 */
import type { TriangleMesh } from '../../domain/meshFile.ts'
import type { Vec3 } from '../../domain/vector.ts'
import type { SetupMeshData } from '../setupProtocol.ts'
import { buildBvh } from './bvh.ts'

/** Faces meeting at more than this angle keep their own normals (a cube's edges stay sharp). */
export const CREASE_ANGLE_DEG = 30
/** Around a vertex with more triangles than this, corners take their face normal (no O(n²)). */
const MAX_SMOOTHED_VALENCE = 64

/** Vertex → incident triangles, as offsets into one list (compressed rows). */
function incidentTriangles(
  vertexCount: number,
  indices: Uint32Array,
): { offsets: Uint32Array; triangles: Uint32Array } {
  const offsets = new Uint32Array(vertexCount + 1)
  for (let i = 0; i < indices.length; i++) offsets[indices[i]! + 1]!++
  for (let v = 0; v < vertexCount; v++) offsets[v + 1]! += offsets[v]!
  const fill = offsets.slice(0, vertexCount)
  const triangles = new Uint32Array(indices.length)
  for (let i = 0; i < indices.length; i++) triangles[fill[indices[i]!]!++] = Math.floor(i / 3)
  return { offsets, triangles }
}

/** Area-weighted face normals (cross products) and their unit vectors. */
function faceNormals(
  positions: Float32Array,
  indices: Uint32Array,
): { weighted: Float32Array; unit: Float32Array } {
  const triangleCount = Math.floor(indices.length / 3)
  const weighted = new Float32Array(triangleCount * 3)
  const unit = new Float32Array(triangleCount * 3)
  for (let t = 0; t < triangleCount; t++) {
    const a = indices[t * 3]! * 3
    const b = indices[t * 3 + 1]! * 3
    const c = indices[t * 3 + 2]! * 3
    const e1x = positions[b]! - positions[a]!
    const e1y = positions[b + 1]! - positions[a + 1]!
    const e1z = positions[b + 2]! - positions[a + 2]!
    const e2x = positions[c]! - positions[a]!
    const e2y = positions[c + 1]! - positions[a + 1]!
    const e2z = positions[c + 2]! - positions[a + 2]!
    const nx = e1y * e2z - e1z * e2y
    const ny = e1z * e2x - e1x * e2z
    const nz = e1x * e2y - e1y * e2x
    weighted[t * 3] = nx
    weighted[t * 3 + 1] = ny
    weighted[t * 3 + 2] = nz
    const length = Math.sqrt(nx * nx + ny * ny + nz * nz)
    if (length > 0) {
      unit[t * 3] = nx / length
      unit[t * 3 + 1] = ny / length
      unit[t * 3 + 2] = nz / length
    }
  }
  return { weighted, unit }
}

/** A Float32Array that doubles when full. */
class GrowableFloats {
  values: Float32Array
  length = 0
  constructor(capacity: number) {
    this.values = new Float32Array(Math.max(3, capacity))
  }
  push3(x: number, y: number, z: number): void {
    if (this.length + 3 > this.values.length) {
      const grown = new Float32Array(this.values.length * 2)
      grown.set(this.values)
      this.values = grown
    }
    this.values[this.length++] = x
    this.values[this.length++] = y
    this.values[this.length++] = z
  }
  result(): Float32Array {
    return this.values.slice(0, this.length)
  }
}

/** A mesh with split vertices where the surface has sharp edges. */
export interface ShadedMesh {
  positions: Float32Array
  normals: Float32Array
  /** Smooth (area-weighted) normal of the original vertex, on every copy of it. */
  outlineNormals: Float32Array
  indices: Uint32Array
}

/**
 * Normals per vertex, smooth where faces meet at CREASE_ANGLE_DEG or less and flat beyond: a
 * vertex whose faces fall into several such groups becomes one vertex per group.
 */
export function computeCreaseNormals(
  mesh: TriangleMesh,
  creaseAngleDeg: number = CREASE_ANGLE_DEG,
): ShadedMesh {
  const { positions, indices } = mesh
  const vertexCount = Math.floor(positions.length / 3)
  const { weighted, unit } = faceNormals(positions, indices)
  const { offsets, triangles } = incidentTriangles(vertexCount, indices)
  const cosCrease = Math.cos((creaseAngleDeg * Math.PI) / 180)
  const outPositions = new GrowableFloats(vertexCount * 3 * 1.5)
  const outNormals = new GrowableFloats(vertexCount * 3 * 1.5)
  const outOutline = new GrowableFloats(vertexCount * 3 * 1.5)
  const outIndices = new Uint32Array(indices.length)
  // The new vertices made for the vertex at hand, reused across vertices.
  let local = new Uint32Array(16)
  for (let v = 0; v < vertexCount; v++) {
    const start = offsets[v]!
    const end = offsets[v + 1]!
    if (start === end) continue
    let sx = 0
    let sy = 0
    let sz = 0
    for (let i = start; i < end; i++) {
      const f = triangles[i]! * 3
      sx += weighted[f]!
      sy += weighted[f + 1]!
      sz += weighted[f + 2]!
    }
    const smoothLength = Math.sqrt(sx * sx + sy * sy + sz * sz)
    // The vertex's smooth normal (up when its faces cancel out).
    if (smoothLength > 0) {
      sx /= smoothLength
      sy /= smoothLength
      sz /= smoothLength
    } else {
      sx = 0
      sy = 0
      sz = 1
    }
    const px = positions[v * 3]!
    const py = positions[v * 3 + 1]!
    const pz = positions[v * 3 + 2]!
    let localCount = 0
    const smoothAll = end - start <= MAX_SMOOTHED_VALENCE
    for (let i = start; i < end; i++) {
      const t = triangles[i]!
      const ux = unit[t * 3]!
      const uy = unit[t * 3 + 1]!
      const uz = unit[t * 3 + 2]!
      let nx = 0
      let ny = 0
      let nz = 0
      if (smoothAll) {
        for (let j = start; j < end; j++) {
          const o = triangles[j]! * 3
          if (ux * unit[o]! + uy * unit[o + 1]! + uz * unit[o + 2]! < cosCrease) continue
          nx += weighted[o]!
          ny += weighted[o + 1]!
          nz += weighted[o + 2]!
        }
      } else {
        nx = ux
        ny = uy
        nz = uz
      }
      const length = Math.sqrt(nx * nx + ny * ny + nz * nz)
      // A degenerate triangle has no normal of its own: it takes the vertex's smooth one.
      if (length > 0) {
        nx /= length
        ny /= length
        nz /= length
      } else {
        nx = sx
        ny = sy
        nz = sz
      }
      let vertex = -1
      const n = outNormals.values
      for (let c = 0; c < localCount; c++) {
        const candidate = local[c]!
        if (
          n[candidate * 3]! * nx + n[candidate * 3 + 1]! * ny + n[candidate * 3 + 2]! * nz >
          0.9999
        ) {
          vertex = candidate
          break
        }
      }
      if (vertex === -1) {
        vertex = outPositions.length / 3
        outPositions.push3(px, py, pz)
        outNormals.push3(nx, ny, nz)
        outOutline.push3(sx, sy, sz)
        if (localCount === local.length) {
          const grown = new Uint32Array(local.length * 2)
          grown.set(local)
          local = grown
        }
        local[localCount++] = vertex
      }
      for (let k = 0; k < 3; k++) if (indices[t * 3 + k] === v) outIndices[t * 3 + k] = vertex
    }
  }
  return {
    positions: outPositions.result(),
    normals: outNormals.result(),
    outlineNormals: outOutline.result(),
    indices: outIndices,
  }
}

/**
 * Visits every edge of a triangle list once, by vertex index (lower, higher), with the number of
 * triangles using it, in order of the lower vertex.
 */
export function forEachEdgeUse(
  vertexCount: number,
  indices: Uint32Array,
  visit: (low: number, high: number, uses: number) => void,
): void {
  const triangleCount = Math.floor(indices.length / 3)
  // Edges bucketed by their lower vertex: [lower] → higher vertices.
  const offsets = new Uint32Array(vertexCount + 1)
  const forEachEdge = (each: (low: number, high: number) => void): void => {
    for (let t = 0; t < triangleCount; t++) {
      for (let k = 0; k < 3; k++) {
        const a = indices[t * 3 + k]!
        const b = indices[t * 3 + ((k + 1) % 3)]!
        if (a === b) continue
        each(Math.min(a, b), Math.max(a, b))
      }
    }
  }
  forEachEdge((low) => offsets[low + 1]!++)
  for (let v = 0; v < vertexCount; v++) offsets[v + 1]! += offsets[v]!
  const fill = offsets.slice(0, vertexCount)
  const highs = new Uint32Array(offsets[vertexCount]!)
  forEachEdge((low, high) => {
    highs[fill[low]!++] = high
  })
  for (let v = 0; v < vertexCount; v++) {
    const row = highs.subarray(offsets[v], offsets[v + 1]).sort()
    for (let i = 0; i < row.length;) {
      let j = i + 1
      while (j < row.length && row[j] === row[i]) j++
      visit(v, row[i]!, j - i)
      i = j
    }
  }
}

/** Line segments (two xyz points each) between the vertices of each pair. */
export function pairSegments(positions: Float32Array, pairs: readonly number[]): Float32Array {
  const segments = new Float32Array(pairs.length * 3)
  pairs.forEach((vertex, i) => {
    segments[i * 3] = positions[vertex * 3]!
    segments[i * 3 + 1] = positions[vertex * 3 + 1]!
    segments[i * 3 + 2] = positions[vertex * 3 + 2]!
  })
  return segments
}

/**
 * Mesh-health segments (own coordinates, two xyz points each): first the edges used by exactly
 * one triangle (holes), then those used by three or more (non-manifold). Edges are told apart by
 * vertex index: the meshes are welded (solver/geometry/stl.ts), so a shared edge shares indices.
 */
export function computeMeshDefects(mesh: TriangleMesh): {
  segments: Float32Array
  holeSegmentCount: number
} {
  const { positions, indices } = mesh
  const holes: number[] = []
  const nonManifold: number[] = []
  forEachEdgeUse(Math.floor(positions.length / 3), indices, (low, high, uses) => {
    if (uses === 1) holes.push(low, high)
    else if (uses >= 3) nonManifold.push(low, high)
  })
  return {
    segments: pairSegments(positions, [...holes, ...nonManifold]),
    holeSegmentCount: holes.length / 2,
  }
}

/** Axis-aligned bounds of xyz positions (zeros when there are none). */
export function computeBounds(positions: Float32Array): { min: Vec3; max: Vec3 } {
  if (positions.length < 3) return { min: [0, 0, 0], max: [0, 0, 0] }
  const min: Vec3 = [Infinity, Infinity, Infinity]
  const max: Vec3 = [-Infinity, -Infinity, -Infinity]
  for (let i = 0; i + 2 < positions.length; i += 3) {
    for (let k = 0; k < 3; k++) {
      const value = positions[i + k]!
      if (value < min[k]!) min[k] = value
      if (value > max[k]!) max[k] = value
    }
  }
  return { min, max }
}

/**
 * Everything the render worker needs of a mesh: shaded vertices, triangles in picking order, the
 * hierarchy, bounds and defect segments. Every array owns its buffer (ready to transfer).
 */
export function buildSetupMesh(mesh: TriangleMesh): SetupMeshData {
  const shaded = computeCreaseNormals(mesh)
  const defects = computeMeshDefects(mesh)
  const triangleCount = Math.floor(shaded.indices.length / 3)
  const bvh = triangleCount > 0 ? buildBvh(shaded.positions, shaded.indices) : null
  return {
    positions: shaded.positions,
    normals: shaded.normals,
    outlineNormals: shaded.outlineNormals,
    indices: bvh?.indices ?? shaded.indices,
    triangleCount,
    bounds: computeBounds(mesh.positions),
    bvh: bvh?.buffer ?? null,
    defectSegments: defects.segments,
    holeSegmentCount: defects.holeSegmentCount,
  }
}

/** The buffers of a mesh to transfer with it. */
export function setupMeshTransferables(mesh: SetupMeshData): ArrayBuffer[] {
  const buffers = new Set<ArrayBuffer>([
    mesh.positions.buffer as ArrayBuffer,
    mesh.normals.buffer as ArrayBuffer,
    mesh.outlineNormals.buffer as ArrayBuffer,
    mesh.indices.buffer as ArrayBuffer,
    mesh.defectSegments.buffer as ArrayBuffer,
  ])
  if (mesh.bvh !== null) buffers.add(mesh.bvh)
  return [...buffers]
}
