import { hasPermission } from '../../../domain/account.ts'
import { ApiError } from '../apiError.ts'
import type { AuthedContext, RouteHandlers } from '../context.ts'
import { fullName, toOrganization, toUser } from '../views.ts'
import { organizationConsumedBytes } from '../../storage/usage.ts'
import { loadRunLimits } from '../../runLimits/runLimits.ts'
import { actingUser, findUsableAccessGrant } from '../../auth/sessions.ts'

async function loadOwnOrganization({ db, user }: AuthedContext) {
  return db
    .selectFrom('organizations')
    .selectAll()
    .where('id', '=', user.organization_id)
    .executeTakeFirstOrThrow()
}

export const currentUser: RouteHandlers['currentUser'] = async (_request, context) =>
  toUser(context.user, await loadOwnOrganization(context))

/** Blank optional profile fields are stored as null. */
function blankToNull(value: string | null | undefined): string | null | undefined {
  if (value === undefined) return undefined
  const trimmed = value?.trim() ?? ''
  return trimmed === '' ? null : trimmed
}

/** The grant a PUT /users may switch to: the caller's own, active one (null: none). */
async function checkedAccessGrantId(
  context: AuthedContext,
  grantId: number | null | undefined,
): Promise<number | null | undefined> {
  if (grantId === undefined || grantId === null) return grantId
  if (!hasPermission(context.user.role, 'ACCESS_GRANT_SELECTION'))
    throw new ApiError('forbidden', 'You are not allowed to act in another organization')
  const grant = await findUsableAccessGrant(context.db, context.clock, context.user.id, grantId)
  if (!grant) throw new ApiError('resource_not_found', 'Access grant not found')
  return grant.id
}

export const updateProfile: RouteHandlers['updateProfile'] = async ({ body }, context) => {
  const { db, user } = context
  const changes = {
    active_access_grant_id: await checkedAccessGrantId(context, body.activeAccessGrantId),
    first_name: body.firstName,
    last_name: body.lastName,
    phone_number: blankToNull(body.phoneNumber),
    department: blankToNull(body.department),
    location: blankToNull(body.location),
    avatar_id: body.avatarId,
  }
  const defined = Object.fromEntries(
    Object.entries(changes).filter(([, value]) => value !== undefined),
  )
  const updated =
    Object.keys(defined).length === 0
      ? user
      : {
          ...user,
          ...(await db
            .updateTable('users')
            .set(defined)
            .where('id', '=', user.id)
            .returningAll()
            .executeTakeFirstOrThrow()),
          role: user.role,
        }
  const acting = await actingUser(db, context.clock, updated)
  return toUser(acting, await loadOwnOrganization({ ...context, user: acting }))
}

export const teamUsers: RouteHandlers['teamUsers'] = async (_request, { db, user }) => {
  if (!hasPermission(user.role, 'USERS_VIEW') && !hasPermission(user.role, 'PROJECTS_VIEW_ALL'))
    throw new ApiError('forbidden', 'You are not allowed to list the users of the organization')
  const rows = await db
    .selectFrom('users')
    .select(['id', 'first_name', 'last_name', 'email', 'role', 'avatar_id', 'department'])
    .where('organization_id', '=', user.organization_id)
    .where('active', '=', 1)
    .orderBy('first_name')
    .orderBy('last_name')
    .orderBy('id')
    .execute()
  return rows.map((row) => ({
    id: row.id,
    fullName: fullName(row),
    email: row.email,
    role: row.role,
    avatarId: row.avatar_id,
    department: row.department,
  }))
}

export const organizations: RouteHandlers['organizations'] = async (_request, context) => {
  const row = await loadOwnOrganization(context)
  return [toOrganization(row, await loadRunLimits(context.db, row))]
}

export const storageConsumption: RouteHandlers['storageConsumption'] = async (
  _request,
  context,
) => {
  const { db, user, clock } = context
  const [organization, consumed] = await Promise.all([
    loadOwnOrganization(context),
    organizationConsumedBytes(db, user.organization_id),
  ])
  return {
    consumed,
    available: Number(organization.storage_available_bytes),
    // Computed on request, so it is current as of now.
    lastUpdated: clock.nowIso(),
  }
}

export const version: RouteHandlers['version'] = (_request, context) =>
  Promise.resolve(context.version)
