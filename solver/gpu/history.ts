/**
 * The steps of a batch as the GPU recorded them (HISTORY_STRIDE u32 per step: dt bits, the
 * step's interactions low and high, the particles deleted since the upload; FINISH_SHADER of
 * pipelines.ts and DT_SHADER of stepShaders.ts write them).
 */
import { HISTORY_STRIDE } from './shaderCommon.ts'

export interface StepRecord {
  dtS: number
  interactions: number
  /** Deleted since the upload: outside the domain, not finite, fluid among them. */
  deleted: { outside: number; invalid: number; fluid: number }
}

/** The records of the steps taken, up to the first slot of `steps` with no time step (dt 0). */
export function decodeHistory(history: ArrayBuffer, steps: number): StepRecord[] {
  const dts = new Float32Array(history)
  const counts = new Uint32Array(history)
  const records: StepRecord[] = []
  for (let s = 0; s < steps; s++) {
    const slot = HISTORY_STRIDE * s
    const dtS = dts[slot]!
    if (!(dtS > 0)) break
    records.push({
      dtS,
      interactions: counts[slot + 1]! + counts[slot + 2]! * 2 ** 32,
      deleted: { outside: counts[slot + 3]!, invalid: counts[slot + 4]!, fluid: counts[slot + 5]! },
    })
  }
  return records
}
