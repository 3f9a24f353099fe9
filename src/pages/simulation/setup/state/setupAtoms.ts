import { atom } from 'jotai'
import type { SetupTool } from '../../../../../engine/setupProtocol.ts'

/*
 * The Setup view's UI state. Server state (parts, materials, settings …) lives in react-query;
 * the engine's state lives in the render worker and reaches the UI as snapshots.
 */

/**
 * Object ids, as the explorer and the 3D view name them: 'part:12', 'sensor:3', 'volume_clip:4',
 * 'refinement:2', 'material:0', and the single items 'coordinate_system', 'calc_domain',
 * 'periodic_boundary', 'air_drag_domain'.
 */
export type SetupObjectId = string

/** The id of a part, sensor, … ('part:12'). */
export function objectId(kind: string, id: number): SetupObjectId {
  return `${kind}:${id}`
}

/** The kind and numeric id of an object id ('part:12' → { kind: 'part', id: 12 }); id null for single items. */
export function parseObjectId(value: SetupObjectId): { kind: string; id: number | null } {
  const colon = value.indexOf(':')
  if (colon < 0) return { kind: value, id: null }
  const id = Number(value.slice(colon + 1))
  return { kind: value.slice(0, colon), id: Number.isInteger(id) ? id : null }
}

/** The selected objects, in the order they were selected. */
export const setupSelectionAtom = atom<readonly SetupObjectId[]>([])
setupSelectionAtom.debugLabel = 'setupSelectionAtom'

/** Folders of the part form (spec/setup.md §2 secondary toolbar, §3 attribute groups). */
export const PART_FOLDERS = [
  'geometry',
  'material',
  'boundary_conditions',
  'initial_conditions',
  'motion',
  'appearance',
  'information',
] as const
/** One folder of the part form. */
export type PartFolder = (typeof PART_FOLDERS)[number]

/** Labels of the part folders, as the secondary toolbar shows them. */
export const PART_FOLDER_LABELS: Record<PartFolder, string> = {
  geometry: 'Geometry',
  material: 'Material',
  boundary_conditions: 'Boundary Conditions',
  initial_conditions: 'Initial Conditions',
  motion: 'Motion',
  appearance: 'Appearance',
  information: 'Information',
}

/**
 * The side forms of spec/setup.md §2. `part` edits the selected parts (one folder at a time),
 * `addPart` creates one of a component kind, `motion` lists and edits a part's movements.
 */
export type SideForm =
  | { kind: 'coordinateSystem' }
  | { kind: 'part'; folder: PartFolder }
  | { kind: 'addPart'; component: 'rigid' | 'filling' | 'openboundary' }
  | { kind: 'material'; materialId: number | null }
  | { kind: 'motion' }
  | { kind: 'movingBoundaryCondition' }
  | { kind: 'calcDomain' }
  | { kind: 'airDragDomain' }
  | { kind: 'periodicBoundary' }
  | { kind: 'refinement'; refinementId: number }
  | { kind: 'settings' }
  | { kind: 'physics' }
/** One side form kind. */
export type SideFormKind = SideForm['kind']

/** Big forms take the wide column, small forms the narrow one (spec/setup.md §2). */
export const BIG_SIDE_FORMS: readonly SideFormKind[] = [
  'part',
  'addPart',
  'material',
  'motion',
  'settings',
  'physics',
  'movingBoundaryCondition',
]

/** The open side form (null: none). */
export const sideFormAtom = atom<SideForm | null>(null)
sideFormAtom.debugLabel = 'sideFormAtom'

/** The gizmo tool of the 3D view (keys t and r). */
export const setupToolAtom = atom<SetupTool>('select')
setupToolAtom.debugLabel = 'setupToolAtom'

/** The movement timeline's playback settings (the time itself is the engine's). */
export const movementPlaybackAtom = atom<{ speed: number; loop: boolean }>({
  speed: 1,
  loop: false,
})
movementPlaybackAtom.debugLabel = 'movementPlaybackAtom'

/** The sensor or volume clip dialog open over the Setup view (the results explorer's dialogs); id null: adding. */
export type SetupObjectDialog =
  { kind: 'sensor'; sensorId: number | null } | { kind: 'volumeClip'; clipId: number | null }

/** The open sensor or volume clip dialog (null: none). */
export const setupObjectDialogAtom = atom<SetupObjectDialog | null>(null)
setupObjectDialogAtom.debugLabel = 'setupObjectDialogAtom'

/**
 * The CAD assembly import wizard (spec/setup.md §2), when open: the file it organizes (null until
 * one is uploaded or chosen) and its step.
 */
export interface AssemblyWizardState {
  assemblyId: number | null
  step: 'organize' | 'tessellate'
}

/** The open assembly import wizard (null: closed). */
export const assemblyWizardAtom = atom<AssemblyWizardState | null>(null)
assemblyWizardAtom.debugLabel = 'assemblyWizardAtom'
