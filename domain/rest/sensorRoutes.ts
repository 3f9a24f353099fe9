/**
 * Meshes, sensors, volume clips and the sensor recomputation (spec/setup.md §7 "Meshes",
 * "Sensors", "Volume clips"; spec/results.md §4 "Sensor computation", §7). Sensors and clips point
 * at a mesh made first with POST /simulations/{id}/meshes (a surface sensor's or a clip's shape).
 */
import * as v from 'valibot'
import { idParamSchema, idSchema } from '../ids.ts'
import { JOB_STATES, JobMessageSchema } from '../jobs.ts'
import {
  MeshBodySchema,
  MeshSchema,
  SensorCreateSchema,
  SensorSchema,
  SensorUpdateSchema,
  VolumeClipBulkUpdateSchema,
  VolumeClipCreateSchema,
  VolumeClipSchema,
} from '../meshes.ts'
import { IdParamSchema } from '../projects.ts'
import { MAX_SERIES_POINTS, SensorSeriesSchema } from '../sensorSampling.ts'
import type { RouteDef } from '../rest.ts'

/** Refusal of sensor edits while the simulation runs or is scheduled (spec/results.md §4). */
export const SENSORS_LOCKED_MESSAGE =
  'Sensors cannot be added or edited while the simulation is running or scheduled.'
/** Refusal of sensor edits while a recomputation is scheduled or running. */
export const SENSORS_COMPUTING_MESSAGE =
  'Sensors cannot be added or edited while sensors are being computed. Stop the computation first.'
/** A surface sensor needs a mesh with a surface. */
export const SURFACE_SENSOR_MESH_MESSAGE =
  'A surface sensor needs a rectangle, cube, cylinder, circle, plane or sphere mesh.'
/** Mesh kinds a volume clip can mask with. */
export const VOLUME_CLIP_MESH_KINDS = ['cube', 'cylinder', 'sphere', 'plane'] as const
/** A volume clip needs one of VOLUME_CLIP_MESH_KINDS. */
export const VOLUME_CLIP_MESH_MESSAGE =
  'A volume clip needs a cube, cylinder, sphere or plane mesh.'
/** Refusal of deleting a mesh that a sensor or volume clip still uses. */
export const MESH_IN_USE_MESSAGE = (name: string) =>
  `The mesh is used by "${name}". Delete or change it first.`
/** Refusal of a second recomputation while one is active. */
export const SENSORS_ALREADY_COMPUTING_MESSAGE = 'Sensors are already being computed.'
/** Refusal of a recomputation without sensors. */
export const NO_SENSORS_MESSAGE = 'Add a sensor before computing sensors.'
/** Refusal of a recomputation before the simulation has outputs. */
export const NO_OUTPUTS_MESSAGE = 'There are no outputs to compute sensors for yet.'

const runIdQuery = v.object({
  runId: v.optional(idParamSchema('runId')),
})

/** GET /custom_sensors/{id}/series query: the run (default: the active run) and the thinning. */
export const SensorSeriesQuerySchema = v.object({
  runId: v.optional(idParamSchema('runId')),
  maxPoints: v.optional(
    v.pipe(
      v.string('maxPoints must be a whole number'),
      v.regex(/^\d{1,7}$/, 'maxPoints must be a whole number'),
      v.transform(Number),
      v.minValue(3, 'maxPoints must be at least 3'),
      v.maxValue(MAX_SERIES_POINTS, `maxPoints must be at most ${MAX_SERIES_POINTS}`),
    ),
  ),
})

/** PUT /simulations/{id}/custom_sensors: sensors with their ids and any changed fields. */
export const SensorBulkUpdateSchema = v.array(
  v.strictObject({ id: idSchema('id'), ...SensorUpdateSchema.entries }),
)
/** Several sensor updates at once. */
export type SensorBulkUpdate = v.InferOutput<typeof SensorBulkUpdateSchema>

/**
 * The sensor recomputation of a simulation (GET/POST/DELETE …/sensor_outputs/recomputation),
 * polled every 2 s while scheduled or running. id null and state 'unknown': none was started.
 */
export const SensorRecomputationSchema = v.object({
  id: v.nullable(v.number()),
  simulationId: v.number(),
  /** The run whose outputs are sampled (the active run when it started). */
  runId: v.nullable(v.number()),
  state: v.picklist(JOB_STATES),
  /** 0 … 1: outputs done / outputs to do. */
  progress: v.number(),
  sensorIds: v.array(v.number()),
  /** Outputs done so far (ready or failed). */
  outputsDone: v.number(),
  outputsTotal: v.number(),
  /** Outputs whose samples could not be computed ('Computation failed for outputs: {list}'). */
  failedOutputs: v.array(v.number()),
  errors: v.array(JobMessageSchema),
  warnings: v.array(JobMessageSchema),
  createdAt: v.nullable(v.string()),
  updatedAt: v.nullable(v.string()),
})
/** The sensor recomputation record. */
export type SensorRecomputation = v.InferOutput<typeof SensorRecomputationSchema>

const DeletedSchema = v.object({ id: v.number() })

/** Meshes, sensors, volume clips and the sensor recomputation. */
export const SENSOR_ROUTES = {
  createMesh: {
    method: 'POST',
    path: '/simulations/{id}/meshes',
    summary: 'Create a mesh (kind + any fields; defaults fill the rest, nbrOfTriangles computed)',
    auth: true,
    status: 201,
    params: IdParamSchema,
    body: MeshBodySchema,
    response: MeshSchema,
  },
  getMesh: {
    method: 'GET',
    path: '/meshes/{id}',
    summary: 'Read a mesh',
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: MeshSchema,
  },
  updateMesh: {
    method: 'PUT',
    path: '/meshes/{id}',
    summary: 'Change a mesh (a new kind starts from its defaults)',
    auth: true,
    status: 200,
    params: IdParamSchema,
    body: MeshBodySchema,
    response: MeshSchema,
  },
  deleteMesh: {
    method: 'DELETE',
    path: '/meshes/{id}',
    summary: 'Delete a mesh no sensor or volume clip uses',
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: DeletedSchema,
  },
  listSensors: {
    method: 'GET',
    path: '/simulations/{id}/custom_sensors',
    summary:
      'Point and surface sensors, with the outputs of runId (default: active run) they have data for',
    auth: true,
    status: 200,
    params: IdParamSchema,
    query: runIdQuery,
    response: v.array(SensorSchema),
  },
  createSensor: {
    method: 'POST',
    path: '/simulations/{id}/custom_sensors',
    summary: 'Add a point sensor (position) or a surface sensor (meshId)',
    auth: true,
    status: 201,
    params: IdParamSchema,
    query: runIdQuery,
    body: SensorCreateSchema,
    response: SensorSchema,
  },
  updateSensors: {
    method: 'PUT',
    path: '/simulations/{id}/custom_sensors',
    summary: 'Change several sensors at once (all or nothing)',
    auth: true,
    status: 200,
    params: IdParamSchema,
    query: runIdQuery,
    body: SensorBulkUpdateSchema,
    response: v.array(SensorSchema),
  },
  updateSensor: {
    method: 'PUT',
    path: '/custom_sensors/{id}',
    summary: 'Change a sensor (a new position or mesh clears its samples)',
    auth: true,
    status: 200,
    params: IdParamSchema,
    body: SensorUpdateSchema,
    response: SensorSchema,
  },
  deleteSensor: {
    method: 'DELETE',
    path: '/custom_sensors/{id}',
    summary: 'Delete a sensor and its samples',
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: DeletedSchema,
  },
  getSensorSeries: {
    method: 'GET',
    path: '/custom_sensors/{id}/series',
    summary:
      'The samples a run (default: the active run) took of a sensor while stepping, thinned to about maxPoints (default 5000) keeping peaks',
    auth: true,
    status: 200,
    params: IdParamSchema,
    query: SensorSeriesQuerySchema,
    response: SensorSeriesSchema,
  },
  listVolumeClips: {
    method: 'GET',
    path: '/simulations/{id}/volume_clips',
    summary: 'Volume clips with their meshes',
    auth: true,
    status: 200,
    params: IdParamSchema,
    query: runIdQuery,
    response: v.array(VolumeClipSchema),
  },
  createVolumeClip: {
    method: 'POST',
    path: '/simulations/{id}/volume_clips',
    summary: 'Add a volume clip around a cube, cylinder, sphere or plane mesh',
    auth: true,
    status: 201,
    params: IdParamSchema,
    query: runIdQuery,
    body: VolumeClipCreateSchema,
    response: VolumeClipSchema,
  },
  updateVolumeClips: {
    method: 'PUT',
    path: '/simulations/{id}/volume_clips',
    summary: 'Change several volume clips at once (all or nothing)',
    auth: true,
    status: 200,
    params: IdParamSchema,
    query: runIdQuery,
    body: VolumeClipBulkUpdateSchema,
    response: v.array(VolumeClipSchema),
  },
  deleteVolumeClip: {
    method: 'DELETE',
    path: '/volume_clips/{id}',
    summary: 'Delete a volume clip',
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: DeletedSchema,
  },
  getSensorRecomputation: {
    method: 'GET',
    path: '/simulations/{id}/sensor_outputs/recomputation',
    summary: 'The latest sensor recomputation (state unknown: none yet); polled every 2 s',
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: SensorRecomputationSchema,
  },
  startSensorRecomputation: {
    method: 'POST',
    path: '/simulations/{id}/sensor_outputs/recomputation',
    summary: 'Compute every sensor at every output of the active run, from the beginning',
    auth: true,
    status: 201,
    params: IdParamSchema,
    response: SensorRecomputationSchema,
  },
  cancelSensorRecomputation: {
    method: 'DELETE',
    path: '/simulations/{id}/sensor_outputs/recomputation',
    summary: 'Stop the sensor recomputation (no resume: samples written so far stay)',
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: SensorRecomputationSchema,
  },
} as const satisfies Record<string, RouteDef>
