import * as v from 'valibot'
import { idParamSchema, idSchema } from './ids.ts'
import { UserRefSchema } from './account.ts'
import {
  PROJECT_DESCRIPTION_MAX,
  PROJECT_NAME_MAX,
  PROJECT_ORDER_BY,
  SIMULATION_DESCRIPTION_MAX,
  SIMULATION_NAME_MAX,
  SLIM_PAGE_LIMIT,
} from './limits.ts'
import { SimulationSettingsPatchSchema, SimulationSettingsSchema } from './settings.ts'
import { SIMULATION_STATES } from './simulationState.ts'

export const NAME_USED_MESSAGE = 'Name is already used'
export const SIMULATION_NAME_EMPTY_MESSAGE = 'Simulation name cannot be empty.'
export const NAMES_MUST_MATCH_MESSAGE = 'The names must match'
export const SELECT_PROJECT_MESSAGE = 'Please select a project.'

const projectName = v.pipe(
  v.string('Project name is required'),
  v.trim(),
  v.minLength(1, 'Project name is required'),
  v.maxLength(PROJECT_NAME_MAX, `Project name must be at most ${PROJECT_NAME_MAX} characters`),
)
const projectDescription = v.pipe(
  v.string(),
  v.maxLength(
    PROJECT_DESCRIPTION_MAX,
    `Description must be at most ${PROJECT_DESCRIPTION_MAX} characters`,
  ),
)
const simulationName = v.pipe(
  v.string(SIMULATION_NAME_EMPTY_MESSAGE),
  v.trim(),
  v.minLength(1, SIMULATION_NAME_EMPTY_MESSAGE),
  v.maxLength(
    SIMULATION_NAME_MAX,
    `Simulation name must be at most ${SIMULATION_NAME_MAX} characters`,
  ),
)
const simulationDescription = v.pipe(
  v.string(),
  v.maxLength(
    SIMULATION_DESCRIPTION_MAX,
    `Description must be at most ${SIMULATION_DESCRIPTION_MAX} characters`,
  ),
)

/** Name rules shared by forms and server, exported so a form can check one field alone. */
export const ProjectNameSchema = projectName
export const ProjectDescriptionSchema = projectDescription
export const SimulationNameSchema = simulationName
export const SimulationDescriptionSchema = simulationDescription

export const ProjectCreateSchema = v.strictObject({
  name: projectName,
  description: v.optional(projectDescription, ''),
})
export type ProjectCreate = v.InferOutput<typeof ProjectCreateSchema>

export const ProjectUpdateSchema = v.strictObject({
  name: v.optional(projectName),
  description: v.optional(projectDescription),
})
export type ProjectUpdate = v.InferOutput<typeof ProjectUpdateSchema>

/** A simulation as listed inside a project (the simulation list's columns). */
export const SimulationSummarySchema = v.object({
  id: v.number(),
  name: v.string(),
  description: v.string(),
  state: v.picklist(SIMULATION_STATES),
  uploadedSetup: v.boolean(),
  activeRunId: v.nullable(v.number()),
  setupLocked: v.boolean(),
  resumable: v.boolean(),
  creditsConsumed: v.number(),
  size: v.number(),
  creator: UserRefSchema,
  createdAt: v.string(),
  updatedAt: v.string(),
})
export type SimulationSummary = v.InferOutput<typeof SimulationSummarySchema>

export const ProjectSchema = v.object({
  id: v.number(),
  name: v.string(),
  description: v.string(),
  simulations: v.array(SimulationSummarySchema),
  /** Bytes stored for all its simulations. */
  size: v.number(),
  creator: UserRefSchema,
  createdAt: v.string(),
  updatedAt: v.string(),
})
export type Project = v.InferOutput<typeof ProjectSchema>

/** GET /projects?slim=true: just enough for a project picker. */
export const SlimProjectSchema = v.object({
  id: v.number(),
  name: v.string(),
  simulations: v.array(
    v.object({ id: v.number(), name: v.string(), state: v.picklist(SIMULATION_STATES) }),
  ),
  creator: UserRefSchema,
})
export type SlimProject = v.InferOutput<typeof SlimProjectSchema>

const intFromQuery = (min: number, max: number) =>
  v.pipe(
    v.union([v.string(), v.number()]),
    v.transform(Number),
    v.number(),
    v.integer(),
    v.minValue(min),
    v.maxValue(max),
  )
const idList = v.pipe(
  v.union([v.string(), v.array(v.string()), v.number(), v.array(v.number())]),
  v.transform((value) =>
    (Array.isArray(value) ? value : [value])
      .flatMap((item) => String(item).split(','))
      .filter((s) => s !== ''),
  ),
  v.array(idParamSchema('ids')),
)
const boolFromQuery = v.pipe(
  v.union([v.boolean(), v.picklist(['true', 'false', '1', '0'])]),
  v.transform((value) => value === true || value === 'true' || value === '1'),
)

/** GET /projects query (list params may repeat or be comma separated). */
export const ProjectListQuerySchema = v.strictObject({
  q: v.optional(v.pipe(v.string(), v.maxLength(200))),
  pageLimit: v.optional(intFromQuery(1, SLIM_PAGE_LIMIT)),
  pageNumber: v.optional(intFromQuery(1, 1_000_000), 1),
  projectIds: v.optional(idList),
  createdBy: v.optional(idList),
  orderBy: v.optional(v.picklist(PROJECT_ORDER_BY), 'updatedAt'),
  asc: v.optional(boolFromQuery),
  slim: v.optional(boolFromQuery, false),
})
export type ProjectListQuery = v.InferOutput<typeof ProjectListQuerySchema>

/** Paged lists share this envelope (GET /projects, GET /credits/sequences …). */
export function pageSchema<T extends v.GenericSchema>(item: T) {
  return v.object({ results: v.array(item), resultCount: v.number(), pageCount: v.number() })
}
export interface Page<T> {
  results: T[]
  resultCount: number
  pageCount: number
}

export const LogSchema = v.object({
  progress: v.number(),
  time: v.number(),
  runtime: v.number(),
  runtimeLeft: v.nullable(v.number()),
  particles: v.number(),
  output: v.number(),
})

export const StopConditionSchema = v.object({ valueType: v.string(), threshold: v.number() })

/** The full simulation (GET /simulations/{id}). */
export const SimulationSchema = v.object({
  ...SimulationSummarySchema.entries,
  projectId: v.number(),
  project: v.object({ id: v.number(), name: v.string() }),
  lastStopCondition: v.nullable(StopConditionSchema),
  simulationHoursConsumed: v.number(),
  cores: v.nullable(v.number()),
  freeInstance: v.boolean(),
  gpu: v.boolean(),
  solver: v.nullable(v.object({ name: v.string() })),
  startedAt: v.nullable(v.string()),
  remoteVmRunState: v.nullable(v.string()),
  postImageId: v.nullable(v.number()),
  log: v.nullable(LogSchema),
  outputTimeInterval: v.nullable(v.number()),
  settings: SimulationSettingsSchema,
})
export type Simulation = v.InferOutput<typeof SimulationSchema>

export const SimulationCreateSchema = v.strictObject({
  name: simulationName,
  description: v.optional(simulationDescription, ''),
  settings: v.optional(SimulationSettingsPatchSchema),
})
export type SimulationCreate = v.InferOutput<typeof SimulationCreateSchema>

export const SimulationUpdateSchema = v.strictObject({
  name: v.optional(simulationName),
  description: v.optional(simulationDescription),
  settings: v.optional(SimulationSettingsPatchSchema),
  postImageId: v.optional(v.nullable(idSchema('postImageId'))),
})
export type SimulationUpdate = v.InferOutput<typeof SimulationUpdateSchema>

export const SimulationMoveSchema = v.strictObject({
  projectId: idSchema('projectId', SELECT_PROJECT_MESSAGE),
})
export type SimulationMove = v.InferOutput<typeof SimulationMoveSchema>

export const IdParamSchema = v.object({
  id: idParamSchema('id'),
})
