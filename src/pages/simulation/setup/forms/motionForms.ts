import type { SideFormRegistry } from './registry.ts'

/** The forms that add parts and define their movements: addPart, motion, movingBoundaryCondition. */
export const MOTION_FORMS: SideFormRegistry = {}
