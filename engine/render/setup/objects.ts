/**
 * The setup objects as the UI posts them, diffed by id against the ones the engine holds: what
 * appeared, what went, and for what changed, whether its geometry, point cloud or keyframes must
 * be fetched again (spec/setup.md §4: a changed mesh blob hash triggers a refresh; an unchanged one
 * never refetches), and the selection-highlight colours.
 */
import type { SetupGeometry, SetupObjectView } from '../../setupProtocol.ts'

/** Identifies the bytes behind a geometry: equal keys need no refetch (a mesh: its hash). */
export function geometryKey(geometry: SetupGeometry): string {
  switch (geometry.type) {
    case 'mesh':
      return `mesh:${geometry.hash}`
    case 'box':
      return `box:${geometry.min.join()}:${geometry.max.join()}`
    case 'point':
      return `point:${geometry.position.join()}`
    case 'lines':
      return `lines:${geometry.positions.join()}`
    case 'none':
      return 'none'
  }
}

/** Identifies a point cloud's bytes (null: none). */
export function pointcloudKey(view: SetupObjectView): string | null {
  return view.pointcloud === null ? null : view.pointcloud.hash
}

/** Identifies a keyframe track: its hash and the timeline's end it is sampled to (null: none). */
export function keyframesKey(view: SetupObjectView, endTimeS: number | null): string | null {
  return view.keyframes === null ? null : `${view.keyframes.hash}@${endTimeS ?? 'auto'}`
}

/** One object that is in both lists. */
export interface SetupObjectChange {
  view: SetupObjectView
  geometryChanged: boolean
  pointcloudChanged: boolean
  keyframesChanged: boolean
}

/** What changed between the held objects and a new list. */
export interface SetupObjectDiff {
  added: SetupObjectView[]
  removed: string[]
  changed: SetupObjectChange[]
}

/**
 * Diffs by id. `previousEndTimeS` and `endTimeS` are the timeline ends of the two lists (a new end
 * resamples keyframe tracks). A repeated id in `next` keeps its last entry.
 */
export function diffSetupObjects(
  previous: ReadonlyMap<string, SetupObjectView>,
  next: readonly SetupObjectView[],
  previousEndTimeS: number | null,
  endTimeS: number | null,
): SetupObjectDiff {
  const byId = new Map(next.map((view) => [view.id, view]))
  const diff: SetupObjectDiff = { added: [], removed: [], changed: [] }
  for (const id of previous.keys()) if (!byId.has(id)) diff.removed.push(id)
  for (const view of byId.values()) {
    const old = previous.get(view.id)
    if (old === undefined) {
      diff.added.push(view)
      continue
    }
    diff.changed.push({
      view,
      geometryChanged: geometryKey(old.geometry) !== geometryKey(view.geometry),
      pointcloudChanged: pointcloudKey(old) !== pointcloudKey(view),
      keyframesChanged: keyframesKey(old, previousEndTimeS) !== keyframesKey(view, endTimeS),
    })
  }
  return diff
}

/** Highlight colours: the preferred one, or the alternative when the object's colour is close to it. */
export const HIGHLIGHT_COLOURS = {
  selected: { preferred: '#ff8c00', alternative: '#1c7ed6' },
  hovered: { preferred: '#15aabf', alternative: '#d6336c' },
} as const

/** Closer than this (RGB distance of 0–255 components) and a highlight would not stand out. */
const MIN_HIGHLIGHT_DISTANCE = 110

function parseHex(hex: string): [number, number, number] | null {
  const match = /^#([0-9a-f]{6})$/i.exec(hex)
  if (match === null) return null
  const value = parseInt(match[1]!, 16)
  return [(value >> 16) & 255, (value >> 8) & 255, value & 255]
}

/**
 * The highlight colour for an object of colour `colour` ('#rrggbb'): visible on any colour, since
 * the alternative is taken when the object's colour is near the preferred highlight.
 */
export function highlightColour(colour: string, kind: keyof typeof HIGHLIGHT_COLOURS): string {
  const { preferred, alternative } = HIGHLIGHT_COLOURS[kind]
  const own = parseHex(colour)
  const wanted = parseHex(preferred)!
  if (own === null) return preferred
  const distance = Math.hypot(own[0] - wanted[0], own[1] - wanted[1], own[2] - wanted[2])
  return distance < MIN_HIGHLIGHT_DISTANCE ? alternative : preferred
}
