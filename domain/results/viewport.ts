/** Saved viewport state of the results screen: camera, clipping plane, part and material views. */
import * as v from 'valibot'
import { COLOUR_SCHEMES, DEFAULT_COLOUR_SCHEME } from '../constants.ts'
import { type AttributeName, AttributeNameSchema } from './attributes.ts'

/** 'Camera up vector must be normalized' */
export const CAMERA_UP_MESSAGE = 'Camera up vector must be normalized'
/** A vector that is not exactly three finite numbers. */
export const VECTOR_COMPONENTS_MESSAGE = 'Vectors need three components'
/** Tolerance of the unit-length check of the camera up vector. */
export const NORMALIZED_TOLERANCE = 1e-6

/** True for a vector of length 1 (within NORMALIZED_TOLERANCE). */
export function isNormalized(vector: readonly number[]): boolean {
  return Math.abs(Math.hypot(...vector) - 1) <= NORMALIZED_TOLERANCE
}

const finite = v.pipe(v.number(VECTOR_COMPONENTS_MESSAGE), v.finite(VECTOR_COMPONENTS_MESSAGE))
/** A vector of exactly three finite numbers ('Vectors need three components'). */
export const StrictVec3Schema = v.strictTuple([finite, finite, finite], VECTOR_COMPONENTS_MESSAGE)

/** Camera projections; switching keeps position, up and target. */
export const CAMERA_MODES = ['perspective', 'orthographic'] as const
/** One camera projection. */
export type CameraMode = (typeof CAMERA_MODES)[number]

/** A saved camera. */
export const CameraStateSchema = v.object({
  position: StrictVec3Schema,
  target: StrictVec3Schema,
  up: v.pipe(
    StrictVec3Schema,
    v.check((up) => isNormalized(up), CAMERA_UP_MESSAGE),
  ),
  mode: v.picklist(CAMERA_MODES),
})
/** A saved camera. */
export type CameraState = v.InferOutput<typeof CameraStateSchema>

/** Axes a clipping plane can be normal to. */
export const CLIP_AXES = ['x', 'y', 'z'] as const
/** One clipping axis. */
export type ClipAxis = (typeof CLIP_AXES)[number]

/** The clipping plane: along x, y or z, flipped or not, at an offset in metres. */
export const ClippingPlaneSchema = v.object({
  enabled: v.boolean(),
  axis: v.picklist(CLIP_AXES),
  flipped: v.boolean(),
  offsetM: v.pipe(v.number(), v.finite()),
})
/** The clipping plane. */
export type ClippingPlane = v.InferOutput<typeof ClippingPlaneSchema>

/** How a part is drawn. */
export const PART_VIEW_MODES = ['surface', 'wireframe', 'translucent'] as const
/** How a material is drawn. */
export const MATERIAL_DISPLAY_MODES = [
  'particles_spheres',
  'particles_circles',
  'particles_outlined_circles',
  'hidden',
  'surface',
] as const
/** One way of drawing a part. */
export type PartViewMode = (typeof PART_VIEW_MODES)[number]
/** One way of drawing a material. */
export type MaterialDisplayMode = (typeof MATERIAL_DISPLAY_MODES)[number]

/** Names of the part views (solid view dialog, explorer), in menu order. */
export const PART_VIEW_LABELS: Record<PartViewMode, string> = {
  surface: 'Surface',
  wireframe: 'Wireframe',
  translucent: 'Translucent',
}

/** Names of the material display modes (fluid view dialog, explorer), in menu order. */
export const MATERIAL_DISPLAY_LABELS: Record<MaterialDisplayMode, string> = {
  particles_spheres: 'Spheres',
  particles_circles: 'Circles',
  particles_outlined_circles: 'Outlined circles',
  hidden: 'Hidden',
  surface: 'Surface',
}

/** The colour map part of the viewport state (min/max null: from the data). */
export const ColourMapStateSchema = v.object({
  scheme: v.picklist(COLOUR_SCHEMES),
  attribute: AttributeNameSchema,
  subAttribute: v.nullable(v.string()),
  min: v.nullable(v.number()),
  max: v.nullable(v.number()),
})
/** The colour map part of the viewport state. */
export type ColourMapState = v.InferOutput<typeof ColourMapStateSchema>

/** Viewport state is saved separately for the preprocessor and the postprocessor. */
export const VIEWPORT_MODES = ['pre', 'post'] as const
/** Which page a viewport state belongs to. */
export type ViewportMode = (typeof VIEWPORT_MODES)[number]

/** The viewport state saved per simulation (PUT /simulations/{id}/viewport_state). */
export const ViewportStateSchema = v.object({
  camera: CameraStateSchema,
  colorMap: v.nullable(ColourMapStateSchema),
  output: v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0))),
  coordinateSystem: v.boolean(),
  clippingPlane: ClippingPlaneSchema,
  parts: v.record(
    v.string(),
    v.object({ visible: v.boolean(), viewMode: v.picklist(PART_VIEW_MODES) }),
  ),
  materials: v.record(
    v.string(),
    v.object({ visible: v.boolean(), displayMode: v.picklist(MATERIAL_DISPLAY_MODES) }),
  ),
})
/** The viewport state saved per simulation. */
export type ViewportState = v.InferOutput<typeof ViewportStateSchema>

/** A fresh viewport: perspective camera looking at the origin with z up, colour map off. */
export function defaultViewportState(): ViewportState {
  return {
    camera: { position: [2, -2, 2], target: [0, 0, 0], up: [0, 0, 1], mode: 'perspective' },
    colorMap: null,
    output: null,
    coordinateSystem: true,
    clippingPlane: { enabled: false, axis: 'x', flipped: false, offsetM: 0 },
    parts: {},
    materials: {},
  }
}

/** A new colour map: rainbow, range from the data. */
export function defaultColourMap(attribute: AttributeName): ColourMapState {
  return { scheme: DEFAULT_COLOUR_SCHEME, attribute, subAttribute: null, min: null, max: null }
}
