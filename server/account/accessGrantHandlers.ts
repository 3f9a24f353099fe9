import type { Selectable } from 'kysely'
import { hasPermission, type Permission } from '../../domain/account.ts'
import {
  ACCESS_GRANT_REASONS,
  accessGrantExpiryMs,
  accessGrantState,
  type AccessGrant,
  type AccessGrantState,
} from '../../domain/accountAccess.ts'
import { ApiError } from '../api/apiError.ts'
import type { RouteRequest } from '../../domain/rest.ts'
import type { AuthedContext, RouteHandler } from '../api/context.ts'
import { fullName } from '../api/views.ts'
import type { AccessGrantsTable } from './tables.ts'

type GrantQuery = RouteRequest<'organizationAccessGrants'>['query']

function requirePermission({ user }: AuthedContext, permission: Permission, message: string) {
  if (!hasPermission(user.role, permission)) throw new ApiError('forbidden', message)
}

/** Grants as the API shows them: requester and organization named, state as of now. */
async function toAccessGrants(
  context: AuthedContext,
  rows: readonly Selectable<AccessGrantsTable>[],
): Promise<AccessGrant[]> {
  if (rows.length === 0) return []
  const users = await context.db
    .selectFrom('users')
    .select(['id', 'first_name', 'last_name', 'avatar_id'])
    .where(
      'id',
      'in',
      rows.map((row) => row.requester_id),
    )
    .execute()
  const organizations = await context.db
    .selectFrom('organizations')
    .select(['id', 'name'])
    .where(
      'id',
      'in',
      rows.map((row) => row.organization_id),
    )
    .execute()
  const nowMs = context.clock.nowMs()
  return rows.map((row) => {
    const requester = users.find((user) => user.id === row.requester_id)
    const organization = organizations.find((o) => o.id === row.organization_id)
    const stored: AccessGrantState = row.state === 'revoked' ? 'revoked' : 'active'
    return {
      id: row.id,
      requesterId: row.requester_id,
      requester: {
        fullName: requester ? fullName(requester) : '',
        avatarId: requester?.avatar_id ?? 0,
      },
      organization: { id: row.organization_id, name: organization?.name ?? '' },
      state: accessGrantState({ state: stored, expiry: row.expiry }, nowMs),
      expiry: row.expiry,
      reason: ACCESS_GRANT_REASONS.find((reason) => reason === row.reason) ?? 'other',
      createdAt: row.created_at,
    }
  })
}

/** One page of grants (newest first) filtered by state; expired ones only with includeExpired. */
async function grantPage(
  context: AuthedContext,
  query: GrantQuery,
  scope: { organizationId?: number; requesterId?: number },
) {
  let select = context.db.selectFrom('access_grants').selectAll()
  if (scope.organizationId !== undefined)
    select = select.where('organization_id', '=', scope.organizationId)
  if (scope.requesterId !== undefined) select = select.where('requester_id', '=', scope.requesterId)
  const rows = await select.orderBy('created_at', 'desc').orderBy('id', 'desc').execute()
  const grants = (await toAccessGrants(context, rows)).filter(
    (grant) =>
      (query.state === undefined || grant.state === query.state) &&
      (query.includeExpired || query.state === 'expired' || grant.state !== 'expired'),
  )
  const start = (query.pageNumber - 1) * query.pageLimit
  return {
    results: grants.slice(start, start + query.pageLimit),
    resultCount: grants.length,
    pageCount: Math.ceil(grants.length / query.pageLimit),
  }
}

/** GET /mgmt/access_grants: the grants to the caller's own organization (USERS_VIEW). */
export const listOrganizationAccessGrants: RouteHandler<'organizationAccessGrants'> = async (
  { query },
  context,
) => {
  requirePermission(context, 'USERS_VIEW', 'You are not allowed to see the support access')
  if (query.organizationId !== undefined && query.organizationId !== context.user.organization_id)
    throw new ApiError('resource_not_found', 'Organization not found')
  return grantPage(context, query, {
    organizationId: context.user.organization_id,
    ...(query.onlySelf && { requesterId: context.user.id }),
  })
}

/** DELETE /mgmt/access_grants/{id}: revokes a grant to the caller's organization (USERS_EDIT). */
export const revokeAccessGrant: RouteHandler<'revokeAccessGrant'> = async ({ params }, context) => {
  const row = await context.db
    .selectFrom('access_grants')
    .selectAll()
    .where('id', '=', params.id)
    .where('organization_id', '=', context.user.organization_id)
    .executeTakeFirst()
  if (!row) throw new ApiError('resource_not_found', 'Access grant not found')
  requirePermission(context, 'USERS_EDIT', 'You are not allowed to revoke support access')
  const revoked = await context.db
    .updateTable('access_grants')
    .set({ state: 'revoked', revoked_by: context.user.id })
    .where('id', '=', row.id)
    .returningAll()
    .executeTakeFirstOrThrow()
  const [grant] = await toAccessGrants(context, [revoked])
  if (!grant) throw new ApiError('unknown_error', 'The access grant could not be read back')
  return grant
}

/** GET /admin/access_grants: every grant, filtered by organization or to the own (ACCESS_GRANT_SELECTION). */
export const listAdminAccessGrants: RouteHandler<'adminAccessGrants'> = async (
  { query },
  context,
) => {
  requirePermission(context, 'ACCESS_GRANT_SELECTION', 'Only provider members see access grants')
  return grantPage(context, query, {
    ...(query.organizationId !== undefined && { organizationId: query.organizationId }),
    ...(query.onlySelf && { requesterId: context.user.id }),
  })
}

/** POST /admin/access_grants: 24 h of access to an organization for the caller (ACCESS_GRANT_SELECTION). */
export const requestAccessGrant: RouteHandler<'requestAccessGrant'> = async ({ body }, context) => {
  requirePermission(context, 'ACCESS_GRANT_SELECTION', 'Only provider members can request access')
  const organization = await context.db
    .selectFrom('organizations')
    .select('id')
    .where('id', '=', body.organizationId)
    .executeTakeFirst()
  if (!organization) throw new ApiError('resource_not_found', 'Organization not found')
  const nowMs = context.clock.nowMs()
  const row = await context.db
    .insertInto('access_grants')
    .values({
      requester_id: context.user.id,
      organization_id: organization.id,
      state: 'active',
      reason: body.reason,
      expiry: new Date(accessGrantExpiryMs(nowMs)).toISOString(),
      revoked_by: null,
      created_at: new Date(nowMs).toISOString(),
    })
    .returningAll()
    .executeTakeFirstOrThrow()
  const [grant] = await toAccessGrants(context, [row])
  if (!grant) throw new ApiError('unknown_error', 'The access grant could not be read back')
  return grant
}
