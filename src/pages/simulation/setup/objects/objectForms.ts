import type { SideFormRegistry } from '../forms/registry.ts'
import { AirDragDomainForm } from './AirDragDomainForm.tsx'
import { PeriodicBoundaryForm } from './PeriodicBoundaryForm.tsx'
import { RefinementForm } from './RefinementForm.tsx'

/** The small forms of the air drag domain and the periodic boundary, and a refinement zone's. */
export const SETUP_OBJECT_FORMS: SideFormRegistry = {
  airDragDomain: AirDragDomainForm,
  periodicBoundary: PeriodicBoundaryForm,
  refinement: RefinementForm,
}
