import {
  FLUID_COMPONENT_TYPES,
  type ComponentUpdate,
  type Part,
  type ShapeUpdate,
} from '../../../../../../domain/parts.ts'
import type { LooseVec3 } from '../../../../../../domain/vector.ts'
import { parseObjectId, type PartFolder, type SetupObjectId } from '../../state/setupAtoms.ts'

/** What the part form shows for a value of several parts: theirs, or null and mixed. */
export interface Shared<T> {
  value: T | null
  mixed: boolean
}

/** Shown in a field whose selected parts differ. */
export const MIXED_PLACEHOLDER = 'Mixed'

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/** The parts of the selection, in selection order (ids of other kinds and unknown parts skipped). */
export function selectedParts(selection: readonly SetupObjectId[], parts: readonly Part[]): Part[] {
  return selection.flatMap((value) => {
    const { kind, id } = parseObjectId(value)
    const part = kind === 'part' ? parts.find((p) => p.id === id) : undefined
    return part ? [part] : []
  })
}

/** One value of the selected parts: the common one, or null and mixed. */
export function shared<T>(parts: readonly Part[], get: (part: Part) => T): Shared<T> {
  const first = parts[0]
  if (!first) return { value: null, mixed: false }
  const value = get(first)
  return parts.every((p) => same(get(p), value))
    ? { value, mixed: false }
    : { value: null, mixed: true }
}

/** A vector of the selected parts, component by component: null where they differ. */
export function sharedVector(
  parts: readonly Part[],
  get: (part: Part) => LooseVec3 | null,
): Shared<LooseVec3> {
  const vectors = parts.map(get)
  const first = vectors[0]
  if (!first) return { value: null, mixed: vectors.length > 1 && vectors.some((v) => v !== null) }
  let mixed = false
  const value = first.map((c, i) => {
    if (vectors.every((v) => v !== null && v[i] === c)) return c
    mixed = true
    return null
  }) as LooseVec3
  return { value, mixed }
}

/**
 * A vector edit for one part: the components the person changed (those differing from what the
 * form showed) replace the part's own; the others keep theirs, mixed or not.
 */
export function mergeVectorEdit(
  own: LooseVec3 | null,
  shown: LooseVec3 | null,
  next: LooseVec3,
): LooseVec3 {
  const base = own ?? [null, null, null]
  return base.map((c, i) => (next[i] !== (shown?.[i] ?? null) ? next[i] : c)) as LooseVec3
}

/** A component change in an update body: the part's own component type and the changed fields. */
export function componentUpdate(part: Part, fields: Record<string, unknown>): ComponentUpdate {
  return { type: part.component.type, ...fields }
}

/** A shape change in an update body: the part's own shape type and the changed fields. */
export function shapeUpdate(part: Part, fields: Record<string, unknown>): ShapeUpdate {
  return { type: part.shape.type, ...fields }
}

/** True when every selected part holds fluid (filling, flow, open boundary). */
export function allFluid(parts: readonly Part[]): boolean {
  return parts.length > 0 && parts.every((p) => FLUID_COMPONENT_TYPES.includes(p.component.type))
}

/** Why a part's geometry and appearance cannot be edited here (point clouds come from a run). */
export const POINTCLOUD_NOT_EDITABLE = 'Point cloud parts cannot be edited.'
/** Motion and Information show one part at a time. */
export const SINGLE_PART_ONLY = 'Select a single part to see this folder.'
/** Initial conditions are fixed while an initial preset is set. */
export const INITIAL_PRESET_SET = 'Initial conditions are set by the initial preset.'

/**
 * Whether a folder of the part form can be opened for the selection (spec/setup.md §2): Motion and
 * Information not for a multi-selection; Geometry and Appearance not for point cloud parts;
 * Initial Conditions not for parts with an initial preset. The secondary toolbar can use it too.
 */
export function partFolderState(
  parts: readonly Pick<Part, 'shape' | 'component'>[],
  folder: PartFolder,
): { disabled: boolean; reason: string | null } {
  const many = parts.length > 1
  if ((folder === 'motion' || folder === 'information') && many)
    return { disabled: true, reason: SINGLE_PART_ONLY }
  if (
    (folder === 'geometry' || folder === 'appearance') &&
    parts.some((p) => p.shape.type === 'pointcloud')
  )
    return { disabled: true, reason: POINTCLOUD_NOT_EDITABLE }
  if (folder === 'initial_conditions' && parts.some((p) => p.component.initialPreset !== null))
    return { disabled: true, reason: INITIAL_PRESET_SET }
  return { disabled: false, reason: null }
}
