import { OpenBoundaryConditions } from './OpenBoundaryConditions.tsx'
import { RigidConditions } from './RigidConditions.tsx'
import { shared } from './partSelection.ts'
import type { PartFolderProps } from './usePartEdit.ts'

/** Shown when the selection mixes component types. */
export const MIXED_KINDS_NOTE = 'Select parts of one kind to edit their boundary conditions.'
/** Shown for fluid fillings, flows and refinements. */
export const NO_BOUNDARY_NOTE =
  'Fluid fillings, flows and refinements have no boundary conditions; see Initial Conditions.'

/** The Boundary Conditions folder: solid walls and open boundaries each have their own. */
export function BoundaryConditionsFolder(props: PartFolderProps) {
  const type = shared(props.parts, (p) => p.component.type)
  if (type.mixed) return <p className="property-form__note">{MIXED_KINDS_NOTE}</p>
  if (type.value === 'rigid') return <RigidConditions {...props} />
  if (type.value === 'openboundary') return <OpenBoundaryConditions {...props} />
  return <p className="property-form__note">{NO_BOUNDARY_NOTE}</p>
}
