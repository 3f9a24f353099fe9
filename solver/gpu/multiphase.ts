/**
 * The host's side of multiphase and surface tension on the GPU (multiphaseShaders.ts): what a run
 * asks for, and the uniform block's lanes of the phase table.
 */
import type { SphConstants } from '../sph/config.ts'
import { MAX_PHASES } from '../sph/phaseTable.ts'

/** What a run's multiphase settings ask of the GPU: null without multiphase. */
export interface GpuMultiphase {
  /** Surface tension (σ > 0): the colour gradient pass before each force pass. */
  tension: boolean
}

export function gpuMultiphase(k: SphConstants): GpuMultiphase | null {
  return k.phases ? { tension: k.surfaceTension > 0 } : null
}

/**
 * The uniform block's multiphase lanes (PARAMS' multi and phases): the phases (0 without
 * multiphase), 2 p_b, the local minimum reference (1) and σ; then each phase's ρ0, B, γ, μ. One
 * fluid has its single material in phase 0 (the pressure pass reads it there).
 */
export function multiphaseParams(k: SphConstants): Float32Array {
  const lanes = new Float32Array(4 + 4 * MAX_PHASES)
  const phases = k.phases
  if (!phases) {
    lanes.set([k.referenceDensity, k.stiffness, k.gamma, 0], 4)
    return lanes
  }
  const count = phases.materialIds.length
  const reference = phases.localMinimumReference ? 1 : 0
  lanes.set([count, 2 * phases.backgroundPressure, reference, k.surfaceTension], 0)
  for (let p = 0; p < count; p++)
    lanes.set(
      [
        phases.referenceDensity[p]!,
        phases.stiffness[p]!,
        phases.gamma[p]!,
        phases.dynamicViscosity[p]!,
      ],
      4 + 4 * p,
    )
  return lanes
}
