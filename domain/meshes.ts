/**
 * Meshes of refinement zones, sensors and volume clips (spec/setup.md §3 "Mesh kinds",
 * "Refinement", "Sensor", "Volume clip"), their schemas and the geometry rules of §5 "General".
 */
import * as v from 'valibot'
import { idSchema, indexSchema } from './ids.ts'
import { AppearanceSchema, AppearanceUpdateSchema, checkAppearance } from './parts.ts'
import { SensorSampleRateSchema } from './sensorSampling.ts'
import { checkNumber, checkVector, isPreliminary, issue, type Issue } from './validation.ts'
import { LooseVec3Schema } from './vector.ts'

const num = v.nullable(v.number())

export const MESH_KINDS = [
  'point',
  'rectangle',
  'cube',
  'cylinder',
  'circle',
  'complex',
  'plane',
  'sphere',
] as const
/** One mesh kind. */
export type MeshKind = (typeof MESH_KINDS)[number]

const commonEntries = {
  center: LooseVec3Schema,
  /** Degrees about x, y, z. */
  rotation: LooseVec3Schema,
  scale: LooseVec3Schema,
  translation: LooseVec3Schema,
  flipNormals: v.boolean(),
}
/** Kind-specific fields of each mesh kind. */
const pointEntries = {}
const cubeEntries = { dimensions: LooseVec3Schema }
const circleEntries = { radius: num, normal: LooseVec3Schema, circleResolution: num }
const sphereEntries = { radius: num, sphereResolution: num }
/** A plane's height is its offset along the normal. */
const planeEntries = { width: num, length: num, height: num, normal: LooseVec3Schema }
const cylinderEntries = { radius: num, height: num, axis: LooseVec3Schema, cylinderResolution: num }
const rectangleEntries = { height: num, width: num, normal: LooseVec3Schema, angle: num }
const complexEntries = { fileId: v.nullable(v.number()), cache: v.optional(v.boolean(), false) }
/** In a body the upload id is refused with 400 unless a whole number from 1 to ID_MAX. */
const complexBodyEntries = { ...complexEntries, fileId: v.nullable(idSchema('fileId')) }

const readEntries = {
  id: v.number(),
  ...commonEntries,
  nbrOfTriangles: v.nullable(v.number()),
  /**
   * GET /api/meshes/{id}/mesh?v=…: DMSH (domain/meshFile.ts) of the placed triangles (world
   * metres, flipNormals applied to the winding); null for a point, a complex mesh or a definition
   * that cannot be built. The hash in `v` changes with any field of the definition.
   */
  meshUrl: v.nullable(v.string()),
}

/** A mesh as the API returns it (GET /meshes/{id}), told apart by `kind`. */
export const MeshSchema = v.variant('kind', [
  v.object({ kind: v.literal('point'), ...readEntries, ...pointEntries }),
  v.object({ kind: v.literal('rectangle'), ...readEntries, ...rectangleEntries }),
  v.object({ kind: v.literal('cube'), ...readEntries, ...cubeEntries }),
  v.object({ kind: v.literal('cylinder'), ...readEntries, ...cylinderEntries }),
  v.object({ kind: v.literal('circle'), ...readEntries, ...circleEntries }),
  v.object({ kind: v.literal('complex'), ...readEntries, ...complexEntries }),
  v.object({ kind: v.literal('plane'), ...readEntries, ...planeEntries }),
  v.object({ kind: v.literal('sphere'), ...readEntries, ...sphereEntries }),
])
/** A mesh as the API returns it. */
export type Mesh = v.InferOutput<typeof MeshSchema>

const optionalCommon = v.partial(v.object(commonEntries)).entries
const opt = <T extends v.ObjectEntries>(entries: T) => v.partial(v.object(entries)).entries
/**
 * POST /simulations/{id}/meshes and PUT /meshes/{id}: `kind` plus any of its fields (missing
 * ones take defaultMesh's values; nbrOfTriangles is computed).
 */
export const MeshBodySchema = v.variant('kind', [
  v.strictObject({ kind: v.literal('point'), ...optionalCommon }),
  v.strictObject({ kind: v.literal('rectangle'), ...optionalCommon, ...opt(rectangleEntries) }),
  v.strictObject({ kind: v.literal('cube'), ...optionalCommon, ...opt(cubeEntries) }),
  v.strictObject({ kind: v.literal('cylinder'), ...optionalCommon, ...opt(cylinderEntries) }),
  v.strictObject({ kind: v.literal('circle'), ...optionalCommon, ...opt(circleEntries) }),
  v.strictObject({ kind: v.literal('complex'), ...optionalCommon, ...opt(complexBodyEntries) }),
  v.strictObject({ kind: v.literal('plane'), ...optionalCommon, ...opt(planeEntries) }),
  v.strictObject({ kind: v.literal('sphere'), ...optionalCommon, ...opt(sphereEntries) }),
])
/** A mesh create or update body. */
export type MeshBody = v.InferOutput<typeof MeshBodySchema>

/** Default resolution (segments) of new sphere, circle and cylinder meshes. */
export const DEFAULT_MESH_RESOLUTION = { sphere: 16, circle: 100, cylinder: 100 } as const

/** A new mesh of `kind` at the origin, 1 m in size. */
export function defaultMesh(kind: MeshKind, id = 0): Mesh {
  const common = {
    id,
    center: [0, 0, 0] as [number, number, number],
    rotation: [0, 0, 0] as [number, number, number],
    scale: [1, 1, 1] as [number, number, number],
    translation: [0, 0, 0] as [number, number, number],
    flipNormals: false,
    nbrOfTriangles: null,
    meshUrl: null,
  }
  const up: [number, number, number] = [0, 0, 1]
  switch (kind) {
    case 'point':
      return { kind, ...common }
    case 'cube':
      return { kind, ...common, dimensions: [1, 1, 1] }
    case 'circle':
      return {
        kind,
        ...common,
        radius: 0.5,
        normal: up,
        circleResolution: DEFAULT_MESH_RESOLUTION.circle,
      }
    case 'sphere':
      return { kind, ...common, radius: 0.5, sphereResolution: DEFAULT_MESH_RESOLUTION.sphere }
    case 'plane':
      return { kind, ...common, width: 1, length: 1, height: 0, normal: up }
    case 'cylinder':
      return {
        kind,
        ...common,
        radius: 0.5,
        height: 1,
        axis: up,
        cylinderResolution: DEFAULT_MESH_RESOLUTION.cylinder,
      }
    case 'rectangle':
      return { kind, ...common, height: 1, width: 1, normal: up, angle: 0 }
    case 'complex':
      return { kind, ...common, fileId: null, cache: false }
  }
}

const positive = { min: 0, exclusiveMin: true } as const
const resolution = { min: 0, exclusiveMin: true, integer: true } as const

/**
 * The geometry rules of a mesh: radius, width, length and dimensions > 0, resolutions integers
 * > 0, normals and axes non-zero. `allowZeroDimensions` is the one form that accepts 0 per axis.
 * A plane's height is its offset along the normal and may be any number.
 */
export function checkMesh(
  mesh: Mesh | MeshBody,
  prefix = 'mesh',
  options: { allowZeroDimensions?: boolean } = {},
): Issue[] {
  const f = (key: string) => `${prefix}.${key}`
  const issues: Issue[] = []
  if (mesh.center !== undefined) issues.push(...checkVector(f('center'), 'Center', mesh.center))
  switch (mesh.kind) {
    case 'point':
      break
    case 'cube':
      if (mesh.dimensions !== undefined)
        issues.push(
          ...checkVector(f('dimensions'), 'Dimensions', mesh.dimensions, {
            bounds: options.allowZeroDimensions ? { min: 0 } : positive,
          }),
        )
      break
    case 'circle':
      if (mesh.radius !== undefined)
        issues.push(...checkNumber(f('radius'), 'Radius', mesh.radius, positive))
      if (mesh.normal !== undefined)
        issues.push(...checkVector(f('normal'), 'Normal', mesh.normal, { nonZero: true }))
      if (mesh.circleResolution !== undefined)
        issues.push(
          ...checkNumber(f('circleResolution'), 'Resolution', mesh.circleResolution, resolution),
        )
      break
    case 'sphere':
      if (mesh.radius !== undefined)
        issues.push(...checkNumber(f('radius'), 'Radius', mesh.radius, positive))
      if (mesh.sphereResolution !== undefined)
        issues.push(
          ...checkNumber(f('sphereResolution'), 'Resolution', mesh.sphereResolution, resolution),
        )
      break
    case 'plane':
      if (mesh.width !== undefined)
        issues.push(...checkNumber(f('width'), 'Width', mesh.width, positive))
      if (mesh.length !== undefined)
        issues.push(...checkNumber(f('length'), 'Length', mesh.length, positive))
      if (mesh.height !== undefined) issues.push(...checkNumber(f('height'), 'Height', mesh.height))
      if (mesh.normal !== undefined)
        issues.push(...checkVector(f('normal'), 'Normal', mesh.normal, { nonZero: true }))
      break
    case 'cylinder':
      if (mesh.radius !== undefined)
        issues.push(...checkNumber(f('radius'), 'Radius', mesh.radius, positive))
      if (mesh.height !== undefined)
        issues.push(...checkNumber(f('height'), 'Height', mesh.height, positive))
      if (mesh.axis !== undefined)
        issues.push(...checkVector(f('axis'), 'Axis', mesh.axis, { nonZero: true }))
      if (mesh.cylinderResolution !== undefined)
        issues.push(
          ...checkNumber(
            f('cylinderResolution'),
            'Resolution',
            mesh.cylinderResolution,
            resolution,
          ),
        )
      break
    case 'rectangle':
      if (mesh.height !== undefined)
        issues.push(...checkNumber(f('height'), 'Height', mesh.height, positive))
      if (mesh.width !== undefined)
        issues.push(...checkNumber(f('width'), 'Width', mesh.width, positive))
      if (mesh.normal !== undefined)
        issues.push(...checkVector(f('normal'), 'Normal', mesh.normal, { nonZero: true }))
      if (mesh.angle !== undefined) issues.push(...checkNumber(f('angle'), 'Angle', mesh.angle))
      break
    case 'complex':
      if (isPreliminary(mesh.fileId))
        issues.push(issue('info', f('fileId'), 'No geometry found. Please assign a geometry.'))
      break
  }
  return issues
}

// ── Refinement ──────────────────────────────────────────────────────────────────────────────────

/** The one refinement kind. */
export const REFINEMENT_KIND = 'chiron'
/** Refinement level of a new zone. */
export const DEFAULT_REFINEMENT_LEVEL = 0.3

const objectName = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, 'Name is required'),
  v.maxLength(100),
)

/** A refinement zone (GET /simulations/{id}/refinements). */
export const RefinementSchema = v.object({
  id: v.number(),
  name: v.string(),
  mesh: MeshSchema,
  appearance: AppearanceSchema,
  kind: v.optional(v.literal(REFINEMENT_KIND), REFINEMENT_KIND),
  level: v.optional(num, DEFAULT_REFINEMENT_LEVEL),
})
/** A refinement zone. */
export type Refinement = v.InferOutput<typeof RefinementSchema>

/** POST /simulations/{id}/refinements: a zone around an existing mesh. */
export const RefinementCreateSchema = v.strictObject({
  name: objectName,
  kind: v.optional(v.literal(REFINEMENT_KIND), REFINEMENT_KIND),
  level: v.optional(num, DEFAULT_REFINEMENT_LEVEL),
  meshId: idSchema('meshId'),
  appearance: v.optional(AppearanceUpdateSchema),
})
export type RefinementCreate = v.InferOutput<typeof RefinementCreateSchema>

/** PUT /refinements/{id}. */
export const RefinementUpdateSchema = v.strictObject({
  name: v.optional(objectName),
  level: v.optional(num),
  meshId: v.optional(idSchema('meshId')),
  appearance: v.optional(AppearanceUpdateSchema),
})
export type RefinementUpdate = v.InferOutput<typeof RefinementUpdateSchema>

/** Refinement rules: the mesh, the appearance and a level > 0. */
export function checkRefinement(refinement: Refinement, prefix = 'refinement'): Issue[] {
  return [
    ...checkMesh(refinement.mesh, `${prefix}.mesh`),
    ...checkAppearance(refinement.appearance, `${prefix}.appearance`),
    ...checkNumber(`${prefix}.level`, 'Level', refinement.level, positive),
  ]
}

// ── Sensor ──────────────────────────────────────────────────────────────────────────────────────

export const SENSOR_KINDS = ['point', 'surface'] as const
export type SensorKind = (typeof SENSOR_KINDS)[number]

const sensorOutputs = v.array(v.pipe(v.number(), v.integer(), v.minValue(0)))
const sensorAppearance = v.object({ visibility: v.boolean() })

/** A point or surface sensor (GET /simulations/{id}/custom_sensors). */
export const SensorSchema = v.variant('kind', [
  v.object({
    id: v.number(),
    name: v.string(),
    kind: v.literal('point'),
    appearance: sensorAppearance,
    outputs: sensorOutputs,
    /** domain/sensorSampling.ts: absent or null, sampled from outputs only. */
    sampleRate: v.optional(SensorSampleRateSchema),
    position: LooseVec3Schema,
  }),
  v.object({
    id: v.number(),
    name: v.string(),
    kind: v.literal('surface'),
    appearance: sensorAppearance,
    outputs: sensorOutputs,
    sampleRate: v.optional(SensorSampleRateSchema),
    mesh: MeshSchema,
  }),
])
/** A sensor. */
export type Sensor = v.InferOutput<typeof SensorSchema>

/** POST /simulations/{id}/custom_sensors. */
export const SensorCreateSchema = v.variant('kind', [
  v.strictObject({
    name: objectName,
    kind: v.literal('point'),
    position: LooseVec3Schema,
    outputs: v.optional(sensorOutputs),
    sampleRate: v.optional(SensorSampleRateSchema),
  }),
  v.strictObject({
    name: objectName,
    kind: v.literal('surface'),
    meshId: idSchema('meshId'),
    outputs: v.optional(sensorOutputs),
    sampleRate: v.optional(SensorSampleRateSchema),
  }),
])
export type SensorCreate = v.InferOutput<typeof SensorCreateSchema>

/** PUT /custom_sensors/{id}. */
export const SensorUpdateSchema = v.strictObject({
  name: v.optional(objectName),
  position: v.optional(LooseVec3Schema),
  meshId: v.optional(idSchema('meshId')),
  outputs: v.optional(sensorOutputs),
  sampleRate: v.optional(SensorSampleRateSchema),
  appearance: v.optional(v.strictObject({ visibility: v.boolean() })),
})
export type SensorUpdate = v.InferOutput<typeof SensorUpdateSchema>

/** Sensor rules: a valid position, or the surface mesh's rules. */
export function checkSensor(sensor: Sensor, prefix = 'sensor'): Issue[] {
  return sensor.kind === 'point'
    ? checkVector(`${prefix}.position`, 'Position', sensor.position)
    : checkMesh(sensor.mesh, `${prefix}.mesh`)
}

// ── Volume clip ─────────────────────────────────────────────────────────────────────────────────

/** A volume clip (GET /simulations/{id}/volume_clips). */
export const VolumeClipSchema = v.object({
  id: v.number(),
  name: v.string(),
  mesh: MeshSchema,
  appearance: AppearanceSchema,
  /** The clipped material, or null for all. */
  materialId: v.nullable(v.number()),
  inverted: v.boolean(),
  kind: v.literal('volumeClip'),
})
/** A volume clip. */
export type VolumeClip = v.InferOutput<typeof VolumeClipSchema>

/** POST /simulations/{id}/volume_clips. */
export const VolumeClipCreateSchema = v.strictObject({
  name: objectName,
  meshId: idSchema('meshId'),
  materialId: v.optional(v.nullable(indexSchema('materialId')), null),
  inverted: v.optional(v.boolean(), false),
  appearance: v.optional(AppearanceUpdateSchema),
})
export type VolumeClipCreate = v.InferOutput<typeof VolumeClipCreateSchema>

/** PUT /simulations/{id}/volume_clips: clips with their ids and any changed fields. */
export const VolumeClipBulkUpdateSchema = v.array(
  v.strictObject({
    id: idSchema('id'),
    name: v.optional(objectName),
    meshId: v.optional(idSchema('meshId')),
    materialId: v.optional(v.nullable(indexSchema('materialId'))),
    inverted: v.optional(v.boolean()),
    appearance: v.optional(AppearanceUpdateSchema),
  }),
)
export type VolumeClipBulkUpdate = v.InferOutput<typeof VolumeClipBulkUpdateSchema>

/** Volume clip rules: the mesh's and the appearance's. */
export function checkVolumeClip(clip: VolumeClip, prefix = 'volumeClip'): Issue[] {
  return [
    ...checkMesh(clip.mesh, `${prefix}.mesh`),
    ...checkAppearance(clip.appearance, `${prefix}.appearance`),
  ]
}
