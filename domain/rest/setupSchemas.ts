/**
 * Messages, limits and body, query and reply schemas of the setup calls (SETUP_ROUTES in
 * setupRoutes.ts, which re-exports everything here).
 */
import * as v from 'valibot'
import { idParamSchema } from '../ids.ts'
import { DATATABLE_KINDS, DatatableUpdateSchema } from '../datatable.ts'
import { MaterialPresetSchema } from '../materials.ts'
import { SimulationSettingsSchema } from '../settings.ts'
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

/** `{id}` and `{materialId}` (0-based within the simulation) of a material path. */
export const MaterialParamSchema = v.object({
  id: idParamSchema('id'),
  materialId: idParamSchema('materialId', 0),
})
/** `{id}` and `{followerId}` of a follower path. */
export const FollowerParamSchema = v.object({
  id: idParamSchema('id'),
  followerId: idParamSchema('followerId'),
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

// ── Binary downloads (docs/setup-editor.md) ─────────────────────────────────────────────────────

/** GET: DMSH of a part's mesh in its own coordinates (domain/meshFile.ts). */
export const PART_MESH_PATH = '/parts/{id}/mesh'
/** GET: DPCL of a part's particles from the latest successful discretization (domain/pointCloudFile.ts). */
export const PART_POINTCLOUD_PATH = '/parts/{id}/pointcloud'
/** GET: DMSH of a sensor, clip or refinement mesh, placed (world metres). */
export const MESH_FILE_PATH = '/meshes/{id}/mesh'
/** GET: the air drag domain's grid (domain/airDragGridFile.ts), for Results' Air Drag item. */
export const AIR_DRAG_GRID_PATH = '/simulations/{id}/air_drag_domain/grid'
/** Content type of the binary downloads. */
export const SETUP_FILE_CONTENT_TYPE = 'application/octet-stream'

/** `/api/parts/12/mesh?v=3f2a…`: a download URL of `path`, versioned by the content hash. */
export function setupFileUrl(path: string, id: number, hash: string): string {
  return `/api${path.replace('{id}', String(id))}?v=${hash}`
}
