/**
 * Applying a sort's permutation on all threads: the persistent particle fields are dealt to the
 * threads (field f to thread f mod threads), each gathering its fields through its own scratch.
 */
import {
  PERSISTENT_BYTE_FIELDS,
  PERSISTENT_FLOAT_FIELDS,
  PERSISTENT_INT_FIELDS,
} from './particles.ts'
import type { ParticleArrays } from './particles.ts'

/** The fields a sort permutes, in the order permuteFields deals them to threads. */
const PERMUTED_FIELDS = [
  ...PERSISTENT_FLOAT_FIELDS.map((field) => ({ field, type: 'float' as const })),
  ...PERSISTENT_INT_FIELDS.map((field) => ({ field, type: 'int' as const })),
  ...PERSISTENT_BYTE_FIELDS.map((field) => ({ field, type: 'byte' as const })),
]

/** Per thread: scratch arrays for permuteFields, made once per thread at its first sort. */
export interface PermuteScratch {
  float: Float64Array
  int: Int32Array
  byte: Uint8Array
}

export function allocatePermuteScratch(capacity: number): PermuteScratch {
  const size = Math.max(capacity, 1)
  return { float: new Float64Array(size), int: new Int32Array(size), byte: new Uint8Array(size) }
}

/**
 * Applies a sort's permutation (new index k ← old index permutation[k], k < kept) to the
 * persistent fields dealt to thread `slot` of `threads` (field f goes to thread f mod threads).
 */
export function permuteFields(
  a: ParticleArrays,
  permutation: Int32Array,
  kept: number,
  slot: number,
  threads: number,
  scratch: PermuteScratch,
): void {
  for (let f = slot; f < PERMUTED_FIELDS.length; f += threads) {
    const { field, type } = PERMUTED_FIELDS[f]!
    if (type === 'float') {
      const values = a[field]
      const sf = scratch.float
      for (let k = 0; k < kept; k++) sf[k] = values[permutation[k]!]!
      values.set(sf.subarray(0, kept))
    } else if (type === 'int') {
      const values = a[field]
      const si = scratch.int
      for (let k = 0; k < kept; k++) si[k] = values[permutation[k]!]!
      values.set(si.subarray(0, kept))
    } else {
      const values = a[field]
      const sb = scratch.byte
      for (let k = 0; k < kept; k++) sb[k] = values[permutation[k]!]!
      values.set(sb.subarray(0, kept))
    }
  }
}
