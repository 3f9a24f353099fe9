/**
 * Parts (spec/setup.md §3 "Part", §5 "Part"): geometry with a physical role. Schemas of the part,
 * its component (partComponent.ts), shape (partShape.ts) and appearance (appearance.ts), the part
 * rules (partRules.ts), all re-exported here; unique names.
 */
import * as v from 'valibot'
import { idSchema, indexSchema } from './ids.ts'
import { AppearanceSchema, AppearanceUpdateSchema } from './appearance.ts'
import { ComponentSchema, ComponentUpdateSchema } from './partComponent.ts'
import { ShapeSchema, ShapeUpdateSchema } from './partShape.ts'
import { issue, type Issue } from './validation.ts'
import { LooseVec3Schema } from './vector.ts'

export * from './appearance.ts'
export * from './partComponent.ts'
export * from './partRules.ts'
export * from './partShape.ts'

// ── Part ────────────────────────────────────────────────────────────────────────────────────────

/** A warning the server attached to a part (geometry or discretization). */
export const PartWarningSchema = v.object({ errorCode: v.string(), message: v.string() })

const partName = v.pipe(v.string(), v.trim(), v.minLength(1, 'Name is required'), v.maxLength(100))

/**
 * Where a part's geometry is downloaded as binary (docs/setup-editor.md "Binary downloads"). The
 * URLs carry `?v={hash}`, so a changed file is a new URL and the browser may cache by URL.
 */
export const PartFilesSchema = v.object({
  /**
   * GET /api/parts/{id}/mesh?v=…: DMSH (domain/meshFile.ts) of the mesh in the part's own
   * coordinates (before translation, rotation and scale), flipNormals applied to the winding;
   * null without a mesh (empty, pointcloud, no file, unset cube dimensions).
   */
  meshUrl: v.nullable(v.string()),
  /** Hash of the own-coordinate mesh: changes with the file, cube dimensions or flipNormals, never with the placement. */
  meshHash: v.nullable(v.string()),
  /**
   * GET /api/parts/{id}/pointcloud?v=…: DPCL (domain/pointCloudFile.ts) of the part's particles
   * from the latest successful discretization (world metres); null when it has none.
   */
  pointcloudUrl: v.nullable(v.string()),
  /** Particles in that point cloud, or null. */
  pointcloudCount: v.nullable(v.number()),
})
/** Download URLs of a part's mesh and point cloud. */
export type PartFiles = v.InferOutput<typeof PartFilesSchema>

/** A part as the API returns it. */
export const PartSchema = v.object({
  id: v.number(),
  simulationId: v.number(),
  name: v.string(),
  /** Free-form kind tag the server sets when the part is created (e.g. from the Add menu). */
  kind: v.string(),
  createdAt: v.string(),
  updatedAt: v.string(),
  createdBy: v.nullable(v.number()),
  organizationId: v.nullable(v.number()),
  seedPoint: v.nullable(LooseVec3Schema),
  materialId: v.nullable(v.number()),
  component: ComponentSchema,
  appearance: AppearanceSchema,
  shape: ShapeSchema,
  hasWarnings: v.boolean(),
  warnings: v.array(PartWarningSchema),
  ...PartFilesSchema.entries,
})
/** A part as the API returns it. */
export type Part = v.InferOutput<typeof PartSchema>

/** A part without downloadable files (a part not stored yet, or a test's part). */
export const PART_WITHOUT_FILES: PartFiles = {
  meshUrl: null,
  meshHash: null,
  pointcloudUrl: null,
  pointcloudCount: null,
}

/** POST /simulations/{id}/parts. Missing component fields take defaultComponent's values. */
export const PartCreateSchema = v.strictObject({
  name: partName,
  kind: v.optional(v.string()),
  materialId: v.optional(v.nullable(indexSchema('materialId'))),
  seedPoint: v.optional(v.nullable(LooseVec3Schema)),
  component: ComponentUpdateSchema,
  shape: ShapeUpdateSchema,
  appearance: v.optional(AppearanceUpdateSchema),
})
export type PartCreate = v.InferOutput<typeof PartCreateSchema>

/** PUT /parts/{id}: any of the editable fields. */
export const PartUpdateSchema = v.strictObject({
  name: v.optional(partName),
  materialId: v.optional(v.nullable(indexSchema('materialId'))),
  seedPoint: v.optional(v.nullable(LooseVec3Schema)),
  component: v.optional(ComponentUpdateSchema),
  shape: v.optional(ShapeUpdateSchema),
  appearance: v.optional(AppearanceUpdateSchema),
})
export type PartUpdate = v.InferOutput<typeof PartUpdateSchema>

/** PUT /simulations/{id}/parts: several parts at once, each with its id. */
export const PartBulkUpdateSchema = v.array(
  v.strictObject({ id: idSchema('id'), ...PartUpdateSchema.entries }),
)
export type PartBulkUpdate = v.InferOutput<typeof PartBulkUpdateSchema>

/** PUT /simulations/{id}/parts/material_reset: every fluid part gets this material (default 0). */
export const MaterialResetSchema = v.strictObject({
  materialId: v.optional(indexSchema('materialId'), 0),
})
export type MaterialReset = v.InferOutput<typeof MaterialResetSchema>

/** Attribute groups of the UI's secondary toolbar. */
export const ATTRIBUTE_GROUPS = [
  'appearance',
  'boundary_conditions',
  'geometry',
  'initial_conditions',
  'material',
  'motion',
  'information',
] as const
export type AttributeGroup = (typeof ATTRIBUTE_GROUPS)[number]

/** '{value} is not a known attribute name' for anything outside ATTRIBUTE_GROUPS. */
export function checkAttributeGroup(value: string, field = 'attribute'): Issue[] {
  return (ATTRIBUTE_GROUPS as readonly string[]).includes(value)
    ? []
    : [issue('error', field, `${value} is not a known attribute name`)]
}

/**
 * `name` unless one of `existingNames` (parts, refinements, sensors and volume clips together)
 * already has it; then the first free 'name (n)', n = 1, 2, …
 */
export function makeUniqueName(name: string, existingNames: Iterable<string>): string {
  const taken = new Set(existingNames)
  const trimmed = name.trim()
  if (!taken.has(trimmed)) return trimmed
  const base = trimmed.replace(/ \(\d+\)$/, '')
  for (let n = 1; ; n++) {
    const candidate = `${base} (${n})`
    if (!taken.has(candidate)) return candidate
  }
}
