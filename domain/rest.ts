import * as v from 'valibot'
import { idParamSchema } from './ids.ts'
import { OrganizationSchema, ProfileUpdateSchema, UserSchema } from './account.ts'
import {
  LoginRequestSchema,
  LogoutRequestSchema,
  RefreshRequestSchema,
  TokenResponseSchema,
} from './auth.ts'
import {
  IdParamSchema,
  ProjectCreateSchema,
  ProjectListQuerySchema,
  ProjectSchema,
  ProjectUpdateSchema,
  SimulationCreateSchema,
  SimulationMoveSchema,
  SimulationSchema,
  SimulationUpdateSchema,
  SlimProjectSchema,
  pageSchema,
} from './projects.ts'
import { ACCOUNT_ROUTES } from './rest/accountRoutes.ts'
import { ASSEMBLY_ROUTES } from './rest/assemblyRoutes.ts'
import { COMPRESSION_ROUTES } from './rest/compressionRoutes.ts'
import { DASHBOARD_ROUTES } from './rest/dashboardRoutes.ts'
import { EXPORT_ROUTES } from './rest/exportRoutes.ts'
import { RESULTS_ROUTES } from './rest/resultsRoutes.ts'
import { RUN_ROUTES } from './rest/runRoutes.ts'
import { SENSOR_ROUTES } from './rest/sensorRoutes.ts'
import { SETUP_OBJECT_ROUTES } from './rest/setupObjectRoutes.ts'
import { SETUP_ROUTES } from './rest/setupRoutes.ts'
import { VIEWPORT_ROUTES } from './rest/viewportRoutes.ts'
import { VM_ROUTES } from './rest/vmRoutes.ts'
import { ORGANIZATION_STORAGE_ROUTES } from './rest/organizationStorageRoutes.ts'

/** Every API path lives under this prefix. */
export const API_PREFIX = '/api'

export const DeletedSchema = v.object({ id: v.number() })
export const StorageConsumptionSchema = v.object({
  consumed: v.number(),
  available: v.number(),
  lastUpdated: v.string(),
})
export const VersionSchema = v.string()
export const ProjectListSchema = pageSchema(v.union([ProjectSchema, SlimProjectSchema]))
export const TeamUserSchema = v.object({
  id: v.number(),
  fullName: v.string(),
  email: v.string(),
  role: v.string(),
  avatarId: v.number(),
  /** Job title (issue 15's team table). */
  department: v.nullable(v.string()),
})
export const ProjectIdParamSchema = v.object({
  projectId: idParamSchema('projectId'),
})

/** The OpenAPI 3.1 document of this API (GET /openapi.json), generated from ROUTES. */
export const OpenApiDocumentSchema = v.looseObject({
  openapi: v.string(),
  info: v.looseObject({ title: v.string(), version: v.string() }),
  paths: v.record(v.string(), v.unknown()),
})

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE'

/**
 * One REST call: the server registers a handler for it and validates with these schemas; the UI
 * calls it by name and parses the reply with the same `response` schema.
 */
export interface RouteDef {
  method: HttpMethod
  /** Path under API_PREFIX, with `{param}` placeholders. */
  path: string
  summary: string
  /** false for the login and refresh calls; every other call needs a bearer token. */
  auth: boolean
  status: number
  params?: v.GenericSchema
  query?: v.GenericSchema
  body?: v.GenericSchema
  response: v.GenericSchema
}

/** The foundation's calls: auth, account, projects, simulations. */
const FOUNDATION_ROUTES = {
  login: {
    method: 'POST',
    path: '/auth/login',
    summary: 'Log in with e-mail and password',
    auth: false,
    status: 200,
    body: LoginRequestSchema,
    response: TokenResponseSchema,
  },
  refresh: {
    method: 'POST',
    path: '/auth/refresh',
    summary: 'Trade a refresh token for new tokens',
    auth: false,
    status: 200,
    body: RefreshRequestSchema,
    response: TokenResponseSchema,
  },
  logout: {
    method: 'POST',
    path: '/auth/logout',
    summary: 'End this session',
    auth: true,
    status: 200,
    body: LogoutRequestSchema,
    response: v.object({ ok: v.boolean() }),
  },
  currentUser: {
    method: 'GET',
    path: '/users',
    summary: 'The logged-in user',
    auth: true,
    status: 200,
    response: UserSchema,
  },
  updateProfile: {
    method: 'PUT',
    path: '/users',
    summary: 'Edit the own profile',
    auth: true,
    status: 200,
    body: ProfileUpdateSchema,
    response: UserSchema,
  },
  teamUsers: {
    method: 'GET',
    path: '/mgmt/users',
    summary: 'Users of the organization (USERS_VIEW or PROJECTS_VIEW_ALL)',
    auth: true,
    status: 200,
    response: v.array(TeamUserSchema),
  },
  organizations: {
    method: 'GET',
    path: '/organizations',
    summary: 'Organizations the user can act in',
    auth: true,
    status: 200,
    response: v.array(OrganizationSchema),
  },
  storageConsumption: {
    method: 'GET',
    path: '/storage_consumption/organization',
    summary: 'Storage used by the organization',
    auth: true,
    status: 200,
    response: StorageConsumptionSchema,
  },
  openapi: {
    method: 'GET',
    path: '/openapi.json',
    summary: 'This API as an OpenAPI 3.1 document',
    auth: false,
    status: 200,
    response: OpenApiDocumentSchema,
  },
  version: {
    method: 'GET',
    path: '/version',
    summary: 'Release version (text)',
    auth: false,
    status: 200,
    response: VersionSchema,
  },
  listProjects: {
    method: 'GET',
    path: '/projects',
    summary: 'List projects',
    auth: true,
    status: 200,
    query: ProjectListQuerySchema,
    response: ProjectListSchema,
  },
  createProject: {
    method: 'POST',
    path: '/projects',
    summary: 'Create a project',
    auth: true,
    status: 201,
    body: ProjectCreateSchema,
    response: ProjectSchema,
  },
  getProject: {
    method: 'GET',
    path: '/projects/{id}',
    summary: 'Read a project',
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: ProjectSchema,
  },
  updateProject: {
    method: 'PUT',
    path: '/projects/{id}',
    summary: 'Edit a project',
    auth: true,
    status: 200,
    params: IdParamSchema,
    body: ProjectUpdateSchema,
    response: ProjectSchema,
  },
  deleteProject: {
    method: 'DELETE',
    path: '/projects/{id}',
    summary: 'Delete a project and its simulations',
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: DeletedSchema,
  },
  createSimulation: {
    method: 'POST',
    path: '/projects/{projectId}/simulations',
    summary: 'Create a simulation in a project',
    auth: true,
    status: 201,
    params: ProjectIdParamSchema,
    body: SimulationCreateSchema,
    response: SimulationSchema,
  },
  getSimulation: {
    method: 'GET',
    path: '/simulations/{id}',
    summary: 'Read a simulation',
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: SimulationSchema,
  },
  updateSimulation: {
    method: 'PUT',
    path: '/simulations/{id}',
    summary: 'Edit name, description, settings',
    auth: true,
    status: 200,
    params: IdParamSchema,
    body: SimulationUpdateSchema,
    response: SimulationSchema,
  },
  cloneSimulation: {
    method: 'POST',
    path: '/simulations/{id}',
    summary: 'Clone a simulation (setup only)',
    auth: true,
    status: 201,
    params: IdParamSchema,
    response: SimulationSchema,
  },
  deleteSimulation: {
    method: 'DELETE',
    path: '/simulations/{id}',
    summary: 'Delete a simulation',
    auth: true,
    status: 200,
    params: IdParamSchema,
    response: DeletedSchema,
  },
  moveSimulation: {
    method: 'PUT',
    path: '/simulations/{id}/move',
    summary: 'Move a simulation to another project',
    auth: true,
    status: 200,
    params: IdParamSchema,
    body: SimulationMoveSchema,
    response: SimulationSchema,
  },
} as const satisfies Record<string, RouteDef>

/**
 * Every REST call. Areas keep their calls in their own module under domain/rest/ so they grow
 * independently; names must be unique across areas.
 */
export const ROUTES = {
  ...FOUNDATION_ROUTES,
  ...SETUP_ROUTES,
  ...SETUP_OBJECT_ROUTES,
  ...RUN_ROUTES,
  ...RESULTS_ROUTES,
  ...SENSOR_ROUTES,
  ...EXPORT_ROUTES,
  ...COMPRESSION_ROUTES,
  ...VIEWPORT_ROUTES,
  ...ASSEMBLY_ROUTES,
  ...DASHBOARD_ROUTES,
  ...ACCOUNT_ROUTES,
  ...VM_ROUTES,
  ...ORGANIZATION_STORAGE_ROUTES,
} as const satisfies Record<string, RouteDef>

export type RouteName = keyof typeof ROUTES
type Def<N extends RouteName> = (typeof ROUTES)[N]
type Out<S> = S extends v.GenericSchema ? v.InferOutput<S> : never
type In<S> = S extends v.GenericSchema ? v.InferInput<S> : never

/** What a caller sends for route N (inputs, before the schema's transforms). */
export type RouteInput<N extends RouteName> = (Def<N> extends { params: infer P }
  ? { params: In<P> }
  : unknown) &
  (Def<N> extends { query: infer Q } ? { query?: Partial<In<Q>> } : unknown) &
  (Def<N> extends { body: infer B } ? { body: In<B> } : unknown)
/** What the server hands its handler for route N (after validation). */
export type RouteRequest<N extends RouteName> = (Def<N> extends { params: infer P }
  ? { params: Out<P> }
  : unknown) &
  (Def<N> extends { query: infer Q } ? { query: Out<Q> } : unknown) &
  (Def<N> extends { body: infer B } ? { body: Out<B> } : unknown)
export type RouteResponse<N extends RouteName> = Out<Def<N>['response']>

/** Fills `{param}` placeholders. */
export function routePath(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/\{(\w+)\}/g, (_, key: string) =>
    encodeURIComponent(String(params[key] ?? '')),
  )
}
