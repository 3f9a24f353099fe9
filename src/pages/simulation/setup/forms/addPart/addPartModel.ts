import * as v from 'valibot'
import {
  PartCreateSchema,
  checkShape,
  makeUniqueName,
  type ComponentUpdate,
  type PartCreate,
  type ShapeUpdate,
} from '../../../../../../domain/parts.ts'
import { NAME_USED_MESSAGE } from '../../../../../../domain/projects.ts'
import { issue, type Issue } from '../../../../../../domain/validation.ts'
import type { LooseVec3 } from '../../../../../../domain/vector.ts'

/*
 * The addPart form's values and the part bodies it sends (spec/setup.md §2 Add menu: Solid, Fluid,
 * Inlet Outlet). Rules come from domain/parts.ts (checkShape, the create schema's name rule).
 */

/** The component kinds the Add menu creates parts of. */
export type AddPartComponent = 'rigid' | 'filling' | 'openboundary'

/** The Add menu's words for them. */
export const ADD_PART_LABELS: Record<AddPartComponent, string> = {
  rigid: 'Solid',
  filling: 'Fluid',
  openboundary: 'Inlet Outlet',
}

/** The start of an automatic name ('Solid 1'); not 'Fluid', which names materials. */
export const PART_NAME_BASES: Record<AddPartComponent, string> = {
  rigid: 'Solid',
  filling: 'Filling',
  openboundary: 'Inlet Outlet',
}

/** Where the geometry comes from: uploaded STL files, a box or a plane. */
export type GeometrySource = 'stl' | 'box' | 'plane'

export const GEOMETRY_SOURCE_LABELS: Record<GeometrySource, string> = {
  stl: 'STL file',
  box: 'Box',
  plane: 'Plane',
}

/** 'Choose at least one STL file.' while the STL source has no file. */
export const NO_FILE_MESSAGE = 'Choose at least one STL file.'

export interface AddPartDraft {
  name: string
  source: GeometrySource
  /** Box edge lengths, m. */
  dimensions: LooseVec3
  /** Plane width (x) and length (y), m: the unit plane's scale. */
  planeSize: [number | null, number | null]
  /** Where the geometry's centre goes, m. */
  position: LooseVec3
  /** Fluids only. */
  materialId: number | null
  /** Filling only: fill level in m; null fills the whole geometry. */
  fillHeight: number | null
}

/** The first 'Solid n' (n = 1, 2, …) no part, sensor, clip or refinement is called. */
export function nextPartName(component: AddPartComponent, takenNames: Iterable<string>): string {
  const taken = new Set(takenNames)
  for (let n = 1; ; n++) {
    const name = `${PART_NAME_BASES[component]} ${n}`
    if (!taken.has(name)) return name
  }
}

/** A new part's values: an STL (a plane for inlets and outlets), material 0. */
export function newAddPartDraft(
  component: AddPartComponent,
  takenNames: Iterable<string>,
  materialId: number | null,
): AddPartDraft {
  return {
    name: nextPartName(component, takenNames),
    source: component === 'openboundary' ? 'plane' : 'stl',
    dimensions: [1, 1, 1],
    planeSize: [1, 1],
    position: [0, 0, 0],
    materialId: component === 'rigid' ? null : materialId,
    fillHeight: null,
  }
}

/** The shape of a box or plane draft. */
export function shapeOfDraft(draft: AddPartDraft): ShapeUpdate {
  if (draft.source === 'box')
    return { type: 'stl_cube', dimensions: draft.dimensions, translation: draft.position }
  if (draft.source === 'plane')
    return {
      type: 'plane',
      scale: [draft.planeSize[0], draft.planeSize[1], 1],
      translation: draft.position,
    }
  return { type: 'stl' }
}

/** The shape of an uploaded STL. */
export function stlShape(
  upload: { id: number; fileName: string },
  position: LooseVec3,
): ShapeUpdate {
  return {
    type: 'stl',
    fileId: upload.id,
    fileName: upload.fileName,
    fileExtension: 'stl',
    translation: position,
  }
}

/** A part's name from its file: 'tank.stl' → 'tank', made unique. */
export function partNameOfFile(fileName: string, takenNames: Iterable<string>): string {
  const base = fileName.replace(/\.[^.]*$/, '').trim() || fileName
  return makeUniqueName(base.slice(0, 100), takenNames)
}

/** The component of the new part. */
export function componentOfDraft(
  component: AddPartComponent,
  draft: AddPartDraft,
): ComponentUpdate {
  if (component === 'filling') return { type: 'filling', height: draft.fillHeight }
  return { type: component }
}

/** POST /simulations/{id}/parts body. */
export function createBodyOf(
  component: AddPartComponent,
  draft: AddPartDraft,
  name: string,
  shape: ShapeUpdate,
): PartCreate {
  return {
    name,
    component: componentOfDraft(component, draft),
    shape,
    ...(component === 'rigid' ? {} : { materialId: draft.materialId }),
  }
}

/**
 * What blocks adding: a missing or used name (box and plane; STL parts are named after their
 * files), the shape rules of a box or plane, an STL source without files.
 */
export function addPartIssues(
  draft: AddPartDraft,
  context: { takenNames: ReadonlySet<string>; fileCount: number },
): Issue[] {
  const issues: Issue[] = []
  if (draft.source === 'stl') {
    if (context.fileCount === 0) issues.push(issue('error', 'files', NO_FILE_MESSAGE))
  } else {
    const name = v.safeParse(PartCreateSchema.entries.name, draft.name)
    if (!name.success)
      issues.push(issue('error', 'name', name.issues[0]?.message ?? 'Name is required'))
    else if (context.takenNames.has(name.output))
      issues.push(issue('error', 'name', NAME_USED_MESSAGE))
    issues.push(...checkShape(shapeOfDraft(draft), 'shape'))
  }
  return issues
}
