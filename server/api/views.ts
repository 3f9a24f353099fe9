import type { Kysely } from 'kysely'
import * as v from 'valibot'
import {
  FEATURES,
  SUBSCRIPTION_KINDS,
  permissionsForRole,
  type Feature,
  type Organization,
  type User,
  type UserRef,
} from '../../domain/account.ts'
import type { Project, SimulationSummary, SlimProject, Simulation } from '../../domain/projects.ts'
import { StopConditionSchema } from '../../domain/projects.ts'
import {
  SimulationSettingsSchema,
  defaultSettings,
  type SimulationSettings,
} from '../../domain/settings.ts'
import { SIMULATION_STATES, type SimulationState } from '../../domain/simulationState.ts'
import type { SessionUser } from './context.ts'
import { findActiveRunLog } from '../jobs/records.ts'
import {
  fromFlag,
  type Database,
  type OrganizationRow,
  type ProjectRow,
  type SimulationRow,
  type UserRow,
} from '../db/schema.ts'

/*
 * Rows → the domain's response shapes. Reading is lenient (stored JSON is merged over defaults)
 * because rows written by older versions must keep loading.
 */

type Db = Kysely<Database>

export function fullName(user: Pick<UserRow, 'first_name' | 'last_name'>): string {
  return `${user.first_name} ${user.last_name}`.trim()
}

export function toUserRef(
  user: Pick<UserRow, 'id' | 'first_name' | 'last_name' | 'avatar_id'>,
): UserRef {
  return { id: user.id, fullName: fullName(user), avatarId: user.avatar_id }
}

export function toUser(
  user: SessionUser,
  organization: Pick<OrganizationRow, 'id' | 'name'>,
): User {
  return {
    id: user.id,
    firstName: user.first_name,
    lastName: user.last_name,
    fullName: fullName(user),
    email: user.email,
    phoneNumber: user.phone_number,
    department: user.department,
    location: user.location,
    avatarId: user.avatar_id,
    role: user.role,
    active: fromFlag(user.active),
    organization: { id: organization.id, name: organization.name },
    activeAccessGrantId: user.active_access_grant_id,
    permissions: [...permissionsForRole(user.role)],
    createdAt: user.created_at,
  }
}

function parseJson(text: string | null): unknown {
  if (text === null) return null
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

/**
 * GET /organizations' organization. `limits` are the run limits now (server/runLimits/); callers
 * that report only the subscription (the budget) may leave them out.
 */
export function toOrganization(
  row: OrganizationRow,
  limits: { freeInstanceOccupied: boolean; maximumSimulationsExceeded: boolean } = {
    freeInstanceOccupied: false,
    maximumSimulationsExceeded: false,
  },
): Organization {
  const stored = parseJson(row.features)
  const features = (Array.isArray(stored) ? stored : []).filter((f): f is Feature =>
    FEATURES.includes(f as Feature),
  )
  const kind = SUBSCRIPTION_KINDS.find((k) => k === row.subscription_kind)
  return {
    id: row.id,
    name: row.name,
    credits: row.credits,
    features,
    activeSubscription: kind
      ? {
          kind,
          startDate: row.subscription_start_date ?? '',
          endDate: row.subscription_end_date ?? '',
          coreHours: row.subscription_core_hours,
          oneOffCoreHours: row.subscription_one_off_core_hours,
          vmHoursPerMonth: row.subscription_vm_hours_per_month,
          maxCores: row.subscription_max_cores,
          freeInstance: fromFlag(row.subscription_free_instance),
        }
      : null,
    freeInstanceOccupied: limits.freeInstanceOccupied,
    maximumSimulationsExceeded: limits.maximumSimulationsExceeded,
  }
}

/** Stored settings over today's defaults, so a key added later has a value. */
export function readSettings(text: string): SimulationSettings {
  const stored = parseJson(text)
  const merged = {
    ...defaultSettings(),
    ...(typeof stored === 'object' && stored !== null ? stored : {}),
  }
  const result = v.safeParse(SimulationSettingsSchema, merged)
  return result.success ? result.output : defaultSettings()
}

function readState(state: string): SimulationState {
  return SIMULATION_STATES.find((s) => s === state) ?? 'not started'
}

type Creators = Map<number, UserRef>

/** UserRefs of the given user ids (one query). */
export async function loadUserRefs(db: Db, ids: readonly number[]): Promise<Creators> {
  const unique = [...new Set(ids)]
  if (unique.length === 0) return new Map()
  const rows = await db
    .selectFrom('users')
    .select(['id', 'first_name', 'last_name', 'avatar_id'])
    .where('id', 'in', unique)
    .execute()
  return new Map(rows.map((row) => [row.id, toUserRef(row)]))
}

function creatorOf(creators: Creators, id: number): UserRef {
  return creators.get(id) ?? { id, fullName: '', avatarId: 0 }
}

export function toSimulationSummary(row: SimulationRow, creators: Creators): SimulationSummary {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    state: readState(row.state),
    uploadedSetup: fromFlag(row.uploaded_setup),
    activeRunId: row.active_run_id,
    setupLocked: fromFlag(row.setup_locked),
    resumable: fromFlag(row.resumable),
    creditsConsumed: row.credits_consumed,
    size: row.size_bytes,
    creator: creatorOf(creators, row.creator_id),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

/** The full simulation of GET /simulations/{id}. */
export async function loadSimulation(db: Db, row: SimulationRow): Promise<Simulation> {
  const [creators, project, line] = await Promise.all([
    loadUserRefs(db, [row.creator_id]),
    db
      .selectFrom('projects')
      .select(['id', 'name'])
      .where('id', '=', row.project_id)
      .executeTakeFirstOrThrow(),
    findActiveRunLog(db, row.active_run_id),
  ])
  const settings = readSettings(row.settings)
  const stop = v.safeParse(StopConditionSchema, parseJson(row.last_stop_condition))
  return {
    ...toSimulationSummary(row, creators),
    projectId: row.project_id,
    project: { id: project.id, name: project.name },
    lastStopCondition: stop.success ? stop.output : null,
    simulationHoursConsumed: row.simulation_hours_consumed,
    cores: row.cores,
    freeInstance: false,
    gpu: fromFlag(row.gpu),
    solver: row.solver_name === null ? null : { name: row.solver_name },
    startedAt: row.started_at,
    remoteVmRunState: null,
    postImageId: row.post_image_id,
    log:
      line === null
        ? null
        : {
            progress: line.progress,
            time: line.time,
            runtime: line.runtime,
            runtimeLeft: line.runtimeLeft,
            particles: line.particles,
            output: line.output,
          },
    outputTimeInterval: settings.outputTimeInterval,
    settings,
  }
}

/** Projects with their simulations (newest edit first), sizes and creators, in the given order. */
export async function loadProjects(db: Db, projects: readonly ProjectRow[]): Promise<Project[]> {
  if (projects.length === 0) return []
  const simulations = await db
    .selectFrom('simulations')
    .selectAll()
    .where(
      'project_id',
      'in',
      projects.map((p) => p.id),
    )
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .execute()
  const creators = await loadUserRefs(db, [
    ...projects.map((p) => p.creator_id),
    ...simulations.map((s) => s.creator_id),
  ])
  return projects.map((project) => {
    const own = simulations.filter((s) => s.project_id === project.id)
    return {
      id: project.id,
      name: project.name,
      description: project.description,
      simulations: own.map((s) => toSimulationSummary(s, creators)),
      size: own.reduce((sum, s) => sum + s.size_bytes, 0),
      creator: creatorOf(creators, project.creator_id),
      createdAt: project.created_at,
      updatedAt: project.updated_at,
    }
  })
}

/** The picker form of GET /projects?slim=true. */
export async function loadSlimProjects(
  db: Db,
  projects: readonly ProjectRow[],
): Promise<SlimProject[]> {
  if (projects.length === 0) return []
  const simulations = await db
    .selectFrom('simulations')
    .select(['id', 'name', 'state', 'project_id'])
    .where(
      'project_id',
      'in',
      projects.map((p) => p.id),
    )
    .orderBy('updated_at', 'desc')
    .orderBy('id', 'desc')
    .execute()
  const creators = await loadUserRefs(
    db,
    projects.map((p) => p.creator_id),
  )
  return projects.map((project) => ({
    id: project.id,
    name: project.name,
    simulations: simulations
      .filter((s) => s.project_id === project.id)
      .map((s) => ({ id: s.id, name: s.name, state: readState(s.state) })),
    creator: creatorOf(creators, project.creator_id),
  }))
}
