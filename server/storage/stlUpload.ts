import { encodeMeshFile } from '../../domain/meshFile.ts'
import { SECURITY_RISK_MESSAGE } from '../../domain/errors.ts'
import type { StlUnit } from '../../domain/rest/setupRoutes.ts'
import { checkMeshHealth, countTriangles } from '../../solver/geometry/mesh.ts'
import { StlError, parseStl } from '../../solver/geometry/stl.ts'
import { ApiError } from '../api/apiError.ts'
import { detectForeignFormat } from './sniff.ts'

/*
 * The check of an STL upload: parse, weld, count, health, and the canonical mesh file to store.
 * Pure and synchronous (seconds for 100 MB), so the server runs it in a worker thread
 * (stlThread.ts); tests call it directly.
 */

/** What a checked STL upload stores and reports. */
export interface CheckedStl {
  /** The canonical mesh file (domain/meshFile.ts), in metres. */
  stored: Uint8Array
  nbrOfTriangles: number
  watertight: boolean
}

/** The welded mesh of an STL upload; a file that is no STL at all is a security risk (503). */
export function readStlUpload(bytes: Uint8Array, unit: StlUnit) {
  if (detectForeignFormat(bytes)) throw new ApiError('security_risk', SECURITY_RISK_MESSAGE)
  try {
    const mesh = parseStl(bytes, unit)
    if (countTriangles(mesh) === 0)
      throw new ApiError('wrong_input', 'The STL file contains no triangles.')
    return mesh
  } catch (error) {
    if (error instanceof StlError) {
      if (error.code === 'not_stl') throw new ApiError('security_risk', SECURITY_RISK_MESSAGE)
      throw new ApiError('wrong_input', error.message)
    }
    throw error
  }
}

/** Checks an STL upload and encodes what is stored; throws ApiError when it is refused. */
export function checkStlUpload(bytes: Uint8Array, unit: StlUnit): CheckedStl {
  const mesh = readStlUpload(bytes, unit)
  return {
    stored: encodeMeshFile(mesh),
    nbrOfTriangles: countTriangles(mesh),
    watertight: checkMeshHealth(mesh).watertight,
  }
}
