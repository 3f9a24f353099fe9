import type { ClippingPlane } from '../../../../domain/results.ts'
import type { RenderSnapshot } from '../../../../engine/protocol.ts'

/*
 * The pure rules of the viewport chrome shared by the Results and Setup views: the clipping
 * plane's placement and arrow-key nudges, and the scale bar's label.
 */

/** The extent of the shown output along a clip axis, metres (null: nothing shown yet). */
export function clipAxisExtent(
  bounds: RenderSnapshot['bounds'],
  axis: ClippingPlane['axis'],
): { min: number; max: number } | null {
  if (!bounds) return null
  const index = axis === 'x' ? 0 : axis === 'y' ? 1 : 2
  const min = bounds.min[index]
  const max = bounds.max[index]
  if (min === undefined || max === undefined || !Number.isFinite(min) || !Number.isFinite(max))
    return null
  return { min, max }
}

/**
 * The clip when it is switched on for the first time (spec/results.md §4: the first enabling triggers a
 * one-time action): a plane left at its default offset moves to the middle of the output along its axis,
 * so switching it on visibly cuts the model in half.
 */
export function firstEnabledClip(
  clip: ClippingPlane,
  bounds: RenderSnapshot['bounds'],
): ClippingPlane {
  const extent = clipAxisExtent(bounds, clip.axis)
  if (clip.offsetM !== 0 || extent === null) return { ...clip, enabled: true }
  return { ...clip, enabled: true, offsetM: roundOffset((extent.min + extent.max) / 2) }
}

/** Offsets are shown and stepped to the millimetre. */
export function roundOffset(offsetM: number): number {
  return Math.round(offsetM * 1000) / 1000
}

/** A scale bar's length as read: '2 m', '50 cm', '5 mm', '0.1 mm', '10 km'. */
export function formatScaleLength(lengthM: number): string {
  const trim = (value: number) => String(Number(value.toPrecision(6)))
  if (lengthM >= 1000) return `${trim(lengthM / 1000)} km`
  if (lengthM >= 1) return `${trim(lengthM)} m`
  if (lengthM >= 0.01) return `${trim(lengthM * 100)} cm`
  return `${trim(lengthM * 1000)} mm`
}

/** What the arrow keys do to the clipping plane: move it along its axis, or turn it to the next axis. */
export const CLIP_TRANSFORM_MODES = ['translate', 'rotate'] as const
/** One clip transform mode (keys t and r). */
export type ClipTransformMode = (typeof CLIP_TRANSFORM_MODES)[number]

/** Keys that choose the clip transform mode (spec/results.md §4). */
export const CLIP_MODE_KEYS: Record<string, ClipTransformMode> = { t: 'translate', r: 'rotate' }

/** An arrow key moves the plane by this share of the output's extent along its axis. */
export const CLIP_NUDGE_FRACTION = 0.02
/** …or by this much when nothing is shown yet, metres. */
export const CLIP_NUDGE_FALLBACK_M = 0.01

/**
 * The clip after an arrow key in a transform mode: translate moves the plane along its axis (up and
 * right forwards), rotate turns it to the next axis (x → y → z, left and down backwards). Other keys: null.
 */
export function nudgeClip(
  clip: ClippingPlane,
  mode: ClipTransformMode,
  key: string,
  bounds: RenderSnapshot['bounds'],
): ClippingPlane | null {
  const forwards = key === 'ArrowUp' || key === 'ArrowRight'
  const backwards = key === 'ArrowDown' || key === 'ArrowLeft'
  if (!forwards && !backwards) return null
  const sign = forwards ? 1 : -1
  if (mode === 'rotate') {
    const axes = ['x', 'y', 'z'] as const
    const next = axes[(axes.indexOf(clip.axis) + sign + axes.length) % axes.length] ?? 'x'
    return { ...clip, axis: next }
  }
  const extent = clipAxisExtent(bounds, clip.axis)
  const span = extent === null ? 0 : extent.max - extent.min
  const step = span > 0 ? span * CLIP_NUDGE_FRACTION : CLIP_NUDGE_FALLBACK_M
  return { ...clip, offsetM: roundOffset(clip.offsetM + sign * step) }
}
