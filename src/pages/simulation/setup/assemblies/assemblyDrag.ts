import { ASSEMBLY_WIZARD } from '../../../../../domain/tessellation.ts'

/*
 * Dragging tree nodes onto a part or the create area (spec/setup.md §2): the drag starts once the
 * pointer moved 6 px (a click or a double click stays one), and the overlay under the pointer names
 * 6 of the dragged nodes, then '+N more'.
 */

/** A point on screen, in CSS pixels. */
export interface ScreenPoint {
  x: number
  y: number
}

/** Whether a press moved far enough to become a drag (6 px, ASSEMBLY_WIZARD.dragThresholdPx). */
export function passedDragThreshold(
  from: ScreenPoint,
  to: ScreenPoint,
  thresholdPx: number = ASSEMBLY_WIZARD.dragThresholdPx,
): boolean {
  return Math.hypot(to.x - from.x, to.y - from.y) >= thresholdPx
}

/** What the drag overlay shows: up to 6 names, then '+N more' for the rest. */
export function dragOverlayLines(
  names: readonly string[],
  shown: number = ASSEMBLY_WIZARD.dragOverlayItems,
): { names: string[]; more: string | null } {
  const rest = names.length - shown
  return { names: names.slice(0, shown), more: rest > 0 ? `+${rest} more` : null }
}

/**
 * The nodes a drag carries: every checked node when it starts on a checked one, else just the
 * node it starts on.
 */
export function draggedNodeIds(
  startId: string,
  checked: ReadonlySet<string>,
  topChecked: readonly string[],
): string[] {
  return checked.has(startId) && topChecked.length > 0 ? [...topChecked] : [startId]
}

/** Where a drag can end: on a part of the list (nodes added to it) or on the create area. */
export type DropTarget = { kind: 'part'; partId: number } | { kind: 'create' }

/** The attribute drop targets carry: 'part:12' or 'create'. */
export const DROP_TARGET_ATTRIBUTE = 'data-assembly-drop'

/** The drop target an element is in (by its `data-assembly-drop`), or null. */
export function dropTargetOf(element: Element | null): DropTarget | null {
  const value = element?.closest(`[${DROP_TARGET_ATTRIBUTE}]`)?.getAttribute(DROP_TARGET_ATTRIBUTE)
  if (value === 'create') return { kind: 'create' }
  const part = /^part:(\d+)$/.exec(value ?? '')
  return part ? { kind: 'part', partId: Number(part[1]) } : null
}

/** The `data-assembly-drop` value of a target. */
export function dropTargetValue(target: DropTarget): string {
  return target.kind === 'create' ? 'create' : `part:${target.partId}`
}
