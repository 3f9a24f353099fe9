import { createElement } from 'react'
import { AddPartForm } from './AddPartForm.tsx'
import { MotionBoundaryConditionForm } from './MotionBoundaryConditionForm.tsx'
import { MotionForm } from './MotionForm.tsx'
import type { SideFormProps, SideFormRegistry } from './registry.ts'

/** The forms that add parts and define their movements: addPart, motion, movingBoundaryCondition. */
export const MOTION_FORMS: SideFormRegistry = {
  // A new Add menu choice starts a fresh form (the host keeps one element per form kind).
  addPart: (props: SideFormProps<'addPart'>) =>
    createElement(AddPartForm, { key: props.form.component, ...props }),
  motion: MotionForm,
  movingBoundaryCondition: MotionBoundaryConditionForm,
}
