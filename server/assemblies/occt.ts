import { createRequire } from 'node:module'
import type { OcctResult } from './cadTree.ts'

/*
 * occt-import-js 0.0.23: OpenCascade compiled to WASM. ReadStepFile parses a STEP file and
 * tessellates every free shape in one call (BRepMesh_IncrementalMesh with a linear and an angular
 * deflection); there is no call that reads the tree without meshing, nor a choice of meshing
 * algorithm. It is synchronous: a read cannot be interrupted except by ending its thread.
 */

/** Triangulation parameters of ReadStepFile (lengths in `linearUnit`, angles in radians). */
export interface OcctParams {
  /** The unit of the returned coordinates; occt converts from the file's own unit. */
  linearUnit: 'millimeter' | 'centimeter' | 'meter' | 'inch' | 'foot'
  linearDeflectionType: 'bounding_box_ratio' | 'absolute_value'
  linearDeflection: number
  /** Radians. */
  angularDeflection: number
}

interface OcctModule {
  ReadStepFile(content: Uint8Array, params: OcctParams | null): OcctResult
}

type OcctFactory = () => Promise<OcctModule>

/**
 * The read that builds the import tree: coordinates in metres, a coarse tessellation (1 % of each
 * free shape's average box size, 0.5 rad) since only the tree and the boxes of its leaves are kept.
 */
export const IMPORT_READ_PARAMS: OcctParams = {
  linearUnit: 'meter',
  linearDeflectionType: 'bounding_box_ratio',
  linearDeflection: 0.01,
  angularDeflection: 0.5,
}

let occt: Promise<OcctModule> | undefined

/** The WASM module, compiled once per thread (about 0.1–0.2 s). */
export function loadOcct(): Promise<OcctModule> {
  occt ??= (createRequire(import.meta.url)('occt-import-js') as OcctFactory)()
  return occt
}

/** Reads and tessellates a STEP file. */
export async function readStepFile(bytes: Uint8Array, params: OcctParams): Promise<OcctResult> {
  return (await loadOcct()).ReadStepFile(bytes, params)
}
