import type { AssemblyNode } from '../../domain/tessellation.ts'
import type { TriangleMesh } from '../../domain/meshFile.ts'
import type { Vec3 } from '../../domain/vector.ts'

/*
 * The import tree of a STEP file as occt-import-js reads it, and the meshes of tree nodes.
 *
 * occt-import-js returns a root (no name) whose children are the file's free shapes; a node is
 * either an assembly (children) or a mesh node holding the solids, shells and loose faces of its
 * product (sub-assemblies it references come flattened into its meshes). The tree the wizard
 * shows is that hierarchy with a mesh node of several meshes opened into one child per mesh, so
 * each bolt of a bracket can go to its own part. Every node's `entryId` is the path of child
 * indices from the root ('0', '0:1', '0:1:2'); the file is read the same way every time, so the
 * ids of the import name the same meshes in each tessellation read. Leaves (entries with no
 * children) own exactly one mesh, or none for a product without geometry.
 */

/** One mesh of an occt-import-js result (three.js-like buffers, in the requested unit). */
export interface OcctMesh {
  name: string
  attributes: { position: { array: ArrayLike<number> } }
  index: { array: ArrayLike<number> }
}

/** One node of an occt-import-js result. */
export interface OcctNode {
  name: string
  /** Indices into OcctResult.meshes. */
  meshes: number[]
  children: OcctNode[]
}

/** What occt-import-js's ReadStepFile returns. */
export interface OcctResult {
  success: boolean
  root?: OcctNode
  meshes?: OcctMesh[]
}

/** Geometry facts of a leaf of the tree (metres), from the read that built the tree. */
export interface LeafFacts {
  triangles: number
  /** null for a leaf without triangles. */
  min: Vec3 | null
  max: Vec3 | null
}

/** Facts of every leaf of the tree, by entry id. */
export type NodeFacts = Record<string, LeafFacts>

/** An axis-aligned box in metres. */
export interface Box {
  min: Vec3
  max: Vec3
}

/** The name shown for a node whose product has none. */
export const UNNAMED_NODE = 'Unnamed'

/**
 * occt-import-js's own linear deflection (ImportParams: 0.001 of the shape's average bounding-box
 * size); a part's linearDeflectionFactor scales it, relative to the part's own bounding box.
 */
export const BASE_LINEAR_DEFLECTION_RATIO = 0.001

/** Below this (metres) occt treats a deflection as zero; a part this small gets this deflection. */
const MIN_LINEAR_DEFLECTION_M = 1e-7

function label(name: string | undefined, fallback: string): string {
  const trimmed = (name ?? '').trim()
  return trimmed === '' ? fallback : trimmed
}

/**
 * Walks an occt result: calls `onLeaf` with each leaf's entry id and mesh index (null for a
 * product without meshes) and returns the wizard's tree.
 */
function walkTree(
  result: OcctResult,
  onLeaf: (entryId: string, meshIndex: number | null) => void,
): AssemblyNode[] {
  const meshes = result.meshes ?? []
  const visit = (node: OcctNode, entryId: string): AssemblyNode => {
    const labelName = label(node.name, UNNAMED_NODE)
    if (node.children.length > 0)
      return {
        entryId,
        labelName,
        children: node.children.map((child, i) => visit(child, `${entryId}:${i}`)),
      }
    if (node.meshes.length === 1) {
      onLeaf(entryId, node.meshes[0]!)
      return { entryId, labelName, children: [] }
    }
    if (node.meshes.length === 0) onLeaf(entryId, null)
    return {
      entryId,
      labelName,
      children: node.meshes.map((meshIndex, k) => {
        const childId = `${entryId}:${k}`
        onLeaf(childId, meshIndex)
        return {
          entryId: childId,
          labelName: label(meshes[meshIndex]?.name, `${labelName} ${k + 1}`),
          children: [],
        }
      }),
    }
  }
  return (result.root?.children ?? []).map((child, i) => visit(child, String(i)))
}

function leafFacts(mesh: OcctMesh | undefined): LeafFacts {
  const positions = mesh?.attributes.position.array ?? []
  const triangles = Math.floor((mesh?.index.array.length ?? 0) / 3)
  if (positions.length < 3 || triangles === 0) return { triangles, min: null, max: null }
  const min: Vec3 = [Infinity, Infinity, Infinity]
  const max: Vec3 = [-Infinity, -Infinity, -Infinity]
  for (let i = 0; i + 2 < positions.length; i += 3)
    for (let k = 0; k < 3; k++) {
      const value = positions[i + k]!
      if (value < min[k]!) min[k] = value
      if (value > max[k]!) max[k] = value
    }
  return { triangles, min, max }
}

/** The wizard's tree of a read file and the facts of its leaves. */
export function buildImportTree(result: OcctResult): { tree: AssemblyNode[]; facts: NodeFacts } {
  const facts: NodeFacts = {}
  const tree = walkTree(result, (entryId, meshIndex) => {
    facts[entryId] = leafFacts(meshIndex === null ? undefined : result.meshes?.[meshIndex])
  })
  return { tree, facts }
}

/** The mesh index of every leaf that has one, by entry id. */
export function leafMeshIndices(result: OcctResult): Map<string, number> {
  const indices = new Map<string, number>()
  walkTree(result, (entryId, meshIndex) => {
    if (meshIndex !== null) indices.set(entryId, meshIndex)
  })
  return indices
}

/** Every node of a tree by entry id. */
export function indexTree(tree: readonly AssemblyNode[]): Map<string, AssemblyNode> {
  const nodes = new Map<string, AssemblyNode>()
  const visit = (node: AssemblyNode) => {
    nodes.set(node.entryId, node)
    node.children.forEach(visit)
  }
  tree.forEach(visit)
  return nodes
}

/**
 * The leaves under the nodes `nodeIds` (a node counts as its own leaf when it has no children),
 * each once, in tree order; ids the tree does not have are listed in `unknown`.
 */
export function resolveLeaves(
  tree: readonly AssemblyNode[],
  nodeIds: readonly string[],
): { leaves: string[]; unknown: string[] } {
  const nodes = indexTree(tree)
  const wanted = new Set<string>()
  const unknown: string[] = []
  const collect = (node: AssemblyNode) => {
    if (node.children.length === 0) wanted.add(node.entryId)
    else node.children.forEach(collect)
  }
  for (const id of nodeIds) {
    const node = nodes.get(id)
    if (node) collect(node)
    else if (!unknown.includes(id)) unknown.push(id)
  }
  const leaves = [...nodes.values()]
    .filter((node) => wanted.has(node.entryId))
    .map((node) => node.entryId)
  return { leaves, unknown }
}

/** The box around the leaves' geometry, or null when none has triangles. */
export function boxOfLeaves(facts: NodeFacts, leaves: readonly string[]): Box | null {
  let box: Box | null = null
  for (const id of leaves) {
    const fact = facts[id]
    if (!fact?.min || !fact.max) continue
    if (!box) box = { min: [...fact.min], max: [...fact.max] }
    else
      for (let k = 0; k < 3; k++) {
        box.min[k] = Math.min(box.min[k]!, fact.min[k]!)
        box.max[k] = Math.max(box.max[k]!, fact.max[k]!)
      }
  }
  return box
}

/**
 * The absolute linear deflection (metres) of a part: occt's bounding-box ratio (0.001 of the
 * average edge of the box, as occt-import-js computes it for a whole shape) times the part's
 * linearDeflectionFactor, taken over the part's own box. It is snapped down to a power of √2:
 * one read of the file meshes every shape at one deflection, so parts of about the same size
 * share a read; a part is meshed at most 1.41 times finer than asked, never coarser.
 */
export function linearDeflectionOf(box: Box, factor: number): number {
  const averageSize =
    (box.max[0] - box.min[0] + (box.max[1] - box.min[1]) + (box.max[2] - box.min[2])) / 3
  const exact = averageSize * BASE_LINEAR_DEFLECTION_RATIO * factor
  if (!(exact > MIN_LINEAR_DEFLECTION_M)) return MIN_LINEAR_DEFLECTION_M
  return Math.max(MIN_LINEAR_DEFLECTION_M, 2 ** (Math.floor(2 * Math.log2(exact) + 1e-9) / 2))
}

/**
 * One welded mesh of several occt meshes: vertices with bit-identical coordinates become one
 * (occt meshes each face on its own, sharing the edge points, so a solid closes once welded);
 * triangles that collapse to an edge or a point, or have no area, are dropped and counted.
 */
export function mergeMeshes(meshes: readonly OcctMesh[]): {
  mesh: TriangleMesh
  degenerateTriangles: number
} {
  let vertexCount = 0
  let triangleCount = 0
  for (const mesh of meshes) {
    vertexCount += Math.floor(mesh.attributes.position.array.length / 3)
    triangleCount += Math.floor(mesh.index.array.length / 3)
  }
  const raw = new Float32Array(vertexCount * 3)
  const rawIndices = new Uint32Array(triangleCount * 3)
  let vertexOffset = 0
  let indexOffset = 0
  for (const mesh of meshes) {
    const positions = mesh.attributes.position.array
    const count = Math.floor(positions.length / 3)
    for (let i = 0; i < count * 3; i++) raw[vertexOffset * 3 + i] = positions[i]! + 0 // −0 → 0
    const indices = mesh.index.array
    const triangles = Math.floor(indices.length / 3)
    for (let i = 0; i < triangles * 3; i++) rawIndices[indexOffset + i] = indices[i]! + vertexOffset
    vertexOffset += count
    indexOffset += triangles * 3
  }
  const { positions, remap } = weldPositions(raw)
  const indices = new Uint32Array(triangleCount * 3)
  let kept = 0
  for (let t = 0; t < triangleCount; t++) {
    const a = remap[rawIndices[t * 3]!]
    const b = remap[rawIndices[t * 3 + 1]!]
    const c = remap[rawIndices[t * 3 + 2]!]
    if (a === undefined || b === undefined || c === undefined) continue
    if (a === b || b === c || a === c || hasNoArea(positions, a, b, c)) continue
    indices[kept++] = a
    indices[kept++] = b
    indices[kept++] = c
  }
  return {
    mesh: { positions, indices: indices.slice(0, kept) },
    degenerateTriangles: triangleCount - kept / 3,
  }
}

function hasNoArea(p: Float32Array, a: number, b: number, c: number): boolean {
  const ux = p[b * 3]! - p[a * 3]!
  const uy = p[b * 3 + 1]! - p[a * 3 + 1]!
  const uz = p[b * 3 + 2]! - p[a * 3 + 2]!
  const vx = p[c * 3]! - p[a * 3]!
  const vy = p[c * 3 + 1]! - p[a * 3 + 1]!
  const vz = p[c * 3 + 2]! - p[a * 3 + 2]!
  const cx = uy * vz - uz * vy
  const cy = uz * vx - ux * vz
  const cz = ux * vy - uy * vx
  return cx === 0 && cy === 0 && cz === 0
}

/** Unique vertices by their Float32 bits (open addressing), and each raw vertex's new index. */
function weldPositions(raw: Float32Array): { positions: Float32Array; remap: Uint32Array } {
  const vertexCount = raw.length / 3
  const bits = new Uint32Array(raw.buffer, raw.byteOffset, raw.length)
  let size = 1
  while (size < vertexCount * 2) size *= 2
  const mask = size - 1
  const table = new Int32Array(size).fill(-1)
  const unique = new Uint32Array(vertexCount)
  const remap = new Uint32Array(vertexCount)
  let count = 0
  for (let v = 0; v < vertexCount; v++) {
    const x = bits[v * 3]!
    const y = bits[v * 3 + 1]!
    const z = bits[v * 3 + 2]!
    let h = Math.imul(x, 0x9e3779b1) ^ Math.imul(y, 0x85ebca77) ^ Math.imul(z, 0xc2b2ae3d)
    h = (h ^ (h >>> 15)) & mask
    for (;;) {
      const slot = table[h]!
      if (slot < 0) {
        table[h] = count
        unique[count] = v
        remap[v] = count++
        break
      }
      const u = unique[slot]!
      if (bits[u * 3] === x && bits[u * 3 + 1] === y && bits[u * 3 + 2] === z) {
        remap[v] = slot
        break
      }
      h = (h + 1) & mask
    }
  }
  const positions = new Float32Array(count * 3)
  for (let i = 0; i < count; i++) {
    const v = unique[i]!
    positions[i * 3] = raw[v * 3]!
    positions[i * 3 + 1] = raw[v * 3 + 1]!
    positions[i * 3 + 2] = raw[v * 3 + 2]!
  }
  return { positions, remap }
}
