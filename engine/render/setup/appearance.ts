/**
 * How an object's appearance (spec/setup.md §3: colour, opacity, surface / wireframe /
 * translucent, visibility) turns into what is drawn, as plain values.
 *
 * - The display mode decides. Opacity is the translucent mode's: a translucent object draws at
 *   its opacity, and at TRANSLUCENT_OPACITY when its opacity is 1 (which would hide what it
 *   holds). Surface draws opaque and wireframe draws the mesh's edges only, opaque, whatever the
 *   opacity: a person who picks Surface for a wall that started translucent (new walls start at
 *   opacity 0.35, domain/appearance.ts) sees a solid wall, and the opacity is kept for when it is
 *   made translucent again.
 * - A part showing its discretized particles draws its surface faintly (at most
 *   PARTICLES_SHOWN_SURFACE_OPACITY, in any mode but wireframe), so its own surface never hides
 *   them.
 *
 * Anything drawn at an opacity under 1 is drawn in the translucent pass: after every opaque
 * object, without writing depth, back to front by object (SetupView.orderForDrawing).
 */
import type { SetupAppearance } from '../../setupProtocol.ts'

/** Opacity of a translucent object whose own opacity is 1. */
export const TRANSLUCENT_OPACITY = 0.35

/** A part's surface while its particles show: a faint shell around them. */
export const PARTICLES_SHOWN_SURFACE_OPACITY = 0.12

/** What a mesh surface draws. */
export interface SurfaceStyle {
  /** 'surface': lit triangles; 'wireframe': edges only; 'hidden': nothing. */
  mode: 'surface' | 'wireframe' | 'hidden'
  /** 0 … 1. */
  opacity: number
  /** Drawn in the translucent pass (opacity under 1). */
  translucent: boolean
}

/** The appearance's opacity within 0 … 1 (not a number: opaque). */
function ownOpacity(appearance: SetupAppearance): number {
  const opacity = appearance.opacity
  return Number.isFinite(opacity) ? Math.min(1, Math.max(0, opacity)) : 1
}

/** The opacity an object draws at (its particles too), before any particles are shown. */
export function objectOpacity(appearance: SetupAppearance): number {
  if (!appearance.translucent || appearance.wireframe) return 1
  const opacity = ownOpacity(appearance)
  return opacity >= 1 ? TRANSLUCENT_OPACITY : opacity
}

/**
 * How a mesh surface is drawn. `particlesShown`: the object's discretized particles are drawn
 * now (its surface fades so they show).
 */
export function surfaceStyle(appearance: SetupAppearance, particlesShown: boolean): SurfaceStyle {
  const mode = !appearance.visible ? 'hidden' : appearance.wireframe ? 'wireframe' : 'surface'
  const own = objectOpacity(appearance)
  const opacity =
    particlesShown && mode === 'surface' ? Math.min(own, PARTICLES_SHOWN_SURFACE_OPACITY) : own
  return { mode, opacity, translucent: opacity < 1 }
}
