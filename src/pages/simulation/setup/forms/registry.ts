import type { ComponentType } from 'react'
import type { Simulation } from '../../../../../domain/projects.ts'
import type { SideForm, SideFormKind } from '../state/setupAtoms.ts'

/** What every side form gets: the simulation and the open form (its kind's fields). */
export interface SideFormProps<K extends SideFormKind> {
  simulation: Simulation
  form: Extract<SideForm, { kind: K }>
}

/** Side form components by kind (each file of forms/ registers what it builds). */
export type SideFormRegistry = { [K in SideFormKind]?: ComponentType<SideFormProps<K>> }

/** Titles of the side forms' headers. */
export const SIDE_FORM_TITLES: Record<SideFormKind, string> = {
  coordinateSystem: 'Coordinate System',
  part: 'Part',
  addPart: 'Add Part',
  material: 'Material',
  motion: 'Motion',
  movingBoundaryCondition: 'Define Movement',
  calcDomain: 'Deletion Boundary',
  airDragDomain: 'Air Drag Domain',
  periodicBoundary: 'Periodic Boundary',
  refinement: 'Refinement Zone',
  settings: 'Settings',
  physics: 'Physics',
}
