import type { OutputManifestList } from '../../../../../domain/rest/resultsRoutes.ts'
import type { ClippingPlane } from '../../../../../domain/results.ts'
export {
  MATERIAL_DISPLAY_LABELS,
  PART_VIEW_LABELS,
  type MaterialDisplayMode,
  type PartViewMode,
} from '../../../../../domain/results.ts'
import type { RenderSnapshot } from '../../../../../engine/protocol.ts'
import type { MaterialView, PartView } from '../../../../state/viewportAtoms.ts'

/** The results view draws walls translucent (a closed tank would hide its fluid) and open boundaries as surfaces. */
export function defaultPartView(kind: 'wall_boundary' | 'open_boundary'): PartView {
  return { visible: true, viewMode: kind === 'wall_boundary' ? 'translucent' : 'surface' }
}

/** A fluid is drawn as spheres unless told otherwise. */
export const DEFAULT_MATERIAL_VIEW: MaterialView = {
  visible: true,
  displayMode: 'particles_spheres',
}

/** Point sizes the fluid view mode dialog offers, CSS pixels (the engine's limits). */
export const POINT_SIZE_RANGE_PX = { min: 1, max: 64 } as const

/** An object of the outputs the view mode dialogs act on. */
export interface ViewObject {
  objectId: string
  name: string
  kind: 'fluid' | 'wall_boundary' | 'open_boundary'
}

/** Fluids and parts (walls, open boundaries) of the first output, by id, without duplicates. */
export function viewObjects(list: OutputManifestList): {
  fluids: ViewObject[]
  parts: ViewObject[]
} {
  const fluids: ViewObject[] = []
  const parts: ViewObject[] = []
  const seen = new Set<string>()
  for (const object of list.outputs[0]?.objects ?? []) {
    if (seen.has(object.objectId)) continue
    seen.add(object.objectId)
    if (object.kind === 'fluid') fluids.push({ ...object, kind: object.kind })
    else if (object.kind === 'wall_boundary' || object.kind === 'open_boundary')
      parts.push({ ...object, kind: object.kind })
  }
  return { fluids, parts }
}

/** The one value every item shares, or null when they differ (or there are none). */
export function sharedValue<T>(values: readonly T[]): T | null {
  const first = values[0]
  if (first === undefined) return null
  return values.every((value) => value === first) ? first : null
}

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

/** The file name of a saved image: '{simulation name} output {n}.png', safe for any file system. */
export function imageFileName(simulationName: string, outputNo: number | null): string {
  const printable = Array.from(simulationName, (char) => (char < ' ' ? '_' : char)).join('')
  const base = printable.replace(/[\\/:*?"<>|]+/g, '_').trim() || 'simulation'
  return outputNo === null ? `${base}.png` : `${base} output ${outputNo}.png`
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

/** The velocity columns the arrows follow. */
export const VELOCITY_COLUMNS: [string, string, string] = ['vx', 'vy', 'vz']

/** True when every fluid of the first output carries the velocity columns (the arrows need them). */
export function hasVelocityColumns(list: OutputManifestList): boolean {
  const fluids = list.outputs[0]?.objects.filter((object) => object.kind === 'fluid') ?? []
  return (
    fluids.length > 0 &&
    fluids.every((fluid) => VELOCITY_COLUMNS.every((column) => fluid.columns.includes(column)))
  )
}
