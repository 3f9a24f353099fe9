import { CalcDomainForm } from './CalcDomainForm.tsx'
import { CoordinateSystemForm } from './CoordinateSystemForm.tsx'
import { MaterialForm } from './material/MaterialForm.tsx'
import { PartForm } from './part/PartForm.tsx'
import { PhysicsForm } from './physics/PhysicsForm.tsx'
import type { SideFormRegistry } from './registry.ts'
import { SettingsForm } from './settings/SettingsForm.tsx'
import './propertyForms.css'

/**
 * The property forms: coordinate system, part (geometry, material, boundary and initial
 * conditions, appearance, information), material, deletion boundary, settings and physics.
 */
export const PROPERTY_FORMS: SideFormRegistry = {
  coordinateSystem: CoordinateSystemForm,
  part: PartForm,
  material: MaterialForm,
  calcDomain: CalcDomainForm,
  settings: SettingsForm,
  physics: PhysicsForm,
}
