/**
 * The order the setup scene is drawn in, as plain numbers. three draws every opaque object first
 * (by renderOrder), then every translucent one (by renderOrder, then far to near); within that:
 *
 * - Opaque surfaces, particles and lines first, then the selection rims of opaque surfaces (a rim
 *   is drawn only outside its object's silhouette, which its surface marks in the stencil buffer).
 * - Translucent objects after them, one slot each, back to front by the depth of their centre
 *   along the view: in a slot the object's particles, its surface, its edges, then its rim. Nothing
 *   translucent writes depth, so what lies behind a translucent surface shows through it.
 * - Then what is drawn over everything: mesh-health edges, flow arrows, markers, the seed point,
 *   the gizmo (three's axes after them all).
 *
 * Coincident faces (a water column standing in a tank's corner shares three faces with it) would
 * fight over depth, so surfaces get polygon offsets: an opaque surface is pushed back by a number
 * of steps that grows with its size rank, so of two opaque objects sharing a face the smaller one,
 * the one inside, shows there; a translucent surface is pulled forward a step, so it covers the
 * opaque faces it shares like glass (the water in a see-through tank is seen through its wall).
 */

/** renderOrder of each kind of drawn thing. */
export const RENDER_ORDER = {
  opaque: 0,
  opaqueRim: 1,
  /** Translucent slots fill [translucent, translucent + translucentSpan). */
  translucent: 10,
  translucentSpan: 5,
  meshHealth: 20,
  arrow: 25,
  marker: 30,
  seedPoint: 31,
  gizmo: 40,
} as const

/** One translucent object's renderOrders. */
export interface TranslucentSlot {
  particles: number
  surface: number
  edges: number
  rim: number
}

/** The slot of the `k`-th of `count` translucent objects drawn (0: the farthest, drawn first). */
export function translucentSlot(k: number, count: number): TranslucentSlot {
  const width = RENDER_ORDER.translucentSpan / Math.max(1, count)
  const start = RENDER_ORDER.translucent + k * width
  const step = width / 4
  return { particles: start, surface: start + step, edges: start + 2 * step, rim: start + 3 * step }
}

/**
 * The slots of translucent objects from their depths along the view (distance of their centre
 * in front of the camera): the farthest first. Equal depths keep their order.
 */
export function translucentSlots(depths: readonly number[]): TranslucentSlot[] {
  const order = depths.map((_, index) => index)
  order.sort((a, b) => depths[b]! - depths[a]! || a - b)
  const slots = new Array<TranslucentSlot>(depths.length)
  order.forEach((index, k) => (slots[index] = translucentSlot(k, depths.length)))
  return slots
}

/**
 * The biggest offset rank (more objects share it): the farther back a surface is pushed, the more
 * of it can show through a neighbour just in front of it at a grazing angle.
 */
export const MAX_OFFSET_RANK = 8

/**
 * Polygon offset rank of each surface from its size (the diagonal of its bounds): the smallest
 * gets 0, the next 1 and so on up to MAX_OFFSET_RANK; equal sizes are told apart by their order.
 * An opaque surface of rank r is drawn with polygonOffset(r, r): pushed back r steps.
 */
export function offsetRanks(sizes: readonly number[]): number[] {
  const order = sizes.map((_, index) => index)
  order.sort((a, b) => sizes[a]! - sizes[b]! || a - b)
  const ranks = new Array<number>(sizes.length)
  order.forEach((index, rank) => (ranks[index] = Math.min(rank, MAX_OFFSET_RANK)))
  return ranks
}

/** Polygon offset steps of a translucent surface: pulled forward one step. */
export const TRANSLUCENT_OFFSET_STEPS = -1

/** Polygon offset steps of a surface (polygonOffset(steps, steps); positive: pushed back). */
export function surfaceOffsetSteps(rank: number, translucent: boolean): number {
  return translucent ? TRANSLUCENT_OFFSET_STEPS : rank
}
