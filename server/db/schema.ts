import type { AnalyticsEventsTable, AnalyticsPreferencesTable } from '../analytics/tables.ts'
import type { Generated, Insertable, Selectable, Updateable } from 'kysely'
import type { AssembliesTable, AssemblyPartsTable } from '../assemblies/tables.ts'
import type {
  DashboardGraphsTable,
  DashboardTemplatesTable,
  DashboardTilesTable,
  DashboardVariablesTable,
  DashboardViewsTable,
} from '../dashboards/tables.ts'
import type {
  AccessGrantsTable,
  AccountTokensTable,
  MfaAuthenticatorsTable,
} from '../account/tables.ts'
import type { LoginFailuresTable } from '../auth/tables.ts'
import type { JobLeasesTable, TaskLeasesTable } from '../jobs/queue/tables.ts'
import type { OrganizationStorageTable, RemoteVmsTable } from '../vms/tables.ts'
import type {
  AirDragDomainsTable,
  PeriodicsTable,
  RefinementsTable,
} from '../setup/objectTables.ts'
import type {
  MeshesTable,
  SensorsTable,
  VolumeClipsTable,
  SensorOutputStatesTable,
  UserExportsTable,
  UserExportFilesTable,
} from './resultsTables.ts'

/*
 * One schema for SQLite and PostgreSQL: timestamps are ISO-8601 text (they sort as text), JSON is
 * text, booleans are integers 0/1, so every query reads and writes the same values on both.
 */

/** 0 or 1: booleans are stored as integers on both dialects. Generated<…>: the column has a default. */
export type Flag = number

export interface OrganizationsTable {
  id: Generated<number>
  name: string
  credits: Generated<number>
  /** JSON array of Feature. */
  features: Generated<string>
  /** null: no active subscription. */
  subscription_kind: string | null
  subscription_start_date: string | null
  subscription_end_date: string | null
  subscription_core_hours: Generated<number>
  subscription_one_off_core_hours: Generated<number>
  subscription_vm_hours_per_month: Generated<number>
  subscription_max_cores: Generated<number>
  subscription_free_instance: Generated<Flag>
  /** Simulations the subscription lets run at once (0017); null: no limit. */
  subscription_max_simulations: number | null
  storage_available_bytes: Generated<number>
  created_at: string
  /** The identity provider connection its users sign in through (0019); null: passwords. */
  sso_connection: string | null
}

export interface UsersTable {
  id: Generated<number>
  organization_id: number
  /** Always lower case. */
  email: string
  password_hash: string
  first_name: string
  last_name: string
  phone_number: string | null
  department: string | null
  location: string | null
  avatar_id: Generated<number>
  role: string
  active: Generated<Flag>
  created_at: string
  /** The access grant the user acts through (0015); null: the own organization. */
  active_access_grant_id: number | null
}

/** A login: only SHA-256 digests of the tokens are stored. */
export interface SessionsTable {
  id: Generated<number>
  user_id: number
  access_token_hash: string
  refresh_token_hash: string
  access_expires_at: string
  refresh_expires_at: string
  created_at: string
  revoked_at: string | null
  /** The first session of the login a refresh chain started from; null on that first one. */
  family_id: number | null
}

export interface ProjectsTable {
  id: Generated<number>
  organization_id: number
  creator_id: number
  name: string
  description: Generated<string>
  created_at: string
  updated_at: string
}

export interface SimulationsTable {
  id: Generated<number>
  project_id: number
  organization_id: number
  creator_id: number
  name: string
  description: Generated<string>
  state: Generated<string>
  uploaded_setup: Generated<Flag>
  setup_locked: Generated<Flag>
  resumable: Generated<Flag>
  active_run_id: number | null
  credits_consumed: Generated<number>
  simulation_hours_consumed: Generated<number>
  cores: number | null
  gpu: Generated<Flag>
  solver_name: string | null
  started_at: string | null
  size_bytes: Generated<number>
  /** JSON SimulationSettings. */
  settings: string
  post_image_id: number | null
  /** JSON StopCondition or null. */
  last_stop_condition: string | null
  created_at: string
  updated_at: string
}

export interface CreditTransactionsTable {
  id: Generated<number>
  organization_id: number
  kind: string
  credits: Generated<number>
  simulation_hours: Generated<number>
  simulation_id: number | null
  simulation_name: string | null
  note: string | null
  issuer_id: number | null
  updated_at: string
}

/** A stored upload (STL canonicalised to a mesh file, CSV as sent), owned by an organization. */
export interface UploadsTable {
  id: Generated<number>
  organization_id: number
  uploader_id: number | null
  /** 'stl' or 'csv'. */
  kind: string
  file_name: string
  /** STL length unit the file was read in ('m', 'mm', 'in'); null for CSV. */
  unit: string | null
  size_bytes: Generated<number>
  /** Relative to the data directory. */
  stored_path: string
  /** JSON facts (triangles, bounding box, watertight; CSV headers and rows). */
  info: Generated<string>
  created_at: string
}

/** A column-map table (open-boundary profiles, initial distributions, viscosity curves). */
export interface DatatablesTable {
  id: Generated<number>
  organization_id: number
  simulation_id: number | null
  kind: string
  /** JSON string[]. */
  headers: Generated<string>
  /** JSON Record<header, (number | null)[]>. */
  columns: Generated<string>
  created_at: string
  updated_at: string
}

/** One material of a simulation; material_id is the id within the simulation (0 = 'Fluid 1'). */
export interface MaterialsTable {
  id: Generated<number>
  simulation_id: number
  material_id: number
  /** JSON MaterialProperties. */
  properties: string
  created_at: string
}

export interface PartsTable {
  id: Generated<number>
  simulation_id: number
  organization_id: number
  created_by: number | null
  name: string
  kind: string
  material_id: number | null
  /** JSON LooseVec3 or null. */
  seed_point: string | null
  /** JSON Component, Shape, Appearance, PartWarning[]. */
  component: string
  shape: string
  appearance: string
  warnings: Generated<string>
  created_at: string
  updated_at: string
}

export interface MovementsTable {
  id: Generated<number>
  simulation_id: number
  part_id: number
  type: string
  name: string
  /** JSON: start, end, acc, vel, virtualMovement, direction or axis and center. */
  motion: string
  created_at: string
  updated_at: string
}

/** follower_id follows leader_id (the follower's `parents` include the leader). */
export interface MovementLinksTable {
  leader_id: number
  follower_id: number
}

/** One run of a simulation: a start (or resume) until it completes, stops or fails. */
export interface RunsTable {
  id: Generated<number>
  simulation_id: number
  /** A SimulationState. */
  state: string
  cores: number
  solver_id: number
  resumed_from_output: number | null
  last_output: number | null
  /** JSON RunLogLine of the latest log line. */
  last_log: string | null
  credits_consumed: Generated<number>
  /** Core-hours. */
  simulation_hours: Generated<number>
  credit_transaction_id: number | null
  message: string | null
  started_at: string | null
  ended_at: string | null
  created_at: string
  updated_at: string
}

/** A durable job (discretization, simulation …) with the spec's job states. */
export interface JobsTable {
  id: Generated<number>
  simulation_id: number
  /** A JobKind. */
  kind: string
  /** A JobState. */
  state: string
  progress: Generated<number>
  run_id: number | null
  /** JSON input of the job (cores, resume …). */
  payload: Generated<string>
  /** JSON summary of the result. */
  result: string | null
  /** JSON JobMessage[]. */
  errors: Generated<string>
  warnings: Generated<string>
  attempts: Generated<number>
  started_at: string | null
  ended_at: string | null
  created_at: string
  updated_at: string
}

/** A stop or warning condition; run_id -1 holds the conditions of the next run. */
export interface ConditionsTable {
  id: Generated<number>
  simulation_id: number
  run_id: number
  action: string
  value_type: string
  operator: string
  threshold: number
  triggered: Generated<Flag>
  created_at: string
  updated_at: string
}

/** A saved viewport state of a simulation, per mode (pre: setup, post: results). */
export interface ViewportStatesTable {
  id: Generated<number>
  simulation_id: number
  /** 'pre' or 'post'. */
  mode: string
  /** JSON ViewportState. */
  state: string
  created_at: string
  updated_at: string
}

export type {
  MeshesTable,
  SensorsTable,
  VolumeClipsTable,
  SensorOutputStatesTable,
  UserExportsTable,
  UserExportFilesTable,
} from './resultsTables.ts'

/** The tables Kysely knows; later migrations add theirs here. */
export interface Database {
  organizations: OrganizationsTable
  users: UsersTable
  sessions: SessionsTable
  projects: ProjectsTable
  simulations: SimulationsTable
  credit_transactions: CreditTransactionsTable
  runs: RunsTable
  jobs: JobsTable
  conditions: ConditionsTable
  uploads: UploadsTable
  datatables: DatatablesTable
  materials: MaterialsTable
  parts: PartsTable
  movements: MovementsTable
  movement_links: MovementLinksTable
  meshes: MeshesTable
  sensors: SensorsTable
  volume_clips: VolumeClipsTable
  sensor_output_states: SensorOutputStatesTable
  viewport_states: ViewportStatesTable
  user_exports: UserExportsTable
  user_export_files: UserExportFilesTable
  assemblies: AssembliesTable
  assembly_parts: AssemblyPartsTable
  dashboard_views: DashboardViewsTable
  dashboard_tiles: DashboardTilesTable
  dashboard_templates: DashboardTemplatesTable
  dashboard_variables: DashboardVariablesTable
  dashboard_graphs: DashboardGraphsTable
  login_failures: LoginFailuresTable
  account_tokens: AccountTokensTable
  mfa_authenticators: MfaAuthenticatorsTable
  access_grants: AccessGrantsTable
  analytics_events: AnalyticsEventsTable
  analytics_preferences: AnalyticsPreferencesTable
  refinements: RefinementsTable
  air_drag_domains: AirDragDomainsTable
  periodics: PeriodicsTable
  job_leases: JobLeasesTable
  task_leases: TaskLeasesTable
  remote_vms: RemoteVmsTable
  organization_storage: OrganizationStorageTable
}

export type OrganizationRow = Selectable<OrganizationsTable>
export type UserRow = Selectable<UsersTable>
export type SessionRow = Selectable<SessionsTable>
export type ProjectRow = Selectable<ProjectsTable>
export type SimulationRow = Selectable<SimulationsTable>
export type NewSimulation = Insertable<SimulationsTable>
export type SimulationUpdateRow = Updateable<SimulationsTable>
export type UploadRow = Selectable<UploadsTable>
export type DatatableRow = Selectable<DatatablesTable>
export type MaterialRow = Selectable<MaterialsTable>
export type PartRow = Selectable<PartsTable>
export type MovementRow = Selectable<MovementsTable>

/** Booleans in and out of the 0/1 columns. */
export function toFlag(value: boolean): Flag {
  return value ? 1 : 0
}
export function fromFlag(value: Flag): boolean {
  return value !== 0
}
