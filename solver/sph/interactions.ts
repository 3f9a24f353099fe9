/**
 * The per-step passes over particles (re-exported from their modules): the stencil and context
 * (stencil.ts), equation of state and generalized-wall extrapolation (walls.ts), forces and the
 * reference loop (forces.ts, referencePass.ts), particle shifting (shifting.ts).
 */
export {
  createInteractionContext,
  fillStencilRows,
  maxStencilRows,
  STAT,
  STAT_STRIDE,
} from './stencil.ts'
export type { InteractionContext } from './stencil.ts'
export { computePressures, extrapolateWalls } from './walls.ts'
export { computeForces } from './forces.ts'
export { runReferencePass } from './referencePass.ts'
export {
  SHIFT_MAX_DP,
  SHIFT_NEAR_SURFACE_DIVERGENCE,
  SHIFT_SPLASH_DIVERGENCE,
  shiftParticles,
} from './shifting.ts'
