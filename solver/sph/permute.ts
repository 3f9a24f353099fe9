/**
 * Applying a sort's permutation on any number of threads (PHASE.permute). Each thread takes an
 * equal range of new indices of every field, so the work splits evenly over any number of
 * threads. The persistent fields go in groups through one shared scratch: in each stage every
 * thread copies its range of the last group back from the scratch into the fields, then gathers
 * its range of the next group into the scratch, reading old indices anywhere. A group's copy
 * back waits for the next stage, when every thread has gathered it (the barrier between two
 * phases). Each particle's values are those of the serial gather on any split.
 */
import {
  PERSISTENT_BYTE_FIELDS,
  PERSISTENT_FLOAT_FIELDS,
  PERSISTENT_INT_FIELDS,
} from './particles.ts'
import type { ParticleArrays } from './particles.ts'

type FloatField = (typeof PERSISTENT_FLOAT_FIELDS)[number]
type IntField = (typeof PERSISTENT_INT_FIELDS)[number]
type ByteField = (typeof PERSISTENT_BYTE_FIELDS)[number]
type FieldType = 'float' | 'int' | 'byte'

const WIDTH = { float: 8, int: 4, byte: 1 } as const

/**
 * The most float columns of the scratch: a group moves at most this many float fields, and on
 * fewer threads as many as there are threads, so that a thread's share of the scratch is at most
 * one field's length. The integer and byte fields go in the last group. A column sits at the
 * same place in every group: a thread copying back its range of the last group's column and one
 * gathering its own range of the next group's touch different bytes. Four float columns make
 * four groups, five phases a sort, and 43 bytes per particle (one thread: 14 phases, 19 bytes).
 * Fewer mean more phases, each a barrier (on 2 shared cores, 1 to 4 float columns, 14 to 5
 * phases, waited 10 to 5 ms a sort); more, a larger footprint between a gather and its copy
 * back (on one thread, groups of 1, 2 and 4 float fields took 3, 9 and 13 % longer than one
 * field's scratch reused, 34.5 CPU-ms for 589k particles; bench/solver/sortProfile.ts).
 */
const MAX_FLOAT_COLUMNS = 4

/**
 * Ranges of new indices start at multiples of this (and scratch columns at multiples of as many
 * particles): two threads then write no 64-byte cache line in common in a column or in a field
 * whose buffer starts on a line.
 */
const RANGE_ALIGN = 64

/** Particles per scratch column: the capacity rounded up to RANGE_ALIGN. */
function columnLength(capacity: number): number {
  return Math.max(Math.ceil(capacity / RANGE_ALIGN), 1) * RANGE_ALIGN
}

/** A field and its column: `offset` bytes per particle before the column in the scratch. */
type Column =
  | { type: 'float'; field: FloatField; offset: number }
  | { type: 'int'; field: IntField; offset: number }
  | { type: 'byte'; field: ByteField; offset: number }

const FIELDS: readonly Omit<Column, 'offset'>[] = [
  ...PERSISTENT_FLOAT_FIELDS.map((field) => ({ type: 'float' as const, field })),
  ...PERSISTENT_INT_FIELDS.map((field) => ({ type: 'int' as const, field })),
  ...PERSISTENT_BYTE_FIELDS.map((field) => ({ type: 'byte' as const, field })),
]

/**
 * The fields in groups for `threads` threads, in order, each taking the next free column of its
 * type, and the scratch's bytes per particle: the float columns, then the integer and the byte
 * ones (widest first, each column aligned).
 */
function permuteLayout(threads: number): { groups: Column[][]; bytes: number } {
  const columns = {
    float: Math.min(Math.max(threads, 1), MAX_FLOAT_COLUMNS),
    int: PERSISTENT_INT_FIELDS.length,
    byte: PERSISTENT_BYTE_FIELDS.length,
  }
  const region = {
    float: 0,
    int: WIDTH.float * columns.float,
    byte: WIDTH.float * columns.float + WIDTH.int * columns.int,
  }
  const groups: Column[][] = [[]]
  let used: Record<FieldType, number> = { float: 0, int: 0, byte: 0 }
  for (const field of FIELDS) {
    if (used[field.type] === columns[field.type]) {
      groups.push([])
      used = { float: 0, int: 0, byte: 0 }
    }
    const offset = region[field.type] + WIDTH[field.type] * used[field.type]++
    groups[groups.length - 1]!.push({ ...field, offset } as Column)
  }
  return { groups, bytes: region.byte + WIDTH.byte * columns.byte }
}

/**
 * Stages of a permutation on `threads` threads: the first group's gather, then per group the
 * last one's copy back and its own gather, then the last group's copy back.
 */
export function permuteStages(threads: number): number {
  return permuteLayout(threads).groups.length + 1
}

/** Bytes of the shared scratch for `capacity` particles on `threads` threads. */
export function permuteScratchBytes(capacity: number, threads: number): number {
  return permuteLayout(threads).bytes * columnLength(capacity)
}

/** A thread's views of the scratch's columns, per group (made once per thread). */
type ColumnView =
  | { type: 'float'; field: FloatField; column: Float64Array }
  | { type: 'int'; field: IntField; column: Int32Array }
  | { type: 'byte'; field: ByteField; column: Uint8Array }
export type PermuteScratch = readonly (readonly ColumnView[])[]

/**
 * A thread's views of a scratch of permuteScratchBytes(capacity, threads) bytes (shared, or the
 * sorter's own), for `threads` threads.
 */
export function viewPermuteScratch(
  buffer: ArrayBufferLike,
  capacity: number,
  threads: number,
): PermuteScratch {
  const size = columnLength(capacity)
  return permuteLayout(threads).groups.map((group) =>
    group.map((c): ColumnView => {
      const at = c.offset * size
      if (c.type === 'float') return { ...c, column: new Float64Array(buffer, at, size) }
      if (c.type === 'int') return { ...c, column: new Int32Array(buffer, at, size) }
      return { ...c, column: new Uint8Array(buffer, at, size) }
    }),
  )
}

/** The new indices [begin, end) of `slot` of `threads` over `kept` particles. */
export function permuteRange(kept: number, slot: number, threads: number): [number, number] {
  const edge = (k: number) =>
    k >= threads ? kept : Math.floor((kept * k) / threads / RANGE_ALIGN) * RANGE_ALIGN
  return [edge(slot), edge(slot + 1)]
}

/**
 * Thread `slot`'s share of stage `stage` of applying a sort's permutation (new index k ← old
 * index permutation[k], k < kept): copies its range of the last stage's group back from the
 * scratch into the fields, then gathers its range of the stage's group into the scratch. Every
 * thread must finish a stage before any starts the next: a copy back overwrites old values that
 * other threads' gathers of the last stage read. Within a stage no two threads touch the same
 * memory: a thread's scratch range is its own, and the fields written are not those gathered.
 */
export function permuteStage(
  a: ParticleArrays,
  permutation: Int32Array,
  kept: number,
  stage: number,
  slot: number,
  threads: number,
  scratch: PermuteScratch,
): void {
  const [first, last] = permuteRange(kept, slot, threads)
  // int32 bounds: from a double bound (kept comes as a double) every index of the loops below
  // was a double, and one thread's permutation took 12 % longer
  const begin = first | 0
  const end = last | 0
  if (end <= begin) return
  if (stage > 0)
    for (const view of scratch[stage - 1]!) {
      const values: ArrayLike<number> & { set(from: ArrayLike<number>, at: number): void } =
        a[view.field]
      values.set(view.column.subarray(begin, end), begin)
    }
  if (stage >= scratch.length) return
  for (const view of scratch[stage]!) {
    if (view.type === 'float') {
      const values = a[view.field]
      const column = view.column
      for (let k = begin; k < end; k++) column[k] = values[permutation[k]!]!
    } else if (view.type === 'int') {
      const values = a[view.field]
      const column = view.column
      for (let k = begin; k < end; k++) column[k] = values[permutation[k]!]!
    } else {
      const values = a[view.field]
      const column = view.column
      for (let k = begin; k < end; k++) column[k] = values[permutation[k]!]!
    }
  }
}
