import type { Part } from '../../../../../domain/parts.ts'
import { FLUID_COMPONENT_TYPES } from '../../../../../domain/parts.ts'
import type { SimulationState } from '../../../../../domain/simulationState.ts'
import { SETTINGS_MESSAGES } from '../../../../../domain/settingsMessages.ts'
import {
  canAddDomainBoundary,
  canAddRefinement,
  canEnableAirDrag,
} from '../../../../../domain/settingsTransitions.ts'
import type { Vec3 } from '../../../../../domain/vector.ts'
import { sensorEditBlocker } from '../explorer/openObject.ts'
import { partFolderState } from '../forms/part/partSelection.ts'
import { PART_FOLDERS, type PartFolder, type SideForm } from '../state/setupAtoms.ts'

/*
 * The Setup toolbar's rules (spec/setup.md §2): which Add menu entries can be used and why not,
 * which part folders the selection allows, and the box a new deletion boundary starts with.
 */

/** The entries of the Add menu, in order; Physics and Settings come after a separator. */
export const ADD_ENTRY_KEYS = [
  'solid',
  'fluid',
  'inlet_outlet',
  'refinement',
  'sensor',
  'volume_clip',
  'domain_boundary',
  'air_drag',
  'periodic',
  'physics',
  'settings',
] as const
/** One Add menu entry. */
export type AddEntryKey = (typeof ADD_ENTRY_KEYS)[number]

/** Labels of the Add menu entries (spec/setup.md §2 "Add menu"). */
export const ADD_ENTRY_LABELS: Record<AddEntryKey, string> = {
  solid: 'Solid',
  fluid: 'Fluid',
  inlet_outlet: 'Inlet Outlet',
  refinement: 'Refinement Zone',
  sensor: 'Sensor',
  volume_clip: 'Volume Clip',
  domain_boundary: 'Domain Boundary',
  air_drag: 'Air drag domain',
  periodic: 'Periodic Boundary',
  physics: 'Physics',
  settings: 'Settings',
}

/** Why an Add menu entry is disabled (the tooltip). */
export const ADD_DISABLED_REASONS = {
  refinementMultiphase: SETTINGS_MESSAGES.multiphaseRefinement,
  domainBoundaryExists: 'A deletion boundary already exists.',
  airDragMultiphase: SETTINGS_MESSAGES.multiphaseAirDrag,
  airDragActive: 'Air drag is already active.',
  periodicExists: 'The periodic boundary already exists.',
} as const

/** One entry of the Add menu and why it cannot be used (null: it can). */
export interface AddEntry {
  key: AddEntryKey
  label: string
  disabledReason: string | null
}

/** What the Add menu's rules look at. */
export interface AddMenuContext {
  /** Whether the setup may be edited, and why not (the locked hint). */
  setup: { editable: boolean; reason: string | null }
  state: SimulationState
  settings: { multiphase: boolean; airDrag: boolean }
  /** A deletion boundary (calculation domain) is active. */
  calcDomainActive: boolean
  /** The setup has its periodic boundary. */
  periodicExists?: boolean
}

/**
 * The Add menu (spec/setup.md §2): parts (Solid, Fluid, Inlet Outlet) while the setup is editable;
 * Refinement Zone not with multiphase on; Sensor and Volume Clip not while the simulation is
 * running or scheduled; Domain Boundary not when one exists; Air drag not with multiphase on or
 * when already active; Periodic Boundary not when one exists; Physics and Settings always (their
 * forms show the lock).
 */
export function addMenuEntries(context: AddMenuContext): AddEntry[] {
  const locked = context.setup.editable ? null : context.setup.reason
  const reasons: Record<AddEntryKey, string | null> = {
    solid: locked,
    fluid: locked,
    inlet_outlet: locked,
    refinement:
      locked ??
      (canAddRefinement(context.settings) ? null : ADD_DISABLED_REASONS.refinementMultiphase),
    sensor: sensorEditBlocker(context, context.setup),
    volume_clip: sensorEditBlocker(context, context.setup),
    domain_boundary:
      locked ??
      (canAddDomainBoundary({ calcDomainActive: context.calcDomainActive })
        ? null
        : ADD_DISABLED_REASONS.domainBoundaryExists),
    air_drag:
      locked ??
      (canEnableAirDrag(context.settings)
        ? null
        : context.settings.multiphase
          ? ADD_DISABLED_REASONS.airDragMultiphase
          : ADD_DISABLED_REASONS.airDragActive),
    periodic: locked ?? (context.periodicExists ? ADD_DISABLED_REASONS.periodicExists : null),
    physics: null,
    settings: null,
  }
  return ADD_ENTRY_KEYS.map((key) => ({
    key,
    label: ADD_ENTRY_LABELS[key],
    disabledReason: reasons[key] ?? null,
  }))
}

/** The side form an entry opens (null: it does something else). */
export function formOfAddEntry(key: AddEntryKey): SideForm | null {
  switch (key) {
    case 'solid':
      return { kind: 'addPart', component: 'rigid' }
    case 'fluid':
      return { kind: 'addPart', component: 'filling' }
    case 'inlet_outlet':
      return { kind: 'addPart', component: 'openboundary' }
    case 'physics':
      return { kind: 'physics' }
    case 'settings':
      return { kind: 'settings' }
    default:
      return null
  }
}

/** Why the Material folder is off for a selection with a wall. */
export const MATERIAL_FLUIDS_ONLY = 'Only fluid parts and inlets/outlets have a material.'
/** Why the Boundary Conditions folder is off for fluids or mixed roles. */
export const BOUNDARY_CONDITIONS_ONLY =
  'Boundary conditions belong to solids or to inlets/outlets (one kind at a time).'

/** Whether a folder of the secondary toolbar can be opened, and why not. */
export interface FolderState {
  folder: PartFolder
  disabled: boolean
  reason: string | null
}

/**
 * The folders of the secondary toolbar for the selected parts (spec/setup.md §2): the part form's
 * own rules (Motion and Information not for a multi-selection, Geometry and Appearance not when the
 * selection cannot be edited, Initial Conditions not with an initial preset), Material only for
 * fluid parts, Boundary Conditions only for solids or for inlets/outlets.
 */
export function folderStates(parts: readonly Pick<Part, 'shape' | 'component'>[]): FolderState[] {
  return PART_FOLDERS.map((folder) => {
    const own = partFolderState(parts, folder)
    if (own.disabled) return { folder, ...own }
    if (
      folder === 'material' &&
      !parts.every((p) => FLUID_COMPONENT_TYPES.includes(p.component.type))
    )
      return { folder, disabled: true, reason: MATERIAL_FLUIDS_ONLY }
    if (folder === 'boundary_conditions') {
      const types = new Set(parts.map((p) => p.component.type))
      const single = types.size === 1 ? [...types][0] : undefined
      if (single !== 'rigid' && single !== 'openboundary')
        return { folder, disabled: true, reason: BOUNDARY_CONDITIONS_ONLY }
    }
    return { folder, disabled: false, reason: null }
  })
}

/** The form a folder opens: the part form at that folder, or the motion form. */
export function formOfFolder(folder: PartFolder): SideForm {
  return folder === 'motion' ? { kind: 'motion' } : { kind: 'part', folder }
}

/** A new deletion boundary reaches this share of the parts' largest extent beyond them. */
export const DOMAIN_MARGIN_FRACTION = 0.1
/** The box of a new deletion boundary when no part has a size yet, metres. */
export const DEFAULT_DOMAIN_BOX: { min: Vec3; max: Vec3 } = { min: [-1, -1, -1], max: [1, 1, 1] }

/** Rounds outwards to the millimetre (so the box reads as people write it). */
const floorMm = (value: number) => Math.floor(Math.round(value * 1e6) / 1e3) / 1e3
const ceilMm = (value: number) => Math.ceil(Math.round(value * 1e6) / 1e3) / 1e3

/**
 * The box a new deletion boundary starts with: the parts' bounding boxes (placed, from the
 * server's shape info) and a margin of a tenth of their largest extent, rounded outwards to the
 * millimetre; DEFAULT_DOMAIN_BOX when no part has a size yet.
 */
export function domainBoxAround(parts: readonly Pick<Part, 'shape'>[]): { min: Vec3; max: Vec3 } {
  const boxes = parts.flatMap((p) => (p.shape.info ? [p.shape.info.boundingBox] : []))
  if (boxes.length === 0) return DEFAULT_DOMAIN_BOX
  const min: Vec3 = [Infinity, Infinity, Infinity]
  const max: Vec3 = [-Infinity, -Infinity, -Infinity]
  for (const box of boxes)
    for (let i = 0; i < 3; i++) {
      min[i] = Math.min(min[i] as number, box.min[i] as number)
      max[i] = Math.max(max[i] as number, box.max[i] as number)
    }
  const extent = Math.max(...max.map((m, i) => m - (min[i] as number)))
  const margin = extent > 0 ? extent * DOMAIN_MARGIN_FRACTION : 0.1
  return {
    min: min.map((m) => floorMm(m - margin)) as Vec3,
    max: max.map((m) => ceilMm(m + margin)) as Vec3,
  }
}
