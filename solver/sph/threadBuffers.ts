/**
 * A sort's side of the threads of a PhaseRunner: the shared buffers each thread keeps beside its
 * interaction context (the sort block of cellKeys.ts, the counting sort's cursors, the
 * permutation and its scratch), and runSortStep, one thread's share of a sort's phases. Set by
 * PhaseRunner (the calling thread) and servePhases (each worker).
 */
import type { InteractionContext } from './interactions.ts'
import type { PermuteScratch } from './permute.ts'
import { permuteStage } from './permute.ts'
import {
  boundBlockCells,
  boundParticles,
  computeCellKeys,
  SORT_KEY,
  sortRange,
} from './cellKeys.ts'
import { countCells, scatterCells } from './cellCount.ts'

/** A sort's shared buffers, as one thread views them. */
export interface SortBuffers {
  /** The per-particle loops' parameters and per-thread results (cellKeys.ts). */
  block: Float64Array
  /** The counting sort's per-cell counts, then cursors (cellCount.ts). */
  cursor: Int32Array
  /** Each block of particles' least and largest cell (boundBlockCells). */
  blockCells: Int32Array
  /** The sort's permutation: new index k ← old index permutation[k]. */
  permutation: Int32Array
  /** This thread's views of the permutation's shared scratch (permute.ts). */
  scratch: PermuteScratch
}

const sortBuffers = new WeakMap<InteractionContext, SortBuffers>()

export function setSortBuffers(ctx: InteractionContext, buffers: SortBuffers): void {
  sortBuffers.set(ctx, buffers)
}

export function sortBuffersOf(ctx: InteractionContext): SortBuffers {
  const buffers = sortBuffers.get(ctx)
  if (!buffers) throw new Error('No sort buffers for this thread.')
  return buffers
}

/** The steps of a sort that run on all threads, in their order (PHASE.sortBounds …). */
export type SortStep = 'bounds' | 'keys' | 'count' | 'scatter' | 'permute'

/**
 * Thread `slot`'s share of a sort step: `param` is the particle count of bounds and keys, the
 * stage of permute (permuteStage; the particles kept are in the sort block).
 */
export function runSortStep(
  ctx: InteractionContext,
  step: SortStep,
  slot: number,
  threads: number,
  param: number,
): void {
  const { block, cursor, blockCells, permutation, scratch } = sortBuffersOf(ctx)
  const a = ctx.arrays
  switch (step) {
    case 'bounds':
    case 'keys': {
      const [first, last] = sortRange(param, slot, threads)
      if (step === 'bounds') boundParticles(a, first, last, block, slot)
      else {
        computeCellKeys(a, first, last, block, slot)
        boundBlockCells(a.cell, first, last, blockCells)
      }
      break
    }
    case 'count':
      countCells(a, block, slot, cursor, ctx.grid.fluidBefore, blockCells)
      break
    case 'scatter':
      scatterCells(
        a,
        block,
        slot,
        cursor,
        ctx.grid.cellStart,
        ctx.grid.fluidBefore,
        permutation,
        blockCells,
      )
      break
    case 'permute':
      permuteStage(a, permutation, block[SORT_KEY.kept]!, param, slot, threads, scratch)
      break
  }
}
