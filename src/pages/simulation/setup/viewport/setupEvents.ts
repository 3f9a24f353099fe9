import type { Part } from '../../../../../domain/parts.ts'
import type { Vec3 } from '../../../../../domain/vector.ts'
import type { SetupEvent } from '../../../../../engine/setupProtocol.ts'
import { parseObjectId, type SetupObjectId } from '../state/setupAtoms.ts'
import type { PlacePart } from './usePlacePartMutation.ts'

/** What the page does about something a person did in the 3D view. */
export type SetupViewAction =
  | { type: 'select'; ids: SetupObjectId[] }
  | { type: 'open'; id: SetupObjectId }
  | { type: 'place'; place: PlacePart }

/** The part behind a view id ('part:12'), if it is one of `parts`. */
function partOf(id: string, parts: readonly Part[]): Part | undefined {
  const { kind, id: partId } = parseObjectId(id)
  return kind === 'part' ? parts.find((p) => p.id === partId) : undefined
}

/**
 * The actions of a setup event (engine/setupProtocol.ts SetupEvent):
 * - click: selects the object (with a modifier: adds or removes it); on empty space clears the
 *   selection (with a modifier: keeps it);
 * - double click: selects the object and opens its form;
 * - transform (a finished gizmo drag): saves the part's translation and rotation;
 * - seed_point (a finished seed-point drag): saves the part's seed point.
 * Events about parts that are gone do nothing.
 */
export function setupViewActions(
  event: SetupEvent,
  selection: readonly SetupObjectId[],
  parts: readonly Part[],
): SetupViewAction[] {
  switch (event.type) {
    case 'click': {
      if (event.id === null) return event.additive ? [] : [{ type: 'select', ids: [] }]
      const id = event.id
      if (!event.additive) return [{ type: 'select', ids: [id] }]
      const ids = selection.includes(id) ? selection.filter((s) => s !== id) : [...selection, id]
      return [{ type: 'select', ids }]
    }
    case 'double_click':
      return [
        { type: 'select', ids: [event.id] },
        { type: 'open', id: event.id },
      ]
    case 'transform': {
      const part = partOf(event.id, parts)
      if (!part) return []
      const translation: Vec3 = [...event.translation]
      const rotation: Vec3 = [...event.rotationDeg]
      return [
        {
          type: 'place',
          place: {
            partId: part.id,
            kind: 'geometry',
            update: { shape: { type: part.shape.type, translation, rotation } },
          },
        },
      ]
    }
    case 'seed_point': {
      const part = partOf(event.id, parts)
      if (!part) return []
      const seedPoint: Vec3 = [...event.position]
      return [
        { type: 'place', place: { partId: part.id, kind: 'seed_point', update: { seedPoint } } },
      ]
    }
  }
}
