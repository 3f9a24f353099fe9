/**
 * Part shapes (spec/setup.md §3 "Part"): plane, uploaded STL, cube, point cloud or empty, with the
 * placement (translation, scale, rotation, flipNormals), the geometry facts the server computes
 * (ShapeInfo) and the resolution slider's conversions. Re-exported by parts.ts.
 */
import * as v from 'valibot'
import { idSchema } from './ids.ts'
import type { NumberBounds } from './validation.ts'
import { LooseVec3Schema, Vec3Schema } from './vector.ts'

const num = v.nullable(v.number())

export const SHAPE_TYPES = ['plane', 'stl', 'stl_cube', 'pointcloud', 'empty'] as const
export type ShapeType = (typeof SHAPE_TYPES)[number]

/** An axis-aligned box. */
export const BoundingBoxSchema = v.object({ min: Vec3Schema, max: Vec3Schema })
/** A hole or non-manifold edge found by the mesh-health check; size is the extent to zoom to. */
export const MeshDefectSchema = v.object({ center: Vec3Schema, size: v.number() })

/** Geometry facts the server computes (PUT /parts/{id}/shape_info stores them). */
export const ShapeInfoSchema = v.object({
  center: Vec3Schema,
  normal: v.nullable(Vec3Schema),
  isPlanar: v.boolean(),
  nbrOfTriangles: v.number(),
  holes: v.array(MeshDefectSchema),
  nonManifold: v.array(MeshDefectSchema),
  /** m². */
  surfaceArea: v.number(),
  boundingBox: BoundingBoxSchema,
})
/** Geometry facts of a shape. */
export type ShapeInfo = v.InferOutput<typeof ShapeInfoSchema>
/** PUT /parts/{id}/shape_info body. */
export const ShapeInfoUpdateSchema = v.strictObject(ShapeInfoSchema.entries)

const shapeCommonEntries = {
  translation: LooseVec3Schema,
  scale: LooseVec3Schema,
  /** Degrees about x, y, z. */
  rotation: LooseVec3Schema,
  flipNormals: v.boolean(),
}
const stlEntries = {
  /** Meshing resolution as a fraction 0.01 … 1 (the slider shows 1 … 100 %). */
  resolution: num,
  fileId: v.nullable(idSchema('fileId')),
  fileName: v.nullable(v.string()),
  fileExtension: v.nullable(v.string()),
}
const stlCubeEntries = { dimensions: LooseVec3Schema }
const pointcloudEntries = {
  refSimulationId: v.nullable(idSchema('refSimulationId')),
  refSimulationOutput: v.nullable(v.number()),
  splittingRatio: num,
}

/** A part's shape, told apart by `type`. */
export const ShapeSchema = v.variant('type', [
  v.object({
    type: v.literal('plane'),
    ...shapeCommonEntries,
    info: v.nullable(ShapeInfoSchema),
  }),
  v.object({
    type: v.literal('stl'),
    ...shapeCommonEntries,
    ...stlEntries,
    info: v.nullable(ShapeInfoSchema),
  }),
  v.object({
    type: v.literal('stl_cube'),
    ...shapeCommonEntries,
    ...stlCubeEntries,
    info: v.nullable(ShapeInfoSchema),
  }),
  v.object({
    type: v.literal('pointcloud'),
    ...shapeCommonEntries,
    ...pointcloudEntries,
    info: v.nullable(ShapeInfoSchema),
  }),
  v.object({ type: v.literal('empty'), ...shapeCommonEntries, info: v.nullable(ShapeInfoSchema) }),
])
/** A part's shape. */
export type Shape = v.InferOutput<typeof ShapeSchema>

const optionalCommon = v.partial(v.object(shapeCommonEntries)).entries
/** A shape in a create or update body: `type` plus any of its fields (info is computed). */
export const ShapeUpdateSchema = v.variant('type', [
  v.strictObject({ type: v.literal('plane'), ...optionalCommon }),
  v.strictObject({
    type: v.literal('stl'),
    ...optionalCommon,
    ...v.partial(v.object(stlEntries)).entries,
  }),
  v.strictObject({
    type: v.literal('stl_cube'),
    ...optionalCommon,
    ...v.partial(v.object(stlCubeEntries)).entries,
  }),
  v.strictObject({
    type: v.literal('pointcloud'),
    ...optionalCommon,
    ...v.partial(v.object(pointcloudEntries)).entries,
  }),
  v.strictObject({ type: v.literal('empty'), ...optionalCommon }),
])
/** A shape in a create or update body. */
export type ShapeUpdate = v.InferOutput<typeof ShapeUpdateSchema>

/** Shape bounds: resolution slider 1 … 100 % (stored as a fraction), splitting ratio ≥ 1. */
export const SHAPE_BOUNDS = {
  resolutionPercent: { min: 1, max: 100 },
  splittingRatio: { min: 1, integer: true },
  positive: { min: 0, exclusiveMin: true },
} as const satisfies Record<string, NumberBounds>

/** Resolution as a percent (slider) from the stored fraction, rounded to whole percent steps. */
export function resolutionToPercent(fraction: number): number {
  return Math.round(fraction * 100)
}
/** The stored fraction of a resolution percent. */
export function percentToResolution(percent: number): number {
  return percent / 100
}
