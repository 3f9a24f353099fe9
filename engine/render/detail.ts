/**
 * How many rows of each object to draw. Rows are stored in a stratified order (docs/output-format.md),
 * so every level is a prefix: a draw range, never a copy or an upload.
 */
import {
  DETAIL_LEVELS,
  INTERACTION_SUBSET_POINTS,
  INTERACTION_SUBSET_THRESHOLD,
  PARTICLE_LIMIT,
  type DetailLevel,
} from '../../domain/constants.ts'
import { prefixLength } from '../../domain/outputFormat.ts'

/**
 * Draw counts per object for a detail level: the level's prefix of each object; below All the sum
 * stays within PARTICLE_LIMIT; while the camera moves and at least INTERACTION_SUBSET_THRESHOLD
 * points are visible, INTERACTION_SUBSET_POINTS are drawn in all, shared in proportion.
 */
export function computeDrawCounts(
  visibleCounts: readonly number[],
  level: DetailLevel,
  interacting: boolean,
): number[] {
  let counts = visibleCounts.map((count) => prefixLength(Math.max(0, count), DETAIL_LEVELS[level]))
  if (level !== 'All') counts = shareBudget(counts, PARTICLE_LIMIT)
  const total = counts.reduce((sum, count) => sum + count, 0)
  if (interacting && total >= INTERACTION_SUBSET_THRESHOLD)
    counts = shareBudget(counts, INTERACTION_SUBSET_POINTS)
  return counts
}

/** Scales counts down in proportion so their sum is at most `budget` (each at least 1 if non-zero). */
function shareBudget(counts: number[], budget: number): number[] {
  const total = counts.reduce((sum, count) => sum + count, 0)
  if (total <= budget) return counts
  const shared = counts.map((count) =>
    count === 0 ? 0 : Math.max(1, Math.floor((count * budget) / total)),
  )
  // Hand out what flooring left over, largest objects first, without exceeding the budget.
  let left = budget - shared.reduce((sum, count) => sum + count, 0)
  const order = counts
    .map((_, i) => i)
    .sort((a, b) => (counts[b] as number) - (counts[a] as number))
  for (const i of order) {
    if (left <= 0) break
    if ((shared[i] as number) < (counts[i] as number)) {
      shared[i] = (shared[i] as number) + 1
      left--
    }
  }
  return shared
}

/**
 * Point size compensation for a drawn fraction: drawing 1/8 of the points at twice the diameter
 * keeps the fluid looking filled.
 */
export function pointScaleForFraction(drawn: number, total: number): number {
  if (!(drawn > 0) || !(total > drawn)) return 1
  return Math.cbrt(total / drawn)
}
