import type { Material } from '../../../../../domain/materials.ts'
import type { Refinement, Sensor, VolumeClip } from '../../../../../domain/meshes.ts'
import { PART_MESSAGES, type Part } from '../../../../../domain/parts.ts'
import type { CalcDomain } from '../../../../../domain/rest/setupRoutes.ts'
import { objectId, type SetupObjectId } from '../state/setupAtoms.ts'

/*
 * The Setup explorer's pure rules: which entries it lists and how they are grouped, what a click
 * (plain, ctrl/meta, shift) does to the selection, and the warnings of a part.
 */

/** The roles parts are grouped by (spec/setup.md §1 building blocks). */
export type PartRole = 'solid' | 'fluid' | 'inlet_outlet' | 'refinement'

/** Group headings of the parts section. */
export const PART_ROLE_LABELS: Record<Exclude<PartRole, 'refinement'>, string> = {
  solid: 'Solids',
  fluid: 'Fluids',
  inlet_outlet: 'Inlets/Outlets',
}

/** A part's role by its component: rigid walls, fluids (filling, flow), open boundaries, refinement. */
export function partRoleOf(part: Pick<Part, 'component'>): PartRole {
  switch (part.component.type) {
    case 'rigid':
      return 'solid'
    case 'filling':
    case 'flow':
      return 'fluid'
    case 'openboundary':
      return 'inlet_outlet'
    case 'refinement':
      return 'refinement'
  }
}

/** Names of the single items. */
export const SPECIAL_ITEM_NAMES = {
  coordinate_system: 'Coordinate System',
  calc_domain: 'Deletion Boundary',
  periodic_boundary: 'Periodic Boundary',
  air_drag_domain: 'Air Drag Domain',
} as const

/** Status of a single item the setup does not have. */
export const NOT_DEFINED = 'Not defined'
/** Shown in the refinements section while there are none. */
export const NO_REFINEMENTS = 'None'

/** One row of the explorer. */
export interface ExplorerEntry {
  id: SetupObjectId
  name: string
  /** Can be selected (and opened); false for items this server cannot store. */
  selectable: boolean
  /** A short state shown beside the name ('Not defined', 'Active'). */
  status: string | null
}

/** The explorer's sections, in the order shown. */
export interface ExplorerSections {
  coordinateSystem: ExplorerEntry
  /** Parts by role (refinement parts are listed under refinements). */
  parts: Record<Exclude<PartRole, 'refinement'>, ExplorerEntry[]>
  materials: ExplorerEntry[]
  refinements: ExplorerEntry[]
  sensors: ExplorerEntry[]
  volumeClips: ExplorerEntry[]
  special: ExplorerEntry[]
}

/** What the explorer lists. */
export interface ExplorerInput {
  parts: readonly Part[]
  materials: readonly Material[]
  sensors: readonly Sensor[]
  volumeClips: readonly VolumeClip[]
  calcDomain: CalcDomain | undefined
  /** simulation.settings.airDrag: air drag is switched on (its domain is then listed). */
  airDrag: boolean
  /** Refinement zones (GET /simulations/{id}/refinements). */
  refinementZones?: readonly Pick<Refinement, 'id' | 'name'>[]
  /** The periodic boundary, when the setup has one. */
  periodic?: { id: number } | null
}

const entry = (id: SetupObjectId, name: string, status: string | null = null): ExplorerEntry => ({
  id,
  name,
  selectable: true,
  status,
})

/** Groups the setup's objects into the explorer's sections. */
export function explorerSections(input: ExplorerInput): ExplorerSections {
  const parts: ExplorerSections['parts'] = { solid: [], fluid: [], inlet_outlet: [] }
  const refinements: ExplorerEntry[] = []
  for (const part of input.parts) {
    const role = partRoleOf(part)
    const row = entry(objectId('part', part.id), part.name)
    if (role === 'refinement') refinements.push(row)
    else parts[role].push(row)
  }
  for (const zone of input.refinementZones ?? [])
    refinements.push(entry(objectId('refinement', zone.id), zone.name))
  const domainActive = input.calcDomain?.active ?? false
  return {
    coordinateSystem: entry('coordinate_system', SPECIAL_ITEM_NAMES.coordinate_system),
    parts,
    materials: input.materials.map((m) => entry(objectId('material', m.id), m.name)),
    refinements,
    sensors: input.sensors.map((s) => entry(objectId('sensor', s.id), s.name)),
    volumeClips: input.volumeClips.map((c) => entry(objectId('volume_clip', c.id), c.name)),
    special: [
      entry('calc_domain', SPECIAL_ITEM_NAMES.calc_domain, domainActive ? 'Active' : NOT_DEFINED),
      {
        id: 'periodic_boundary',
        name: SPECIAL_ITEM_NAMES.periodic_boundary,
        selectable: Boolean(input.periodic),
        status: input.periodic ? 'Active' : NOT_DEFINED,
      },
      {
        id: 'air_drag_domain',
        name: SPECIAL_ITEM_NAMES.air_drag_domain,
        selectable: input.airDrag,
        status: input.airDrag ? 'Active' : NOT_DEFINED,
      },
    ],
  }
}

/** Every selectable entry in the order shown (arrow keys and shift ranges walk it). */
export function orderedEntries(sections: ExplorerSections): ExplorerEntry[] {
  return [
    sections.coordinateSystem,
    ...sections.parts.solid,
    ...sections.parts.fluid,
    ...sections.parts.inlet_outlet,
    ...sections.materials,
    ...sections.refinements,
    ...sections.sensors,
    ...sections.volumeClips,
    ...sections.special,
  ].filter((e) => e.selectable)
}

/** How a click changes the selection: plain replaces, ctrl/meta toggles, shift selects a range. */
export type SelectMode = 'replace' | 'toggle' | 'range'

/** The mode of a pointer or key event's modifiers (shift wins over ctrl/meta). */
export function selectModeOf(event: {
  shiftKey: boolean
  ctrlKey: boolean
  metaKey: boolean
}): SelectMode {
  if (event.shiftKey) return 'range'
  if (event.ctrlKey || event.metaKey) return 'toggle'
  return 'replace'
}

/**
 * The selection after a click on `id`. Toggle adds or removes it; range selects every entry from
 * `anchor` (the last plainly or ctrl-clicked entry) to `id` in list order, the anchor first; with
 * no anchor in the list a range is just `id`.
 */
export function nextSelection(
  selection: readonly SetupObjectId[],
  ordered: readonly SetupObjectId[],
  id: SetupObjectId,
  mode: SelectMode,
  anchor: SetupObjectId | null,
): SetupObjectId[] {
  if (mode === 'toggle')
    return selection.includes(id) ? selection.filter((s) => s !== id) : [...selection, id]
  if (mode === 'range') {
    const from = anchor === null ? -1 : ordered.indexOf(anchor)
    const to = ordered.indexOf(id)
    if (from < 0 || to < 0) return [id]
    const step = from <= to ? 1 : -1
    const range: SetupObjectId[] = []
    for (let i = from; i !== to + step; i += step) range.push(ordered[i] as SetupObjectId)
    return range
  }
  return [id]
}

/** The entry `offset` steps from `current` in list order, clamped to the ends. */
export function neighbourOf(
  ordered: readonly SetupObjectId[],
  current: SetupObjectId | null,
  offset: number,
): SetupObjectId | null {
  if (ordered.length === 0) return null
  const index = current === null ? -1 : ordered.indexOf(current)
  if (index < 0) return ordered[offset >= 0 ? 0 : ordered.length - 1] ?? null
  return ordered[Math.min(ordered.length - 1, Math.max(0, index + offset))] ?? null
}

/**
 * What a part warns about: 'Part has potential issues. Check Information tab for details.' when
 * its mesh has holes or non-manifold edges (not a plane's: open by design, as the server's
 * geometryWarnings has it) or the server flags it, the server's warnings, and the latest
 * discretization's errors and warnings about it (`discretizationMessages`), each once.
 */
export function partWarnings(
  part: Pick<Part, 'hasWarnings' | 'warnings' | 'shape'>,
  discretizationMessages: readonly { description: string }[] = [],
): string[] {
  const info = part.shape.info
  const meshIssues =
    info !== null &&
    part.shape.type !== 'plane' &&
    (info.holes.length > 0 || info.nonManifold.length > 0)
  const messages: string[] = meshIssues || part.hasWarnings ? [PART_MESSAGES.partIssues] : []
  messages.push(...part.warnings.map((w) => w.message))
  messages.push(...discretizationMessages.map((m) => m.description))
  return [...new Set(messages)]
}
