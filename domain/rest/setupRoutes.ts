import * as v from 'valibot'
import { DATATABLE_KINDS, DatatableSchema, DatatableUpdateSchema } from '../datatable.ts'
import { MaterialPresetSchema, MaterialSchema, MaterialUpdateSchema } from '../materials.ts'
import {
  KeyframesResultSchema,
  MovementCreateSchema,
  MovementSchema,
  MovementUpdateSchema,
} from '../movements.ts'
import {
  MaterialResetSchema,
  PartBulkUpdateSchema,
  PartCreateSchema,
  PartSchema,
  PartUpdateSchema,
  ShapeInfoUpdateSchema,
} from '../parts.ts'
import { IdParamSchema } from '../projects.ts'
import { SimulationSettingsPatchSchema, SimulationSettingsSchema } from '../settings.ts'
import type { RouteDef } from '../rest.ts'
import { LooseVec3Schema } from '../vector.ts'

/** Refusal of any setup edit while the setup is locked (spec/setup.md §1). */
export const SETUP_LOCKED_MESSAGE =
  'After editing Setup, the simulation has to be restarted from the 0th output.'
/** Refusal of setup edits of an uploaded setup (spec/setup.md §2). */
export const UPLOADED_SETUP_MESSAGE = "You can't modify an uploaded setup in the Preprocessor"
/** Only materials from id 2 on can be deleted (spec/setup.md §5 "Material"). */
export const MATERIAL_NOT_DELETABLE_MESSAGE =
  'Deleting a material requires a materialId of at least 2.'

/** Upload kinds of POST /client-upload/uploads, told apart by the file name's extension. */
export const UPLOAD_KINDS = ['stl', 'csv'] as const
/** One upload kind. */
export type UploadKind = (typeof UPLOAD_KINDS)[number]
/** Length units an STL can be given in; the stored mesh is always in m. */
export const STL_UNITS = ['m', 'mm', 'in'] as const
/** One STL length unit. */
export type StlUnit = (typeof STL_UNITS)[number]
/** Largest STL upload: 256 MiB (about 5 million triangles in binary STL). */
export const STL_UPLOAD_LIMIT_BYTES = 256 * 1024 * 1024
/** Largest CSV upload: 16 MiB. */
export const CSV_UPLOAD_LIMIT_BYTES = 16 * 1024 * 1024

const integerParam = (name: string) =>
  v.pipe(
    v.string(),
    v.regex(/^\d{1,12}$/, `${name} must be a non-negative integer`),
    v.transform(Number),
  )

/** `{id}` and `{materialId}` of a material path. */
export const MaterialParamSchema = v.object({
  id: integerParam('id'),
  materialId: integerParam('materialId'),
})
/** `{id}` and `{followerId}` of a follower path. */
export const FollowerParamSchema = v.object({
  id: integerParam('id'),
  followerId: integerParam('followerId'),
})

/** One item of the Input Validation bar. */
export const IssueSchema = v.object({
  level: v.picklist(['info', 'warning', 'error']),
  field: v.string(),
  message: v.string(),
})

/**
 * The settings with what the rules say about them, and the lines of the 'Advanced Settings Were
 * Adjusted' dialog when a switch (multiphase, surface tension) changed other settings.
 */
export const SettingsResultSchema = v.object({
  settings: SimulationSettingsSchema,
  issues: v.array(IssueSchema),
  adjustments: v.array(v.string()),
})
export type SettingsResult = v.InferOutput<typeof SettingsResultSchema>

/** The calculation domain (the 'Deletion Boundary'): particles leaving the box are deleted. */
export const CalcDomainSchema = v.object({
  active: v.boolean(),
  min: LooseVec3Schema,
  max: LooseVec3Schema,
  issues: v.array(IssueSchema),
})
export type CalcDomain = v.InferOutput<typeof CalcDomainSchema>
/** PUT …/calc_domain: any of the box and the switch; creating a domain is `active: true`. */
export const CalcDomainUpdateSchema = v.strictObject({
  active: v.optional(v.boolean()),
  min: v.optional(LooseVec3Schema),
  max: v.optional(LooseVec3Schema),
})

/** A material preset with the fluid's physical speed of sound (information: runs use a lower one). */
export const MaterialPresetWithSoundSchema = v.object({
  ...MaterialPresetSchema.entries,
  /** m/s at the preset's temperature; weakly-compressible runs use about 10× the flow speed. */
  physicalSpeedOfSound: v.number(),
  /** Temperature and source of the values. */
  description: v.string(),
})
export type MaterialPresetWithSound = v.InferOutput<typeof MaterialPresetWithSoundSchema>

/** The Input Validation bar of a whole setup, and whether it may be discretized and run. */
export const SetupValidationSchema = v.object({
  issues: v.array(IssueSchema),
  /** False while an error or an info item (missing value) exists. */
  runnable: v.boolean(),
  /** 'There are errors in your setup. Please check the Input Validation bar.' when not runnable. */
  message: v.nullable(v.string()),
})

/** A stored upload (POST /client-upload/uploads 201). */
export const UploadSchema = v.object({
  id: v.number(),
  kind: v.picklist(UPLOAD_KINDS),
  fileName: v.string(),
  unit: v.nullable(v.picklist(STL_UNITS)),
  sizeBytes: v.number(),
  createdAt: v.string(),
  /** STL: triangles after welding; null for CSV. */
  nbrOfTriangles: v.nullable(v.number()),
  /** STL: true when every edge is shared by exactly two triangles. */
  watertight: v.nullable(v.boolean()),
  /** CSV: the datatable made from the file. */
  datatableId: v.nullable(v.number()),
})
export type Upload = v.InferOutput<typeof UploadSchema>

/** POST /simulations/{id}/datatables: a new table of a kind, empty or with its columns. */
export const DatatableCreateSchema = v.strictObject({
  kind: v.picklist(DATATABLE_KINDS),
  headers: v.optional(v.array(v.string())),
  table: v.optional(DatatableUpdateSchema.entries.table),
})
/** GET /datatables/{id} paging (pageNumber counts from 1). */
export const DatatableQuerySchema = v.object({
  pageLimit: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,6}$/, 'pageLimit must be a positive integer'),
      v.transform(Number),
      v.minValue(1, 'pageLimit must be a positive integer'),
    ),
    '100',
  ),
  pageNumber: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,6}$/, 'pageNumber must be a positive integer'),
      v.transform(Number),
      v.minValue(1, 'pageNumber must be a positive integer'),
    ),
    '1',
  ),
})

/** GET /parts/{id}/movements/keyframes: interpolation defaults to true. */
export const KeyframesQuerySchema = v.object({
  interpolate: v.optional(
    v.pipe(
      v.picklist(['true', 'false'], 'interpolate must be true or false'),
      v.transform((value) => value === 'true'),
    ),
    'true',
  ),
})

const DeletedSchema = v.object({ id: v.number() })

/** Setup calls of spec/setup.md §7: settings, materials, parts, movements, calculation domain, uploads, discretizations. */
export const SETUP_ROUTES = {
  getSettings: {
    method: 'GET',
    path: '/simulations/{id}/settings',
    summary: 'Simulation settings with their validation',
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: SettingsResultSchema,
  },
  updateSettings: {
    method: 'PUT',
    path: '/simulations/{id}/settings',
    summary: 'Change settings (coupled rules: multiphase, surface tension)',
    auth: true,
    status: 200,
    params: IdParamSchema,
    body: SimulationSettingsPatchSchema,
    response: SettingsResultSchema,
  },
  getCalcDomain: {
    method: 'GET',
    path: '/simulations/{id}/calc_domain',
    summary: 'The calculation domain (Deletion Boundary)',
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: CalcDomainSchema,
  },
  updateCalcDomain: {
    method: 'PUT',
    path: '/simulations/{id}/calc_domain',
    summary: 'Add or change the calculation domain',
    auth: true,
    status: 200,
    params: IdParamSchema,
    body: CalcDomainUpdateSchema,
    response: CalcDomainSchema,
  },
  deleteCalcDomain: {
    method: 'DELETE',
    path: '/simulations/{id}/calc_domain',
    summary: 'Remove the calculation domain',
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: CalcDomainSchema,
  },
  getSetupValidation: {
    method: 'GET',
    path: '/simulations/{id}/setup_validation',
    summary: 'The Input Validation bar of the whole setup',
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: SetupValidationSchema,
  },
  listMaterials: {
    method: 'GET',
    path: '/simulations/{id}/materials',
    summary: 'Materials of a simulation (material 0 always exists)',
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: v.array(MaterialSchema),
  },
  getMaterial: {
    method: 'GET',
    path: '/simulations/{id}/materials/{materialId}',
    summary: 'Read a material',
    auth: true,
    status: 200,
    params: MaterialParamSchema,
    response: MaterialSchema,
  },
  updateMaterial: {
    method: 'PUT',
    path: '/simulations/{id}/materials/{materialId}',
    summary: 'Create or change a material',
    auth: true,
    status: 200,
    params: MaterialParamSchema,
    body: MaterialUpdateSchema,
    response: MaterialSchema,
  },
  deleteMaterial: {
    method: 'DELETE',
    path: '/simulations/{id}/materials/{materialId}',
    summary: 'Delete a material (id 2 or above)',
    auth: true,
    status: 200,
    params: MaterialParamSchema,
    response: DeletedSchema,
  },
  materialPresets: {
    method: 'GET',
    path: '/material_presets',
    summary: 'Real fluids to load into a material',
    auth: true,
    status: 200,
    response: v.array(MaterialPresetWithSoundSchema),
  },
  listParts: {
    method: 'GET',
    path: '/simulations/{id}/parts',
    summary: 'Parts of a simulation',
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: v.array(PartSchema),
  },
  createPart: {
    method: 'POST',
    path: '/simulations/{id}/parts',
    summary: 'Add a part',
    auth: true,
    status: 201,
    params: IdParamSchema,
    body: PartCreateSchema,
    response: PartSchema,
  },
  updateParts: {
    method: 'PUT',
    path: '/simulations/{id}/parts',
    summary: 'Change several parts at once (all or nothing)',
    auth: true,
    status: 200,
    params: IdParamSchema,
    body: PartBulkUpdateSchema,
    response: v.array(PartSchema),
  },
  resetPartMaterials: {
    method: 'PUT',
    path: '/simulations/{id}/parts/material_reset',
    summary: 'Give every fluid part one material (default 0)',
    auth: true,
    status: 200,
    params: IdParamSchema,
    body: MaterialResetSchema,
    response: v.array(PartSchema),
  },
  getPart: {
    method: 'GET',
    path: '/parts/{id}',
    summary: 'Read a part',
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: PartSchema,
  },
  updatePart: {
    method: 'PUT',
    path: '/parts/{id}',
    summary: 'Change a part',
    auth: true,
    status: 200,
    params: IdParamSchema,
    body: PartUpdateSchema,
    response: PartSchema,
  },
  deletePart: {
    method: 'DELETE',
    path: '/parts/{id}',
    summary: 'Delete a part and its movements',
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: DeletedSchema,
  },
  updateShapeInfo: {
    method: 'PUT',
    path: '/parts/{id}/shape_info',
    summary: 'Store geometry facts of a part',
    auth: true,
    status: 200,
    params: IdParamSchema,
    body: ShapeInfoUpdateSchema,
    response: PartSchema,
  },
  listSimulationMovements: {
    method: 'GET',
    path: '/simulations/{id}/movements',
    summary: 'Movements of every part of a simulation',
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: v.array(MovementSchema),
  },
  listPartMovements: {
    method: 'GET',
    path: '/parts/{id}/movements',
    summary: 'Movements of a part',
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: v.array(MovementSchema),
  },
  createMovement: {
    method: 'POST',
    path: '/parts/{id}/movements',
    summary: 'Add a movement to a part',
    auth: true,
    status: 201,
    params: IdParamSchema,
    body: MovementCreateSchema,
    response: MovementSchema,
  },
  partKeyframes: {
    method: 'GET',
    path: '/parts/{id}/movements/keyframes',
    summary: 'Keyframes of a part over the simulation time',
    auth: true,
    status: 200,
    params: IdParamSchema,
    query: KeyframesQuerySchema,
    response: KeyframesResultSchema,
  },
  getMovement: {
    method: 'GET',
    path: '/movements/{id}',
    summary: 'Read a movement',
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: MovementSchema,
  },
  updateMovement: {
    method: 'PUT',
    path: '/movements/{id}',
    summary: 'Change a movement (not its type)',
    auth: true,
    status: 200,
    params: IdParamSchema,
    body: MovementUpdateSchema,
    response: MovementSchema,
  },
  deleteMovement: {
    method: 'DELETE',
    path: '/movements/{id}',
    summary: 'Delete a movement',
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: DeletedSchema,
  },
  addFollower: {
    method: 'PUT',
    path: '/movements/{id}/followers/{followerId}',
    summary: 'Make a movement follow this one',
    auth: true,
    status: 200,
    params: FollowerParamSchema,
    response: MovementSchema,
  },
  removeFollower: {
    method: 'DELETE',
    path: '/movements/{id}/followers/{followerId}',
    summary: 'Stop a movement following this one',
    auth: true,
    status: 200,
    params: FollowerParamSchema,
    response: MovementSchema,
  },
  createDatatable: {
    method: 'POST',
    path: '/simulations/{id}/datatables',
    summary: 'Add a datatable to a simulation',
    auth: true,
    status: 201,
    params: IdParamSchema,
    body: DatatableCreateSchema,
    response: DatatableSchema,
  },
  getDatatable: {
    method: 'GET',
    path: '/datatables/{id}',
    summary: 'One page of a datatable',
    auth: true,
    status: 200,
    params: IdParamSchema,
    query: DatatableQuerySchema,
    response: DatatableSchema,
  },
  updateDatatableJson: {
    method: 'PUT',
    path: '/datatables/{id}/json',
    summary: 'Replace a datatable (400 with globalErrors and cellErrors)',
    auth: true,
    status: 200,
    params: IdParamSchema,
    body: DatatableUpdateSchema,
    response: DatatableSchema,
  },
} as const satisfies Record<string, RouteDef>
