import type { SideFormRegistry } from './registry.ts'

/**
 * The property forms: coordinate system, part (geometry, material, boundary and initial
 * conditions, appearance, information), material, deletion boundary, settings and physics.
 */
export const PROPERTY_FORMS: SideFormRegistry = {}
