/** The discretization of a refused setup: no particles, its issues and a summary of nothing. */
import type { Vec3 } from '../../domain/vector.ts'
import type { IssueLists } from './issues.ts'
import type { Discretization } from './types.ts'

export function emptyDiscretization(
  dp: number,
  up: Vec3,
  issues: IssueLists,
  estimate: number,
  startMs: number,
): Discretization {
  return {
    particleDiameter: dp,
    count: 0,
    fluidCount: 0,
    wallCount: 0,
    positions: new Float64Array(0),
    kinds: new Uint8Array(0),
    partIds: new Int32Array(0),
    materialIds: new Int32Array(0),
    velocities: new Float64Array(0),
    pressures: new Float64Array(0),
    densities: new Float64Array(0),
    wallNormals: new Float32Array(0),
    speedOfSound: 0,
    up,
    errors: issues.errors,
    warnings: issues.warnings,
    summary: {
      particleCount: 0,
      fluidCount: 0,
      wallCount: 0,
      parts: [],
      materials: [],
      fluidParticleVolume: 0,
      fluidMeshVolume: 0,
      estimatedParticleCount: estimate,
      durationMs: performance.now() - startMs,
    },
  }
}
