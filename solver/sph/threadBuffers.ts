/**
 * The buffers each thread of a PhaseRunner keeps beside its interaction context: the shared
 * permutation of a sort, the shared sort block (cellKeys.ts) and its own scratch for
 * permuteFields. Set by PhaseRunner (the calling thread) and servePhases (each worker).
 */
import type { InteractionContext } from './interactions.ts'
import type { PermuteScratch } from './permute.ts'
import { allocatePermuteScratch } from './permute.ts'

const permuteScratch = new WeakMap<InteractionContext, PermuteScratch>()
const permutations = new WeakMap<InteractionContext, Int32Array>()
const sortBlocks = new WeakMap<InteractionContext, Float64Array>()

/** The shared sort block of a thread's context (cellKeys.ts; set by servePhases or PhaseRunner). */
export function setSortBlock(ctx: InteractionContext, block: Float64Array): void {
  sortBlocks.set(ctx, block)
}

export function sortBlockOf(ctx: InteractionContext): Float64Array {
  const block = sortBlocks.get(ctx)
  if (!block) throw new Error('No sort block for this thread.')
  return block
}

/** The shared permutation buffer of a thread's context (set by servePhases or PhaseRunner). */
export function setPermutation(ctx: InteractionContext, permutation: Int32Array): void {
  permutations.set(ctx, permutation)
}

export function permutationOf(ctx: InteractionContext): Int32Array {
  const permutation = permutations.get(ctx)
  if (!permutation) throw new Error('No permutation buffer for this thread.')
  return permutation
}

/** This thread's scratch for permuteFields, made at its first permute. */
export function permuteScratchOf(ctx: InteractionContext): PermuteScratch {
  let scratch = permuteScratch.get(ctx)
  if (!scratch) {
    scratch = allocatePermuteScratch(ctx.arrays.capacity)
    permuteScratch.set(ctx, scratch)
  }
  return scratch
}
