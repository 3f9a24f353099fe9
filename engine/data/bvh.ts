/**
 * A bounding-volume hierarchy over a triangle mesh for picking: built in a data worker (binned
 * surface-area heuristic along the longest centroid extent for big nodes, centroid middle for
 * small ones, at most BVH_LEAF_TRIANGLES per leaf), packed into one ArrayBuffer that is
 * transferred to the render worker, and ray-cast there without any allocation per node (about
 * 10 µs per ray over a million triangles: picking answers within a frame). The build
 * reorders the triangles of the index buffer so that every leaf is a contiguous range of it: the
 * render worker draws and ray-casts that same reordered index.
 *
 * Packed layout, 32 bytes per node, depth first (a node's left child follows it):
 *   float32 minX minY minZ maxX maxY maxZ, uint32 a, uint32 count
 *   count > 0: a leaf over triangles [a, a + count) of the reordered index
 *   count = 0: an inner node whose right child is node a
 * preceded by a 16-byte header: magic "DBVH", version, node count, triangle count.
 */

import { BVH_MAGIC, BVH_VERSION, HEADER_BYTES, NODE_BYTES, NODE_WORDS } from './bvhLayout.ts'

export { BVH_MAGIC, BVH_VERSION } from './bvhLayout.ts'
export {
  raycastBvh,
  readBvh,
  type BvhView,
  type Ray,
  type RaycastStats,
  type RayHit,
} from './bvhRaycast.ts'

/** Bounds of a range while building: triangle boxes (min xyz, max xyz), then centroids likewise. */
const BOUNDS_WORDS = 12
/** Triangles per leaf at most (a leaf is tested triangle by triangle). */
export const BVH_LEAF_TRIANGLES = 8
/** Centroid bins along the split axis for the surface-area heuristic. */
const BIN_COUNT = 12
/**
 * Nodes with more triangles than this split by the binned SAH (where the tree's quality is
 * decided); smaller ones at their centroid middle. Measured on a 1M-triangle sphere here: all SAH
 * 2.3 s of CPU, this mix 1.4 s, all middle 0.7 s; rays cost ~10 µs in each. Binning only the
 * longest axis (not all three) then took it from 1.8 to 1.4 s of CPU, rays unchanged (27 nodes,
 * 12 triangles; bench/node/setupMesh.bench.ts).
 */
const SAH_ABOVE = 1024

/** A built hierarchy: the packed nodes and the triangle order it needs. */
export interface BuiltBvh {
  /** Header and nodes (transferable). */
  buffer: ArrayBuffer
  /** Triangle indices in leaf order: three per triangle, the input's triangles reordered. */
  indices: Uint32Array
}

/**
 * Builds the hierarchy of a mesh (xyz per vertex, three indices per triangle). The input index is
 * not changed; the returned `indices` hold the same triangles in the hierarchy's order.
 */
export function buildBvh(positions: Float32Array, indices: Uint32Array): BuiltBvh {
  const triangleCount = Math.floor(indices.length / 3)
  // Per triangle: bounds and centroid (the build only looks at these).
  const boxes = new Float32Array(triangleCount * 6)
  const centroids = new Float32Array(triangleCount * 3)
  for (let t = 0; t < triangleCount; t++) {
    const a = indices[t * 3]! * 3
    const b = indices[t * 3 + 1]! * 3
    const c = indices[t * 3 + 2]! * 3
    for (let k = 0; k < 3; k++) {
      const pa = positions[a + k]!
      const pb = positions[b + k]!
      const pc = positions[c + k]!
      const lo = Math.min(pa, pb, pc)
      const hi = Math.max(pa, pb, pc)
      boxes[t * 6 + k] = lo
      boxes[t * 6 + 3 + k] = hi
      centroids[t * 3 + k] = (lo + hi) / 2
    }
  }
  const order = new Uint32Array(triangleCount)
  for (let t = 0; t < triangleCount; t++) order[t] = t
  const swapTriangles = (i: number, j: number): void => {
    const id = order[i]!
    order[i] = order[j]!
    order[j] = id
    for (let k = 0; k < 6; k++) {
      const value = boxes[i * 6 + k]!
      boxes[i * 6 + k] = boxes[j * 6 + k]!
      boxes[j * 6 + k] = value
    }
    for (let k = 0; k < 3; k++) {
      const value = centroids[i * 3 + k]!
      centroids[i * 3 + k] = centroids[j * 3 + k]!
      centroids[j * 3 + k] = value
    }
  }
  // A binary tree with leaves of at least one triangle has at most 2n − 1 nodes.
  const maxNodes = Math.max(1, 2 * triangleCount - 1)
  const words = new Float32Array(maxNodes * NODE_WORDS)
  const uints = new Uint32Array(words.buffer)
  let nodeCount = 0
  const binCounts = new Uint32Array(BIN_COUNT)
  const binBoxes = new Float64Array(BIN_COUNT * 6)
  const rightAreas = new Float64Array(BIN_COUNT)
  const addToBin = (o: number, bin: number): void => {
    binCounts[bin]!++
    const q = bin * 6
    if (boxes[o]! < binBoxes[q]!) binBoxes[q] = boxes[o]!
    if (boxes[o + 1]! < binBoxes[q + 1]!) binBoxes[q + 1] = boxes[o + 1]!
    if (boxes[o + 2]! < binBoxes[q + 2]!) binBoxes[q + 2] = boxes[o + 2]!
    if (boxes[o + 3]! > binBoxes[q + 3]!) binBoxes[q + 3] = boxes[o + 3]!
    if (boxes[o + 4]! > binBoxes[q + 4]!) binBoxes[q + 4] = boxes[o + 4]!
    if (boxes[o + 5]! > binBoxes[q + 5]!) binBoxes[q + 5] = boxes[o + 5]!
  }
  const box = [0, 0, 0, 0, 0, 0]
  // Bounds of a range, 12 numbers: min xyz and max xyz of the triangle boxes, then of the
  // centroids. A node gets its own from its parent's partition pass (the root from one pass).
  const here = new Float64Array(BOUNDS_WORDS)
  const left = new Float64Array(BOUNDS_WORDS)
  const right = new Float64Array(BOUNDS_WORDS)
  /** Grows `into` by triangle i's box and centroid. */
  const include = (into: Float64Array, i: number): void => {
    const o = i * 6
    const c = i * 3
    if (boxes[o]! < into[0]!) into[0] = boxes[o]!
    if (boxes[o + 1]! < into[1]!) into[1] = boxes[o + 1]!
    if (boxes[o + 2]! < into[2]!) into[2] = boxes[o + 2]!
    if (boxes[o + 3]! > into[3]!) into[3] = boxes[o + 3]!
    if (boxes[o + 4]! > into[4]!) into[4] = boxes[o + 4]!
    if (boxes[o + 5]! > into[5]!) into[5] = boxes[o + 5]!
    const cx = centroids[c]!
    const cy = centroids[c + 1]!
    const cz = centroids[c + 2]!
    if (cx < into[6]!) into[6] = cx
    if (cy < into[7]!) into[7] = cy
    if (cz < into[8]!) into[8] = cz
    if (cx > into[9]!) into[9] = cx
    if (cy > into[10]!) into[10] = cy
    if (cz > into[11]!) into[11] = cz
  }
  /** The bounds of [start, end) in one pass (the root, and the halves of a forced split). */
  const measure = (start: number, end: number, into: Float64Array): void => {
    resetBounds(into)
    for (let i = start; i < end; i++) include(into, i)
  }

  /**
   * Writes the node's bounds (`here`) and returns where [start, end) splits (the index where the
   * right half starts), or -1 for a leaf; `left` and `right` then hold the halves' bounds. A big
   * node takes one pass binning its longest axis and one partition pass; a small one only the
   * partition pass. The partition pass gathers the halves' bounds, so no node is measured twice.
   */
  const process = (node: number, start: number, end: number): number => {
    const w = node * NODE_WORDS
    for (let k = 0; k < 6; k++) words[w + k] = here[k]!
    const count = end - start
    if (count <= BVH_LEAF_TRIANGLES) return -1
    const cMinX = here[6]!
    const cMinY = here[7]!
    const cMinZ = here[8]!
    const cMaxX = here[9]!
    const cMaxY = here[10]!
    const cMaxZ = here[11]!
    const s0 = cMaxX > cMinX ? BIN_COUNT / (cMaxX - cMinX) : 0
    const s1 = cMaxY > cMinY ? BIN_COUNT / (cMaxY - cMinY) : 0
    const s2 = cMaxZ > cMinZ ? BIN_COUNT / (cMaxZ - cMinZ) : 0
    if (s0 === 0 && s1 === 0 && s2 === 0) return forcedSplit(start, end)
    resetBounds(left)
    resetBounds(right)
    if (count <= SAH_ABOVE) {
      // Small nodes split at the middle of their longest centroid extent (a third of the time).
      const ex = cMaxX - cMinX
      const ey = cMaxY - cMinY
      const ez = cMaxZ - cMinZ
      const axis = ex >= ey && ex >= ez ? 0 : ey >= ez ? 1 : 2
      const middle =
        axis === 0 ? (cMinX + cMaxX) / 2 : axis === 1 ? (cMinY + cMaxY) / 2 : (cMinZ + cMaxZ) / 2
      let i = start
      let j = end - 1
      while (i <= j) {
        if (centroids[i * 3 + axis]! < middle) include(left, i++)
        else {
          swapTriangles(i, j)
          include(right, j--)
        }
      }
      return i > start && i < end ? i : forcedSplit(start, end)
    }
    // Big nodes: the binned SAH along the longest centroid extent (binning all three axes
    // costs three times the pass and gave the same rays on a 1M-triangle sphere).
    const ex = cMaxX - cMinX
    const ey = cMaxY - cMinY
    const ez = cMaxZ - cMinZ
    const bestAxis = ex >= ey && ex >= ez ? 0 : ey >= ez ? 1 : 2
    const lo = here[6 + bestAxis]!
    const scale = bestAxis === 0 ? s0 : bestAxis === 1 ? s1 : s2
    binCounts.fill(0)
    for (let q = 0; q < binBoxes.length; q += 6) {
      binBoxes[q] = binBoxes[q + 1] = binBoxes[q + 2] = Infinity
      binBoxes[q + 3] = binBoxes[q + 4] = binBoxes[q + 5] = -Infinity
    }
    for (let i = start; i < end; i++) {
      const bin = ((centroids[i * 3 + bestAxis]! - lo) * scale) | 0
      addToBin(i * 6, bin >= BIN_COUNT ? BIN_COUNT - 1 : bin)
    }
    // Sweep from the right (area of bins b … last), then from the left, pricing each split.
    let bestCost = Infinity
    let bestBin = -1
    resetBox(box)
    for (let b = BIN_COUNT - 1; b > 0; b--) {
      growBox(box, binBoxes, b)
      rightAreas[b] = boxArea(box)
    }
    resetBox(box)
    let leftCount = 0
    for (let b = 0; b < BIN_COUNT - 1; b++) {
      growBox(box, binBoxes, b)
      leftCount += binCounts[b]!
      const rightCount = count - leftCount
      if (leftCount === 0 || rightCount === 0) continue
      const cost = leftCount * boxArea(box) + rightCount * rightAreas[b + 1]!
      if (cost < bestCost) {
        bestCost = cost
        bestBin = b
      }
    }
    if (bestBin === -1) return forcedSplit(start, end)
    // Partition: triangles of bins ≤ bestBin to the left. The per-triangle arrays move with the
    // order, so every pass reads memory front to back (several times faster than indirection).
    let i = start
    let j = end - 1
    while (i <= j) {
      const bin = Math.min(BIN_COUNT - 1, ((centroids[i * 3 + bestAxis]! - lo) * scale) | 0)
      if (bin <= bestBin) include(left, i++)
      else {
        swapTriangles(i, j)
        include(right, j--)
      }
    }
    return i > start && i < end ? i : forcedSplit(start, end)
  }

  /** Splits [start, end) in the middle as it lies (all centroids alike), measuring both halves. */
  const forcedSplit = (start: number, end: number): number => {
    const middle = (start + end) >> 1
    measure(start, middle, left)
    measure(middle, end, right)
    return middle
  }

  // Depth first: a node's left child is the next node; its right child is made once the left
  // subtree is complete (the pending stack holds [parent, start, end] of right halves to come,
  // and their bounds).
  const pending: number[] = []
  let pendingBounds = new Float64Array(64 * BOUNDS_WORDS)
  let next: [number, number, number] | null = null
  if (triangleCount > 0) {
    measure(0, triangleCount, here)
    next = [nodeCount++, 0, triangleCount]
  }
  while (next !== null) {
    const [node, start, end] = next
    const middle = process(node, start, end)
    if (middle !== -1) {
      const depth = pending.length / 3
      if ((depth + 1) * BOUNDS_WORDS > pendingBounds.length) {
        const grown = new Float64Array(pendingBounds.length * 2)
        grown.set(pendingBounds)
        pendingBounds = grown
      }
      pendingBounds.set(right, depth * BOUNDS_WORDS)
      pending.push(node, middle, end)
      here.set(left)
      next = [nodeCount++, start, middle]
      continue
    }
    uints[node * NODE_WORDS + 6] = start
    uints[node * NODE_WORDS + 7] = end - start
    next = null
    if (pending.length > 0) {
      const rightEnd = pending.pop()!
      const rightStart = pending.pop()!
      const parent = pending.pop()!
      const depth = pending.length / 3
      here.set(pendingBounds.subarray(depth * BOUNDS_WORDS, (depth + 1) * BOUNDS_WORDS))
      const rightNode = nodeCount++
      uints[parent * NODE_WORDS + 6] = rightNode
      uints[parent * NODE_WORDS + 7] = 0
      next = [rightNode, rightStart, rightEnd]
    }
  }

  const buffer = new ArrayBuffer(HEADER_BYTES + nodeCount * NODE_BYTES)
  const header = new Uint32Array(buffer, 0, 4)
  header[0] = BVH_MAGIC
  header[1] = BVH_VERSION
  header[2] = nodeCount
  header[3] = triangleCount
  new Float32Array(buffer, HEADER_BYTES).set(words.subarray(0, nodeCount * NODE_WORDS))
  const reordered = new Uint32Array(triangleCount * 3)
  for (let i = 0; i < triangleCount; i++) {
    const t = order[i]! * 3
    reordered[i * 3] = indices[t]!
    reordered[i * 3 + 1] = indices[t + 1]!
    reordered[i * 3 + 2] = indices[t + 2]!
  }
  return { buffer, indices: reordered }
}

function growBox(box: number[], bins: Float64Array, bin: number): void {
  const o = bin * 6
  for (let k = 0; k < 3; k++) {
    if (bins[o + k]! < box[k]!) box[k] = bins[o + k]!
    if (bins[o + 3 + k]! > box[3 + k]!) box[3 + k] = bins[o + 3 + k]!
  }
}

function boxArea(box: number[]): number {
  const dx = box[3]! - box[0]!
  const dy = box[4]! - box[1]!
  const dz = box[5]! - box[2]!
  if (!(dx >= 0 && dy >= 0 && dz >= 0)) return 0
  return dx * dy + dy * dz + dz * dx
}

function resetBounds(bounds: Float64Array): void {
  bounds.fill(Infinity, 0, 3)
  bounds.fill(-Infinity, 3, 6)
  bounds.fill(Infinity, 6, 9)
  bounds.fill(-Infinity, 9, 12)
}

function resetBox(box: number[]): void {
  box[0] = box[1] = box[2] = Infinity
  box[3] = box[4] = box[5] = -Infinity
}
