import { readFile } from 'node:fs/promises'
import type { AssemblyNode } from '../../domain/tessellation.ts'
import {
  buildImportTree,
  leafMeshIndices,
  mergeMeshes,
  type NodeFacts,
  type OcctMesh,
} from './cadTree.ts'
import { IMPORT_READ_PARAMS, readStepFile, type OcctParams } from './occt.ts'

/*
 * The work of the CAD threads (cad.worker.ts), callable on any thread: reading a STEP file's
 * import tree, and tessellating parts of it. Each distinct pair of deflections is one read of the
 * file (occt-import-js parses and meshes in one call), shared by the parts that ask for it.
 */

/** Message of a file occt cannot read. */
export const UNREADABLE_STEP_MESSAGE = 'The STEP file could not be read.'

/** The tree of a read file and the facts of its leaves. */
export interface AssemblyReadResult {
  tree: AssemblyNode[]
  facts: NodeFacts
}

/** One part to tessellate: the leaves it merges and its deflections. */
export interface PartTessellationRequest {
  partId: number
  /** Leaf entry ids (cadTree.ts resolveLeaves). */
  leaves: string[]
  /** Metres. */
  linearDeflectionM: number
  /** Radians. */
  angularDeflectionRad: number
}

/** The merged mesh of one part, in metres. */
export interface PartTessellationResult {
  partId: number
  positions: Float32Array
  indices: Uint32Array
  /** Triangles dropped because they had no area. */
  degenerateTriangles: number
  /** Leaves this read had no mesh for. */
  missingLeaves: string[]
}

/** Reads the file's import tree (coordinates in metres, STEP units honoured). */
export async function readAssembly(path: string): Promise<AssemblyReadResult> {
  const result = await readStepFile(await readFile(path), IMPORT_READ_PARAMS)
  if (!result.success) throw new Error(UNREADABLE_STEP_MESSAGE)
  return buildImportTree(result)
}

function paramsOf(request: PartTessellationRequest): OcctParams {
  return {
    linearUnit: 'meter',
    linearDeflectionType: 'absolute_value',
    linearDeflection: request.linearDeflectionM,
    angularDeflection: request.angularDeflectionRad,
  }
}

/**
 * Tessellates the parts, one read per distinct pair of deflections, and hands each part's mesh
 * to `onPart` as soon as its read is done (awaited before the next read). `shouldStop` is asked
 * between reads.
 */
export async function tessellateParts(
  path: string,
  parts: readonly PartTessellationRequest[],
  onPart: (result: PartTessellationResult) => Promise<void> | void,
  shouldStop: () => boolean = () => false,
): Promise<'done' | 'stopped'> {
  const bytes = await readFile(path)
  const groups = new Map<string, PartTessellationRequest[]>()
  for (const part of parts) {
    const key = JSON.stringify(paramsOf(part))
    groups.set(key, [...(groups.get(key) ?? []), part])
  }
  for (const group of groups.values()) {
    if (shouldStop()) return 'stopped'
    const result = await readStepFile(bytes, paramsOf(group[0]!))
    if (!result.success) throw new Error(UNREADABLE_STEP_MESSAGE)
    const indices = leafMeshIndices(result)
    for (const part of group) {
      const meshes: OcctMesh[] = []
      const missingLeaves: string[] = []
      for (const leaf of part.leaves) {
        const mesh = result.meshes?.[indices.get(leaf) ?? -1]
        if (mesh) meshes.push(mesh)
        else missingLeaves.push(leaf)
      }
      const { mesh, degenerateTriangles } = mergeMeshes(meshes)
      await onPart({
        partId: part.partId,
        positions: mesh.positions,
        indices: mesh.indices,
        degenerateTriangles,
        missingLeaves,
      })
    }
  }
  return 'done'
}
